import { MongoClient } from 'mongodb';
import { afterAll, describe } from 'vitest';
import { silentLogger, type Store } from '@leadfinder/platform';
import { createMongoStore } from '@leadfinder/platform/mongo';
import { recordSkippedSuite, serverUrl, uniqueName } from '@leadfinder/testkit';
import { describeEndRunContract } from './billing-end-run-contract.js';

const url = await serverUrl('mongodb');
if (!url) recordSkippedSuite('services/platform/test/billing-end-run.mongo.int.test.ts', 'mongodb');

// One client to drop each test's database afterwards.
const admin = url ? new MongoClient(url) : null;
afterAll(async () => {
  await admin?.close();
});

async function makeStore(): Promise<Store> {
  const dbName = uniqueName('lf_end_run');
  const store = await createMongoStore({ url: url!, dbName, logger: silentLogger });
  return {
    ...store,
    async close() {
      await store.close();
      await admin!.db(dbName).dropDatabase();
    },
  };
}

describe.skipIf(!url)('MongoDB-wire server', () => {
  describeEndRunContract('mongo', makeStore);
});
