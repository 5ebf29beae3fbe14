import { isTerminal } from '@leadfinder/wire';
import type { Clock } from '../context.js';
import { InternalError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { AccountDoc, LedgerEntry, LedgerKind, RunDoc, RunLease, Store, TerminalPatch } from '../ports/store.js';

/** The write steps of reserve and settle, in order; a fault hook runs before each one. */
export type BillingStep =
  | 'reserve.account' | 'reserve.ledger'
  | 'settle.account' | 'settle.ledger-charge' | 'settle.ledger-release' | 'settle.mark-settled';

export interface BillingOptions {
  store: Store;
  clock: Clock;
  logger: Logger;
  /** Tests only: called before every write step; throwing simulates a crash between two writes. */
  faults?: { before(step: BillingStep): void | Promise<void> };
}

export type ReserveResult =
  | { ok: true }
  | { ok: false; reason: 'insufficient'; availableMicrousd: number; heldMicrousd: number; neededMicrousd: number }
  | { ok: false; reason: 'closed' | 'missing' };

/**
 * Money operations composed from the store's atomic primitives. The account document is the truth;
 * ledger entries follow it and are keyed so a replay writes nothing twice. Ledger kinds: `hold` (the
 * reservation), `charge` (what the run cost), `release` (the whole hold leaving `held`), `topup`; so
 * at rest balance = Σtopup − Σcharge and held = Σhold − Σrelease (checked by `checkLedgerInvariants`).
 */
export interface Billing {
  /** Hold the reservation for a run before any work (one conditional update + a ledger entry). */
  reserve(accountId: string, runId: string, micros: number): Promise<ReserveResult>;
  /** Settle a terminal run's hold: charge its `chargeMicrousd`, release the rest; idempotent. */
  settle(run: RunDoc): Promise<void>;
  /**
   * End a run, the one way every role does it: make it terminal with `patch` (fenced by `lease`; null for
   * a run no coordinator claimed), then settle its hold in the same step (charge `patch.chargeMicrousd`,
   * release the rest, both in the ledger). False when the run was already terminal or the lease is lost:
   * nothing changed. Once the run is terminal a failed settlement is logged and left to reconcile() (the
   * run stays `settled: false`). `recorded: false` is a run whose record was never written (its insert
   * failed): its hold is settled with the same ledger entries and no record is touched; as nothing could
   * repair it later, a failure then is thrown.
   */
  endRun(run: RunDoc, lease: RunLease | null, patch: TerminalPatch, options?: { recorded?: boolean }): Promise<boolean>;
  /** Finish every settlement a crash left half-done; returns how many runs it repaired. */
  reconcile(): Promise<number>;
  /** Top up; idempotent per entryKey. */
  topup(accountId: string, micros: number, entryKey: string): Promise<AccountDoc | null>;
}

export function createBilling(options: BillingOptions): Billing {
  const { store, clock, logger } = options;
  const step = async (name: BillingStep) => options.faults?.before(name);
  const at = () => new Date(clock.now()).toISOString();
  const entry = (kind: LedgerKind, accountId: string, runId: string, micros: number): LedgerEntry =>
    ({ key: `${kind}:${runId}`, accountId, kind, runId, micros, at: at() });

  /** Returns false when the run was already settled (nothing to do). `recorded: false`: no run record to mark. */
  async function settleRun(run: RunDoc, recorded = true): Promise<boolean> {
    if (!isTerminal(run.status) || run.chargeMicrousd === null) {
      throw new InternalError(`run ${run.id} cannot be settled: it is ${run.status} with no charge`);
    }
    if (run.chargeMicrousd > run.holdMicrousd) {
      throw new InternalError(`run ${run.id} charge ${run.chargeMicrousd} exceeds its hold ${run.holdMicrousd}`);
    }
    if (run.settled) return false;
    if (run.holdMicrousd > 0) {
      await step('settle.account');
      const out = await store.accounts.settle(run.accountId, run.id, run.chargeMicrousd);
      // On a replay the account's hold is gone; the run's own record of it is the same amount.
      const hold = out.applied ? out.holdMicrousd : run.holdMicrousd;
      await step('settle.ledger-charge');
      await store.ledger.append(entry('charge', run.accountId, run.id, run.chargeMicrousd));
      await step('settle.ledger-release');
      await store.ledger.append(entry('release', run.accountId, run.id, hold));
    }
    if (!recorded) return true;
    await step('settle.mark-settled');
    await store.runs.markSettled(run.id);
    return true;
  }

  return {
    async reserve(accountId, runId, micros) {
      await step('reserve.account');
      const out = await store.accounts.reserve(accountId, runId, micros);
      if (!out.ok) {
        return out.reason === 'insufficient' ? { ...out, neededMicrousd: micros } : out;
      }
      await step('reserve.ledger');
      await store.ledger.append(entry('hold', accountId, runId, out.holdMicrousd));
      return { ok: true };
    },

    async settle(run) {
      await settleRun(run);
    },

    async endRun(run, lease, patch, endOptions = {}) {
      const recorded = endOptions.recorded ?? true;
      if (recorded && !(await store.runs.finish(run.id, lease, patch))) return false;
      const ended: RunDoc = (recorded ? await store.runs.get(run.id).catch(() => null) : null)
        ?? { ...run, ...patch, lease, updatedAt: patch.finishedAt };
      try {
        await settleRun(ended, recorded);
      } catch (error) {
        if (!recorded) throw error;
        logger.error('settlement failed; the reconciler will finish it', { runId: run.id, error: String(error) });
      }
      return true;
    },

    async reconcile() {
      let repaired = 0;
      for (const run of await store.runs.findUnsettled()) {
        try {
          if (await settleRun(run)) repaired++;
        } catch (error) {
          logger.error('reconcile: settlement failed', { runId: run.id, error: String(error) });
        }
      }
      for (const account of await store.accounts.listWithHolds()) {
        for (const [runId, micros] of Object.entries(await store.accounts.listHolds(account.id))) {
          if (await store.ledger.append(entry('hold', account.id, runId, micros))) {
            logger.warn('reconcile: wrote missing hold entry', { accountId: account.id, runId });
            repaired++;
          }
        }
      }
      return repaired;
    },

    async topup(accountId, micros, entryKey) {
      const account = await store.accounts.topup(accountId, micros, entryKey, at());
      if (account) {
        // The account id is part of the key: the same entry key on two accounts is two top-ups.
        await store.ledger.append({ key: `topup:${accountId}:${entryKey}`, accountId, kind: 'topup', runId: null, micros, at: at() });
      }
      return account;
    },
  };
}
