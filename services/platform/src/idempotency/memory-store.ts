import { idempotencyScope } from '../ports/idempotency.js';
import type { IdempotencyRecord, IdempotencyStore } from '../ports/idempotency.js';

export interface InMemoryIdempotencyOptions {
  /** Records to start from (an embedded store's journal, replayed), by scope. */
  records?: Map<string, IdempotencyRecord>;
  /** Writes a change made in memory (`null`: the scope was released); the call waits for it. */
  persist?: (scope: string, record: IdempotencyRecord | null) => Promise<void>;
  close?: () => Promise<void>;
}

/**
 * Idempotency records in a map. A claim checks and takes its scope synchronously, before its first await,
 * so concurrent requests in one process cannot both win. Without `persist` (an edge built without a store
 * of its own: benchmarks, tools) records are lost on exit; the embedded store persists them to a journal.
 */
export function createInMemoryIdempotencyStore(options: InMemoryIdempotencyOptions = {}): IdempotencyStore {
  const records = options.records ?? new Map<string, IdempotencyRecord>();
  const persist = options.persist ?? (async () => undefined);
  return {
    async claim(record, now) {
      const id = idempotencyScope(record.accountId, record.key);
      const held = records.get(id);
      if (held && held.expiresAt > now) return { won: false, record: { ...held } };
      records.set(id, { ...record });
      await persist(id, record);
      return { won: true, record: { ...record } };
    },
    find: async (accountId, key, now) => {
      const held = records.get(idempotencyScope(accountId, key));
      return held && held.expiresAt > now ? { ...held } : null;
    },
    async release(record) {
      const id = idempotencyScope(record.accountId, record.key);
      if (records.get(id)?.runId !== record.runId) return;
      records.delete(id);
      await persist(id, null);
    },
    close: options.close ?? (async () => undefined),
  };
}
