import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createBilling, loadConfig, randomIds, silentLogger } from '@leadfinder/platform';
import type { IdempotencyStore, Store } from '@leadfinder/platform';
import { createEmbeddedEventLog, createInProcessStopFlags, createInProcessWorkQueue } from '@leadfinder/platform/embedded';
import { createMongoIdempotencyStore, createMongoStore } from '@leadfinder/platform/mongo';
import { recordSkippedSuite, serverUrl, uniqueName } from '@leadfinder/testkit';
import { buildEdgeApp, createSessionSigner } from '../src/index.js';
import { ADMIN_TOKEN } from './harness.js';
import { idempotencySuite } from './idempotency-suite.js';

const url = await serverUrl('mongodb');
if (!url) recordSkippedSuite('services/edge/test/idempotency.mongo.int.test.ts', 'mongodb');

/**
 * Two edges, each with its own MongoDB clients (nothing shared in memory, like two edge pods), over one
 * database on the MongoDB-wire server (FerretDB here): the unique insert is the only thing that can keep
 * concurrent duplicates spread over both from starting two runs.
 */
describe.skipIf(!url)('Idempotency-Key on POST /v1/searches, MongoDB store, two edges', () => {
  const dbName = uniqueName('lf_idem');
  let offset = 0;
  const clock = { now: () => Date.now() + offset, advance: (ms: number) => void (offset += ms) };
  const apps: FastifyInstance[] = [];
  const closers: (() => Promise<unknown>)[] = [];
  let store: Store;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'lf-idem-'));
    const config = loadConfig({
      LEADFINDER_DATA_DIR: dataDir, LEADFINDER_ADMIN_TOKEN: ADMIN_TOKEN,
      LEADFINDER_SESSION_SECRET: 'test-session-secret-of-sufficient-length', LEADFINDER_RATE_LIMIT_PER_MIN: '10000',
    });
    const events = await createEmbeddedEventLog({ dataDir, logger: silentLogger, clock });
    const work = createInProcessWorkQueue({ logger: silentLogger });
    const stops = createInProcessStopFlags();
    closers.push(() => events.close(), () => work.close(), () => stops.close());
    for (let i = 0; i < 2; i++) {
      const edgeStore = await createMongoStore({ url: url!, dbName, logger: silentLogger });
      const idempotency: IdempotencyStore = await createMongoIdempotencyStore({ url: url!, dbName });
      closers.push(() => edgeStore.close(), () => idempotency.close());
      store ??= edgeStore;
      const app = await buildEdgeApp({
        config, logger: silentLogger, clock, ids: randomIds, store: edgeStore, events, work, stops,
        billing: createBilling({ store: edgeStore, clock, logger: silentLogger }), idempotency,
        sessions: createSessionSigner({ secret: config.LEADFINDER_SESSION_SECRET!, ttlSeconds: 3600, clock }),
      });
      await app.ready();
      apps.push(app);
    }
  });

  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const close of closers.reverse()) await close().catch(() => undefined);
    const admin = new MongoClient(url!);
    await admin.db(dbName).dropDatabase().catch(() => undefined);
    await admin.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const createAccount = async (balanceUsd = 25) => {
    const res = await apps[0]!.inject({ method: 'POST', url: '/admin/accounts', headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload: { balanceUsd } });
    if (res.statusCode !== 201) throw new Error(`account creation failed: ${res.statusCode} ${res.body}`);
    return res.json() as { id: string; apiKey: string };
  };

  idempotencySuite(() => ({ apps, store, clock, createAccount, adminToken: ADMIN_TOKEN }), { concurrency: 200 });
});
