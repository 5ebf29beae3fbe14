import { MongoClient } from 'mongodb';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { silentLogger, type RunDoc, type Store } from '@leadfinder/platform';
import { connectMongo, createMongoIdempotencyStore, createMongoStore, createMongoWebhookStore } from '@leadfinder/platform/mongo';
import { recordSkippedSuite, serverUrl, uniqueName } from '@leadfinder/testkit';

/**
 * What a busy coordinator asks of a MongoDB-wire server (issue 19 item 3). On FerretDB (SQLite) every
 * point read and every update scans its collection, converting the JSON of each row, so these tests pin
 * the commands themselves: a renewal and a reaper pass never read the revision chain, and what is stored
 * per revision is one string, not a nested document. Measured at 50 runs on two coordinators, these were
 * the difference between leases lost to a 10 s writer wait and every run ending `done`.
 */
const url = await serverUrl('mongodb');
if (!url) recordSkippedSuite('services/platform/src/adapters/mongo/store-under-load.mongo.int.test.ts', 'mongodb');

const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const TTL = 10_000;
const admin = url ? new MongoClient(url) : null;
afterAll(async () => {
  await admin?.close();
});

interface Command {
  name: string;
  collection: string;
  text: string;
}

const open: { store: Store; dbName: string }[] = [];
afterEach(async () => {
  for (const { store, dbName } of open.splice(0)) {
    await store.close();
    await admin!.db(dbName).dropDatabase();
  }
});

async function meteredStore(): Promise<{ store: Store; dbName: string; commands: Command[] }> {
  const dbName = uniqueName('lf_load');
  const commands: Command[] = [];
  const store = await createMongoStore({
    url: url!, dbName, logger: silentLogger,
    onCommand: ({ name, collection, text }) => commands.push({ name, collection, text }),
  });
  open.push({ store, dbName });
  return { store, dbName, commands };
}

function makeRun(i: number, over: Partial<RunDoc> = {}): RunDoc {
  const at = new Date(T0).toISOString();
  return {
    id: `${String(i).padStart(4, '0')}${'c'.repeat(28)}`, accountId: 'acct_load', query: 'startups based in Berlin', target: 20,
    speed: 'fast', relax: false, sites: '', status: 'running', where: 'queued', spendMicrousd: 0, holdMicrousd: 5_000_000,
    chargeMicrousd: null, settled: false, usdDisplay: '$0.00', stopReason: null,
    deadlineAt: new Date(T0 + 3_600_000).toISOString(), createdAt: at, updatedAt: at, finishedAt: null, result: null,
    lease: null, started: false, trace: {}, ...over,
  };
}

describe.skipIf(!url)('Mongo store under load', () => {
  it('renews a lease from the run head and one insert, never reading the revision chain', async () => {
    const { store, commands } = await meteredStore();
    const run = makeRun(1);
    await store.runs.insert(run);
    const { lease } = (await store.runs.claim(run.id, 'coord-1', TTL, T0))!;
    for (let i = 0; i < 5; i++) await store.runs.progress(run.id, lease, { where: `step ${i}`, spendMicrousd: i * 1000 }, T0 + i);
    commands.length = 0;
    const renewed = await store.runs.renew(run.id, lease, TTL, T0 + 5_000);
    expect(renewed).toEqual({ ...lease, expiresAt: T0 + 5_000 + TTL });
    expect(commands.map((c) => `${c.name} ${c.collection}`)).toEqual(['find runs', 'insert run_leases']);
    // The renewal counts: nobody can claim the run until it lapses.
    expect(await store.runs.claim(run.id, 'coord-2', TTL, T0 + TTL + 1)).toBeNull();
    expect(await store.runs.findLapsed(T0 + TTL + 1)).toEqual([]);
  });

  it('refuses the renewal of a lease another coordinator has claimed since', async () => {
    const { store } = await meteredStore();
    const run = makeRun(2);
    await store.runs.insert(run);
    const first = (await store.runs.claim(run.id, 'coord-1', TTL, T0))!;
    const second = (await store.runs.claim(run.id, 'coord-2', TTL, T0 + TTL))!;
    expect(second.lease.epoch).toBe(2);
    expect(await store.runs.renew(run.id, first.lease, TTL, T0 + TTL + 1)).toBeNull();
    expect(await store.runs.renew(run.id, second.lease, TTL, T0 + TTL + 1)).toMatchObject({ owner: 'coord-2', epoch: 2 });
  });

  it('finds lapsed runs among many renewed ones reading only the heads and the renewals', async () => {
    const { store, commands } = await meteredStore();
    const leases = [];
    for (let i = 0; i < 20; i++) {
      const run = makeRun(100 + i);
      await store.runs.insert(run);
      leases.push({ id: run.id, lease: (await store.runs.claim(run.id, 'coord-1', TTL, T0))!.lease });
    }
    // All but the last are renewed past the claim's expiry; the last one's owner has gone.
    for (const { id, lease } of leases.slice(0, -1)) await store.runs.renew(id, lease, TTL, T0 + 5_000);
    commands.length = 0;
    const lapsed = await store.runs.findLapsed(T0 + TTL + 1);
    expect(lapsed.map((r) => r.id)).toEqual([leases.at(-1)!.id]);
    const reads = commands.filter((c) => c.name === 'find');
    expect(reads.filter((c) => c.collection === 'runs_revisions').length).toBeLessThanOrEqual(3);
    expect(reads.filter((c) => c.collection === 'run_leases').length).toBeLessThanOrEqual(3);
  });

  it('stores each revision and head as text beside the fields queries use, and still reads documents stored nested', async () => {
    const { store, dbName, commands } = await meteredStore();
    const run = makeRun(3);
    await store.runs.insert(run);
    const inserts = commands.filter((c) => c.name === 'insert' && c.collection === 'runs_revisions').map((c) => JSON.parse(c.text) as { documents: Record<string, unknown>[] });
    expect(typeof inserts[0]!.documents[0]!.body).toBe('string');
    const db = admin!.db(dbName);
    const head = await db.collection('runs').findOne({ _id: run.id as never });
    expect(head).toMatchObject({ status: 'running', accountId: 'acct_load', settled: false, _v: 1 });
    expect(typeof head!._body).toBe('string');
    expect(head).not.toHaveProperty('query');

    // A run written before bodies were text: a nested head and nested revisions, the first one compacted.
    const old = makeRun(4, { where: 'planning' });
    await db.collection('runs').insertOne({ ...old, _id: old.id, _v: 1, insertedSeq: 1 } as never);
    await db.collection('runs_revisions').insertMany([
      { _id: `${old.id}:1`, v: 1, compacted: true },
      { _id: `${old.id}:2`, v: 2, doc: { ...old, where: 'round 1 · searching', insertedSeq: 1 } },
    ] as never);
    expect(await store.runs.get(old.id)).toMatchObject({ id: old.id, where: 'round 1 · searching' });
    const claimed = await store.runs.claim(old.id, 'coord-1', TTL, T0);
    expect(claimed?.lease.epoch).toBe(1);
    expect(await store.runs.progress(old.id, claimed!.lease, { where: 'round 1 · screening' }, T0 + 1)).toBe(true);
    expect((await store.runs.listRecent('acct_load', 10)).map((r) => [r.id, r.where])).toEqual(expect.arrayContaining([[old.id, 'round 1 · screening']]));
  });

  it('runs the run, idempotency and webhook stores on one client that outlives them', async () => {
    const dbName = uniqueName('lf_client');
    const client = await connectMongo({ url: url! });
    try {
      const store = await createMongoStore({ client, dbName, logger: silentLogger });
      const idempotency = await createMongoIdempotencyStore({ client, dbName });
      const webhooks = await createMongoWebhookStore({ client, dbName });
      await store.runs.insert(makeRun(5));
      await Promise.all([store.close(), idempotency.close(), webhooks.close()]);
      // Closing the stores left the shared client open: it still answers.
      expect(await client.db(dbName).collection('runs').countDocuments()).toBe(1);
    } finally {
      await client.db(dbName).dropDatabase();
      await client.close();
    }
  });
});
