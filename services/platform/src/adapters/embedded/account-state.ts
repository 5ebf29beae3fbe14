import type { AccountDoc } from '../../ports/store.js';
import type { AccountBalances, AccountRecord } from '../../store/transitions.js';

/**
 * Accounts of the embedded store, built so that a reservation costs the same with 10 open holds as with
 * 10,000: a change is journaled as a delta line (new balances plus the one hold or top-up key it
 * touched), never as the whole document, and reading an account does not copy its holds unless they
 * are enumerated.
 */

/** The fields of an account other than its holds and top-up keys. */
type AccountFields = Omit<AccountRecord, 'holds' | 'topupKeys'>;

/** One journal line for a change to an existing account. */
export interface AccountDeltaRecord {
  c: 'account-delta';
  id: string;
  set: Partial<AccountBalances> & { status?: AccountDoc['status']; sessionVersion?: number };
  /** A hold opened (micros) or released (null). */
  hold?: [runId: string, micros: number | null];
  /** A top-up key applied. */
  topupKey?: string;
}

/** The holds of an account at one moment. */
interface HoldsSnapshot {
  /** O(1). */
  get(runId: string): number | undefined;
  /** A fresh object of every hold: O(holds). */
  copy(): Record<string, number>;
}

/**
 * The holds of one account as a persistent map: a base that is never changed once built, plus a list of
 * changes that is only ever appended to (and an index of it by run id). A snapshot is (base, list,
 * index, length of the list when taken), so taking one and reading one hold from it are O(1), and later
 * changes never show through it. The base is rebuilt once the list outgrows it, which keeps each change
 * amortised O(1).
 */
class HoldsLog {
  private readonly live = new Map<string, number>();
  private base: ReadonlyMap<string, number> = new Map();
  private changes: [string, number | null][] = [];
  /** Positions in `changes` of each run id's changes. */
  private positions = new Map<string, number[]>();

  constructor(initial: Record<string, number>) {
    for (const [runId, micros] of Object.entries(initial)) this.live.set(runId, micros);
    this.rebase();
  }

  get size(): number {
    return this.live.size;
  }

  get(runId: string): number | undefined {
    return this.live.get(runId);
  }

  set(runId: string, micros: number | null): void {
    if (micros === null) this.live.delete(runId);
    else this.live.set(runId, micros);
    const at = this.positions.get(runId);
    if (at) at.push(this.changes.length);
    else this.positions.set(runId, [this.changes.length]);
    this.changes.push([runId, micros]);
    if (this.changes.length > Math.max(64, this.live.size)) this.rebase();
  }

  snapshot(): HoldsSnapshot {
    const { base, changes, positions } = this;
    const length = changes.length;
    return {
      get(runId) {
        const at = positions.get(runId);
        for (let i = (at?.length ?? 0) - 1; i >= 0; i--) {
          if (at![i]! < length) return changes[at![i]!]![1] ?? undefined;
        }
        return base.get(runId);
      },
      copy() {
        const holds: Record<string, number> = Object.fromEntries(base);
        for (let i = 0; i < length; i++) {
          const [runId, micros] = changes[i]!;
          if (micros === null) delete holds[runId];
          else holds[runId] = micros;
        }
        return holds;
      },
    };
  }

  private rebase(): void {
    // A Map, not an object: copying thousands of entries into a Map is ~10× cheaper.
    this.base = new Map(this.live);
    // New containers, not truncated ones: snapshots taken before keep reading the old ones.
    this.changes = [];
    this.positions = new Map();
  }
}

export class AccountState {
  private readonly holds: HoldsLog;
  private readonly topupKeys: Set<string>;
  private fields: AccountFields;

  constructor(record: AccountRecord) {
    const { holds, topupKeys, ...fields } = record;
    this.fields = fields;
    this.holds = new HoldsLog(holds);
    this.topupKeys = new Set(topupKeys);
  }

  get id(): string {
    return this.fields.id;
  }

  get status(): AccountDoc['status'] {
    return this.fields.status;
  }

  get balances(): AccountBalances & Pick<AccountDoc, 'status'> {
    return this.fields;
  }

  /** Accounts journaled before session versions existed read as version 0. */
  get sessionVersion(): number {
    return this.fields.sessionVersion ?? 0;
  }

  get holdCount(): number {
    return this.holds.size;
  }

  hold(runId: string): number | undefined {
    return this.holds.get(runId);
  }

  hasTopup(entryKey: string): boolean {
    return this.topupKeys.has(entryKey);
  }

  /** Apply a change in memory; the same call replays a journal line on start-up. */
  apply(delta: AccountDeltaRecord): void {
    this.fields = { ...this.fields, ...delta.set };
    if (delta.hold) this.holds.set(delta.hold[0], delta.hold[1]);
    if (delta.topupKey !== undefined) this.topupKeys.add(delta.topupKey);
  }

  /**
   * The port's document as it is now. Copying thousands of holds costs milliseconds, so `holds` is a
   * view of a snapshot taken here: reading one hold is O(1) (billing reads the one it just opened), and
   * the whole object is copied only when enumerated or written to.
   */
  toDoc(): AccountDoc {
    const { id, email, status, balanceMicrousd, heldMicrousd, availableMicrousd, createdAt } = this.fields;
    return {
      id, email, status, balanceMicrousd, heldMicrousd, availableMicrousd, holds: holdsView(this.holds.snapshot()), createdAt,
      sessionVersion: this.sessionVersion,
    };
  }

  /** The whole document, for a snapshot line of the journal. */
  toRecord(): AccountRecord {
    return { ...this.fields, holds: this.holds.snapshot().copy(), topupKeys: [...this.topupKeys] };
  }
}

/**
 * A plain-looking `Record<runId, micros>` over a snapshot: property reads and `in` are answered from the
 * snapshot; enumeration, writes and deletes go to a private copy made on first need (after which it
 * answers everything). Only structuredClone, which refuses proxies, tells it from a plain object.
 */
function holdsView(snapshot: HoldsSnapshot): Record<string, number> {
  let copy: Record<string, number> | undefined;
  const whole = () => (copy ??= snapshot.copy());
  const own = (key: string | symbol) => (copy || typeof key !== 'string' ? undefined : snapshot.get(key));
  // util.inspect shows a proxy's target, so the target knows how to show the holds.
  const target = Object.defineProperty({}, Symbol.for('nodejs.util.inspect.custom'), { value: () => whole(), configurable: true });
  return new Proxy<Record<string, number>>(target, {
    get: (_target, key, receiver) => (copy ? Reflect.get(copy, key) : own(key) ?? Reflect.get(Object.prototype, key, receiver)),
    has: (_target, key) => (copy ? key in copy : own(key) !== undefined || key in Object.prototype),
    ownKeys: () => Reflect.ownKeys(whole()),
    getOwnPropertyDescriptor: (_target, key) => Reflect.getOwnPropertyDescriptor(whole(), key),
    set: (_target, key, value) => Reflect.set(whole(), key, value),
    deleteProperty: (_target, key) => Reflect.deleteProperty(whole(), key),
    defineProperty: (_target, key, descriptor) => Reflect.defineProperty(whole(), key, descriptor),
  });
}
