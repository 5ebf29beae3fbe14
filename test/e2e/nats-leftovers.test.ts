import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '@leadfinder/platform';
import { connectNats, type NatsHandle } from '@leadfinder/platform/nats';
import { uniqueName } from '@leadfinder/testkit';
import { apiClient, createAccount, distributedServers, dropTestDatabase, readEventStream, startNatsServer, startRole, waitUntil } from './distributed-harness.js';
import type { Proc, RoleProc } from './distributed-harness.js';

/**
 * Issue 22, item 6: per-run NATS consumers (the edge's event-stream followers) and stop-flag watchers
 * (the coordinator's, one per run it drives) are gone once their stream closes and their run ends. An
 * edge and a coordinator on a nats-server of their own (so no other suite's consumers are counted) run
 * 20 searches, ten at a time, each followed over SSE to its end; afterwards only the shared durables
 * remain (the coordinators' work consumer, the webhook queues'). Ten at once brings out a follower or
 * watcher left behind by ends racing each other; more runs in turn would only repeat the same paths.
 */
const SUITE = 'test/e2e/nats-leftovers.test.ts';
const ADMIN = 'e2e-admin-token-0123456789abcdefghijkl';
const RUNS = 20;
const BATCH = 10;

const { mongoUrl, natsBin, ready: serversReady } = await distributedServers(SUITE);

describe.skipIf(!serversReady)('NATS after 20 followed runs', () => {
  const tmpRoot = mkdtempSync(join(tmpdir(), 'lf-nats-leftovers-'));
  const dbName = uniqueName('lf_e2e_leftovers');
  const procs: Proc[] = [];
  let server: Proc & { url: string };
  let edge: RoleProc;
  let nats: NatsHandle;

  beforeAll(async () => {
    server = await startNatsServer(natsBin, join(tmpRoot, 'jetstream'));
    procs.push(server);
    const common = {
      LEADFINDER_MONGODB_URL: mongoUrl!, LEADFINDER_MONGODB_DB: dbName, LEADFINDER_NATS_URL: server.url,
      LEADFINDER_SESSION_SECRET: 'e2e-leftovers-session-secret-0123456789', LEADFINDER_ADMIN_TOKEN: ADMIN,
    };
    // Each process is recorded as soon as it is up, so afterAll stops it even when the other failed to start.
    const started = (p: RoleProc) => (procs.push(p), p);
    const [, edgeStarted] = await Promise.all([
      startRole('coordinator', 'coordinator', { ...common, LEADFINDER_LOG_LEVEL: 'info', LEADFINDER_DATA_DIR: mkdtempSync(join(tmpRoot, 'coordinator-')) }).then(started),
      startRole('edge', 'edge', { ...common, LEADFINDER_DATA_DIR: mkdtempSync(join(tmpRoot, 'edge-')) }).then(started),
    ]);
    edge = edgeStarted;
    nats = await connectNats({ url: server.url, name: 'leftovers-test', logger: silentLogger });
  }, 120_000);

  afterAll(async () => {
    await nats?.close();
    await Promise.allSettled(procs.filter((p) => p !== server).map((p) => p.stop(5000)));
    await server?.stop(5000);
    await dropTestDatabase(mongoUrl, dbName);
    rmSync(tmpRoot, { recursive: true, force: true });
  });

  async function consumers(): Promise<Record<string, string[]>> {
    const out: Record<string, string[]> = {};
    for await (const stream of nats.jsm.streams.list()) {
      const names: string[] = [];
      for await (const c of nats.jsm.consumers.list(stream.config.name)) names.push(c.name);
      out[stream.config.name] = names.sort();
    }
    return out;
  }

  it('leaves only the shared durable consumers (work, webhook queues): no event follower, no stop-flag watcher', async () => {
    const account = await createAccount(edge.url!, ADMIN, 100);
    const api = apiClient(edge.url!, account.apiKey);
    const statuses: string[] = [];
    for (let i = 0; i < RUNS; i += BATCH) {
      await Promise.all(Array.from({ length: BATCH }, async (_, j) => {
        const id = await api.start('startups based in Berlin', 1);
        // Every third run is also asked to stop (often after it ended: the stop path must clean up too).
        if ((i + j) % 3 === 0) await api.stop(id);
        const frames = await readEventStream(edge.url!, id, account.apiKey);
        expect(frames.at(-1)?.event.type).toBe('done');
        statuses.push((await api.run(id)).status);
      }));
    }
    expect(statuses).toHaveLength(RUNS);
    expect(statuses.every((s) => s === 'done' || s === 'stopped')).toBe(true);

    // Deletions are asked for as each follow and wait ends; allow the server a moment for the last ones.
    // The durables every deployment keeps: the coordinators' work consumer and the edge's two webhook queues.
    const durables = new Set(['RUN_WORK/coordinators', 'WEBHOOK_WATCH/webhook-watchers', 'WEBHOOK_DELIVERIES/webhook-senders']);
    const left = await waitUntil('per-run consumers to be gone', async () => {
      const now = await consumers();
      const perRun = Object.entries(now).flatMap(([stream, names]) => names.map((n) => `${stream}/${n}`)).filter((c) => !durables.has(c));
      return perRun.length === 0 ? now : undefined;
    }, 10_000).catch(async () => consumers());
    expect(left).toEqual({
      RUN_WORK: ['coordinators'], RUN_EVENTS: [], KV_leadfinder_stops: [],
      WEBHOOK_WATCH: ['webhook-watchers'], WEBHOOK_DELIVERIES: ['webhook-senders'],
    });
  }, 240_000);
});
