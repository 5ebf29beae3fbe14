import { LeadfinderError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { idempotencyScope } from '../../ports/idempotency.js';
import type { IdempotencyRecord, IdempotencyStore } from '../../ports/idempotency.js';
import { openJournal } from './journal.js';

export interface EmbeddedIdempotencyStoreOptions {
  /** Folder of `idempotency.jsonl` (the store's folder); created when missing. */
  dataDir: string;
  logger: Logger;
  /** Drop expired records on start-up once the journal holds more lines than this. @default 10000 */
  compactAfterLines?: number;
}

/** One journal line: the record now holding a scope, or null when it was released. */
interface Line {
  id: string;
  doc: IdempotencyRecord | null;
}

/**
 * Embedded idempotency records in the data dir. A claim checks and takes the scope synchronously before
 * its first await (the same guarantee as the embedded store), so concurrent requests cannot both win;
 * the journal keeps the records across a restart.
 */
export async function createEmbeddedIdempotencyStore(options: EmbeddedIdempotencyStoreOptions): Promise<IdempotencyStore> {
  const journal = await openJournal<Line>({ dataDir: options.dataDir, fileName: 'idempotency.jsonl', logger: options.logger });
  const records = new Map<string, IdempotencyRecord>();
  for (const line of journal.records) {
    if (line.doc) records.set(line.id, line.doc);
    else records.delete(line.id);
  }
  if (journal.records.length > (options.compactAfterLines ?? 10_000)) {
    // Only the newest 24 h matter; older records are kept until the next compaction at most.
    const now = Date.now();
    for (const [id, doc] of records) if (doc.expiresAt <= now) records.delete(id);
    await journal.rewrite([...records].map(([id, doc]) => ({ id, doc })));
  }
  let closed = false;
  const write = (line: Line) =>
    closed ? Promise.reject(new LeadfinderError('LF_ERR_UNAVAILABLE', 'idempotency store is closed')) : journal.append([line]);

  return {
    async claim(record, now) {
      const id = idempotencyScope(record.accountId, record.key);
      const held = records.get(id);
      if (held && held.expiresAt > now) return { won: false, record: { ...held } };
      records.set(id, { ...record });
      await write({ id, doc: record });
      return { won: true, record: { ...record } };
    },
    async find(accountId, key, now) {
      const held = records.get(idempotencyScope(accountId, key));
      return held && held.expiresAt > now ? { ...held } : null;
    },
    async release(record) {
      const id = idempotencyScope(record.accountId, record.key);
      if (records.get(id)?.runId !== record.runId) return;
      records.delete(id);
      await write({ id, doc: null });
    },
    async close() {
      if (closed) return;
      closed = true;
      await journal.close();
    },
  };
}

