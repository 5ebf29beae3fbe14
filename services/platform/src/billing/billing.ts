import type { Clock } from '../context.js';
import type { Logger } from '../logger.js';
import type { AccountDoc, RunDoc, Store } from '../ports/store.js';

export interface BillingOptions {
  store: Store;
  clock: Clock;
  logger: Logger;
}

export type ReserveResult =
  | { ok: true }
  | { ok: false; reason: 'insufficient'; availableMicrousd: number; heldMicrousd: number; neededMicrousd: number }
  | { ok: false; reason: 'closed' | 'missing' };

/** Money operations composed from the store's atomic primitives (STUB: being implemented). */
export interface Billing {
  /** Hold the reservation for a run before any work (one conditional update + a ledger entry). */
  reserve(accountId: string, runId: string, micros: number): Promise<ReserveResult>;
  /** Settle a terminal run's hold: charge its `chargeMicrousd`, release the rest; idempotent. */
  settle(run: RunDoc): Promise<void>;
  /** Finish every settlement a crash left half-done; returns how many runs it repaired. */
  reconcile(): Promise<number>;
  /** Top up; idempotent per entryKey. */
  topup(accountId: string, micros: number, entryKey: string): Promise<AccountDoc | null>;
}
export function createBilling(_options: BillingOptions): Billing {
  throw new Error('not implemented yet');
}
