import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { silentLogger } from '@leadfinder/platform';
import type { IdempotencyRecord, IdempotencyStore } from '@leadfinder/platform';
import { createEmbeddedIdempotencyStore } from '@leadfinder/platform/embedded';
import { createMongoIdempotencyStore } from '@leadfinder/platform/mongo';
import { recordSkippedSuite, serverUrl, uniqueName } from '@leadfinder/testkit';

const url = await serverUrl('mongodb');
if (!url) recordSkippedSuite('services/platform/test/idempotency-store.test.ts', 'mongodb');

const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.parse('2026-03-01T00:00:00Z');
const record = (runId: string, over: Partial<IdempotencyRecord> = {}): IdempotencyRecord => ({
  accountId: 'acct_a', key: 'order-1', fingerprint: 'f1', runId, createdAt: new Date(T0).toISOString(), expiresAt: T0 + DAY, ...over,
});

/** The same rules on every adapter: one winner per (account, key) and window, whatever the concurrency. */
function contract(name: string, open: () => Promise<{ store: IdempotencyStore; reopen?: () => Promise<IdempotencyStore> }>) {
  describe(name, () => {
    it('of 200 concurrent claims of one key exactly one wins, and every loser is answered with the winner', async () => {
      const { store } = await open();
      const claims = await Promise.all(Array.from({ length: 200 }, (_, i) => store.claim(record(`run${i}`), T0)));
      const winners = claims.filter((c) => c.won);
      expect(winners).toHaveLength(1);
      expect(new Set(claims.map((c) => c.record.runId))).toEqual(new Set([winners[0]!.record.runId]));
      await store.close();
    });

    it('scopes keys per account, frees a released key, and lets a key start again once its 24 h are over', async () => {
      const { store, reopen } = await open();
      expect((await store.claim(record('r1'), T0)).won).toBe(true);
      expect((await store.claim(record('r2', { accountId: 'acct_b' }), T0)).won).toBe(true);
      expect(await store.claim(record('r3'), T0 + DAY - 1)).toMatchObject({ won: false, record: { runId: 'r1' } });
      expect((await store.claim(record('r4', { expiresAt: T0 + 2 * DAY }), T0 + DAY)).won).toBe(true);
      expect((await store.find('acct_a', 'order-1', T0 + DAY))?.runId).toBe('r4');
      await store.release(record('r4'));
      expect(await store.find('acct_a', 'order-1', T0 + DAY)).toBeNull();
      expect((await store.claim(record('r5', { expiresAt: T0 + 2 * DAY }), T0 + DAY)).won).toBe(true);
      if (reopen) {
        await store.close();
        const again = await reopen();
        expect((await again.find('acct_a', 'order-1', T0 + DAY))?.runId).toBe('r5');
        await again.close();
      } else {
        await store.close();
      }
    });
  });
}

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

contract('embedded idempotency store', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'lf-idem-store-'));
  dirs.push(dataDir);
  return {
    store: await createEmbeddedIdempotencyStore({ dataDir, logger: silentLogger }),
    reopen: () => createEmbeddedIdempotencyStore({ dataDir, logger: silentLogger }),
  };
});

describe('embedded idempotency journal compaction', () => {
  it('drops only the records expired by the injected clock, so a live key still answers with its run after a restart', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'lf-idem-compact-'));
    dirs.push(dataDir);
    const first = await createEmbeddedIdempotencyStore({ dataDir, logger: silentLogger });
    // Three lines over the threshold below: an expired key, a live key, and a released one.
    expect((await first.claim(record('old', { key: 'old' }), T0)).won).toBe(true);
    expect((await first.claim(record('live', { key: 'live', expiresAt: T0 + 3 * DAY }), T0 + DAY)).won).toBe(true);
    expect((await first.claim(record('gone', { key: 'gone', expiresAt: T0 + 3 * DAY }), T0 + DAY)).won).toBe(true);
    await first.release(record('gone', { key: 'gone' }));
    await first.close();

    const clock = { now: () => T0 + 2 * DAY };
    const reopened = await createEmbeddedIdempotencyStore({ dataDir, logger: silentLogger, compactAfterLines: 2, clock });
    expect((await reopened.find('acct_a', 'live', clock.now()))?.runId).toBe('live');
    await reopened.close();
    // What compaction kept is all a later start-up sees: the expired record is gone even at its own time.
    const later = await createEmbeddedIdempotencyStore({ dataDir, logger: silentLogger });
    expect(await later.find('acct_a', 'old', T0)).toBeNull();
    expect(await later.find('acct_a', 'gone', T0 + DAY)).toBeNull();
    expect((await later.find('acct_a', 'live', T0 + DAY))?.runId).toBe('live');
    await later.close();
  });
});

describe.skipIf(!url)('on a MongoDB-wire server', () => {
  const dbNames: string[] = [];
  afterAll(async () => {
    const admin = new MongoClient(url!);
    for (const db of dbNames) await admin.db(db).dropDatabase().catch(() => undefined);
    await admin.close();
  });
  contract('MongoDB idempotency store (two clients)', async () => {
    const dbName = uniqueName('lf_idem_store');
    dbNames.push(dbName);
    // Two clients, like two edges: concurrent claims alternate between them.
    const [a, b] = await Promise.all([createMongoIdempotencyStore({ url: url!, dbName }), createMongoIdempotencyStore({ url: url!, dbName })]);
    let turn = 0;
    const store: IdempotencyStore = {
      claim: (r, now) => ((turn++ % 2 === 0 ? a : b) as IdempotencyStore).claim(r, now),
      find: (...args) => a.find(...args),
      release: (r) => b.release(r),
      close: async () => {
        await a.close();
        await b.close();
      },
    };
    return { store, reopen: () => createMongoIdempotencyStore({ url: url!, dbName }) };
  });
});
