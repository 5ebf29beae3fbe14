import { isTerminal } from '@leadfinder/wire';
import { InvalidArgumentError } from '../errors.js';
import type {
  AccountDoc, ReserveOutcome, RunDoc, RunLease, RunStore, TerminalPatch,
} from '../ports/store.js';

/**
 * The state transitions of accounts and runs as pure functions, shared by the embedded and the MongoDB
 * adapter so both apply the same rules. Each returns the next document (a fresh copy) or null when the
 * guard refuses; adapters make "read, decide, write" atomic their own way.
 */

/** A fresh, empty, active account. */
export function newAccount(input: { id: string; email: string | null; createdAt: string }): AccountDoc {
  return {
    id: input.id, email: input.email, status: 'active', balanceMicrousd: 0, heldMicrousd: 0,
    availableMicrousd: 0, createdAt: input.createdAt, sessionVersion: 0,
  };
}

/** The port's document from a stored one (which may carry more fields, or predate session versions). */
export function toAccountDoc(a: AccountDoc): AccountDoc {
  const { id, email, status, balanceMicrousd, heldMicrousd, availableMicrousd, createdAt } = a;
  // Accounts stored before session versions existed read as version 0.
  return { id, email, status, balanceMicrousd, heldMicrousd, availableMicrousd, createdAt, sessionVersion: a.sessionVersion ?? 0 };
}

export function assertMicros(micros: number, what: string): void {
  if (!Number.isSafeInteger(micros) || micros < 0) throw new InvalidArgumentError(`${what} must be a non-negative integer of micro-USD`, what);
}

/** The money fields of an account, which every balance transition reads and writes. */
export type AccountBalances = Pick<AccountDoc, 'balanceMicrousd' | 'heldMicrousd' | 'availableMicrousd'>;

/**
 * Balances after a top-up (caller checks the entry key was not applied before). A sum past 2^53 would
 * silently lose micro-USD, so a top-up whose result is not a safe integer is refused.
 */
export function balancesAfterTopup(a: AccountBalances, micros: number): AccountBalances {
  assertMicros(micros, 'micros');
  const next = { balanceMicrousd: a.balanceMicrousd + micros, heldMicrousd: a.heldMicrousd, availableMicrousd: a.availableMicrousd + micros };
  assertSafeBalances(next);
  return next;
}

/**
 * Reserve's guard, for an account that has no hold for this run yet (a second reserve for the same run
 * is a no-op success the caller answers itself): the balances to write, or the refusal.
 */
export function decideReserve(
  a: (AccountBalances & Pick<AccountDoc, 'status'>) | null, micros: number,
): { ok: true; next: AccountBalances } | Extract<ReserveOutcome, { ok: false }> {
  assertMicros(micros, 'micros');
  if (!a) return { ok: false, reason: 'missing' };
  if (a.status !== 'active') return { ok: false, reason: 'closed' };
  if (a.availableMicrousd < micros) {
    return { ok: false, reason: 'insufficient', availableMicrousd: a.availableMicrousd, heldMicrousd: a.heldMicrousd };
  }
  const next = { balanceMicrousd: a.balanceMicrousd, heldMicrousd: a.heldMicrousd + micros, availableMicrousd: a.availableMicrousd - micros };
  assertSafeBalances(next);
  return { ok: true, next };
}

/** Every money movement must leave exact integers: past 2^53 micro-USD, sums silently round. */
function assertSafeBalances(b: AccountBalances): void {
  if (!Number.isSafeInteger(b.balanceMicrousd) || !Number.isSafeInteger(b.heldMicrousd) || !Number.isSafeInteger(b.availableMicrousd)) {
    throw new InvalidArgumentError('the resulting balance would be out of range', 'micros');
  }
}

/** Balances after settling an open hold of `hold`: charge ≤ hold; the rest goes back to available. */
export function balancesAfterSettle(a: AccountBalances, runId: string, hold: number, chargeMicrousd: number): AccountBalances {
  assertMicros(chargeMicrousd, 'chargeMicrousd');
  if (chargeMicrousd > hold) throw new InvalidArgumentError(`charge ${chargeMicrousd} exceeds hold ${hold} of run ${runId}`, 'chargeMicrousd');
  const balanceMicrousd = a.balanceMicrousd - chargeMicrousd;
  const heldMicrousd = a.heldMicrousd - hold;
  const next = { balanceMicrousd, heldMicrousd, availableMicrousd: balanceMicrousd - heldMicrousd };
  assertSafeBalances(next);
  return next;
}

/**
 * What the store knows of one run's hold: never taken, open (micros), or settled. A run holds at most
 * once: a reserve replayed after its settlement holds nothing again.
 */
export type HoldState = { state: 'none' } | { state: 'open'; micros: number } | { state: 'settled'; micros: number };

/** Reserve against the run's hold state: the balances to write (null: nothing to write) and the answer. */
export function decideReserveHold(
  a: AccountDoc | null, hold: HoldState, micros: number,
): { next: AccountBalances | null; outcome: ReserveOutcome } {
  assertMicros(micros, 'micros');
  if (a && a.status === 'active' && hold.state !== 'none') {
    return { next: null, outcome: { ok: true, account: toAccountDoc(a), holdMicrousd: hold.micros } };
  }
  const decided = decideReserve(a, micros);
  if (!decided.ok) return { next: null, outcome: decided };
  return { next: decided.next, outcome: { ok: true, account: { ...toAccountDoc(a!), ...decided.next }, holdMicrousd: micros } };
}

export function applyClose(a: AccountDoc): AccountDoc | null {
  return a.status === 'closed' ? null : { ...a, status: 'closed' };
}

/** Every session token issued before is refused from now on. */
export function applyRevokeSessions(a: AccountDoc): AccountDoc {
  return { ...a, sessionVersion: (a.sessionVersion ?? 0) + 1 };
}

// --- runs -------------------------------------------------------------------------------------------

const iso = (ms: number) => new Date(ms).toISOString();
const holds = (run: RunDoc, lease: RunLease) =>
  run.lease !== null && run.lease.owner === lease.owner && run.lease.epoch === lease.epoch;

export function applyClaim(run: RunDoc, owner: string, ttlMs: number, now: number): { next: RunDoc; lease: RunLease } | null {
  if (run.status !== 'running') return null;
  if (run.lease && run.lease.expiresAt > now) return null;
  const lease: RunLease = { owner, expiresAt: now + ttlMs, epoch: (run.lease?.epoch ?? 0) + 1 };
  return { next: { ...run, lease, updatedAt: iso(now) }, lease };
}

export function applyRenew(run: RunDoc, lease: RunLease, ttlMs: number, now: number): { next: RunDoc; lease: RunLease } | null {
  if (run.status !== 'running' || !holds(run, lease)) return null;
  const renewed: RunLease = { ...lease, expiresAt: now + ttlMs };
  return { next: { ...run, lease: renewed, updatedAt: iso(now) }, lease: renewed };
}

export function applyProgress(
  run: RunDoc, lease: RunLease, patch: { where?: string; spendMicrousd?: number; started?: boolean }, now: number,
): RunDoc | null {
  if (run.status !== 'running' || !holds(run, lease)) return null;
  const next = { ...run, updatedAt: iso(now) };
  if (patch.where !== undefined) next.where = patch.where;
  if (patch.spendMicrousd !== undefined) next.spendMicrousd = patch.spendMicrousd;
  if (patch.started !== undefined) next.started = patch.started;
  return next;
}

export function applyFinish(run: RunDoc, lease: RunLease | null, patch: TerminalPatch): RunDoc | null {
  if (run.status !== 'running') return null;
  if (lease && !holds(run, lease)) return null;
  return { ...run, ...patch, updatedAt: patch.finishedAt };
}

export function applyMarkSettled(run: RunDoc): RunDoc | null {
  return run.settled ? null : { ...run, settled: true };
}

/** An adapter's one atomic "read, decide, write" on a run; `decide` returning null means refused. */
export type RunUpdater = <R>(id: string, decide: (run: RunDoc) => { next: RunDoc; out: R } | null) => Promise<R | null>;

/**
 * The fenced run operations of the port, built once from an adapter's atomic update, so both adapters
 * apply the same transitions the same way. `copy` detaches what leaves the store from its own state
 * (the embedded adapter keeps live objects in memory).
 */
export function fencedRunOps(
  updateRun: RunUpdater,
  copy: <T>(value: T) => T = (value) => value,
): Pick<RunStore, 'claim' | 'renew' | 'progress' | 'finish' | 'markSettled'> {
  return {
    claim: (id, owner, ttlMs, now) =>
      updateRun(id, (run) => {
        const r = applyClaim(run, owner, ttlMs, now);
        return r && { next: r.next, out: { before: copy(run), lease: r.lease } };
      }),
    renew: (id, lease, ttlMs, now) =>
      updateRun(id, (run) => {
        const r = applyRenew(run, lease, ttlMs, now);
        return r && { next: r.next, out: r.lease };
      }),
    progress: async (id, lease, patch, now) =>
      (await updateRun(id, (run) => {
        const next = applyProgress(run, lease, patch, now);
        return next && { next, out: true };
      })) ?? false,
    finish: async (id, lease, patch) =>
      (await updateRun(id, (run) => {
        const next = applyFinish(run, lease, copy(patch));
        return next && { next, out: true };
      })) ?? false,
    async markSettled(id) {
      await updateRun(id, (run) => {
        const next = applyMarkSettled(run);
        return next && { next, out: true };
      });
    },
  };
}

/** Scan predicates, evaluated on the current document. */
export const runIs = {
  lapsed: (run: RunDoc, now: number) => run.status === 'running' && run.lease !== null && run.lease.expiresAt <= now,
  overdue: (run: RunDoc, nowIso: string) => run.status === 'running' && run.deadlineAt <= nowIso,
  unclaimed: (run: RunDoc) => run.status === 'running' && run.lease === null,
  unsettled: (run: RunDoc) => isTerminal(run.status) && !run.settled,
};
