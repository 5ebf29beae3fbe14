import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, silentLogger, systemClock, type RunDoc, type WorkItem } from '@leadfinder/platform';
import { createMongoStore } from '@leadfinder/platform/mongo';
import { recordSkippedSuite, serverUrl, uniqueName } from '@leadfinder/testkit';
import { handleWorkItem } from './actor.js';
import type { RunDeps } from './session.js';

/**
 * A delivery of a run that another coordinator drives, on the MongoDB store, whose renewals live apart
 * from the run (issue 19 item 3): the run record still shows the claim's expiry, long past, while the
 * renewals keep the lease alive. The message goes back for a renewal period at least, not 250 ms: at 50
 * runs on FerretDB a redelivered run was claimed four times a second, each attempt several store reads.
 */
const url = await serverUrl('mongodb');
if (!url) recordSkippedSuite('services/coordinator/src/run/actor.mongo.int.test.ts', 'mongodb');
const admin = url ? new MongoClient(url) : null;
afterAll(async () => {
  await admin?.close();
});

describe.skipIf(!url)('a delivery of a run leased by another coordinator', () => {
  it('is handed back until the lease could have lapsed, not at once, when renewals extended it past its claim', async () => {
    const dbName = uniqueName('lf_actor');
    const dataDir = mkdtempSync(join(tmpdir(), 'lf-actor-'));
    const store = await createMongoStore({ url: url!, dbName, logger: silentLogger });
    try {
      const config = loadConfig({ LEADFINDER_DATA_DIR: dataDir, LEADFINDER_LEASE_TTL_MS: '15000' });
      const ttl = config.LEADFINDER_LEASE_TTL_MS;
      const now = Date.now();
      const at = new Date(now - 20_000).toISOString();
      const run: RunDoc = {
        id: 'd'.repeat(32), accountId: 'acct', query: 'q', target: 1, speed: 'fast', relax: false, sites: '', status: 'running',
        where: 'queued', spendMicrousd: 0, holdMicrousd: 0, chargeMicrousd: null, settled: false, usdDisplay: '$0.00', stopReason: null,
        deadlineAt: new Date(now + 600_000).toISOString(), createdAt: at, updatedAt: at, finishedAt: null, result: null, lease: null,
        started: false, trace: {},
      };
      await store.runs.insert(run);
      // Claimed 20 s ago for 15 s, renewed 2 s ago: live, though the record's own expiry passed 5 s ago.
      const { lease } = (await store.runs.claim(run.id, 'coordinator-a', ttl, now - 20_000))!;
      expect(await store.runs.renew(run.id, lease, ttl, now - 2_000)).not.toBeNull();
      expect((await store.runs.get(run.id))!.lease!.expiresAt).toBeLessThan(now);

      const naks: (number | undefined)[] = [];
      const item: WorkItem = {
        runId: run.id, headers: {}, deliveryCount: 2,
        working: async () => undefined, ack: async () => undefined, nak: async (delayMs) => void naks.push(delayMs),
      };
      const deps = { config, logger: silentLogger, clock: systemClock, store, instanceId: 'coordinator-b' } as unknown as RunDeps;
      await handleWorkItem(deps, item);
      expect(naks).toHaveLength(1);
      expect(naks[0]).toBeGreaterThanOrEqual(Math.floor(ttl / 3));
      // And the other coordinator's lease stood.
      expect((await store.runs.get(run.id))!.lease).toMatchObject({ owner: 'coordinator-a', epoch: 1 });
    } finally {
      await store.close();
      await admin!.db(dbName).dropDatabase();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
