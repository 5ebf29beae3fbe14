import type { Db, MongoClient } from 'mongodb';
import { UnavailableError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type {
  AccountDoc, AccountStore, KeyDoc, KeyStore, Ledger, LedgerEntry, RunDoc, RunStore, SettleOutcome, Store,
} from '../../ports/store.js';
import {
  applyClose, applyRenew, applyRevokeSessions, assertMicros, balancesAfterSettle, balancesAfterTopup,
  decideReserveHold, fencedRunOps, newAccount, runIs, toAccountDoc,
} from '../../store/transitions.js';
import { AccountBook } from './account-book.js';
import { storeClient, type MongoCommandHooks } from './client.js';
import { InsertBatcher } from './revision-chain.js';
import { RunLeases } from './run-leases.js';
import { conflictError, isDuplicateKey, VersionedCollection } from './versioned.js';

export interface MongoStoreOptions extends MongoCommandHooks {
  /** mongodb:// URL of a MongoDB or FerretDB server; ignored when `client` is given. */
  url?: string;
  /** A connected client shared with the process's other stores (connectMongo); its owner closes it. */
  client?: MongoClient;
  dbName: string;
  logger: Logger;
  /** @default 5000 */
  serverSelectionTimeoutMs?: number;
}

/** A run as stored: the port's document plus its insertion sequence (listRecent breaks ties with it). */
type RunRecord = RunDoc & { insertedSeq: number };
const toRunDoc = ({ insertedSeq: _seq, ...run }: RunRecord): RunDoc => run;

/**
 * MongoDB store through the official driver. Runs and accounts change only through revision inserts
 * (VersionedCollection, AccountBook), which are atomic on MongoDB and on FerretDB v1 alike; each hold is
 * its own record (AccountBook); a run's lease renewals are records of their own (RunLeases), so a
 * renewal never rewrites the run; ledger entries and keys are plain inserts with unique ids. Key usage
 * lives in its own collection so that a `touch` can never overwrite a concurrent revocation on a server
 * without isolated updates.
 */
export async function createMongoStore(options: MongoStoreOptions): Promise<Store> {
  const { client, close: closeClient } = await storeClient(options);
  const db = client.db(options.dbName);
  // Queries filter runs on status and settled only (and recheck the current document).
  // Queries filter runs on status, settled and the claim (owner, epoch, its expiry); progress writes
  // change none of these, so they leave the head alone (on FerretDB a head rewrite scans the collection).
  const runDocs = new VersionedCollection<RunRecord>(db, 'runs', {
    headKey: (r) => `${r.status}/${r.settled}/${r.lease?.owner}/${r.lease?.epoch}/${r.lease?.expiresAt}`,
    // What the queries below filter and sort on (and the indexes cover); the rest rides along as text.
    headFields: (r) => ({
      id: r.id, accountId: r.accountId, status: r.status, settled: r.settled, createdAt: r.createdAt, insertedSeq: r.insertedSeq,
      deadlineAt: r.deadlineAt, lease: r.lease,
    }),
  });
  const book = new AccountBook(db);
  const leases = new RunLeases(db);
  const ledgerCol = db.collection<LedgerEntry & { _id: string }>('ledger');
  const keysCol = db.collection<KeyDoc & { _id: string }>('keys');
  const keyUsage = db.collection<{ _id: string; lastUsedAt: string }>('key_usage');
  await ensureIndexes(db);

  let lastSeq = 0;
  const nextSeq = () => (lastSeq = Math.max(lastSeq + 1, Date.now() * 1000));

  /** Apply a run transition; `null` from `decide` means refused. */
  const updateRun = <R>(id: string, decide: (run: RunDoc) => { next: RunDoc; out: R } | null): Promise<R | null> =>
    runDocs.update(id, (rec) => {
      const d = rec ? decide(toRunDoc(rec)) : null;
      return d ? { next: { ...d.next, insertedSeq: rec!.insertedSeq }, out: d.out } : { out: null };
    });
  const running = async () => Promise.all((await runDocs.find({ status: 'running' })).map((r) => leases.effective(toRunDoc(r))));
  /**
   * Running runs that may match `candidate`, judged first on their heads (which carry status, deadline
   * and claim), so the reaper's scans read the current run and its renewals only for the few that may
   * match, not for every running run. `candidate` must hold for a head whenever it may hold for the
   * current run: a lease only lapses later than its claim said, and a head without a lease may lag.
   */
  const runningWhere = async (candidate: (head: RunDoc) => boolean, matches: (run: RunDoc) => boolean) => {
    const heads = (await runDocs.findHeads({ status: 'running' })).map(toRunDoc).filter(candidate);
    const current = await Promise.all(heads.map(async (h) => {
      const { doc } = await runDocs.read(h.id);
      return doc && leases.effective(toRunDoc(doc));
    }));
    return current.filter((r): r is RunDoc => r !== null && matches(r));
  };

  const runs: RunStore = {
    async insert(run) {
      if (!(await runDocs.create({ ...run, insertedSeq: nextSeq() }))) throw conflictError(`run ${run.id}`);
    },
    // The lease as claimed: claims and the lapse scans read the renewals (one more read each).
    get: async (id) => {
      const { doc } = await runDocs.read(id);
      return doc && toRunDoc(doc);
    },
    listRecent: async (accountId, limit) =>
      (await runDocs.find({ accountId }, { sort: { createdAt: -1, insertedSeq: -1 }, limit })).map(toRunDoc),
    // Progress and finish check the claim's owner and epoch, which live on the run itself.
    ...fencedRunOps(updateRun),
    // A claim also needs the expiry, as the renewals have extended it.
    claim: async (id, owner, ttlMs, now) => {
      const claimed = await fencedRunOps(async (runId, decide) => {
        const { doc } = await runDocs.read(runId);
        const extended = doc ? await leases.effective(toRunDoc(doc)) : null;
        return updateRun(runId, (run) => decide(extended && extended.lease?.epoch === run.lease?.epoch ? { ...run, lease: extended.lease } : run));
      }).claim(id, owner, ttlMs, now);
      if (claimed) leases.claimed(id, claimed.lease);
      return claimed;
    },
    // Checked on the run's head, not its revision chain: a claim rewrites the head (owner and epoch are in
    // the head key) and so does the end of the run (status), so a renewal learns of either from one read
    // of the small heads collection. Rolling the chain forward ends on a point read of a revision that
    // does not exist, which FerretDB answers by scanning every revision of every run, and renewals are
    // the most frequent store call of a busy coordinator. A head that lags a rival claim (its claimer died
    // between the two writes) only lets this renewal extend the old epoch, which counts for nobody: the
    // stale owner is refused at its next fenced write, and the lease keeper confirms the lease on the
    // current run before a tail.
    async renew(id, lease, ttlMs, now) {
      const { doc } = await runDocs.head(id);
      const renewed = doc && applyRenew(toRunDoc(doc), lease, ttlMs, now);
      if (!renewed) return null;
      await leases.renew(id, renewed.lease);
      return renewed.lease;
    },
    // Head filters below only use fields a lagging head still matches (status leaves `running` once,
    // `settled` turns true once); the exact test runs on the current document.
    // A head whose claim has outlived its own expiry is a candidate only when no live renewal of that
    // claim exists: one scan of the renewals instead of reading every long-running run on every pass (each
    // read is a scan of its own on FerretDB, and past one TTL every running run's head qualifies). A head
    // with no claim is left out: a claim always rewrites the head, and a claimer that died before it
    // could leaves its work message unacknowledged, so the run is claimed again (and ended) from there,
    // or by its deadline.
    findLapsed: async (now) => {
      const live = await leases.liveClaims(now);
      return runningWhere(
        (h) => h.lease !== null && h.lease.expiresAt <= now && !live.has(`${h.id}:${h.lease.epoch}`),
        (r) => runIs.lapsed(r, now),
      );
    },
    findOverdue: (nowIso) => runningWhere((h) => h.deadlineAt <= nowIso, (r) => runIs.overdue(r, nowIso)),
    findUnclaimed: async () => (await running()).filter(runIs.unclaimed),
    findUnsettled: async () => (await runDocs.find({ settled: false })).map(toRunDoc).filter(runIs.unsettled),
  };

  const accounts: AccountStore = {
    async create(input) {
      const doc = newAccount(input);
      if (!(await book.create(doc))) throw conflictError(`account ${input.id}`);
      return toAccountDoc(doc);
    },
    get: async (id) => {
      const doc = await book.get(id);
      return doc && toAccountDoc(doc);
    },
    topup: (id, micros, entryKey) =>
      book.change(id, {
        keys: [entryKey],
        decide: (view) => {
          assertMicros(micros, 'micros');
          const a = view.state;
          if (!a) return { out: null };
          if (view.hasTopup(entryKey)) return { out: toAccountDoc(a) };
          const next = { ...a, ...balancesAfterTopup(a, micros) };
          return { next, ops: [{ t: 'topup', key: entryKey }], out: toAccountDoc(next) };
        },
      }),
    reserve: (id, runId, micros) =>
      book.change(id, {
        runs: [runId],
        decide: (view) => {
          const { next, outcome } = decideReserveHold(view.state, view.hold(runId), micros);
          return next ? { next: { ...view.state!, ...next }, ops: [{ t: 'hold', run: runId, micros }], out: outcome } : { out: outcome };
        },
      }),
    settle: (id, runId, chargeMicrousd) =>
      book.change<SettleOutcome>(id, {
        runs: [runId],
        decide: (view) => {
          assertMicros(chargeMicrousd, 'chargeMicrousd');
          const a = view.state;
          const hold = view.hold(runId);
          if (!a || hold.state !== 'open') return { out: { applied: false, holdMicrousd: 0 } };
          const next = { ...a, ...balancesAfterSettle(a, runId, hold.micros, chargeMicrousd) };
          return {
            next, ops: [{ t: 'settle', run: runId, micros: hold.micros, charge: chargeMicrousd }],
            out: { applied: true, holdMicrousd: hold.micros },
          };
        },
      }),
    close: (id) =>
      book.change(id, {
        decide: ({ state: a }) => {
          const next = a && applyClose(a);
          return next ? { next, out: true } : { out: a !== null };
        },
      }),
    revokeSessions: (id) =>
      book.change(id, {
        decide: ({ state: a }) => {
          if (!a) return { out: null };
          const next = applyRevokeSessions(a);
          return { next, out: toAccountDoc(next) };
        },
      }),
    // The deleting revision stays as the tombstone: `create` inserts revision 1, which exists already.
    async delete(id) {
      const existed = await book.change(id, { decide: ({ state: a }) => (a ? { next: null, out: true } : { out: false }) });
      if (existed) await keysCol.deleteMany({ accountId: id });
      return existed;
    },
    async listWithHolds() {
      const found: AccountDoc[] = [];
      for (const id of await book.accountsWithHolds()) {
        const [doc, holds] = await Promise.all([book.get(id), book.listHolds(id)]);
        if (doc && Object.keys(holds).length > 0) found.push(toAccountDoc(doc));
      }
      return found;
    },
    listHolds: (id) => book.listHolds(id),
  };

  const ledgerInserts = new InsertBatcher<LedgerEntry & { _id: string }>((docs) => ledgerCol.insertMany(docs, { ordered: false }));
  const ledger: Ledger = {
    append: (entry) => ledgerInserts.insert({ _id: entry.key, ...entry }),
    list: async (accountId) =>
      (await ledgerCol.find({ accountId }).sort({ at: 1, _id: 1 }).toArray()).map(({ _id, ...e }) => e),
  };

  async function withUsage(list: (KeyDoc & { _id: string })[]): Promise<KeyDoc[]> {
    const usage = await keyUsage.find({ _id: { $in: list.map((k) => k.id) } }).toArray();
    const lastUsed = new Map(usage.map((u) => [u._id, u.lastUsedAt]));
    return list.map(({ _id, ...k }) => ({ ...k, lastUsedAt: lastUsed.get(k.id) ?? k.lastUsedAt }));
  }

  const keys: KeyStore = {
    async insert(key) {
      try {
        await keysCol.insertOne({ _id: key.id, ...key });
      } catch (e) {
        throw isDuplicateKey(e) ? conflictError(`key ${key.id}`) : e;
      }
    },
    findByPrefix: async (prefix) => withUsage(await keysCol.find({ prefix, revokedAt: null }).toArray()),
    listForAccount: async (accountId) =>
      withUsage(await keysCol.find({ accountId, revokedAt: null }).sort({ createdAt: 1, _id: 1 }).toArray()),
    async revoke(accountId, keyId, at) {
      const r = await keysCol.updateOne({ _id: keyId, accountId, revokedAt: null }, { $set: { revokedAt: at } });
      return r.modifiedCount > 0;
    },
    async touch(keyId, at) {
      await keyUsage.replaceOne({ _id: keyId }, { lastUsedAt: at }, { upsert: true }).catch((e: unknown) => {
        if (!isDuplicateKey(e)) throw e;
      });
    },
  };

  return {
    runs, accounts, ledger, keys,
    async ping() {
      try {
        await db.command({ ping: 1 });
      } catch (cause) {
        throw new UnavailableError('mongodb', 'MongoDB ping failed', { cause });
      }
    },
    async close() {
      await Promise.all([runDocs.close(), book.close(), leases.close()]);
      await closeClient();
    },
  };
}

async function ensureIndexes(db: Db): Promise<void> {
  await Promise.all([
    db.collection('runs').createIndex({ accountId: 1, createdAt: -1 }),
    db.collection('runs').createIndex({ status: 1 }),
    db.collection('ledger').createIndex({ key: 1 }, { unique: true }),
    db.collection('ledger').createIndex({ accountId: 1 }),
    db.collection('keys').createIndex({ prefix: 1 }),
    db.collection('keys').createIndex({ accountId: 1 }),
    AccountBook.ensureIndexes(db),
  ]);
}
