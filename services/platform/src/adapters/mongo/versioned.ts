import type { Collection, Db, Document, Filter, Sort } from 'mongodb';
import { LeadfinderError, UnavailableError } from '../../errors.js';

/**
 * A collection of documents whose every change is committed by inserting an immutable revision
 * (`<id>:<v>` in `<name>_revisions`); a unique `_id` lets exactly one writer create revision v+1.
 *
 * Why not one conditional updateOne: FerretDB v1 (SQLite backend) evaluates an update's filter in a
 * read-modify-write without isolation, so concurrent conditional updates lose writes (measured: 100
 * concurrent `$inc` left +15; 200 concurrent reserves all "matched"). Inserts with a duplicate `_id`
 * are refused atomically there and on MongoDB, so the revision insert is the only commit point.
 *
 * The `<name>` collection holds a head copy of each document (for queries and indexes). It is written
 * after the commit and may lag (crash, or a racing head write); reads roll forward from the head through
 * any newer revisions, so they always return the latest committed state. Queries must therefore use
 * filters that a lagging head still matches (fields that never change, or change one way) and recheck
 * the current document.
 */
export interface Current<T> {
  v: number;
  /** Null when the document does not exist or was deleted. */
  doc: T | null;
}

type Head = Document & { _id: string; _v: number };
interface Revision<T> {
  _id: string;
  v: number;
  doc: T | null;
}

const DUPLICATE_KEY = 11000;
export const isDuplicateKey = (e: unknown) => (e as { code?: number } | null)?.code === DUPLICATE_KEY;

export class VersionedCollection<T extends { id: string }> {
  readonly heads: Collection<Head>;
  private readonly revisions: Collection<Revision<T>>;
  /** In-process queue per id, so this process's writers never race each other (no wasted retries). */
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(db: Db, name: string) {
    this.heads = db.collection<Head>(name);
    this.revisions = db.collection<Revision<T>>(`${name}_revisions`);
  }

  async create(doc: T): Promise<boolean> {
    try {
      await this.revisions.insertOne({ _id: `${doc.id}:1`, v: 1, doc });
    } catch (e) {
      if (isDuplicateKey(e)) return false;
      throw e;
    }
    // Unlike later head writes this one must land: queries only see documents that have a head.
    await this.heads.replaceOne({ _id: doc.id }, { ...doc, _id: doc.id, _v: 1 }, { upsert: true });
    return true;
  }

  async read(id: string): Promise<Current<T>> {
    const head = await this.heads.findOne({ _id: id });
    return this.rollForward(id, head ? this.fromHead(head) : { v: 0, doc: null });
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

  /** Heads matching `filter`, rolled forward to their current state (deleted ones dropped). */
  async find(filter: Filter<Head>, options: { sort?: Sort; limit?: number } = {}): Promise<T[]> {
    let cursor = this.heads.find(filter);
    if (options.sort) cursor = cursor.sort(options.sort);
    if (options.limit) cursor = cursor.limit(options.limit);
    const heads = await cursor.toArray();
    const newer = await this.revisions
      .find({ _id: { $in: heads.map((h) => `${h._id}:${h._v + 1}`) } }, { projection: { _id: 1 } })
      .toArray();
    const stale = new Set(newer.map((r) => r._id.slice(0, r._id.lastIndexOf(':'))));
    const current: (T | null)[] = await Promise.all(
      heads.map(async (h) => (stale.has(h._id) ? (await this.rollForward(h._id, this.fromHead(h))).doc : this.fromHead(h).doc)),
    );
    return current.filter((d) => d !== null);
  }

  private async commitLoop<R>(id: string, decide: (doc: T | null) => { next?: T | null; out: R }): Promise<R> {
    for (let attempt = 0; attempt < 100; attempt++) {
      const cur = await this.read(id);
      const { next, out } = decide(cur.doc);
      if (next === undefined) return out;
      const v = cur.v + 1;
      try {
        await this.revisions.insertOne({ _id: `${id}:${v}`, v, doc: next });
      } catch (e) {
        if (!isDuplicateKey(e)) throw e;
        // Another process committed v first: back off briefly (jittered) and decide again on its result.
        await new Promise((r) => setTimeout(r, Math.random() * Math.min(50, 2 ** attempt)));
        continue;
      }
      await this.writeHead(id, v, next);
      return out;
    }
    throw new UnavailableError('mongodb', `too much contention updating ${this.heads.collectionName} ${id}`);
  }

  private async rollForward(id: string, cur: Current<T>): Promise<Current<T>> {
    for (;;) {
      const rev = await this.revisions.findOne({ _id: `${id}:${cur.v + 1}` });
      if (!rev) return cur;
      cur = { v: rev.v, doc: rev.doc };
    }
  }

  /** Best effort: the head is a hint, so a failed or raced write costs readers a roll-forward, no more. */
  private async writeHead(id: string, v: number, doc: T | null): Promise<void> {
    const head: Head = doc === null ? { _id: id, _v: v, _deleted: true } : { ...doc, _id: id, _v: v };
    try {
      await this.heads.replaceOne({ _id: id, _v: { $lt: v } }, head, { upsert: true });
    } catch {
      // Duplicate key means the head already holds v or newer; any other failure only leaves it lagging.
    }
  }

  private fromHead(head: Head): Current<T> {
    if (head._deleted === true) return { v: head._v, doc: null };
    const { _id, _v, ...doc } = head;
    return { v: _v, doc: doc as unknown as T };
  }
}

export function conflictError(what: string): LeadfinderError {
  return new LeadfinderError('LF_ERR_CONFLICT', `${what} already exists`);
}
