import type { MongoClient } from 'mongodb';
import { UnavailableError } from '../../errors.js';
import { storeClient } from './client.js';
import { idempotencyScope } from '../../ports/idempotency.js';
import type { IdempotencyRecord, IdempotencyStore } from '../../ports/idempotency.js';

export interface MongoIdempotencyStoreOptions {
  /** mongodb:// URL; ignored when `client` is given. */
  url?: string;
  /** A connected client shared with the process's other stores (connectMongo); its owner closes it. */
  client?: MongoClient;
  dbName: string;
  /** @default 5000 */
  serverSelectionTimeoutMs?: number;
}

/** A record as stored: `_id` is `<scope>:<generation>`; a key reused after its window is the next generation. */
type Stored = IdempotencyRecord & { _id: string; scope: string; gen: number };

const DUPLICATE_KEY = 11000;
const isDuplicateKey = (e: unknown) => (e as { code?: number } | null)?.code === DUPLICATE_KEY;
const strip = ({ _id, scope: _scope, gen: _gen, ...record }: Stored): IdempotencyRecord => record;

/**
 * Idempotency records on a MongoDB-wire server (collection `idempotency_keys`). A claim is one insert
 * of generation n+1 of the (account, key) scope with a unique `_id`: of concurrent claims exactly one
 * insert lands (FerretDB included); the losers read the winner. No record is ever updated in place.
 */
export async function createMongoIdempotencyStore(options: MongoIdempotencyStoreOptions): Promise<IdempotencyStore> {
  const { client, close } = await storeClient(options);
  const col = client.db(options.dbName).collection<Stored>('idempotency_keys');
  await col.createIndex({ scope: 1, gen: -1 });
  const newest = (scope: string) => col.find({ scope }).sort({ gen: -1 }).limit(1).next();

  return {
    async claim(record, now) {
      const scope = idempotencyScope(record.accountId, record.key);
      for (let attempt = 0; attempt < 100; attempt++) {
        const head = await newest(scope);
        if (head && head.expiresAt > now) return { won: false, record: strip(head) };
        const gen = (head?.gen ?? 0) + 1;
        try {
          await col.insertOne({ ...record, _id: `${scope}:${gen}`, scope, gen });
          return { won: true, record: { ...record } };
        } catch (e) {
          // Another request committed this generation first: read it and answer from it.
          if (!isDuplicateKey(e)) throw e;
        }
      }
      throw new UnavailableError('mongodb', 'too much contention on an idempotency key');
    },
    async find(accountId, key, now) {
      const head = await newest(idempotencyScope(accountId, key));
      return head && head.expiresAt > now ? strip(head) : null;
    },
    async release(record) {
      // Matched by run id (unique), so a newer generation of the scope is never removed.
      await col.deleteOne({ scope: idempotencyScope(record.accountId, record.key), runId: record.runId });
    },
    close,
  };
}
