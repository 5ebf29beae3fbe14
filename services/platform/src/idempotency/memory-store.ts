import { idempotencyScope } from '../ports/idempotency.js';
import type { IdempotencyRecord, IdempotencyStore } from '../ports/idempotency.js';

/** Records in memory only, for an edge built without a store of its own (benchmarks, tools): lost on exit. */
export function createInMemoryIdempotencyStore(): IdempotencyStore {
  const records = new Map<string, IdempotencyRecord>();
  return {
    async claim(record, now) {
      const id = idempotencyScope(record.accountId, record.key);
      const held = records.get(id);
      if (held && held.expiresAt > now) return { won: false, record: { ...held } };
      records.set(id, { ...record });
      return { won: true, record: { ...record } };
    },
    find: async (accountId, key, now) => {
      const held = records.get(idempotencyScope(accountId, key));
      return held && held.expiresAt > now ? { ...held } : null;
    },
    async release(record) {
      const id = idempotencyScope(record.accountId, record.key);
      if (records.get(id)?.runId === record.runId) records.delete(id);
    },
    close: async () => undefined,
  };
}
