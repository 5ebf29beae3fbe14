import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { buildEdgeApp, createSessionSigner } from '@leadfinder/edge';
import { createBilling, randomIds, silentLogger, systemClock } from '@leadfinder/platform';
import { createEmbeddedEventLog, createEmbeddedStore, createInProcessStopFlags, createInProcessWorkQueue } from '@leadfinder/platform/embedded';
import { createMongoStore } from '@leadfinder/platform/mongo';
import { connectNats, createNatsEventLog, createNatsStopFlags, createNatsWorkQueue } from '@leadfinder/platform/nats';
import { instrumentWorkQueue, traceBilling, traceEventLog, traceStore, traceWorkQueue } from '@leadfinder/platform/telemetry';
import type { Config, EventLog, StopFlags, Store, WorkQueue } from '@leadfinder/platform';
import type { NatsHandle } from '@leadfinder/platform/nats';

/**
 * The edge alone, built from the same adapters `npm start` uses, with nothing consuming the work queue:
 * accepted runs stay `running` and no research competes for the CPU, so the figures measure the edge
 * (auth, validation, reservation, run insert, enqueue, run read, event streaming). Distributed stacks use
 * names unique to this bench process (database, streams, subjects, KV bucket) and delete them on close,
 * so a shared NATS / FerretDB is left as it was found.
 */
export interface EdgeStack {
  url: string;
  /** The edge app itself, for `app.inject()` (requests without sockets, see telemetry-cost.ts). */
  app: Awaited<ReturnType<typeof buildEdgeApp>>;
  events: EventLog;
  store: Store;
  /** Distributed only: time spent per MongoDB command (name and collection) since the last call, then reset. */
  storeStats(): StoreCommandStats[];
  close(): Promise<void>;
}

export interface StoreCommandStats {
  /** e.g. `insert account_revisions`, `find account_holds`. */
  command: string;
  count: number;
  totalMs: number;
  p50Ms: number;
  p99Ms: number;
}

export interface EdgeStackOptions {
  config: Config;
  dataDir: string;
  distributed: { natsUrl: string; mongoUrl: string } | null;
  /**
   * Several edges on one database and one set of streams (distributed only): the same `suffix` names
   * them; only the `owner` deletes them on close.
   */
  shared?: { suffix: string; owner: boolean };
}

export async function startEdgeStack(options: EdgeStackOptions): Promise<EdgeStack> {
  const { config } = options;
  const logger = silentLogger;
  const suffix = options.shared?.suffix ?? randomBytes(4).toString('hex');
  const owner = options.shared?.owner ?? true;
  const durations = new Map<string, number[]>();
  const closers: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const step of closers) await step().catch((error: unknown) => console.error(`bench: cleanup step failed: ${String(error)}`));
  };
  try {
    let store: Store;
    let events: EventLog;
    let work: WorkQueue;
    let stops: StopFlags;
    if (options.distributed) {
      const dbName = `bench_${suffix}`;
      const started = new Map<number, string>();
      store = await createMongoStore({
        url: options.distributed.mongoUrl, dbName, logger,
        onCommand: ({ name, requestId, collection }) => started.set(requestId, `${name} ${collection}`),
        onCommandDone: ({ requestId, durationMs }) => {
          const command = started.get(requestId);
          started.delete(requestId);
          if (command) durations.set(command, [...(durations.get(command) ?? []), durationMs]);
        },
      });
      closers.push(async () => {
        await store.close();
        if (owner) await dropMongoDatabase(options.distributed!.mongoUrl, dbName);
      });
      const nats: NatsHandle = await connectNats({ url: options.distributed.natsUrl, name: `leadfinder-bench-${suffix}`, logger });
      const names = {
        events: `BENCH_EVENTS_${suffix}`, eventsPrefix: `bench_${suffix}_runs`,
        work: `BENCH_WORK_${suffix}`, subject: `bench_${suffix}.work`, durable: `bench_${suffix}`, bucket: `bench_stops_${suffix}`,
      };
      closers.unshift(async () => {
        if (owner) {
          for (const stream of [names.events, names.work, `KV_${names.bucket}`]) {
            await nats.jsm.streams.delete(stream).catch(() => false);
          }
        }
        await nats.close();
      });
      events = await createNatsEventLog({ nats, logger, stream: names.events, subjectPrefix: names.eventsPrefix });
      const workOptions = { nats, logger, stream: names.work, subject: names.subject, durable: names.durable, stopBucket: names.bucket };
      work = await createNatsWorkQueue(workOptions);
      stops = await createNatsStopFlags(workOptions);
    } else {
      store = await createEmbeddedStore({ dataDir: join(options.dataDir, 'store'), logger });
      closers.push(() => store.close());
      events = await createEmbeddedEventLog({ dataDir: join(options.dataDir, 'events'), logger });
      work = traceWorkQueue(createInProcessWorkQueue({ logger }), { system: 'inprocess', destination: 'work.runs' });
      stops = createInProcessStopFlags();
    }
    closers.unshift(async () => {
      await stops.close();
      await work.close();
      await events.close();
    });
    // The port spans and queue metrics `serve` puts around the adapters (services/cli/src/serve/adapters.ts),
    // so `--otlp` measures what an edge exports. Outside a trace (telemetry off) the wrappers call straight through.
    work = instrumentWorkQueue(work, { clock: systemClock });
    store = traceStore(store);
    events = traceEventLog(events);
    const billing = traceBilling(createBilling({ store, clock: systemClock, logger }));
    const sessions = createSessionSigner({ secret: randomBytes(32).toString('base64url'), ttlSeconds: 3600 });
    const app = await buildEdgeApp({ config, logger, clock: systemClock, ids: randomIds, store, events, work, stops, billing, sessions });
    await app.listen({ host: '127.0.0.1', port: 0 });
    closers.unshift(() => app.close());
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const storeStats = (): StoreCommandStats[] => {
      const stats = [...durations].map(([command, list]) => {
        const sorted = [...list].sort((a, b) => a - b);
        const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
        return { command, count: list.length, totalMs: Math.round(list.reduce((n, d) => n + d, 0)), p50Ms: at(0.5), p99Ms: at(0.99) };
      });
      durations.clear();
      return stats.sort((a, b) => b.totalMs - a.totalMs);
    };
    return { url: `http://127.0.0.1:${port}`, app, events, store, storeStats, close };
  } catch (error) {
    await close();
    throw error;
  }
}

async function dropMongoDatabase(url: string, dbName: string): Promise<void> {
  const { MongoClient } = await import('mongodb');
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 5000 });
  try {
    await client.connect();
    await client.db(dbName).dropDatabase();
  } finally {
    await client.close();
  }
}
