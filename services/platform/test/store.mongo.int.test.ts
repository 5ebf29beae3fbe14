import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { silentLogger } from '@leadfinder/platform';
import { createMongoStore } from '@leadfinder/platform/mongo';
import { recordSkippedSuite, serverUrl, uniqueName } from '@leadfinder/testkit';
import { describeBillingContract, describeStoreContract, makeRun, type MeteredStore, type Traffic } from './store-contract.js';

const url = await serverUrl('mongodb');
if (!url) recordSkippedSuite('services/platform/test/store.mongo.int.test.ts', 'mongodb');

// One client to drop each test's database afterwards.
const admin = url ? new MongoClient(url) : null;
afterAll(async () => {
  await admin?.close();
});

let lastDbName: string | undefined;
/** The traffic is every command sent to the server, except background compaction (it runs on a timer). */
async function makeStore(): Promise<MeteredStore> {
  const dbName = uniqueName('lf_store');
  lastDbName = dbName;
  const traffic: Traffic = { requests: 0, bytes: 0 };
  const store = await createMongoStore({
    url: url!, dbName, logger: silentLogger,
    onCommand: ({ bytes, text }) => {
      if (text.includes('"compacted":true')) return;
      traffic.requests += 1;
      traffic.bytes += bytes;
    },
  });
  return {
    ...store,
    traffic: () => ({ ...traffic }),
    async close() {
      await store.close();
      await admin!.db(dbName).dropDatabase();
    },
  };
}

describe.skipIf(!url)('MongoDB-wire server', () => {
  describeStoreContract('mongo', makeStore, { busyHolds: 1000 });
  describeBillingContract('mongo', makeStore);
});

describe.skipIf(!url)('MongoDB store across processes', () => {
  it('never over-reserves when several processes reserve on one account at once', async () => {
    const dbName = uniqueName('lf_store');
    // Separate stores share nothing in memory, like separate edge pods.
    const stores = await Promise.all(Array.from({ length: 4 }, () => createMongoStore({ url: url!, dbName, logger: silentLogger })));
    try {
      await stores[0]!.accounts.create({ id: 'acc_a', email: null, createdAt: 'x' });
      await stores[0]!.accounts.topup('acc_a', 52_000_000, 'k1', 'x');
      const results = await Promise.all(
        stores.flatMap((s, p) => Array.from({ length: 10 }, (_, i) => s.accounts.reserve('acc_a', `run_${p}_${i}`, 5_000_000))),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(10);
      const account = await stores[3]!.accounts.get('acc_a');
      expect(account).toMatchObject({ heldMicrousd: 50_000_000, availableMicrousd: 2_000_000 });
      expect(Object.keys(await stores[3]!.accounts.listHolds('acc_a'))).toHaveLength(10);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
      await admin!.db(dbName).dropDatabase();
    }
  });

  it('reads and finds the latest state even when a crash left the head copy behind', async () => {
    const store = await makeStore();
    try {
      const run = makeRun();
      await store.runs.insert(run);
      const heads = admin!.db(lastDbName!).collection<{ _id: string }>('runs');
      const staleHead = await heads.findOne({ _id: run.id });
      await store.runs.finish(run.id, null, {
        status: 'done', where: 'done', spendMicrousd: 1, chargeMicrousd: 1, usdDisplay: '$0.00', stopReason: null, result: null, finishedAt: 'y',
      });
      await heads.replaceOne({ _id: run.id }, staleHead!); // as if the process died before writing the head
      expect((await store.runs.get(run.id))?.status).toBe('done');
      expect((await store.runs.findUnsettled()).map((r) => r.id)).toEqual([run.id]);
      expect((await store.runs.listRecent(run.accountId, 5))[0]?.status).toBe('done');
      expect(await store.runs.findUnclaimed()).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
