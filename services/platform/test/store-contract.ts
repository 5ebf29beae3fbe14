import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  assertLedgerInvariants, checkLedgerInvariants, createBilling, silentLogger,
  type BillingStep, type KeyDoc, type RunDoc, type Store, type TerminalPatch,
} from '@leadfinder/platform';

/**
 * The behaviour every Store adapter must have, run unchanged against each one; plus the billing
 * service on top of it. `makeStore` returns a fresh, empty store; the suite closes it after each test.
 */
const USD = 1_000_000;
const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
let counter = 0;
const runId = () => (Date.now().toString(16) + (++counter).toString(16).padStart(8, '0')).padStart(32, '0').slice(-32);

export function makeRun(overrides: Partial<RunDoc> = {}): RunDoc {
  return {
    id: runId(), accountId: 'acc_a', query: 'fintech startups in Berlin', target: 10, speed: 'advanced', relax: true,
    sites: '', status: 'running', where: 'queued', spendMicrousd: 0, holdMicrousd: 5 * USD, chargeMicrousd: null,
    settled: false, usdDisplay: '$0.00', stopReason: null, deadlineAt: iso(T0 + 9_000_000), createdAt: iso(T0),
    updatedAt: iso(T0), finishedAt: null, result: null, lease: null, started: false, trace: {}, ...overrides,
  };
}

const terminal = (overrides: Partial<TerminalPatch> = {}): TerminalPatch => ({
  status: 'done', where: 'done', spendMicrousd: 1_234_567, chargeMicrousd: 1_234_567, usdDisplay: '$1.2346',
  stopReason: null, result: null, finishedAt: iso(T0 + 60_000), ...overrides,
});

/**
 * What an adapter sent to its storage so far: requests (journal lines, or commands to the server) and
 * their bytes. Cost tests compare these counts, never wall time (timings belong in bench/).
 */
export interface Traffic {
  requests: number;
  bytes: number;
}
export type MeteredStore = Store & { traffic(): Traffic };

function useStore<S extends Store>(makeStore: () => Promise<S>): () => S {
  let store: S | undefined;
  beforeEach(async () => {
    store = await makeStore();
  });
  afterEach(async () => {
    await store?.close();
    store = undefined;
  });
  return () => store!;
}

async function fundedAccount(store: Store, id: string, usd: number): Promise<void> {
  await store.accounts.create({ id, email: null, createdAt: iso(T0) });
  const billing = createBilling({ store, clock: { now: () => T0 }, logger: silentLogger });
  await billing.topup(id, usd * USD, `initial-${id}`);
}

/**
 * `busyHolds`: open holds on the busy account of the O(1) test. The adapters' request counts do not
 * depend on it; FerretDB answers every point read with a table scan, so filling 5,000 there costs a
 * minute of its CPU and proves nothing more than 1,000 does.
 */
export function describeStoreContract(
  name: string,
  makeStore: () => Promise<MeteredStore>,
  { busyHolds = 5000 }: { busyHolds?: number } = {},
): void {
  describe(`${name} store contract`, () => {
    const store = useStore(makeStore);

    describe('runs', () => {
      it('reads back an inserted run, answers null for an unknown id and refuses a duplicate id', async () => {
        const run = makeRun();
        await store().runs.insert(run);
        expect(await store().runs.get(run.id)).toEqual(run);
        expect(await store().runs.get('f'.repeat(32))).toBeNull();
        await expect(store().runs.insert(run)).rejects.toMatchObject({ code: 'LF_ERR_CONFLICT' });
      });

      it('lists an account\'s runs newest first, limited, and never another account\'s', async () => {
        const older = makeRun({ createdAt: iso(T0) });
        const tieFirst = makeRun({ createdAt: iso(T0 + 1000) });
        const tieSecond = makeRun({ createdAt: iso(T0 + 1000) });
        const newest = makeRun({ createdAt: iso(T0 + 2000) });
        const foreign = makeRun({ accountId: 'acc_b', createdAt: iso(T0 + 5000) });
        for (const r of [older, tieFirst, tieSecond, newest, foreign]) await store().runs.insert(r);
        const ids = async (limit: number) => (await store().runs.listRecent('acc_a', limit)).map((r) => r.id);
        expect(await ids(50)).toEqual([newest.id, tieSecond.id, tieFirst.id, older.id]);
        expect(await ids(2)).toEqual([newest.id, tieSecond.id]);
        expect((await store().runs.listRecent('acc_c', 50))).toEqual([]);
      });

      it('lets only one owner hold a live lease, and another take it once it lapses', async () => {
        const run = makeRun();
        await store().runs.insert(run);
        const first = await store().runs.claim(run.id, 'coord-1', 10_000, T0);
        expect(first?.lease).toEqual({ owner: 'coord-1', expiresAt: T0 + 10_000, epoch: 1 });
        expect(first?.before.started).toBe(false);
        expect(await store().runs.claim(run.id, 'coord-2', 10_000, T0 + 9_999)).toBeNull();
        expect(await store().runs.progress(run.id, first!.lease, { where: 'planning', started: true, spendMicrousd: 5000 }, T0 + 1)).toBe(true);

        const second = await store().runs.claim(run.id, 'coord-2', 10_000, T0 + 10_000);
        expect(second?.lease).toMatchObject({ owner: 'coord-2', epoch: 2 });
        expect(second?.before).toMatchObject({ started: true, where: 'planning', spendMicrousd: 5000 });
        // The stale owner is fenced out of every write.
        expect(await store().runs.renew(run.id, first!.lease, 10_000, T0 + 10_001)).toBeNull();
        expect(await store().runs.progress(run.id, first!.lease, { where: 'stale' }, T0 + 10_001)).toBe(false);
        expect(await store().runs.finish(run.id, first!.lease, terminal())).toBe(false);
        expect((await store().runs.get(run.id))?.where).toBe('planning');

        const renewed = await store().runs.renew(run.id, second!.lease, 10_000, T0 + 15_000);
        expect(renewed).toEqual({ owner: 'coord-2', expiresAt: T0 + 25_000, epoch: 2 });
        expect(await store().runs.claim(run.id, 'coord-3', 10_000, T0 + 20_000)).toBeNull();
        expect(await store().runs.finish(run.id, renewed, terminal())).toBe(true);
      });

      it('makes a run terminal only once, and only from running', async () => {
        const run = makeRun();
        await store().runs.insert(run);
        expect(await store().runs.finish(run.id, null, terminal({ status: 'stopped' }))).toBe(true);
        expect(await store().runs.finish(run.id, null, terminal({ status: 'error' }))).toBe(false);
        const after = await store().runs.get(run.id);
        expect(after).toMatchObject({ status: 'stopped', chargeMicrousd: 1_234_567, settled: false, finishedAt: iso(T0 + 60_000) });
        expect(await store().runs.claim(run.id, 'coord-1', 10_000, T0)).toBeNull();
        expect(await store().runs.finish('0'.repeat(32), null, terminal())).toBe(false);
      });

      it('finds lapsed, overdue, unclaimed and unsettled runs, and forgets settled ones', async () => {
        const unclaimed = makeRun();
        const leased = makeRun();
        const lapsed = makeRun();
        const overdue = makeRun({ deadlineAt: iso(T0 + 1000) });
        const finished = makeRun();
        for (const r of [unclaimed, leased, lapsed, overdue, finished]) await store().runs.insert(r);
        await store().runs.claim(leased.id, 'c', 60_000, T0);
        await store().runs.claim(lapsed.id, 'c', 1_000, T0);
        await store().runs.claim(overdue.id, 'c', 60_000, T0);
        await store().runs.finish(finished.id, null, terminal());
        const ids = (runs: RunDoc[]) => runs.map((r) => r.id).sort();

        expect(ids(await store().runs.findLapsed(T0 + 5_000))).toEqual([lapsed.id]);
        expect(ids(await store().runs.findOverdue(iso(T0 + 2_000)))).toEqual([overdue.id]);
        expect(ids(await store().runs.findUnclaimed())).toEqual([unclaimed.id]);
        expect(ids(await store().runs.findUnsettled())).toEqual([finished.id]);
        await store().runs.markSettled(finished.id);
        expect(await store().runs.findUnsettled()).toEqual([]);
        expect((await store().runs.get(finished.id))?.settled).toBe(true);
      });
    });

    describe('accounts', () => {
      it('creates an empty active account and refuses a duplicate id', async () => {
        const created = await store().accounts.create({ id: 'acc_a', email: 'a@b.c', createdAt: iso(T0) });
        expect(created).toEqual({
          id: 'acc_a', email: 'a@b.c', status: 'active', balanceMicrousd: 0, heldMicrousd: 0, availableMicrousd: 0, createdAt: iso(T0),
          sessionVersion: 0,
        });
        expect(await store().accounts.get('acc_a')).toEqual(created);
        expect(await store().accounts.get('acc_none')).toBeNull();
        await expect(store().accounts.create({ id: 'acc_a', email: null, createdAt: iso(T0) })).rejects.toMatchObject({ code: 'LF_ERR_CONFLICT' });
      });

      it('applies a top-up once per entry key', async () => {
        await store().accounts.create({ id: 'acc_a', email: null, createdAt: iso(T0) });
        await store().accounts.topup('acc_a', 10 * USD, 'k1', iso(T0));
        const replay = await store().accounts.topup('acc_a', 10 * USD, 'k1', iso(T0));
        expect(replay).toMatchObject({ balanceMicrousd: 10 * USD, availableMicrousd: 10 * USD });
        expect(await store().accounts.topup('acc_a', 2 * USD, 'k2', iso(T0))).toMatchObject({ balanceMicrousd: 12 * USD });
        expect(await store().accounts.topup('acc_none', USD, 'k3', iso(T0))).toBeNull();
      });

      it('reserves exactly up to the available balance and reports what is available and held', async () => {
        await store().accounts.create({ id: 'acc_a', email: null, createdAt: iso(T0) });
        await store().accounts.topup('acc_a', 10 * USD, 'k1', iso(T0));
        expect(await store().accounts.reserve('acc_a', 'run1', 5 * USD)).toMatchObject({ ok: true });
        expect(await store().accounts.reserve('acc_a', 'run2', 5 * USD)).toMatchObject({ ok: true, account: { availableMicrousd: 0 } });
        expect(await store().accounts.reserve('acc_a', 'run3', 1)).toEqual({
          ok: false, reason: 'insufficient', availableMicrousd: 0, heldMicrousd: 10 * USD,
        });
        // A second reserve for the same run holds nothing more.
        expect(await store().accounts.reserve('acc_a', 'run1', 5 * USD)).toMatchObject({ ok: true, account: { heldMicrousd: 10 * USD } });
        expect(await store().accounts.reserve('acc_none', 'run4', 1)).toEqual({ ok: false, reason: 'missing' });
        expect(await store().accounts.close('acc_a')).toBe(true);
        await store().accounts.topup('acc_a', 10 * USD, 'k2', iso(T0));
        expect(await store().accounts.reserve('acc_a', 'run5', 1)).toEqual({ ok: false, reason: 'closed' });
        expect((await store().accounts.get('acc_a'))?.status).toBe('closed');
      });

      it('settles a hold once: charges the charge, releases the rest, and a replay changes nothing', async () => {
        await store().accounts.create({ id: 'acc_a', email: null, createdAt: iso(T0) });
        await store().accounts.topup('acc_a', 10 * USD, 'k1', iso(T0));
        await store().accounts.reserve('acc_a', 'run1', 5 * USD);
        await expect(store().accounts.settle('acc_a', 'run1', 5 * USD + 1)).rejects.toMatchObject({ code: 'LF_ERR_INVALID_ARGUMENT' });
        expect(await store().accounts.settle('acc_a', 'run1', 1_250_000)).toEqual({ applied: true, holdMicrousd: 5 * USD });
        const settled = await store().accounts.get('acc_a');
        expect(settled).toMatchObject({ balanceMicrousd: 8_750_000, heldMicrousd: 0, availableMicrousd: 8_750_000 });
        expect(await store().accounts.listHolds('acc_a')).toEqual({});
        expect(await store().accounts.settle('acc_a', 'run1', 1_250_000)).toEqual({ applied: false, holdMicrousd: 0 });
        expect(await store().accounts.get('acc_a')).toEqual(settled);
        // A run holds once: its reserve replayed after the settlement holds nothing again.
        expect(await store().accounts.reserve('acc_a', 'run1', 5 * USD)).toMatchObject({ ok: true, holdMicrousd: 5 * USD });
        expect(await store().accounts.get('acc_a')).toEqual(settled);
        expect(await store().accounts.listHolds('acc_a')).toEqual({});
      });

      it('lists an account\'s open holds by run id', async () => {
        await fundedAccount(store(), 'acc_a', 10);
        await store().accounts.reserve('acc_a', 'run1', USD);
        await store().accounts.reserve('acc_a', 'run2', 2 * USD);
        await store().accounts.reserve('acc_a', 'run3', 3 * USD);
        await store().accounts.settle('acc_a', 'run2', 0);
        expect(await store().accounts.listHolds('acc_a')).toEqual({ run1: USD, run3: 3 * USD });
        expect(await store().accounts.listHolds('acc_none')).toEqual({});
      });

      it(`reserves, spends and settles at the same cost with 0 or ${busyHolds.toLocaleString('en')} open holds on the account`, async () => {
        const s = store();
        await fundedAccount(s, 'acc_idle', 100);
        await fundedAccount(s, 'acc_busy', 100_000);
        const busyRuns = Array.from({ length: busyHolds }, (_, i) => `busy${String(i).padStart(5, '0')}`);
        for (let i = 0; i < busyRuns.length; i += 500) {
          const results = await Promise.all(busyRuns.slice(i, i + 500).map((r) => s.accounts.reserve('acc_busy', r, 5 * USD)));
          expect(results.every((r) => r.ok)).toBe(true);
        }
        expect(Object.keys(await s.accounts.listHolds('acc_busy'))).toHaveLength(busyHolds);

        /** Traffic of one reserve, one spend (progress) and one settle of a fresh run on the account. */
        async function costs(accountId: string): Promise<Traffic[]> {
          const run = makeRun({ accountId });
          await s.runs.insert(run);
          const { lease } = (await s.runs.claim(run.id, 'coord-1', 60_000, T0))!;
          // One change first, so both accounts are read from the same starting point.
          await s.accounts.reserve(accountId, `${run.id}-warm`, 1);
          const steps = [
            () => s.accounts.reserve(accountId, run.id, 5 * USD),
            () => s.runs.progress(run.id, lease, { spendMicrousd: 1_000 }, T0 + 1),
            () => s.accounts.settle(accountId, run.id, 1_000),
          ];
          const out: Traffic[] = [];
          for (const step of steps) {
            const before = s.traffic();
            await step();
            const after = s.traffic();
            out.push({ requests: after.requests - before.requests, bytes: after.bytes - before.bytes });
          }
          return out;
        }
        const idle = await costs('acc_idle');
        const busy = await costs('acc_busy');
        for (const [i, step] of ['reserve', 'spend', 'settle'].entries()) {
          expect(busy[i]!.requests, step).toBe(idle[i]!.requests);
          // Only the digits of the balances and revision numbers differ.
          expect(Math.abs(busy[i]!.bytes - idle[i]!.bytes), step).toBeLessThanOrEqual(48);
        }
      }, 120_000);

      it('renews a lease with a small write, not a rewrite of the run', async () => {
        const s = store();
        const run = makeRun({ query: 'q'.repeat(4000) });
        await s.runs.insert(run);
        const { lease } = (await s.runs.claim(run.id, 'coord-1', 10_000, T0))!;
        const before = s.traffic();
        const renewed = await s.runs.renew(run.id, lease, 10_000, T0 + 5_000);
        const after = s.traffic();
        expect(renewed).toEqual({ ...lease, expiresAt: T0 + 15_000 });
        expect(after.bytes - before.bytes).toBeLessThan(1_000);
        expect((await s.runs.get(run.id))?.lease).toMatchObject({ owner: 'coord-1', epoch: 1 });
        expect(await s.runs.findLapsed(T0 + 14_999)).toEqual([]);
        expect((await s.runs.findLapsed(T0 + 15_000)).map((r) => r.lease)).toEqual([renewed]);
        expect(await s.runs.claim(run.id, 'coord-2', 10_000, T0 + 14_999)).toBeNull();
        expect(await s.runs.claim(run.id, 'coord-2', 10_000, T0 + 15_000)).toMatchObject({ lease: { owner: 'coord-2', epoch: 2 } });
      });

      it('deletes an account and its keys stop resolving', async () => {
        await store().accounts.create({ id: 'acc_a', email: null, createdAt: iso(T0) });
        await store().keys.insert(makeKey({ accountId: 'acc_a', prefix: 'lf_live_Del1' }));
        expect(await store().accounts.delete('acc_a')).toBe(true);
        expect(await store().accounts.get('acc_a')).toBeNull();
        expect(await store().keys.findByPrefix('lf_live_Del1')).toEqual([]);
        expect(await store().accounts.delete('acc_a')).toBe(false);
        expect(await store().accounts.close('acc_a')).toBe(false);
      });

      it('keeps a tombstone of a deleted account: its id is never created again', async () => {
        await store().accounts.create({ id: 'acc_a', email: 'a@b.c', createdAt: iso(T0) });
        await store().accounts.topup('acc_a', 25 * USD, 'welcome:acc_a', iso(T0));
        expect(await store().accounts.delete('acc_a')).toBe(true);
        await expect(store().accounts.create({ id: 'acc_a', email: 'a@b.c', createdAt: iso(T0) })).rejects.toMatchObject({ code: 'LF_ERR_CONFLICT' });
        expect(await store().accounts.get('acc_a')).toBeNull();
        expect(await store().accounts.topup('acc_a', 25 * USD, 'welcome:acc_a', iso(T0))).toBeNull();
      });

      it('bumps the session version to revoke sessions, and keeps it', async () => {
        await store().accounts.create({ id: 'acc_a', email: null, createdAt: iso(T0) });
        expect(await store().accounts.revokeSessions('acc_a')).toMatchObject({ id: 'acc_a', sessionVersion: 1 });
        await store().accounts.topup('acc_a', USD, 'k1', iso(T0));
        expect(await store().accounts.revokeSessions('acc_a')).toMatchObject({ sessionVersion: 2, balanceMicrousd: USD });
        expect(await store().accounts.get('acc_a')).toMatchObject({ sessionVersion: 2, balanceMicrousd: USD });
        expect(await store().accounts.revokeSessions('acc_none')).toBeNull();
      });

      it('refuses a top-up whose balance would pass the largest safe integer, and changes nothing', async () => {
        await store().accounts.create({ id: 'acc_a', email: null, createdAt: iso(T0) });
        await store().accounts.topup('acc_a', Number.MAX_SAFE_INTEGER - 10, 'k1', iso(T0));
        await expect(store().accounts.topup('acc_a', 11, 'k2', iso(T0))).rejects.toMatchObject({ code: 'LF_ERR_INVALID_ARGUMENT' });
        expect(await store().accounts.topup('acc_a', 10, 'k3', iso(T0))).toMatchObject({ balanceMicrousd: Number.MAX_SAFE_INTEGER });
        expect(await store().accounts.get('acc_a')).toMatchObject({ balanceMicrousd: Number.MAX_SAFE_INTEGER, availableMicrousd: Number.MAX_SAFE_INTEGER });
      });

      it('lists the accounts that have open holds', async () => {
        await fundedAccount(store(), 'acc_a', 10);
        await fundedAccount(store(), 'acc_b', 10);
        await store().accounts.reserve('acc_b', 'run1', USD);
        expect((await store().accounts.listWithHolds()).map((a) => a.id)).toEqual(['acc_b']);
      });
    });

    describe('ledger and keys', () => {
      it('appends a ledger entry once per key and lists an account\'s entries', async () => {
        const entry = { key: 'hold:run1', accountId: 'acc_a', kind: 'hold' as const, runId: 'run1', micros: 5 * USD, at: iso(T0) };
        expect(await store().ledger.append(entry)).toBe(true);
        expect(await store().ledger.append({ ...entry, micros: 1 })).toBe(false);
        await store().ledger.append({ ...entry, key: 'hold:run2', accountId: 'acc_b', runId: 'run2' });
        expect(await store().ledger.list('acc_a')).toEqual([entry]);
      });

      it('finds live keys by prefix, lists them, revokes only the owner\'s key once, and records use', async () => {
        const key = makeKey({ accountId: 'acc_a', prefix: 'lf_live_AbCd' });
        const other = makeKey({ accountId: 'acc_b', prefix: 'lf_live_XyZw' });
        await store().keys.insert(key);
        await store().keys.insert(other);
        await expect(store().keys.insert(key)).rejects.toMatchObject({ code: 'LF_ERR_CONFLICT' });
        expect(await store().keys.findByPrefix('lf_live_AbCd')).toEqual([key]);
        await store().keys.touch(key.id, iso(T0 + 5));
        expect(await store().keys.listForAccount('acc_a')).toEqual([{ ...key, lastUsedAt: iso(T0 + 5) }]);
        expect(await store().keys.revoke('acc_b', key.id, iso(T0 + 6))).toBe(false);
        expect(await store().keys.revoke('acc_a', key.id, iso(T0 + 6))).toBe(true);
        expect(await store().keys.revoke('acc_a', key.id, iso(T0 + 7))).toBe(false);
        expect(await store().keys.findByPrefix('lf_live_AbCd')).toEqual([]);
        expect(await store().keys.listForAccount('acc_a')).toEqual([]);
        expect(await store().keys.listForAccount('acc_b')).toEqual([other]);
      });
    });

    it('answers ping while open', async () => {
      await expect(store().ping()).resolves.toBeUndefined();
    });
  });
}

let keyCounter = 0;
function makeKey(overrides: Partial<KeyDoc>): KeyDoc {
  return {
    id: `key_${++keyCounter}_${Date.now().toString(36)}`, accountId: 'acc_a', name: 'laptop', prefix: 'lf_live_AbCd',
    hash: 'ab'.repeat(32), createdAt: iso(T0), lastUsedAt: null, revokedAt: null, ...overrides,
  };
}

export function describeBillingContract(name: string, makeStore: () => Promise<Store>): void {
  describe(`${name} billing`, () => {
    const store = useStore(makeStore);
    const clock = { now: () => T0 };

    it('accepts exactly as many concurrent 5.00 reservations as the balance covers', async () => {
      await fundedAccount(store(), 'acc_a', 123.45);
      const billing = createBilling({ store: store(), clock, logger: silentLogger });
      const results = await Promise.all(Array.from({ length: 200 }, (_, i) => billing.reserve('acc_a', `run${i}`, 5 * USD)));
      const accepted = results.filter((r) => r.ok).length;
      expect(accepted).toBe(24);
      expect(results.find((r) => !r.ok)).toMatchObject({ reason: 'insufficient', neededMicrousd: 5 * USD });
      expect(await store().accounts.get('acc_a')).toMatchObject({
        heldMicrousd: 24 * 5 * USD, availableMicrousd: 3_450_000, balanceMicrousd: 123_450_000,
      });
      await assertLedgerInvariants(store(), 'acc_a');
    });

    it('books the same top-up entry key on two accounts as two ledger entries', async () => {
      const billing = createBilling({ store: store(), clock, logger: silentLogger });
      for (const id of ['acc_a', 'acc_b']) {
        await store().accounts.create({ id, email: null, createdAt: iso(T0) });
        await billing.topup(id, 3 * USD, 'welcome');
        await billing.topup(id, 3 * USD, 'welcome');
        expect(await store().accounts.get(id)).toMatchObject({ balanceMicrousd: 3 * USD });
        await assertLedgerInvariants(store(), id);
      }
    });

    it('tells an insufficient reservation what was available, held and needed', async () => {
      await fundedAccount(store(), 'acc_a', 7);
      const billing = createBilling({ store: store(), clock, logger: silentLogger });
      expect(await billing.reserve('acc_a', 'run1', 5 * USD)).toEqual({ ok: true });
      expect(await billing.reserve('acc_a', 'run2', 5 * USD)).toEqual({
        ok: false, reason: 'insufficient', availableMicrousd: 2 * USD, heldMicrousd: 5 * USD, neededMicrousd: 5 * USD,
      });
      expect(await billing.reserve('acc_gone', 'run3', 5 * USD)).toEqual({ ok: false, reason: 'missing' });
    });

    const reserveSteps: BillingStep[] = ['reserve.account', 'reserve.ledger'];
    const settleSteps: BillingStep[] = ['settle.account', 'settle.ledger-charge', 'settle.ledger-release', 'settle.mark-settled'];

    /** A billing that "crashes" (throws) at `crashAt`, as a process dying between two writes. */
    const crashingBilling = (crashAt: BillingStep) => createBilling({
      store: store(), clock, logger: silentLogger,
      faults: { before: (s) => { if (s === crashAt) throw new Error(`crash before ${s}`); } },
    });

    async function finishedRun(): Promise<RunDoc> {
      const run = makeRun();
      const billing = createBilling({ store: store(), clock, logger: silentLogger });
      expect(await billing.reserve('acc_a', run.id, run.holdMicrousd)).toEqual({ ok: true });
      await store().runs.insert(run);
      await store().runs.finish(run.id, null, terminal({ chargeMicrousd: 1_234_567 }));
      return (await store().runs.get(run.id))!;
    }

    it.each(reserveSteps)('keeps the ledger invariants when a reservation crashes before %s and reconcile runs', async (step) => {
      await fundedAccount(store(), 'acc_a', 20);
      await expect(crashingBilling(step).reserve('acc_a', 'run_x', 5 * USD)).rejects.toThrow('crash');
      const billing = createBilling({ store: store(), clock, logger: silentLogger });
      expect(await billing.reconcile()).toBe(step === 'reserve.ledger' ? 1 : 0);
      expect(await checkLedgerInvariants(store(), 'acc_a')).toEqual([]);
      expect((await store().accounts.get('acc_a'))?.heldMicrousd).toBe(step === 'reserve.ledger' ? 5 * USD : 0);
    });

    it.each(settleSteps)('keeps the ledger invariants when a settlement crashes before %s and reconcile runs', async (step) => {
      await fundedAccount(store(), 'acc_a', 20);
      const run = await finishedRun();
      await expect(crashingBilling(step).settle(run)).rejects.toThrow('crash');
      const billing = createBilling({ store: store(), clock, logger: silentLogger });
      expect(await billing.reconcile()).toBe(1);
      expect(await billing.reconcile()).toBe(0);
      expect(await checkLedgerInvariants(store(), 'acc_a')).toEqual([]);
      expect(await store().accounts.get('acc_a')).toMatchObject({ balanceMicrousd: 20 * USD - 1_234_567, heldMicrousd: 0 });
      expect(await store().accounts.listHolds('acc_a')).toEqual({});
      expect((await store().runs.get(run.id))?.settled).toBe(true);
    });

    it('treats a replayed settlement as a no-op', async () => {
      await fundedAccount(store(), 'acc_a', 20);
      const run = await finishedRun();
      const billing = createBilling({ store: store(), clock, logger: silentLogger });
      await billing.settle(run);
      const account = await store().accounts.get('acc_a');
      const entries = await store().ledger.list('acc_a');
      await billing.settle(run);
      await billing.settle((await store().runs.get(run.id))!);
      expect(await store().accounts.get('acc_a')).toEqual(account);
      expect(await store().ledger.list('acc_a')).toEqual(entries);
      expect(account).toMatchObject({ balanceMicrousd: 20 * USD - 1_234_567, availableMicrousd: 20 * USD - 1_234_567 });
      await assertLedgerInvariants(store(), 'acc_a');
    });

    it('refuses to settle a run that is still running', async () => {
      const billing = createBilling({ store: store(), clock, logger: silentLogger });
      await expect(billing.settle(makeRun())).rejects.toMatchObject({ code: 'LF_ERR_INTERNAL' });
    });
  });
}
