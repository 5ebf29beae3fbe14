import { mkdir, access, constants } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createBilling, systemClock } from '@leadfinder/platform';
import { instrumentWorkQueue, traceBilling, traceEventLog, traceStore, traceWorkQueue } from '@leadfinder/platform/telemetry';
import {
  createEmbeddedEventLog, createEmbeddedIdempotencyStore, createEmbeddedStore, createEmbeddedWebhookStore, createInProcessStopFlags, createInProcessWorkQueue,
} from '@leadfinder/platform/embedded';
import type { Billing, Config, EventLog, IdempotencyStore, Logger, StopFlags, Store, WebhookStore, WorkQueue } from '@leadfinder/platform';
import type { NatsHandle } from '@leadfinder/platform/nats';

/** The storage and messaging adapters chosen by configuration: embedded unless URLs are set. */
export interface Infrastructure {
  store: Store;
  events: EventLog;
  work: WorkQueue;
  stops: StopFlags;
  billing: Billing;
  /** Idempotency-Key records, next to the store (the same server or data dir). */
  idempotency: IdempotencyStore;
  /** Webhook endpoints, subscriptions and deliveries, next to the store. */
  webhooks: WebhookStore;
  /** Runs whose webhooks an edge watches, and deliveries to send (JetStream work queues distributed). */
  webhookWatch: WorkQueue;
  webhookDeliveries: WorkQueue;
  mode: { storage: 'embedded' | 'mongodb'; messaging: 'embedded' | 'nats' };
  close(): Promise<void>;
}

/** A start-up problem worth one clear line (no stack trace). */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}

export async function ensureDataDir(dir: string): Promise<string> {
  const path = resolve(dir);
  try {
    // Created private (0700): it holds accounts, queries, results, key hashes and the session secret. An
    // existing folder keeps its mode (it may be shared); the store and events folders in it are made 0700.
    await mkdir(path, { recursive: true, mode: 0o700 });
    await access(path, constants.R_OK | constants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new StartupError(`LEADFINDER_DATA_DIR: cannot use ${path} as the data dir (${code})`);
  }
  return path;
}

export async function openInfrastructure(config: Config, logger: Logger, needsData: boolean): Promise<Infrastructure> {
  const dataDir = needsData ? await ensureDataDir(config.LEADFINDER_DATA_DIR) : resolve(config.LEADFINDER_DATA_DIR);
  const closers: (() => Promise<void>)[] = [];

  let store: Store;
  let idempotency: IdempotencyStore;
  let webhooks: WebhookStore;
  if (config.LEADFINDER_MONGODB_URL) {
    // Imported here, not at the top: the driver loads after startTelemetry has enabled the MongoDB
    // instrumentation (which patches the driver's modules as they load), and a role without MongoDB never loads it.
    const { connectMongo, createMongoIdempotencyStore, createMongoStore, createMongoWebhookStore } = await import('@leadfinder/platform/mongo');
    // One client (one connection pool) for the three stores, closed after them.
    const client = await connectMongo({ url: config.LEADFINDER_MONGODB_URL });
    closers.push(() => client.close());
    const dbName = config.LEADFINDER_MONGODB_DB;
    store = await createMongoStore({ client, dbName, logger: logger.child({ component: 'mongo' }) });
    idempotency = await createMongoIdempotencyStore({ client, dbName });
    webhooks = await createMongoWebhookStore({ client, dbName });
  } else {
    store = await createEmbeddedStore({ dataDir: join(dataDir, 'store'), logger: logger.child({ component: 'store' }) });
    idempotency = await createEmbeddedIdempotencyStore({ dataDir: join(dataDir, 'store'), logger: logger.child({ component: 'idempotency' }) });
    webhooks = await createEmbeddedWebhookStore({ dataDir: join(dataDir, 'store'), logger: logger.child({ component: 'webhooks' }) });
  }
  // The stores close before the client they share (which is already in the list).
  closers.unshift(() => store.close(), () => idempotency.close(), () => webhooks.close());

  let events: EventLog;
  let work: WorkQueue;
  let stops: StopFlags;
  let webhookWatch: WorkQueue;
  let webhookDeliveries: WorkQueue;
  let nats: NatsHandle | undefined;
  if (config.LEADFINDER_NATS_URL) {
    const { connectNats, createNatsEventLog, createNatsStopFlags, createNatsWorkQueue } = await import('@leadfinder/platform/nats');
    nats = await connectNats({
      url: config.LEADFINDER_NATS_URL, name: 'leadfinder', logger: logger.child({ component: 'nats' }),
      auth: { credsFile: config.LEADFINDER_NATS_CREDS_FILE, user: config.LEADFINDER_NATS_USER, password: config.LEADFINDER_NATS_PASSWORD, token: config.LEADFINDER_NATS_TOKEN },
      tls: { caFile: config.LEADFINDER_NATS_TLS_CA_FILE, certFile: config.LEADFINDER_NATS_TLS_CERT_FILE, keyFile: config.LEADFINDER_NATS_TLS_KEY_FILE },
    });
    events = await createNatsEventLog({ nats, logger: logger.child({ component: 'events' }) });
    work = await createNatsWorkQueue({ nats, logger: logger.child({ component: 'work' }) });
    stops = await createNatsStopFlags({ nats, logger: logger.child({ component: 'stops' }) });
    const webhookLogger = logger.child({ component: 'webhooks' });
    webhookWatch = await createNatsWorkQueue({ nats, logger: webhookLogger, stream: 'WEBHOOK_WATCH', subject: 'webhooks.watch', durable: 'webhook-watchers' });
    webhookDeliveries = await createNatsWorkQueue({ nats, logger: webhookLogger, stream: 'WEBHOOK_DELIVERIES', subject: 'webhooks.deliveries', durable: 'webhook-senders' });
  } else {
    events = await createEmbeddedEventLog({ dataDir: join(dataDir, 'events'), logger: logger.child({ component: 'events' }) });
    // Publish and receive spans, as the JetStream adapter makes itself.
    work = traceWorkQueue(createInProcessWorkQueue({ logger: logger.child({ component: 'work' }) }), { system: 'inprocess', destination: 'work.runs' });
    stops = createInProcessStopFlags();
    webhookWatch = createInProcessWorkQueue({ logger: logger.child({ component: 'webhook-watch' }) });
    webhookDeliveries = createInProcessWorkQueue({ logger: logger.child({ component: 'webhook-deliveries' }) });
  }
  // Queue wait, redeliveries and runs in flight, whichever queue this is.
  work = instrumentWorkQueue(work, { clock: systemClock });
  // Close order: consumers of messaging first, then the connection, then storage.
  closers.unshift(async () => {
    await webhookDeliveries.close();
    await webhookWatch.close();
    await stops.close();
    await work.close();
    await events.close();
    await nats?.close();
  });

  // Spans for store, event-log and billing calls inside a trace, whichever adapter (port-tracing.ts).
  store = traceStore(store);
  events = traceEventLog(events);
  const billing = traceBilling(createBilling({ store, clock: systemClock, logger: logger.child({ component: 'billing' }) }));
  return {
    store, events, work, stops, billing, idempotency, webhooks, webhookWatch, webhookDeliveries,
    mode: { storage: config.LEADFINDER_MONGODB_URL ? 'mongodb' : 'embedded', messaging: config.LEADFINDER_NATS_URL ? 'nats' : 'embedded' },
    async close() {
      for (const close of closers) {
        await close().catch((error: unknown) => logger.warn('close failed', { error: String(error) }));
      }
    },
  };
}
