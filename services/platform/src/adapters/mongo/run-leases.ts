import type { Collection, Db } from 'mongodb';
import type { RunDoc, RunLease } from '../../ports/store.js';
import { InsertBatcher, lastExisting } from './revision-chain.js';

interface Renewal {
  /** `<run>:<epoch>:<n>`: the n-th renewal of that claim. */
  _id: string;
  expiresAt: number;
}

/**
 * Lease renewals as records of their own (`run_leases`), so keeping a run costs one small insert and
 * never a new revision of the run. A claim still commits on the run itself (it bumps the epoch, the
 * fencing token every progress and finish write checks atomically); the n-th renewal of epoch e is the
 * insert `<run>:<e>:<n>` carrying the new expiry. The run's lease is its claim extended by the latest
 * renewal of the same epoch, found by `_id` point reads (renewals of one epoch have no gap).
 *
 * A renewal checks the epoch and then inserts, so it can race a claim that saw the lease lapsed: the
 * old owner then learns it lost at its next fenced write or renewal (both read the new epoch), and
 * nothing it writes to the run lands. This is the window a lapsed lease always has.
 */
export class RunLeases {
  private readonly renewals: Collection<Renewal>;
  /** The latest renewal number seen per `<run>:<epoch>`. */
  private readonly seen = new Map<string, { n: number; expiresAt: number }>();

  /**
   * Renewals of every run this process keeps go out together as one insert (group commit): a coordinator
   * renews all its runs every ttl/3, and on FerretDB (SQLite) each write waits for the database's only
   * writer, so one write for many renewals is what keeps them on time under load.
   */
  private readonly inserts: InsertBatcher<Renewal>;

  constructor(db: Db) {
    this.renewals = db.collection<Renewal>('run_leases');
    this.inserts = new InsertBatcher((docs) => this.renewals.insertMany(docs, { ordered: false }));
  }

  /** Record a renewal of the claim `lease.epoch` until `lease.expiresAt`. */
  async renew(runId: string, lease: RunLease): Promise<void> {
    const key = `${runId}:${lease.epoch}`;
    // The owner renews one after another, so it usually knows the last number: insert the next one
    // without reading (a duplicate means it did not, and the loop moves on).
    let n = this.seen.get(key)?.n ?? (await this.latest(key)).n;
    for (;;) {
      n += 1;
      if (await this.inserts.insert({ _id: `${key}:${n}`, expiresAt: lease.expiresAt })) {
        this.remember(key, n, lease.expiresAt);
        return;
      }
    }
  }

  /**
   * This process has just claimed `lease` (a new epoch): it has no renewals yet, and only its owner
   * renews it, so its first renewal needs no read (a duplicate would only move the insert on).
   */
  claimed(runId: string, lease: RunLease): void {
    this.remember(`${runId}:${lease.epoch}`, 0, lease.expiresAt);
  }

  /** The run with its lease as renewals have extended it. */
  async effective(run: RunDoc): Promise<RunDoc> {
    if (!run.lease || run.status !== 'running') return run;
    const { expiresAt } = await this.latest(`${run.id}:${run.lease.epoch}`);
    return expiresAt > run.lease.expiresAt ? { ...run, lease: { ...run.lease, expiresAt } } : run;
  }

  /**
   * The claims (`<run>:<epoch>`) that a renewal keeps alive past `now`, in one read of the renewals
   * (on FerretDB every filtered read scans the collection anyway, so one scan beats one per run).
   */
  async liveClaims(now: number): Promise<Set<string>> {
    const live = await this.renewals.find({ expiresAt: { $gt: now } }, { projection: { _id: 1 } }).toArray();
    return new Set(live.map(({ _id }) => _id.slice(0, _id.lastIndexOf(':'))));
  }

  async close(): Promise<void> {
    this.seen.clear();
  }

  private async latest(key: string): Promise<{ n: number; expiresAt: number }> {
    const known = this.seen.get(key) ?? { n: 0, expiresAt: 0 };
    const found = await lastExisting(known.n, (n) => this.renewals.findOne({ _id: `${key}:${n}` }));
    if (!found) return known;
    const n = Number(found._id.slice(found._id.lastIndexOf(':') + 1));
    this.remember(key, n, found.expiresAt);
    return { n, expiresAt: found.expiresAt };
  }

  private remember(key: string, n: number, expiresAt: number): void {
    const known = this.seen.get(key);
    if (known && (known.n > n || (known.n === n && n > 0))) return;
    this.seen.delete(key);
    this.seen.set(key, { n, expiresAt });
    if (this.seen.size > 20_000) this.seen.delete(this.seen.keys().next().value!);
  }
}
