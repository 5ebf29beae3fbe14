import { LeadfinderError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type {
  AccountStore, KeyDoc, KeyStore, Ledger, LedgerEntry, RunDoc, RunStore, Store,
} from '../../ports/store.js';
import { openJournal, type Journal } from './journal.js';
import {
  applyClaim, applyClose, applyFinish, applyMarkSettled, applyProgress, applyRenew, applyReserve, applySettle,
  applyTopup, newAccountRecord, runIs, toAccountDoc, type AccountRecord,
} from './store-transitions.js';

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

type Collection = 'runs' | 'accounts' | 'keys' | 'ledger';
/** One journal line: the whole new document, or null when it was deleted. */
interface JournalRecord {
  c: Collection;
  id: string;
  doc: unknown;
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
  const state = {
    runs: new Map<string, RunDoc>(),
    accounts: new Map<string, AccountRecord>(),
    keys: new Map<string, KeyDoc>(),
    ledger: new Map<string, LedgerEntry>(),
  };
  for (const r of journal.records) {
    const map = state[r.c] as Map<string, unknown>;
    if (r.doc === null) map.delete(r.id);
    else map.set(r.id, r.doc);
  }
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
  function put<C extends Collection>(c: C, id: string, doc: (typeof state)[C] extends Map<string, infer D> ? D | null : never): Promise<void> {
    if (closed) return Promise.reject(new LeadfinderError('LF_ERR_UNAVAILABLE', 'store is closed'));
    const map = state[c] as Map<string, unknown>;
    if (doc === null) map.delete(id);
    else map.set(id, doc);
    return journal.append([{ c, id, doc }]);
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
    claim: (id, owner, ttlMs, now) =>
      updateRun(id, (run) => {
        const r = applyClaim(run, owner, ttlMs, now);
        return r && { next: r.next, out: { before: clone(run), lease: r.lease } };
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
        const next = applyFinish(run, lease, clone(patch));
        return next && { next, out: true };
      })) ?? false,
    findLapsed: async (now) => [...state.runs.values()].filter((r) => runIs.lapsed(r, now)).map(clone),
    findOverdue: async (nowIso) => [...state.runs.values()].filter((r) => runIs.overdue(r, nowIso)).map(clone),
    findUnclaimed: async () => [...state.runs.values()].filter(runIs.unclaimed).map(clone),
    findUnsettled: async () => [...state.runs.values()].filter(runIs.unsettled).map(clone),
    async markSettled(id) {
      await updateRun(id, (run) => {
        const next = applyMarkSettled(run);
        return next && { next, out: true };
      });
    },
  };

  const accounts: AccountStore = {
    async create(input) {
      if (state.accounts.has(input.id)) throw conflict(`account ${input.id}`);
      const record = newAccountRecord(input);
      await put('accounts', input.id, record);
      return toAccountDoc(record);
    },
    async get(id) {
      const a = state.accounts.get(id);
      return a ? toAccountDoc(a) : null;
    },
    async topup(id, micros, entryKey) {
      const a = state.accounts.get(id);
      if (!a) return null;
      const next = applyTopup(a, micros, entryKey);
      if (next) await put('accounts', id, next);
      return toAccountDoc(next ?? a);
    },
    async reserve(id, runId, micros) {
      const { next, outcome } = applyReserve(state.accounts.get(id) ?? null, runId, micros);
      if (next) await put('accounts', id, next);
      return outcome;
    },
    async settle(id, runId, chargeMicrousd) {
      const { next, outcome } = applySettle(state.accounts.get(id) ?? null, runId, chargeMicrousd);
      if (next) await put('accounts', id, next);
      return outcome;
    },
    async close(id) {
      const a = state.accounts.get(id);
      const next = a && applyClose(a);
      if (next) await put('accounts', id, next);
      return a !== undefined;
    },
    async delete(id) {
      if (!state.accounts.has(id)) return false;
      const writes = [put('accounts', id, null)];
      for (const key of [...state.keys.values()]) if (key.accountId === id) writes.push(put('keys', key.id, null));
      await Promise.all(writes);
      return true;
    },
    listWithHolds: async () => [...state.accounts.values()].filter((a) => Object.keys(a.holds).length > 0).map(toAccountDoc),
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

async function compactIfLarge(
  journal: Journal<JournalRecord>, state: Record<Collection, Map<string, unknown>>, threshold: number,
): Promise<void> {
  const live = Object.values(state).reduce((n, m) => n + m.size, 0);
  if (journal.records.length <= threshold || journal.records.length < 2 * live) return;
  const snapshot: JournalRecord[] = [];
  for (const c of Object.keys(state) as Collection[]) {
    for (const [id, doc] of state[c]) snapshot.push({ c, id, doc });
  }
  await journal.rewrite(snapshot);
}
