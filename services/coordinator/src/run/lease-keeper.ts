import type { Clock, Logger, RunLease, RunStore, WorkItem } from '@leadfinder/platform';

/**
 * Lease settings, field by field (convention 14):
 * - ttlMs (LEADFINDER_LEASE_TTL_MS, ≤ 30 s): how long a claim or renewal holds the run. A dead
 *   coordinator's run is found by another replica after at most ttl + one reaper period.
 * - renew interval = ttl / 3: two renewals may fail (store hiccup) before the lease can lapse.
 * - no backoff/jitter between renewals: a failed renewal is simply tried again at the next tick; the
 *   lease counts as lost as soon as the store refuses it (another owner or epoch) or the last good
 *   renewal has expired by our clock.
 */
export interface LeaseKeeperOptions {
  runs: RunStore;
  runId: string;
  lease: RunLease;
  ttlMs: number;
  clock: Clock;
  logger: Logger;
  /** The dispatch message, kept alive alongside (JetStream in-progress ack). */
  item: WorkItem | null;
  onLost: () => void;
}

export class LeaseKeeper {
  private current: RunLease;
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private lost = false;
  /** The tail is being written: a refusal now means the run turned terminal, not that someone took it. */
  private ending = false;

  constructor(private readonly o: LeaseKeeperOptions) {
    this.current = o.lease;
  }

  get lease(): RunLease {
    return this.current;
  }
  get isLost(): boolean {
    return this.lost;
  }

  start(): void {
    const interval = Math.max(50, Math.floor(this.o.ttlMs / 3));
    this.timer = setInterval(() => {
      // The dispatch message is kept at every tick, whether or not the store has answered the last
      // renewal: it says this process is alive and driving the run. Tied to renewals, a store slower than
      // the ack wait (FerretDB under load) let the queue hand a run that was being driven to the other
      // coordinator, which then polled it every 250 ms.
      if (!this.lost) this.keepMessage();
      if (!this.ticking) this.ticking = this.renew().then(() => undefined).finally(() => (this.ticking = null));
    }, interval);
    this.timer.unref?.();
  }

  /**
   * Confirm on the current run (not a hint of it) that the lease is still ours, then renew: before a
   * tail, whose events go to the unfenced event log. False when the lease is lost (then onLost has been
   * called).
   */
  async confirm(): Promise<boolean> {
    if (this.lost) return false;
    const run = await this.o.runs.get(this.o.runId).catch(() => undefined);
    // Unreadable: the renewal below decides (it fails, and past the expiry the lease counts as lost).
    if (run === null || (run && (run.status !== 'running' || run.lease?.owner !== this.current.owner || run.lease.epoch !== this.current.epoch))) {
      this.markLost();
      return false;
    }
    return this.renew();
  }

  /** Renew now; false when the lease is lost (then onLost has been called). */
  async renew(): Promise<boolean> {
    if (this.lost) return false;
    try {
      const renewed = await this.o.runs.renew(this.o.runId, this.current, this.o.ttlMs, this.o.clock.now());
      if (!renewed) {
        if (this.ending) {
          // The tail made the run terminal (the store refuses renewals of a finished run): nothing was lost.
          if (this.timer) clearInterval(this.timer);
          this.timer = null;
          return false;
        }
        this.markLost();
        return false;
      }
      this.current = renewed;
      return true;
    } catch (error) {
      this.o.logger.warn('lease renewal failed', { runId: this.o.runId, error: String(error) });
      if (this.o.clock.now() >= this.current.expiresAt) this.markLost();
      return !this.lost;
    }
  }

  private keepMessage(): void {
    void this.o.item?.working().catch((error: unknown) => {
      this.o.logger.debug('in-progress ack failed', { runId: this.o.runId, error: String(error) });
    });
  }

  /**
   * The tail is about to be written: keep renewing through it (under load its writes may outlast a
   * lease, and a lapse then would let another coordinator interrupt a run whose tail is already in the
   * event log), but read a refused renewal as the run having turned terminal.
   */
  endingRun(): void {
    this.ending = true;
  }

  /** Called when a fenced write was refused: the lease belongs to someone else now. */
  markLost(): void {
    if (this.lost) return;
    this.lost = true;
    this.o.logger.info('run lease lost', { runId: this.o.runId, epoch: this.current.epoch });
    this.o.onLost();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.ticking;
  }
}
