import type { Collection, Db, Document, Filter, Sort } from 'mongodb';
import { LeadfinderError, UnavailableError } from '../../errors.js';
import { Compactor, InsertBatcher, lastExisting } from './revision-chain.js';

/**
 * A collection of documents whose every change is committed by inserting an immutable revision
 * (`<id>:<v>` in `<name>_revisions`); a unique `_id` lets exactly one writer create revision v+1.
 *
 * Why not one conditional updateOne: FerretDB v1 (SQLite backend) evaluates an update's filter in a
 * read-modify-write without isolation, so concurrent conditional updates lose writes (measured: 100
 * concurrent `$inc` left +15; 200 concurrent reserves all "matched"). Inserts with a duplicate `_id`
 * are refused atomically there and on MongoDB, so the revision insert is the only commit point.
 *
 * Reads find the latest revision by `_id` point reads (see revision-chain.ts), starting from the last
 * revision this process saw, else from the head. On FerretDB any other filter, and any update, scans the
 * whole collection, so the hot path does nothing else: a superseded revision loses its body in the
 * background (Compactor), and the head is rewritten only when a field that queries filter on changed.
 *
 * The `<name>` collection holds a head copy of each document (for queries and indexes). It may lag
 * (crash, a racing head write, or a change no query filters on), so queries must use filters that a
 * lagging head still matches (fields that never change, or change one way) and recheck the current
 * document.
 */
export interface Current<T> {
  v: number;
  /** Null when the document does not exist or was deleted. */
  doc: T | null;
}

type Head = Document & { _id: string; _v: number; _body?: string };
interface Revision<T> {
  _id: string;
  v: number;
  /** The document as one JSON string (see STORED AS TEXT below); absent once compacted. */
  body?: string;
  /** Null when this revision deleted the document; a document here is a revision written before bodies were text. */
  doc?: T | null;
}

/*
 * STORED AS TEXT: a revision's document is one JSON string (`body`), and a head keeps only the fields
 * queries use beside it (`headFields`) with the whole document as `_body`. Nothing ever queries inside
 * them, and FerretDB's SQLite backend converts the JSON of every row it scans (every point read and
 * every update is a scan there) into its binary form: a nested document costs a parse of every field, a
 * string a copy. Measured on FerretDB 1.24, 2,000 revisions of 4 KB: a read of a missing `_id` took
 * 360 ms with nested documents and 16–33 ms with text bodies. Revisions and heads written before (a
 * nested `doc`, a head that is the document) are still read.
 */
const fromRevision = <T>(rev: Revision<T>): T | null | undefined =>
  typeof rev.body === 'string' ? (JSON.parse(rev.body) as T) : rev.doc;

const DUPLICATE_KEY = 11000;
export const isDuplicateKey = (e: unknown) => (e as { code?: number } | null)?.code === DUPLICATE_KEY;

export interface VersionedOptions<T> {
  /** The fields queries filter on: the head is rewritten only when these change. @default every change */
  headKey?: (doc: T) => string;
  /**
   * The fields queries filter or sort on, kept as fields of the head beside the whole document as text.
   * @default the whole document as fields (no text copy)
   */
  headFields?: (doc: T) => Document;
  /** How many documents' latest revisions to remember. @default 20000 */
  cacheSize?: number;
}

export class VersionedCollection<T extends { id: string }> {
  readonly heads: Collection<Head>;
  private readonly revisions: Collection<Revision<T>>;
  /** In-process queue per id, so this process's writers never race each other (no wasted retries). */
  private readonly queues = new Map<string, Promise<unknown>>();
  /** The latest revision seen of recent documents (a hint: every write verifies it by insert). */
  private readonly seen = new Map<string, Current<T>>();
  private readonly compactor: Compactor;
  /** Revision and head inserts of concurrent callers go out as one write each (see InsertBatcher). */
  private readonly revisionInserts: InsertBatcher<Revision<T>>;
  private readonly headInserts: InsertBatcher<Head>;

  constructor(db: Db, name: string, private readonly options: VersionedOptions<T> = {}) {
    this.heads = db.collection<Head>(name);
    this.revisions = db.collection<Revision<T>>(`${name}_revisions`);
    this.revisionInserts = new InsertBatcher((docs) => this.revisions.insertMany(docs as never, { ordered: false }));
    this.headInserts = new InsertBatcher((docs) => this.heads.insertMany(docs, { ordered: false }));
    this.compactor = new Compactor((ids) =>
      this.revisions.updateMany({ _id: { $in: ids } }, { $unset: { doc: '', body: '' }, $set: { compacted: true } } as never));
  }

  async create(doc: T): Promise<boolean> {
    if (!(await this.revisionInserts.insert({ _id: `${doc.id}:1`, v: 1, body: JSON.stringify(doc) }))) return false;
    this.remember(doc.id, { v: 1, doc });
    // Unlike later head writes this one must land: queries only see documents that have a head. An
    // insert, not an upsert: on FerretDB an upsert scans the collection.
    const head = this.toHead(doc.id, 1, doc);
    if (!(await this.headInserts.insert(head))) {
      await this.heads.replaceOne({ _id: doc.id }, head, { upsert: true });
    }
    return true;
  }

  async read(id: string): Promise<Current<T>> {
    let from = this.seen.get(id);
    if (!from) {
      const head = await this.heads.findOne({ _id: id });
      from = head ? this.fromHead(head) : { v: 0, doc: null };
    }
    return this.rollForward(id, from);
  }

  /**
   * The document as its head has it, or as this process last saw it when that is newer: one point read of
   * the small heads collection and no roll-forward along the revisions. It lags every change that the
   * head key leaves out, and a head write that failed or raced; for checks that a later write fences.
   */
  async head(id: string): Promise<Current<T>> {
    const head = await this.heads.findOne({ _id: id });
    const fromHead = head ? this.fromHead(head) : { v: 0, doc: null };
    const known = this.seen.get(id);
    return known && known.v > fromHead.v ? known : fromHead;
  }

  /**
   * Apply `decide` to the current document and commit its `next` as the following revision, retrying on
   * a lost race. `next: undefined` means no change. Returns `decide`'s `out`.
   */
  update<R>(id: string, decide: (doc: T | null) => { next?: T | null; out: R }): Promise<R> {
    const previous = this.queues.get(id) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(() => this.commitLoop(id, decide));
    this.queues.set(id, run);
    void run.catch(() => undefined).then(() => {
      if (this.queues.get(id) === run) this.queues.delete(id);
    });
    return run;
  }

  /** Heads matching `filter` as they are (possibly lagging): for scans that recheck their few matches. */
  async findHeads(filter: Filter<Head>): Promise<T[]> {
    return (await this.heads.find(filter).toArray()).map((h) => this.fromHead(h).doc).filter((d) => d !== null);
  }

  /** Heads matching `filter`, rolled forward to their current state (deleted ones dropped). */
  async find(filter: Filter<Head>, options: { sort?: Sort; limit?: number } = {}): Promise<T[]> {
    let cursor = this.heads.find(filter);
    if (options.sort) cursor = cursor.sort(options.sort);
    if (options.limit) cursor = cursor.limit(options.limit);
    const heads = await cursor.toArray();
    const current = await Promise.all(heads.map(async (h) => {
      const known = this.seen.get(h._id);
      return (await this.rollForward(h._id, known && known.v > h._v ? known : this.fromHead(h))).doc;
    }));
    return current.filter((d) => d !== null);
  }

  async close(): Promise<void> {
    await this.compactor.close();
  }

  private async commitLoop<R>(id: string, decide: (doc: T | null) => { next?: T | null; out: R }): Promise<R> {
    for (let attempt = 0; attempt < 100; attempt++) {
      // First try on the revision this process saw last, without reading (see AccountBook.commitBatch).
      const cur = (attempt === 0 && this.seen.get(id)) || (await this.read(id));
      const { next, out } = decide(cur.doc);
      if (next === undefined) return out;
      const v = cur.v + 1;
      if (!(await this.revisionInserts.insert({ _id: `${id}:${v}`, v, ...(next === null ? { doc: null } : { body: JSON.stringify(next) }) }))) {
        // Another process committed v first: back off briefly (jittered) and decide again on its result.
        if (attempt > 0) await new Promise((r) => setTimeout(r, Math.random() * Math.min(50, 2 ** attempt)));
        continue;
      }
      this.remember(id, { v, doc: next });
      if (v > 1) this.compactor.supersede(`${id}:${v - 1}`);
      const headKey = this.options.headKey;
      if (!headKey || next === null || cur.doc === null || headKey(next) !== headKey(cur.doc)) await this.writeHead(id, v, next);
      return out;
    }
    throw new UnavailableError('mongodb', `too much contention updating ${this.heads.collectionName} ${id}`);
  }

  private async rollForward(id: string, cur: Current<T>): Promise<Current<T>> {
    let compactedAt = 0;
    for (let attempt = 0; attempt < 10; attempt++) {
      const rev = await lastExisting(cur.v, (v) => this.revisions.findOne({ _id: `${id}:${v}` }));
      if (!rev) {
        if (compactedAt === 0) {
          this.remember(id, cur);
          return cur;
        }
        // Its successor is committing right now; look again.
        await new Promise((r) => setTimeout(r, 5));
        continue;
      }
      // A compacted revision has a successor: keep going from it.
      const doc = fromRevision(rev);
      if (doc === undefined) {
        compactedAt = rev.v;
        cur = { v: rev.v, doc: null };
        continue;
      }
      cur = { v: rev.v, doc };
      this.remember(id, cur);
      return cur;
    }
    throw new UnavailableError('mongodb', `cannot find the latest revision of ${this.heads.collectionName} ${id}`);
  }

  private remember(id: string, cur: Current<T>): void {
    const known = this.seen.get(id);
    if (known && known.v >= cur.v) return;
    this.seen.delete(id);
    this.seen.set(id, cur);
    if (this.seen.size > (this.options.cacheSize ?? 20_000)) this.seen.delete(this.seen.keys().next().value!);
  }

  /** Best effort: the head is a hint, so a failed or raced write costs readers a roll-forward, no more. */
  private async writeHead(id: string, v: number, doc: T | null): Promise<void> {
    const head: Head = doc === null ? { _id: id, _v: v, _deleted: true } : this.toHead(id, v, doc);
    try {
      await this.heads.replaceOne({ _id: id, _v: { $lt: v } }, head, { upsert: true });
    } catch {
      // Duplicate key means the head already holds v or newer; any other failure only leaves it lagging.
    }
  }

  private fromHead(head: Head): Current<T> {
    if (head._deleted === true) return { v: head._v, doc: null };
    if (typeof head._body === 'string') return { v: head._v, doc: JSON.parse(head._body) as T };
    const { _id, _v, ...doc } = head;
    return { v: _v, doc: doc as unknown as T };
  }

  private toHead(id: string, v: number, doc: T): Head {
    const fields = this.options.headFields;
    return fields ? { ...fields(doc), _id: id, _v: v, _body: JSON.stringify(doc) } : { ...doc, _id: id, _v: v };
  }
}

export function conflictError(what: string): LeadfinderError {
  return new LeadfinderError('LF_ERR_CONFLICT', `${what} already exists`);
}
