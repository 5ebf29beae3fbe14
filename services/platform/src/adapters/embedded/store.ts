import { LeadfinderError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type {
  AccountStore, KeyDoc, KeyStore, Ledger, LedgerEntry, RunDoc, RunLease, RunStore, Store,
} from '../../ports/store.js';
import { AccountState, type AccountDeltaRecord, type AccountRecord } from './account-state.js';
import { openJournal, type Journal } from './journal.js';
import {
  applyRenew, fencedRunOps, assertMicros, balancesAfterSettle, balancesAfterTopup,
  decideReserveHold, newAccount, runIs,
} from '../../store/transitions.js';

export { DataDirError } from './journal.js';

export interface EmbeddedStoreOptions {
  /** Folder of the database file (`store.jsonl`); created when missing. */
  dataDir: string;
  logger: Logger;
  /**
   * Compact the journal to a snapshot on start-up once it holds more than this many lines and at least
   * twice as many lines as live documents.
   * @default 10000
   */
  compactAfterLines?: number;
}

type Collection = 'runs' | 'accounts' | 'keys' | 'ledger' | 'tombstones';
/**
 * One journal line: the whole new document (null when it was deleted), a change to an account, or a
 * run's renewed lease (so a renewal writes a short line, not the run).
 */
type JournalRecord = { c: Collection; id: string; doc: unknown } | AccountDeltaRecord | RunLeaseRecord;
interface RunLeaseRecord {
  c: 'run-lease';
  id: string;
  lease: RunLease;
}

const conflict = (what: string) => new LeadfinderError('LF_ERR_CONFLICT', `${what} already exists`);
const clone = <T>(value: T): T => structuredClone(value);

/**
 * Embedded store: the state lives in memory and every change is appended to `store.jsonl` in the data
 * dir before the call resolves, so data survives a restart. Each guarded change checks and applies
 * synchronously on the in-memory state before the first await, so concurrent callers cannot interleave
 * a check with its write; the journal then preserves the order the changes were applied in.
 */
export async function createEmbeddedStore(options: EmbeddedStoreOptions): Promise<Store> {
  const journal = await openJournal<JournalRecord>({ dataDir: options.dataDir, fileName: 'store.jsonl', logger: options.logger });
  const state: State = {
    runs: new Map<string, RunDoc>(),
    accounts: new Map<string, AccountState>(),
    keys: new Map<string, KeyDoc>(),
    ledger: new Map<string, LedgerEntry>(),
    tombstones: new Map<string, Tombstone>(),
  };
  for (const r of journal.records) replay(state, r);
  await compactIfLarge(journal, state, options.compactAfterLines ?? 10_000);
  // Runs of each account in insertion order, for listRecent.
  const runsByAccount = new Map<string, string[]>();
  for (const run of state.runs.values()) indexRun(run);
  function indexRun(run: RunDoc): void {
    const list = runsByAccount.get(run.accountId) ?? [];
    list.push(run.id);
    runsByAccount.set(run.accountId, list);
  }

  let closed = false;
  const refuseWhenClosed = () => (closed ? Promise.reject(new LeadfinderError('LF_ERR_UNAVAILABLE', 'store is closed')) : null);
  function put<C extends Exclude<Collection, 'accounts'>>(c: C, id: string, doc: State[C] extends Map<string, infer D> ? D | null : never): Promise<void> {
    const refused = refuseWhenClosed();
    if (refused) return refused;
    const map = state[c] as Map<string, unknown>;
    if (doc === null) map.delete(id);
    else map.set(id, doc);
    return journal.append([{ c, id, doc }]);
  }
  /** Create (record) or delete (null) an account; journaled whole. */
  function putAccount(id: string, record: AccountRecord | null): Promise<void> {
    const refused = refuseWhenClosed();
    if (refused) return refused;
    if (record === null) state.accounts.delete(id);
    else state.accounts.set(id, new AccountState(record));
    return journal.append([{ c: 'accounts', id, doc: record }]);
  }
  /** Change an account; journaled as the delta alone, so the line does not grow with the holds. */
  function changeAccount(account: AccountState, delta: Omit<AccountDeltaRecord, 'c' | 'id'>): Promise<void> {
    const refused = refuseWhenClosed();
    if (refused) return refused;
    const line: AccountDeltaRecord = { c: 'account-delta', id: account.id, ...delta };
    account.apply(line);
    return journal.append([line]);
  }

  /** Read, decide and write one run with no await in between. */
  async function updateRun<T>(id: string, decide: (run: RunDoc) => { next: RunDoc; out: T } | null): Promise<T | null> {
    const run = state.runs.get(id);
    const decided = run ? decide(run) : null;
    if (!decided) return null;
    await put('runs', id, decided.next);
    return decided.out;
  }

  const runs: RunStore = {
    async insert(run) {
      if (state.runs.has(run.id)) throw conflict(`run ${run.id}`);
      indexRun(run);
      await put('runs', run.id, clone(run));
    },
    async get(id) {
      const run = state.runs.get(id);
      return run ? clone(run) : null;
    },
    async listRecent(accountId, limit) {
      const ids = runsByAccount.get(accountId) ?? [];
      // Insertion order breaks createdAt ties: a stable sort of the reversed list keeps newer first.
      const list = [...ids].reverse().map((id) => state.runs.get(id)!);
      list.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
      return list.slice(0, limit).map(clone);
    },
    ...fencedRunOps(updateRun, clone),
    async renew(id, lease, ttlMs, now) {
      const refused = refuseWhenClosed();
      if (refused) return refused;
      const run = state.runs.get(id);
      const renewed = run && applyRenew(run, lease, ttlMs, now);
      if (!renewed) return null;
      state.runs.set(id, { ...run, lease: renewed.lease });
      await journal.append([{ c: 'run-lease', id, lease: renewed.lease }]);
      return { ...renewed.lease };
    },
    findLapsed: async (now) => [...state.runs.values()].filter((r) => runIs.lapsed(r, now)).map(clone),
    findOverdue: async (nowIso) => [...state.runs.values()].filter((r) => runIs.overdue(r, nowIso)).map(clone),
    findUnclaimed: async () => [...state.runs.values()].filter(runIs.unclaimed).map(clone),
    findUnsettled: async () => [...state.runs.values()].filter(runIs.unsettled).map(clone),
  };

  // The same rules as the MongoDB adapter (store/transitions.ts), applied to AccountState in O(1).
  const accounts: AccountStore = {
    async create(input) {
      // A deleted account's id is never reused: its old session tokens would name the new account.
      if (state.accounts.has(input.id) || state.tombstones.has(input.id)) throw conflict(`account ${input.id}`);
      await putAccount(input.id, { ...newAccount(input), holds: {}, topupKeys: [] });
      return state.accounts.get(input.id)!.toDoc();
    },
    async get(id) {
      return state.accounts.get(id)?.toDoc() ?? null;
    },
    async topup(id, micros, entryKey) {
      const a = state.accounts.get(id);
      if (!a) return null;
      const balances = balancesAfterTopup(a.balances, micros);
      // The document answered is the one this call made (or found, on a replay), whatever follows it.
      if (!a.hasTopup(entryKey)) {
        const written = changeAccount(a, { set: balances, topupKey: entryKey });
        const doc = a.toDoc();
        await written;
        return doc;
      }
      return a.toDoc();
    },
    async reserve(id, runId, micros) {
      const a = state.accounts.get(id);
      const { next, outcome } = decideReserveHold(a?.balances ?? null, a?.hold(runId) ?? { state: 'none' }, micros);
      if (next) await changeAccount(a!, { set: next, hold: [runId, micros] });
      return outcome;
    },
    async settle(id, runId, chargeMicrousd) {
      const a = state.accounts.get(id);
      const hold = a?.hold(runId);
      if (!a || hold?.state !== 'open') {
        assertMicros(chargeMicrousd, 'chargeMicrousd');
        return { applied: false, holdMicrousd: 0 };
      }
      await changeAccount(a, { set: balancesAfterSettle(a.balances, runId, hold.micros, chargeMicrousd), hold: [runId, null] });
      return { applied: true, holdMicrousd: hold.micros };
    },
    async close(id) {
      const a = state.accounts.get(id);
      if (a && a.status !== 'closed') await changeAccount(a, { set: { status: 'closed' } });
      return a !== undefined;
    },
    async revokeSessions(id) {
      const a = state.accounts.get(id);
      if (!a) return null;
      const written = changeAccount(a, { set: { sessionVersion: a.sessionVersion + 1 } });
      const doc = a.toDoc();
      await written;
      return doc;
    },
    async delete(id) {
      if (!state.accounts.has(id)) return false;
      const writes = [put('tombstones', id, { deleted: true }), putAccount(id, null)];
      for (const key of [...state.keys.values()]) if (key.accountId === id) writes.push(put('keys', key.id, null));
      await Promise.all(writes);
      return true;
    },
    listWithHolds: async () => [...state.accounts.values()].filter((a) => a.holdCount > 0).map((a) => a.toDoc()),
    listHolds: async (id) => state.accounts.get(id)?.openHolds() ?? {},
  };

  const ledger: Ledger = {
    async append(entry) {
      if (state.ledger.has(entry.key)) return false;
      await put('ledger', entry.key, clone(entry));
      return true;
    },
    list: async (accountId) => [...state.ledger.values()].filter((e) => e.accountId === accountId).map(clone),
  };

  const keys: KeyStore = {
    async insert(key) {
      if (state.keys.has(key.id)) throw conflict(`key ${key.id}`);
      await put('keys', key.id, clone(key));
    },
    findByPrefix: async (prefix) => [...state.keys.values()].filter((k) => k.prefix === prefix && k.revokedAt === null).map(clone),
    listForAccount: async (accountId) =>
      [...state.keys.values()].filter((k) => k.accountId === accountId && k.revokedAt === null).map(clone),
    async revoke(accountId, keyId, at) {
      const k = state.keys.get(keyId);
      if (!k || k.accountId !== accountId || k.revokedAt !== null) return false;
      await put('keys', keyId, { ...k, revokedAt: at });
      return true;
    },
    async touch(keyId, at) {
      const k = state.keys.get(keyId);
      if (k) await put('keys', keyId, { ...k, lastUsedAt: at });
    },
  };

  return {
    runs, accounts, ledger, keys,
    async ping() {
      if (closed) throw new LeadfinderError('LF_ERR_UNAVAILABLE', 'store is closed');
    },
    async close() {
      if (closed) return;
      closed = true;
      await journal.close();
    },
  };
}

/** What is kept of a deleted account: that its id was used. */
interface Tombstone {
  deleted: true;
}

interface State {
  runs: Map<string, RunDoc>;
  accounts: Map<string, AccountState>;
  keys: Map<string, KeyDoc>;
  ledger: Map<string, LedgerEntry>;
  tombstones: Map<string, Tombstone>;
}

/** Apply one journal line on start-up. */
function replay(state: State, r: JournalRecord): void {
  if (r.c === 'run-lease') {
    const run = state.runs.get(r.id);
    if (run) state.runs.set(r.id, { ...run, lease: r.lease });
    return;
  }
  if (r.c === 'account-delta') {
    state.accounts.get(r.id)?.apply(r);
    return;
  }
  if (r.c === 'accounts') {
    if (r.doc === null) state.accounts.delete(r.id);
    else state.accounts.set(r.id, new AccountState(r.doc as AccountRecord));
    return;
  }
  const map = state[r.c] as Map<string, unknown>;
  if (r.doc === null) map.delete(r.id);
  else map.set(r.id, r.doc);
}

async function compactIfLarge(journal: Journal<JournalRecord>, state: State, threshold: number): Promise<void> {
  const live = Object.values(state).reduce((n: number, m: Map<string, unknown>) => n + m.size, 0);
  if (journal.records.length <= threshold || journal.records.length < 2 * live) return;
  const snapshot: JournalRecord[] = [];
  for (const c of Object.keys(state) as Collection[]) {
    for (const [id, doc] of state[c] as Map<string, unknown>) {
      snapshot.push({ c, id, doc: doc instanceof AccountState ? doc.toRecord() : doc });
    }
  }
  await journal.rewrite(snapshot);
}
