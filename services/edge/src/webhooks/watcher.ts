import { createHash } from 'node:crypto';
import type { RunEvent, WebhookEventType } from '@leadfinder/wire';
import type { Clock, EventLog, Logger, RunDoc, Store, WebhookDeliveryDoc, WebhookRunDoc, WebhookStore } from '@leadfinder/platform';
import { hasEnded, toRunRecord } from '../runs/run-view.js';

/** A delivery is attempted for this long after it was created (injected clock). */
export const DELIVERY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** How often a watched run's record is read while its log has no end marker (see untilTerminal). */
const RECORD_CHECK_MS = 10_000;

interface Target {
  endpointId: string | null;
  url: string;
  events: WebhookEventType[];
}

export interface RunWatcherDeps {
  logger: Logger;
  clock: Clock;
  store: Store;
  events: EventLog;
  webhooks: WebhookStore;
  /** Queue a created (or still pending) delivery for sending. */
  send(deliveryId: string): Promise<void>;
}

/**
 * The stable `webhook-id` of one event for one target: a watcher that dies and is replaced makes the
 * same ids again, so the unique insert keeps one delivery per event and target.
 */
export function deliveryId(runId: string, endpointId: string | null, what: string): string {
  return `msg_${createHash('sha256').update(`${runId}\0${endpointId ?? 'request'}\0${what}`).digest('hex').slice(0, 32)}`;
}

/**
 * Watch one run until it is terminal: its `progress` events go to the targets that asked for them, as
 * they are appended; its terminal state, the record `GET /v1/searches/{id}` answers, goes to every target
 * that wants `search.finished`. Returns once every delivery of the run is created and queued.
 */
export async function watchRun(deps: RunWatcherDeps, runId: string, signal: AbortSignal): Promise<void> {
  const subscription = await deps.webhooks.runs.get(runId);
  if (!subscription || subscription.finishedAt !== null) return;
  const targets = await targetsOf(deps, subscription);
  const wantsProgress = targets.filter((t) => t.events.includes('search.progress'));

  const deliver = async (what: string, type: WebhookEventType, data: unknown, to: Target[]) => {
    const createdAt = deps.clock.now();
    const body = JSON.stringify({ type, timestamp: new Date(createdAt).toISOString(), data });
    for (const target of to) {
      const doc: WebhookDeliveryDoc = {
        id: deliveryId(runId, target.endpointId, what), accountId: subscription.accountId, runId,
        endpointId: target.endpointId, url: target.url, type, body, status: 'pending', attempts: 0, lastError: null,
        createdAt: new Date(createdAt).toISOString(), expiresAt: createdAt + DELIVERY_WINDOW_MS, nextAttemptAt: null, deliveredAt: null,
      };
      const created = await deps.webhooks.deliveries.create(doc);
      // An existing one is queued again only while pending: its first queueing may have died with its watcher.
      if (created || (await deps.webhooks.deliveries.get(doc.id))?.status === 'pending') await deps.send(doc.id);
    }
  };

  let cursor = 0;
  const forward = async (events: { seq: number; event: RunEvent }[]) => {
    for (const { seq, event } of events) {
      cursor = seq;
      if (event.type === 'progress' && wantsProgress.length > 0) await deliver(`progress:${seq}`, 'search.progress', event, wantsProgress);
    }
  };

  const run = await untilTerminal(deps, runId, signal, wantsProgress.length > 0 ? forward : null);
  if (!run) return;
  // Events appended before the record turned terminal but not yet forwarded.
  if (wantsProgress.length > 0) await forward(await deps.events.read(runId, cursor, 10_000));
  const finishing = targets.filter((t) => t.events.includes('search.finished'));
  if (finishing.length > 0) await deliver('finished', 'search.finished', toRunRecord(run), finishing);
  await deps.webhooks.runs.markFinished(runId, new Date(deps.clock.now()).toISOString());
}

/**
 * The run's record once terminal (null when `signal` aborted first), forwarding its events meanwhile. The
 * event log is followed until the run's end marker, which the coordinator writes once the record is
 * terminal; the record is read then, and every RECORD_CHECK_MS in case a run ends with no marker (one the
 * edge released before any coordinator had it, or a log from before markers).
 */
async function untilTerminal(
  deps: RunWatcherDeps, runId: string, signal: AbortSignal,
  forward: ((events: { seq: number; event: RunEvent }[]) => Promise<void>) | null,
): Promise<RunDoc | null> {
  let cursor = 0;
  while (!signal.aborted) {
    const check = new AbortController();
    const stop = () => check.abort();
    const timer = setTimeout(stop, RECORD_CHECK_MS);
    signal.addEventListener('abort', stop, { once: true });
    try {
      for await (const sequenced of deps.events.follow(runId, cursor, check.signal)) {
        cursor = sequenced.seq;
        if (forward) await forward([sequenced]);
      }
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', stop);
    }
    if (signal.aborted) return null;
    const run = await deps.store.runs.get(runId);
    if (!run) return null;
    // Ended as callers see it (terminal and settled), so the payload is what GET answers.
    if (hasEnded(run)) return run;
  }
  return null;
}

async function targetsOf(deps: RunWatcherDeps, subscription: WebhookRunDoc): Promise<Target[]> {
  const targets: Target[] = [];
  if (subscription.request) targets.push({ endpointId: null, ...subscription.request });
  for (const id of subscription.endpointIds) {
    const endpoint = await deps.webhooks.endpoints.get(id);
    // An endpoint deleted since the run was accepted gets nothing.
    if (endpoint) targets.push({ endpointId: endpoint.id, url: endpoint.url, events: endpoint.events });
  }
  return targets;
}
