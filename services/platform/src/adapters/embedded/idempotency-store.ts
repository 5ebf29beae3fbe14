import { systemClock, type Clock } from '../../context.js';
import { LeadfinderError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { createInMemoryIdempotencyStore } from '../../idempotency/memory-store.js';
import type { IdempotencyRecord, IdempotencyStore } from '../../ports/idempotency.js';
import { openJournal } from './journal.js';

export interface EmbeddedIdempotencyStoreOptions {
  /** Folder of `idempotency.jsonl` (the store's folder); created when missing. */
  dataDir: string;
  logger: Logger;
  /** Drop expired records on start-up once the journal holds more lines than this. @default 10000 */
  compactAfterLines?: number;
  /** Decides which records compaction drops as expired. @default systemClock */
  clock?: Clock;
}

/** One journal line: the record now holding a scope, or null when it was released. */
interface Line {
  id: string;
  doc: IdempotencyRecord | null;
}

/**
 * Embedded idempotency records in the data dir: the in-memory records (a claim takes its scope before its
 * first await, so concurrent requests cannot both win), replayed from and written to a journal so they
 * survive a restart.
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
    const now = (options.clock ?? systemClock).now();
    for (const [id, doc] of records) if (doc.expiresAt <= now) records.delete(id);
    await journal.rewrite([...records].map(([id, doc]) => ({ id, doc })));
  }
  let closed = false;
  return createInMemoryIdempotencyStore({
    records,
    persist: (id, doc) =>
      closed ? Promise.reject(new LeadfinderError('LF_ERR_UNAVAILABLE', 'idempotency store is closed')) : journal.append([{ id, doc }]),
    async close() {
      if (closed) return;
      closed = true;
      await journal.close();
    },
  });
}
