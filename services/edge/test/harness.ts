/**
 * Test harness: the edge app over the embedded adapters of @leadfinder/platform in a temp data dir (the
 * event log, queue and flags can be JetStream instead), with fault injection wrapped around the ports.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createBilling, loadConfig, randomIds, silentLogger } from '@leadfinder/platform';
import { createEmbeddedEventLog, createEmbeddedIdempotencyStore, createEmbeddedStore, createInProcessStopFlags, createInProcessWorkQueue } from '@leadfinder/platform/embedded';
import type { Billing, Clock, EventLog, StopFlags, Store, WorkQueue } from '@leadfinder/platform';
import { buildEdgeApp, createSessionSigner } from '../src/index.js';
import type { EdgeDeps } from '../src/index.js';

export const ADMIN_TOKEN = 'test-admin-token-0123456789-abcdefghij';

export interface Harness {
  app: FastifyInstance;
  deps: EdgeDeps;
  /** Port operations named here throw (e.g. `runs.insert`, `work.enqueue`, `billing.reserve`). */
  faults: Set<string>;
  enqueued: { runId: string; headers: Record<string, string> }[];
  raised: string[];
  clock: Clock & { advance(ms: number): void };
  createAccount(balanceUsd?: number | string): Promise<{ id: string; apiKey: string; sessionToken: string }>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  env?: Record<string, string>;
  sseKeepaliveMs?: number;
  /** Other edge tunables (timeouts). */
  edgeOptions?: Omit<EdgeDeps['options'] & object, 'sseKeepaliveMs'>;
  web?: EdgeDeps['web'];
  /** Builds the web plugin from the harness's own ports (the web page needs the store and billing). */
  webFactory?: (deps: EdgeDeps) => NonNullable<EdgeDeps['web']>;
  /** Where events, work and stop flags live. @default embeddedQueuePorts */
  queuePorts?: QueuePortsFactory;
}

/** The event log, work queue and stop flags of one harness, and how to put them away. */
export interface QueuePorts {
  events: EventLog;
  work: WorkQueue;
  stops: StopFlags;
  close(): Promise<void>;
}

export type QueuePortsFactory = (context: { dataDir: string; clock: Clock }) => Promise<QueuePorts>;

/** The embedded event log in the data dir, the in-process queue and flags. */
export const embeddedQueuePorts: QueuePortsFactory = async ({ dataDir, clock }) => {
  const events = await createEmbeddedEventLog({ dataDir, logger: silentLogger, clock });
  const work = createInProcessWorkQueue({ logger: silentLogger });
  const stops = createInProcessStopFlags();
  return {
    events, work, stops,
    async close() {
      await Promise.allSettled([events.close(), work.close(), stops.close()]);
    },
  };
};

async function openPorts(dataDir: string, clock: Clock, queuePorts: QueuePortsFactory) {
  const store = await createEmbeddedStore({ dataDir, logger: silentLogger });
  const queue = await queuePorts({ dataDir, clock });
  const billing = createBilling({ store, clock, logger: silentLogger });
  const idempotency = await createEmbeddedIdempotencyStore({ dataDir, logger: silentLogger });
  return { store, events: queue.events, work: queue.work, stops: queue.stops, billing, idempotency, closeQueue: () => queue.close() };
}

/** Wraps every function of `target` (one level deep, plus `nested`) so named faults throw. */
function faulty<T extends object>(name: string, target: T, faults: Set<string>): T {
  return new Proxy(target, {
    get(obj, prop, receiver) {
      const value = Reflect.get(obj, prop, receiver);
      const path = `${name}.${String(prop)}`;
      if (typeof value === 'function') {
        return (...args: unknown[]) => {
          if (faults.has(path)) {
            // Async ports reject; the iterator method of the event log throws on first pull.
            return Promise.reject(new Error(`injected failure: ${path}`));
          }
          return (value as (...a: unknown[]) => unknown).apply(obj, args);
        };
      }
      if (value && typeof value === 'object' && ['runs', 'accounts', 'keys', 'ledger'].includes(String(prop))) {
        return faulty(path, value as object, faults);
      }
      return value;
    },
  });
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const dataDir = await mkdtemp(join(tmpdir(), 'lf-edge-'));
  let offset = 0;
  const clock = { now: () => Date.now() + offset, advance: (ms: number) => void (offset += ms) };
  const ports = await openPorts(dataDir, clock, options.queuePorts ?? embeddedQueuePorts);
  const faults = new Set<string>();
  const enqueued: Harness['enqueued'] = [];
  const raised: string[] = [];
  const work: WorkQueue = faulty('work', ports.work, faults);
  const recordingWork: WorkQueue = {
    enqueue: async (runId, headers) => {
      await work.enqueue(runId, headers);
      enqueued.push({ runId, headers });
    },
    consume: (o) => work.consume(o),
    ping: () => work.ping(),
    close: () => work.close(),
  };
  const stops: StopFlags = {
    raise: async (runId) => {
      await ports.stops.raise(runId);
      raised.push(runId);
    },
    isRaised: (id) => ports.stops.isRaised(id),
    wait: (id, s) => ports.stops.wait(id, s),
    close: () => ports.stops.close(),
  };
  const config = loadConfig({
    LEADFINDER_DATA_DIR: dataDir,
    LEADFINDER_ADMIN_TOKEN: ADMIN_TOKEN,
    LEADFINDER_SESSION_SECRET: 'test-session-secret-of-sufficient-length',
    LEADFINDER_RATE_LIMIT_PER_MIN: '10000',
    ...options.env,
  });
  const deps: EdgeDeps = {
    config,
    logger: silentLogger,
    clock,
    ids: randomIds,
    store: faulty<Store>('store', ports.store, faults),
    events: faulty<EventLog>('events', ports.events, faults),
    work: recordingWork,
    stops,
    billing: faulty<Billing>('billing', ports.billing, faults),
    idempotency: ports.idempotency,
    sessions: createSessionSigner({ secret: config.LEADFINDER_SESSION_SECRET!, ttlSeconds: 3600, clock }),
    ...(options.web ? { web: options.web } : {}),
    options: { ...options.edgeOptions, sseKeepaliveMs: options.sseKeepaliveMs ?? 15_000 },
  };
  if (options.webFactory) deps.web = options.webFactory(deps);
  const app = await buildEdgeApp(deps);
  await app.ready();

  return {
    app,
    deps,
    faults,
    enqueued,
    raised,
    clock,
    async createAccount(balanceUsd = 25) {
      const res = await app.inject({
        method: 'POST',
        url: '/admin/accounts',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        payload: { balanceUsd },
      });
      if (res.statusCode !== 201) throw new Error(`account creation failed: ${res.statusCode} ${res.body}`);
      return res.json();
    },
    async close() {
      await app.close();
      await ports.closeQueue();
      await ports.store.close().catch(() => undefined);
      await ports.idempotency.close().catch(() => undefined);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
