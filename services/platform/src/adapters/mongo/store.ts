import { MongoClient, type Db } from 'mongodb';
import { UnavailableError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type {
  AccountStore, KeyDoc, KeyStore, Ledger, LedgerEntry, RunDoc, RunStore, Store,
} from '../../ports/store.js';
import {
  applyClose, applyReserve, applyRevokeSessions, applySettle, fencedRunOps,
  applyTopup, newAccountRecord, runIs, toAccountDoc, type AccountRecord,
} from '../../store/transitions.js';
import { conflictError, isDuplicateKey, VersionedCollection } from './versioned.js';

export interface MongoStoreOptions {
  /** mongodb:// URL of a MongoDB or FerretDB server. */
  url: string;
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
 * (see VersionedCollection), which are atomic on MongoDB and on FerretDB v1 alike; ledger entries and
 * keys are plain inserts with unique ids. Key usage lives in its own collection so that a `touch`
 * can never overwrite a concurrent revocation on a server without isolated updates.
 */
export async function createMongoStore(options: MongoStoreOptions): Promise<Store> {
  const client = new MongoClient(options.url, { serverSelectionTimeoutMS: options.serverSelectionTimeoutMs ?? 5000 });
  try {
    await client.connect();
  } catch (cause) {
    throw new UnavailableError('mongodb', `cannot connect to MongoDB: ${(cause as Error).message}`, { cause });
  }
  const db = client.db(options.dbName);
  const runDocs = new VersionedCollection<RunRecord>(db, 'runs');
  const accountDocs = new VersionedCollection<AccountRecord>(db, 'accounts');
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
  const running = async () => (await runDocs.find({ status: 'running' })).map(toRunDoc);

  const runs: RunStore = {
    async insert(run) {
      if (!(await runDocs.create({ ...run, insertedSeq: nextSeq() }))) throw conflictError(`run ${run.id}`);
    },
    get: async (id) => {
      const { doc } = await runDocs.read(id);
      return doc && toRunDoc(doc);
    },
    listRecent: async (accountId, limit) =>
      (await runDocs.find({ accountId }, { sort: { createdAt: -1, insertedSeq: -1 }, limit })).map(toRunDoc),
    ...fencedRunOps(updateRun),
    // Head filters below only use fields a lagging head still matches (status leaves `running` once,
    // `settled` turns true once); the exact test runs on the current document.
    findLapsed: async (now) => (await running()).filter((r) => runIs.lapsed(r, now)),
    findOverdue: async (nowIso) => (await running()).filter((r) => runIs.overdue(r, nowIso)),
    findUnclaimed: async () => (await running()).filter(runIs.unclaimed),
    findUnsettled: async () => (await runDocs.find({ settled: false })).map(toRunDoc).filter(runIs.unsettled),
  };

  const accounts: AccountStore = {
    async create(input) {
      const record = newAccountRecord(input);
      if (!(await accountDocs.create(record))) throw conflictError(`account ${input.id}`);
      return toAccountDoc(record);
    },
    get: async (id) => {
      const { doc } = await accountDocs.read(id);
      return doc && toAccountDoc(doc);
    },
    topup: (id, micros, entryKey) =>
      accountDocs.update(id, (a) => {
        if (!a) return { out: null };
        const next = applyTopup(a, micros, entryKey);
        return next ? { next, out: toAccountDoc(next) } : { out: toAccountDoc(a) };
      }),
    reserve: (id, runId, micros) =>
      accountDocs.update(id, (a) => {
        const { next, outcome } = applyReserve(a, runId, micros);
        return next ? { next, out: outcome } : { out: outcome };
      }),
    settle: (id, runId, chargeMicrousd) =>
      accountDocs.update(id, (a) => {
        const { next, outcome } = applySettle(a, runId, chargeMicrousd);
        return next ? { next, out: outcome } : { out: outcome };
      }),
    close: (id) =>
      accountDocs.update(id, (a) => {
        const next = a && applyClose(a);
        return next ? { next, out: true } : { out: a !== null };
      }),
    revokeSessions: (id) =>
      accountDocs.update(id, (a) => {
        if (!a) return { out: null };
        const next = applyRevokeSessions(a);
        return { next, out: toAccountDoc(next) };
      }),
    // The deleted revision stays as the tombstone: `create` inserts revision 1, which exists already.
    async delete(id) {
      const existed = await accountDocs.update(id, (a) => (a ? { next: null, out: true } : { out: false }));
      if (existed) await keysCol.deleteMany({ accountId: id });
      return existed;
    },
    // Every head is read: a lagging head may not show a hold yet, so no filter is safe here.
    listWithHolds: async () =>
      (await accountDocs.find({ _deleted: { $ne: true } })).filter((a) => Object.keys(a.holds).length > 0).map(toAccountDoc),
  };

  const ledger: Ledger = {
    async append(entry) {
      try {
        await ledgerCol.insertOne({ _id: entry.key, ...entry });
        return true;
      } catch (e) {
        if (isDuplicateKey(e)) return false;
        throw e;
      }
    },
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
    close: () => client.close(),
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
  ]);
}
