
/**
 * Shared pieces of the revision chains (runs and accounts): revisions `<id>:<v>` are inserted with a
 * unique `_id`, never updated except to drop their body once superseded, and never deleted. Their
 * `_id`s therefore exist for v = 1 … latest with no gap, which lets a reader find the latest by `_id`
 * point reads alone (the only reads FerretDB on SQLite answers without a collection scan).
 */

/**
 * The last existing revision after `from` (which exists, or is 0): null when `from + 1` does not exist.
 * A few steps one by one (a reader is usually at most a revision or two behind), then doubling steps
 * and a binary search, so a reader that has never seen the chain needs O(log v) point reads.
 */
export async function lastExisting<T>(from: number, probe: (v: number) => Promise<T | null>): Promise<T | null> {
  let lastV = from;
  let last: T | null = null;
  for (let i = 0; i < 3; i++) {
    const doc = await probe(lastV + 1);
    if (!doc) return last;
    lastV += 1;
    last = doc;
  }
  // Gallop: find a missing v past the last existing one.
  let step = 2;
  let missing = 0;
  for (;;) {
    const doc = await probe(lastV + step);
    if (!doc) {
      missing = lastV + step;
      break;
    }
    lastV += step;
    last = doc;
    step *= 2;
  }
  // lastV exists, missing does not: binary search between them.
  while (missing - lastV > 1) {
    const mid = Math.floor((lastV + missing) / 2);
    const doc = await probe(mid);
    if (doc) {
      lastV = mid;
      last = doc;
    } else {
      missing = mid;
    }
  }
  return last;
}

export interface CompactorOptions {
  /** How often queued revisions are compacted. @default 5000 */
  everyMs?: number;
  /** Compact at once when this many are queued. @default 2000 */
  maxQueued?: number;
  /**
   * Revisions per write. FerretDB (SQLite) applies an update document by document, each found by a scan,
   * inside one write that holds its database's only writer: a thousand at once kept every other write
   * (lease renewals among them) waiting for seconds. Smaller writes, one after another, let them in
   * between. @default 25
   */
  maxPerWrite?: number;
}

/**
 * Drops the bodies of superseded revisions in the background, many per write: on FerretDB every update
 * scans the collection, so one update for a batch costs what one update for a single revision costs.
 * The `_id` stays: deleting it would let a writer still holding the state before it commit that
 * revision number a second time. Only revisions with a committed successor are queued.
 */
export class Compactor {
  private queued: string[] = [];
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private closed = false;
  private readonly everyMs: number;
  private readonly maxQueued: number;
  private readonly maxPerWrite: number;

  /** `compact` drops the bodies of (or deletes) the documents with these `_id`s, in one write. */
  constructor(private readonly compact: (ids: string[]) => Promise<unknown>, options: CompactorOptions = {}) {
    this.everyMs = options.everyMs ?? 5000;
    this.maxQueued = options.maxQueued ?? 2000;
    this.maxPerWrite = options.maxPerWrite ?? 25;
  }

  supersede(revisionId: string): void {
    if (this.closed) return;
    this.queued.push(revisionId);
    if (this.queued.length >= this.maxQueued) {
      void this.flush();
    } else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.everyMs);
      this.timer.unref();
    }
  }

  /** Compact what is queued now (tests call it to check the result). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
    const ids = this.queued.splice(0);
    if (ids.length === 0) return;
    this.running = (async () => {
      for (let i = 0; i < ids.length; i += this.maxPerWrite) {
        // Best effort: a body left behind costs only space; the next flush does not retry it.
        await this.compact(ids.slice(i, i + this.maxPerWrite)).catch(() => undefined);
      }
    })();
    await this.running;
    this.running = null;
  }

  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
  }
}

interface QueuedInsert<T> {
  doc: T;
  resolve(inserted: boolean): void;
  reject(error: unknown): void;
}

/**
 * Group commit for inserts into one collection: inserts queued while a write is in flight go out
 * together as one unordered `insertMany`. Each caller learns whether its document was inserted (false:
 * its `_id` existed). FerretDB on SQLite commits writes one at a time, so under load one write for many
 * documents is what keeps up (the embedded journal batches its appends the same way).
 */
export class InsertBatcher<T extends { _id: string }> {
  private queue: QueuedInsert<T>[] = [];
  private flushing: Promise<void> | null = null;

  constructor(private readonly insertMany: (docs: T[]) => Promise<unknown>, private readonly maxBatch = 500) {}

  insert(doc: T): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.queue.push({ doc, resolve, reject });
      this.flushing ??= this.flush();
    });
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      const failed = new Map<number, { code?: number }>();
      let fatal: unknown = null;
      try {
        await this.insertMany(batch.map((b) => b.doc));
      } catch (e) {
        const errors = (e as { writeErrors?: unknown }).writeErrors;
        const list = (Array.isArray(errors) ? errors : errors ? [errors] : []) as { index?: number; code?: number; err?: { index?: number; code?: number } }[];
        if (list.length === 0) fatal = e;
        for (const w of list) {
          const index = w.index ?? w.err?.index;
          if (index !== undefined) failed.set(index, { code: w.code ?? w.err?.code });
        }
      }
      batch.forEach((b, i) => {
        const error = failed.get(i);
        if (fatal) b.reject(fatal);
        else if (!error) b.resolve(true);
        else if (error.code === 11000) b.resolve(false);
        else b.reject(Object.assign(new Error(`insert failed with code ${error.code}`), { code: error.code }));
      });
    }
    this.flushing = null;
  }
}
