import { mkdir, access, constants } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createBilling, systemClock } from '@leadfinder/platform';
import { instrumentWorkQueue } from '@leadfinder/platform/telemetry';
import { createEmbeddedEventLog, createEmbeddedIdempotencyStore, createEmbeddedStore, createInProcessStopFlags, createInProcessWorkQueue } from '@leadfinder/platform/embedded';
import type { Billing, Config, EventLog, IdempotencyStore, Logger, StopFlags, Store, WorkQueue } from '@leadfinder/platform';
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
  if (config.LEADFINDER_MONGODB_URL) {
    // Imported here, not at the top: the driver loads after startTelemetry has enabled the MongoDB
    // instrumentation (which patches the driver's modules as they load), and a role without MongoDB never loads it.
    const { createMongoIdempotencyStore, createMongoStore } = await import('@leadfinder/platform/mongo');
    store = await createMongoStore({ url: config.LEADFINDER_MONGODB_URL, dbName: config.LEADFINDER_MONGODB_DB, logger: logger.child({ component: 'mongo' }) });
    idempotency = await createMongoIdempotencyStore({ url: config.LEADFINDER_MONGODB_URL, dbName: config.LEADFINDER_MONGODB_DB });
  } else {
    store = await createEmbeddedStore({ dataDir: join(dataDir, 'store'), logger: logger.child({ component: 'store' }) });
    idempotency = await createEmbeddedIdempotencyStore({ dataDir: join(dataDir, 'store'), logger: logger.child({ component: 'idempotency' }) });
  }
  closers.push(() => store.close(), () => idempotency.close());

  let events: EventLog;
  let work: WorkQueue;
  let stops: StopFlags;
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
  } else {
    events = await createEmbeddedEventLog({ dataDir: join(dataDir, 'events'), logger: logger.child({ component: 'events' }) });
    work = createInProcessWorkQueue({ logger: logger.child({ component: 'work' }) });
    stops = createInProcessStopFlags();
  }
  // Queue wait, redeliveries and runs in flight, whichever queue this is.
  work = instrumentWorkQueue(work, { clock: systemClock });
  // Close order: consumers of messaging first, then the connection, then storage.
  closers.unshift(async () => {
    await stops.close();
    await work.close();
    await events.close();
    await nats?.close();
  });

  const billing = createBilling({ store, clock: systemClock, logger: logger.child({ component: 'billing' }) });
  return {
    store, events, work, stops, billing, idempotency,
    mode: { storage: config.LEADFINDER_MONGODB_URL ? 'mongodb' : 'embedded', messaging: config.LEADFINDER_NATS_URL ? 'nats' : 'embedded' },
    async close() {
      for (const close of closers) {
        await close().catch((error: unknown) => logger.warn('close failed', { error: String(error) }));
      }
    },
  };
}
