import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  assertLedgerInvariants, createBilling, silentLogger,
  type BillingStep, type RunDoc, type Store, type TerminalPatch,
} from '@leadfinder/platform';
import { makeRun } from './store-contract.js';

/**
 * billing.endRun, the one way a run ends (the coordinator's tail and interruptions, the edge's release of
 * a run that never started), on a real store: terminal and settled in one step, with ledger entries that
 * keep the money invariants, fenced by the lease, once only, and repaired by reconcile after a crash.
 */
const USD = 1_000_000;
const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const clock = { now: () => T0 };

const ended = (chargeMicrousd: number, overrides: Partial<TerminalPatch> = {}): TerminalPatch => ({
  status: 'done', where: 'done', spendMicrousd: chargeMicrousd, chargeMicrousd, usdDisplay: '$0.00',
  stopReason: null, result: null, finishedAt: iso(T0 + 60_000), ...overrides,
});

export function describeEndRunContract(name: string, makeStore: () => Promise<Store>): void {
  describe(`${name} billing.endRun`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await makeStore();
      await store.accounts.create({ id: 'acc_a', email: null, createdAt: iso(T0) });
      await createBilling({ store, clock, logger: silentLogger }).topup('acc_a', 20 * USD, 'initial');
    });
    afterEach(async () => {
      await store.close();
    });

    const billing = () => createBilling({ store, clock, logger: silentLogger });

    /** A run with its 5.00 hold, recorded (and claimed by `owner` when given). */
    async function openRun(owner?: string) {
      const run = makeRun();
      expect(await billing().reserve('acc_a', run.id, run.holdMicrousd)).toEqual({ ok: true });
      await store.runs.insert(run);
      const lease = owner ? (await store.runs.claim(run.id, owner, 10_000, T0))!.lease : null;
      return { run: (await store.runs.get(run.id))!, lease };
    }

    it('makes the run terminal and settles it: charged its charge, the rest released, ledger in balance', async () => {
      const { run, lease } = await openRun('coordinator-1');
      expect(await billing().endRun(run, lease, ended(1_234_567))).toBe(true);
      expect(await store.runs.get(run.id)).toMatchObject({ status: 'done', chargeMicrousd: 1_234_567, settled: true });
      expect(await store.accounts.get('acc_a')).toMatchObject({ balanceMicrousd: 20 * USD - 1_234_567, heldMicrousd: 0 });
      expect((await store.ledger.list('acc_a')).map((e) => e.kind).sort()).toEqual(['charge', 'hold', 'release', 'topup']);
      await assertLedgerInvariants(store, 'acc_a');
    });

    it('ends a run once: twenty at once (or a replay) charge it once, and only one of them ends it', async () => {
      const { run, lease } = await openRun('coordinator-1');
      const results = await Promise.all(Array.from({ length: 20 }, () => billing().endRun(run, lease, ended(700_000))));
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await billing().endRun(run, lease, ended(900_000, { status: 'error' }))).toBe(false);
      expect(await store.runs.get(run.id)).toMatchObject({ status: 'done', chargeMicrousd: 700_000, settled: true });
      expect(await store.accounts.get('acc_a')).toMatchObject({ balanceMicrousd: 20 * USD - 700_000, heldMicrousd: 0 });
      await assertLedgerInvariants(store, 'acc_a');
    });

    it('changes nothing for a coordinator whose lease another one took over', async () => {
      const { run, lease } = await openRun('coordinator-1');
      const later = T0 + 20_000; // the first lease lapsed; another coordinator claims the run
      expect(await store.runs.claim(run.id, 'coordinator-2', 10_000, later)).not.toBeNull();
      expect(await billing().endRun(run, lease, ended(1 * USD))).toBe(false);
      expect(await store.runs.get(run.id)).toMatchObject({ status: 'running', settled: false });
      expect(await store.accounts.get('acc_a')).toMatchObject({ balanceMicrousd: 20 * USD, heldMicrousd: 5 * USD });
      await assertLedgerInvariants(store, 'acc_a');
    });

    const settleSteps: BillingStep[] = ['settle.account', 'settle.ledger-charge', 'settle.ledger-release', 'settle.mark-settled'];
    it.each(settleSteps)('leaves a run it ended but could not settle (crash before %s) to reconcile, which settles it once', async (crashAt) => {
      const { run, lease } = await openRun('coordinator-1');
      const crashing = createBilling({
        store, clock, logger: silentLogger,
        faults: { before: (s) => { if (s === crashAt) throw new Error(`crash before ${s}`); } },
      });
      expect(await crashing.endRun(run, lease, ended(250_000))).toBe(true);
      expect(await store.runs.get(run.id)).toMatchObject({ status: 'done', settled: false });
      expect(await billing().reconcile()).toBe(1);
      expect(await billing().reconcile()).toBe(0);
      expect(await store.runs.get(run.id)).toMatchObject({ settled: true });
      expect(await store.accounts.get('acc_a')).toMatchObject({ balanceMicrousd: 20 * USD - 250_000, heldMicrousd: 0 });
      await assertLedgerInvariants(store, 'acc_a');
    });

    it('releases the hold of a run whose record was never written, with its ledger entries, and writes no record', async () => {
      const run: RunDoc = makeRun();
      expect(await billing().reserve('acc_a', run.id, run.holdMicrousd)).toEqual({ ok: true });
      expect(await billing().endRun(run, null, ended(0, { status: 'error', where: 'queued' }), { recorded: false })).toBe(true);
      expect(await store.runs.get(run.id)).toBeNull();
      expect(await store.accounts.get('acc_a')).toMatchObject({ balanceMicrousd: 20 * USD, heldMicrousd: 0, availableMicrousd: 20 * USD });
      expect((await store.ledger.list('acc_a')).filter((e) => e.runId === run.id).map((e) => [e.kind, e.micros]).sort())
        .toEqual([['charge', 0], ['hold', 5 * USD], ['release', 5 * USD]]);
      await assertLedgerInvariants(store, 'acc_a');
    });

    it('throws when the hold of a run with no record cannot be settled (nothing would repair it later)', async () => {
      const run: RunDoc = makeRun();
      expect(await billing().reserve('acc_a', run.id, run.holdMicrousd)).toEqual({ ok: true });
      const crashing = createBilling({
        store, clock, logger: silentLogger,
        faults: { before: (s) => { if (s === 'settle.account') throw new Error('store down'); } },
      });
      await expect(crashing.endRun(run, null, ended(0, { status: 'error' }), { recorded: false })).rejects.toThrow('store down');
      expect(await store.accounts.get('acc_a')).toMatchObject({ heldMicrousd: 5 * USD });
      await assertLedgerInvariants(store, 'acc_a');
    });
  });
}
