import { LeadfinderError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { SigningSecret, WebhookDeliveryDoc, WebhookEndpointDoc, WebhookRunDoc, WebhookStore } from '../../ports/webhooks.js';
import { openJournal } from './journal.js';

export interface EmbeddedWebhookStoreOptions {
  /** Folder of `webhooks.jsonl` (the store's folder); created when missing. */
  dataDir: string;
  logger: Logger;
  /**
   * Rewrite the journal as its live documents on start-up once it holds more than this many lines and at
   * least twice as many lines as documents (every attempt rewrites its delivery's line).
   * @default 10000
   */
  compactAfterLines?: number;
}

type Collection = 'endpoints' | 'secrets' | 'runs' | 'deliveries';
/** One journal line: the whole new document, or null when it was deleted. */
interface Line {
  c: Collection;
  id: string;
  doc: unknown;
}

const clone = <T>(value: T): T => structuredClone(value);

/**
 * Embedded webhook records in the data dir. Every check-and-write (a unique insert, an account check)
 * happens synchronously before the first await, as in the embedded store.
 */
export async function createEmbeddedWebhookStore(options: EmbeddedWebhookStoreOptions): Promise<WebhookStore> {
  const journal = await openJournal<Line>({ dataDir: options.dataDir, fileName: 'webhooks.jsonl', logger: options.logger });
  const endpoints = new Map<string, WebhookEndpointDoc>();
  const secrets = new Map<string, SigningSecret>();
  const runs = new Map<string, WebhookRunDoc>();
  const deliveries = new Map<string, WebhookDeliveryDoc>();
  const maps: Record<Collection, Map<string, unknown>> = { endpoints, secrets, runs, deliveries };
  for (const line of journal.records) {
    if (line.doc === null) maps[line.c].delete(line.id);
    else maps[line.c].set(line.id, line.doc);
  }
  const live = endpoints.size + secrets.size + runs.size + deliveries.size;
  if (journal.records.length > (options.compactAfterLines ?? 10_000) && journal.records.length >= 2 * live) {
    await journal.rewrite((Object.keys(maps) as Collection[]).flatMap((c) => [...maps[c]].map(([id, doc]) => ({ c, id, doc }))));
  }
  let closed = false;
  function put(c: Collection, id: string, doc: unknown): Promise<void> {
    if (closed) return Promise.reject(new LeadfinderError('LF_ERR_UNAVAILABLE', 'webhook store is closed'));
    if (doc === null) maps[c].delete(id);
    else maps[c].set(id, clone(doc));
    return journal.append([{ c, id, doc }]);
  }
  const newestFirst = (a: { createdAt: string }, b: { createdAt: string }) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0);

  return {
    endpoints: {
      async insert(endpoint) {
        if (endpoints.has(endpoint.id)) throw new LeadfinderError('LF_ERR_CONFLICT', `endpoint ${endpoint.id} already exists`);
        await put('endpoints', endpoint.id, endpoint);
      },
      listForAccount: async (accountId) =>
        [...endpoints.values()].filter((e) => e.accountId === accountId).sort((a, b) => -newestFirst(a, b)).map(clone),
      get: async (id) => clone(endpoints.get(id) ?? null),
      async delete(accountId, id) {
        if (endpoints.get(id)?.accountId !== accountId) return false;
        await put('endpoints', id, null);
        return true;
      },
      async setSecret(accountId, id, secret, previous) {
        const endpoint = endpoints.get(id);
        if (endpoint?.accountId !== accountId) return false;
        await put('endpoints', id, { ...endpoint, secret, previous });
        return true;
      },
    },
    async requestSecret(accountId, fresh) {
      const kept = secrets.get(accountId);
      if (kept !== undefined) return clone(kept);
      const made: SigningSecret = { secret: fresh, previous: null };
      await put('secrets', accountId, made);
      return made;
    },
    async setRequestSecret(accountId, secret) {
      await put('secrets', accountId, secret);
    },
    runs: {
      async insert(run) {
        if (!runs.has(run.runId)) await put('runs', run.runId, run);
      },
      get: async (runId) => clone(runs.get(runId) ?? null),
      async markFinished(runId, at) {
        const run = runs.get(runId);
        if (run && run.finishedAt === null) await put('runs', runId, { ...run, finishedAt: at });
      },
      listOpen: async () => [...runs.values()].filter((r) => r.finishedAt === null).map(clone),
    },
    deliveries: {
      async create(delivery) {
        if (deliveries.has(delivery.id)) return false;
        await put('deliveries', delivery.id, delivery);
        return true;
      },
      get: async (id) => clone(deliveries.get(id) ?? null),
      async update(id, patch) {
        const delivery = deliveries.get(id);
        if (delivery) await put('deliveries', id, { ...delivery, ...patch });
      },
      listForAccount: async (accountId, { runId, limit }) =>
        [...deliveries.values()]
          .filter((d) => d.accountId === accountId && (runId === undefined || d.runId === runId))
          .sort(newestFirst)
          .slice(0, limit)
          .map(clone),
      listPending: async () => [...deliveries.values()].filter((d) => d.status === 'pending').map(clone),
    },
    async close() {
      if (closed) return;
      closed = true;
      await journal.close();
    },
  };
}
