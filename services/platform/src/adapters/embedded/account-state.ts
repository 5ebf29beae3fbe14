import type { AccountDoc } from '../../ports/store.js';
import { toAccountDoc, type AccountBalances, type HoldState } from '../../store/transitions.js';

/**
 * Accounts of the embedded store, built so that reserve, settle and reading an account cost the same
 * with no open holds as with 10,000: each hold is its own entry (a map by run id beside the account's
 * fields, never inside the document handed out), and a change is journaled as a delta line (new balances
 * plus the one hold or top-up key it touched), never as the whole account.
 */

/**
 * An account as a journal snapshot line holds it: its fields, its open holds, the runs whose hold was
 * settled (a run holds at most once) and the top-up keys applied (idempotency). Journals written before
 * holds were records of their own have the same shape without `settledHolds`.
 */
export interface AccountRecord extends AccountDoc {
  holds: Record<string, number>;
  settledHolds?: Record<string, number>;
  topupKeys: string[];
}

/** One journal line for a change to an existing account. */
export interface AccountDeltaRecord {
  c: 'account-delta';
  id: string;
  set: Partial<AccountBalances> & { status?: AccountDoc['status']; sessionVersion?: number };
  /** A hold opened (micros) or settled (null). */
  hold?: [runId: string, micros: number | null];
  /** A top-up key applied. */
  topupKey?: string;
}

export class AccountState {
  private readonly holds: Map<string, number>;
  /** Settled holds by run id: a replayed reserve answers from here instead of holding again. */
  private readonly settled: Map<string, number>;
  private readonly topupKeys: Set<string>;
  private fields: AccountDoc;

  constructor(record: AccountRecord) {
    const { holds, settledHolds, topupKeys, ...fields } = record;
    this.fields = toAccountDoc(fields);
    this.holds = new Map(Object.entries(holds));
    this.settled = new Map(Object.entries(settledHolds ?? {}));
    this.topupKeys = new Set(topupKeys);
  }

  get id(): string {
    return this.fields.id;
  }

  get status(): AccountDoc['status'] {
    return this.fields.status;
  }

  get balances(): AccountDoc {
    return this.fields;
  }

  get sessionVersion(): number {
    return this.fields.sessionVersion;
  }

  get holdCount(): number {
    return this.holds.size;
  }

  hold(runId: string): HoldState {
    const open = this.holds.get(runId);
    if (open !== undefined) return { state: 'open', micros: open };
    const settled = this.settled.get(runId);
    return settled === undefined ? { state: 'none' } : { state: 'settled', micros: settled };
  }

  hasTopup(entryKey: string): boolean {
    return this.topupKeys.has(entryKey);
  }

  /** Apply a change in memory; the same call replays a journal line on start-up. */
  apply(delta: AccountDeltaRecord): void {
    this.fields = { ...this.fields, ...delta.set };
    if (delta.hold) {
      const [runId, micros] = delta.hold;
      if (micros !== null) {
        this.holds.set(runId, micros);
      } else {
        const held = this.holds.get(runId);
        this.holds.delete(runId);
        if (held !== undefined) this.settled.set(runId, held);
      }
    }
    if (delta.topupKey !== undefined) this.topupKeys.add(delta.topupKey);
  }

  /** The port's document as it is now: its fields only, so O(1) however many holds are open. */
  toDoc(): AccountDoc {
    return { ...this.fields };
  }

  /** The open holds, copied: O(holds). */
  openHolds(): Record<string, number> {
    return Object.fromEntries(this.holds);
  }

  /** The whole account, for a snapshot line of the journal. */
  toRecord(): AccountRecord {
    return {
      ...this.fields, holds: this.openHolds(), settledHolds: Object.fromEntries(this.settled), topupKeys: [...this.topupKeys],
    };
  }
}
