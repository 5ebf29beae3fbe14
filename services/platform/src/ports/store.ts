import type { FinalEvent, RunExclusions, RunStatus, Speed, TerminalStatus } from '@leadfinder/wire';

/**
 * Storage port for runs, accounts, keys and the billing ledger. Two adapters: an embedded file in the
 * data dir, and MongoDB through the official driver. Every method that changes money or run state commits
 * atomically in one write (no multi-document transactions), so the MongoDB adapter is correct on servers
 * without transactions or isolated conditional updates (FerretDB). All amounts are integer micro-USD.
 */

export interface RunLease {
  /** Coordinator instance holding the run. */
  owner: string;
  /**
   * Epoch ms after which the lease has lapsed. On a run read with `get` it may predate the latest
   * renewal (renewals are records of their own); `claim` and `findLapsed` decide on the renewed expiry.
   */
  expiresAt: number;
  /** Rises on every claim: a fencing token. */
  epoch: number;
}

export interface RunDoc {
  id: string;
  accountId: string;
  query: string;
  target: number;
  speed: Speed;
  relax: boolean;
  sites: string;
  status: RunStatus;
  where: string;
  /** Spend so far (persisted as the run advances; an interrupted run is charged this). */
  spendMicrousd: number;
  /** The hold taken at acceptance (0 for a 402 refusal row). */
  holdMicrousd: number;
  /** Set when the run became terminal: what will be / was charged. */
  chargeMicrousd: number | null;
  /** True once the hold has been settled on the account and both ledger entries written. */
  settled: boolean;
  usdDisplay: string;
  stopReason: 'deadline' | null;
  deadlineAt: string;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
  /** The `final` event once terminal (null before, and for runs that never wrote one). */
  result: FinalEvent | null;
  lease: RunLease | null;
  /** True once a coordinator has begun driving it (a lapsed lease then means "interrupted"). */
  started: boolean;
  /** W3C trace context carrier of the request that created it. */
  trace: Record<string, string>;
  /** The request's `exclude`, resolved at acceptance (runs → their rows' identities); absent without one. */
  exclude?: RunExclusions;
  /** The request's `expected` entries; absent without them. */
  expected?: string[];
  /** The request asked for `near_misses` (`final.near_misses`); absent otherwise. */
  nearMisses?: true;
  /** The request asked for `keep_unclear` (`final.unclear`); absent otherwise. */
  keepUnclear?: true;
  /** The request's `max_usd_per_row` in microusd; absent without one. */
  maxMicrousdPerRow?: number;
  /** The `Idempotency-Key` the run was created under (scoped to its account); absent without one. */
  idempotencyKey?: string;
}

export interface TerminalPatch {
  status: TerminalStatus;
  where: string;
  spendMicrousd: number;
  chargeMicrousd: number;
  usdDisplay: string;
  stopReason: 'deadline' | null;
  result: FinalEvent | null;
  finishedAt: string;
}

export interface RunStore {
  insert(run: RunDoc): Promise<void>;
  get(id: string): Promise<RunDoc | null>;
  /** The caller's newest runs, newest first (createdAt, then insertion order). */
  listRecent(accountId: string, limit: number): Promise<RunDoc[]>;
  /**
   * Take the lease when the run is `running` and unleased or its lease lapsed (`expiresAt <= now`).
   * Returns the run as it was before the claim (so `started` tells whether someone drove it already),
   * with the new lease; null when not claimable.
   */
  claim(id: string, owner: string, ttlMs: number, now: number): Promise<{ before: RunDoc; lease: RunLease } | null>;
  /**
   * Extend the lease if still held by (owner, epoch). Null means the lease is lost: stop driving. Writes
   * only a small lease record, never the run itself (its fenced writes stay progress and finish).
   */
  renew(id: string, lease: RunLease, ttlMs: number, now: number): Promise<RunLease | null>;
  /** Record progress while holding the lease (fenced by owner+epoch). False when the lease is lost. */
  progress(id: string, lease: RunLease, patch: { where?: string; spendMicrousd?: number; started?: boolean }, now: number): Promise<boolean>;
  /**
   * Make the run terminal: only from `running`, and, when `lease` is given, only while it is held.
   * Returns false when the run was already terminal or the lease was lost.
   */
  finish(id: string, lease: RunLease | null, patch: TerminalPatch): Promise<boolean>;
  /** Running runs whose lease lapsed (or never started with no lease and past `orphanedBefore`). */
  findLapsed(now: number): Promise<RunDoc[]>;
  /** Running runs whose deadline has passed. */
  findOverdue(nowIso: string): Promise<RunDoc[]>;
  /** Running runs no coordinator has ever claimed (embedded mode re-enqueues them after a restart). */
  findUnclaimed(): Promise<RunDoc[]>;
  /** Terminal runs whose hold is not settled yet (the reconciler finishes them). */
  findUnsettled(): Promise<RunDoc[]>;
  markSettled(id: string): Promise<void>;
}

export type AccountStatus = 'active' | 'closed';

export interface AccountDoc {
  id: string;
  email: string | null;
  status: AccountStatus;
  balanceMicrousd: number;
  heldMicrousd: number;
  /** balance − held, kept as a field so reserve decides on one number. */
  availableMicrousd: number;
  createdAt: string;
  /**
   * Session tokens carry the version they were issued under and are refused once it changes: bumped by
   * "sign out everywhere" (revokeSessions). Deleting the account leaves a tombstone, so its id (and
   * every token naming it) never comes back.
   */
  sessionVersion: number;
}

export type ReserveOutcome =
  /** `holdMicrousd`: what the run holds (on a replay, what its first reserve held). */
  | { ok: true; account: AccountDoc; holdMicrousd: number }
  | { ok: false; reason: 'insufficient'; availableMicrousd: number; heldMicrousd: number }
  | { ok: false; reason: 'closed' | 'missing' };

export interface SettleOutcome {
  /** False when the hold was already gone (settled before): a replay, nothing changed. */
  applied: boolean;
  /** The hold that was released (from the account, or 0 when it was already gone). */
  holdMicrousd: number;
}

export interface AccountStore {
  /** Throws LF_ERR_CONFLICT when the id exists, or existed and was deleted (tombstone). */
  create(account: { id: string; email: string | null; createdAt: string }): Promise<AccountDoc>;
  get(id: string): Promise<AccountDoc | null>;
  /**
   * Add to balance (and available). Idempotent per `entryKey`: a replay changes nothing. Refuses
   * (LF_ERR_INVALID_ARGUMENT) a top-up whose resulting balance would not be a safe integer.
   */
  topup(id: string, micros: number, entryKey: string, at: string): Promise<AccountDoc | null>;
  /**
   * Open the run's hold atomically: active, `available >= micros`, no hold taken for this run before (a
   * second reserve for the same run is a no-op success). Each hold is its own record: the cost does not
   * grow with the account's open holds.
   */
  reserve(id: string, runId: string, micros: number): Promise<ReserveOutcome>;
  /** Atomically, only if the run's hold is still open: balance −= charge, held −= hold. */
  settle(id: string, runId: string, chargeMicrousd: number): Promise<SettleOutcome>;
  close(id: string): Promise<boolean>;
  /** Invalidate every session token issued so far (sessionVersion + 1); null when there is no account. */
  revokeSessions(id: string): Promise<AccountDoc | null>;
  /** Removes the account, keeping a tombstone of its id; its keys stop resolving. */
  delete(id: string): Promise<boolean>;
  /** Accounts with at least one open hold (the reconciler checks each hold has its ledger entry). */
  listWithHolds(): Promise<AccountDoc[]>;
  /** The account's open holds by run id ({} when none or no account): O(open holds), for reconcile and audits. */
  listHolds(id: string): Promise<Record<string, number>>;
}

export type LedgerKind = 'topup' | 'hold' | 'charge' | 'release';

export interface LedgerEntry {
  /** Unique key: `${kind}:${runId}` for run movements, `topup:${accountId}:${entryKey}` for top-ups. */
  key: string;
  accountId: string;
  kind: LedgerKind;
  runId: string | null;
  micros: number;
  at: string;
}

export interface Ledger {
  /** Append-only; a second append with the same key is a no-op (returns false). */
  append(entry: LedgerEntry): Promise<boolean>;
  list(accountId: string): Promise<LedgerEntry[]>;
}

export interface KeyDoc {
  id: string;
  accountId: string;
  name: string;
  /** First characters of the key for display and lookup (e.g. `lf_live_AbCd`). */
  prefix: string;
  /** SHA-256 hex of the whole key; the key itself is never stored. */
  hash: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface KeyStore {
  insert(key: KeyDoc): Promise<void>;
  /** Live (not revoked) keys with this display prefix. */
  findByPrefix(prefix: string): Promise<KeyDoc[]>;
  listForAccount(accountId: string): Promise<KeyDoc[]>;
  /** Revoke if it is the account's and not already revoked. */
  revoke(accountId: string, keyId: string, at: string): Promise<boolean>;
  touch(keyId: string, at: string): Promise<void>;
}

export interface Store {
  runs: RunStore;
  accounts: AccountStore;
  ledger: Ledger;
  keys: KeyStore;
  /** Reachability check for /readyz. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
