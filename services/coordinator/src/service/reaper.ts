import type { RunDoc } from '@leadfinder/platform';
import { deadlineReason, interruptRun, type SettlementDeps } from '../activities/settlement.js';
import { traceInterruption } from '../activities/tracing.js';

export interface ReaperOptions extends SettlementDeps {
  instanceId: string;
  leaseTtlMs: number;
  /** How often to look for lapsed and overdue runs. @default leaseTtlMs / 3 */
  intervalMs: number;
  /** How often to run billing.reconcile() (also once at start). @default 60000 */
  reconcileEveryMs: number;
  /** Runs this coordinator drives right now (it enforces their deadlines itself). */
  isDriving: (runId: string) => boolean;
}

/**
 * Finds runs nobody drives any more and ends them `interrupted`: lapsed leases (process gone) and runs
 * past their deadline that no live lease covers. Every interruption first claims the run, so it is
 * fenced like a drive: a replica that still holds a live lease is never overridden.
 */
export class Reaper {
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private lastReconcile = 0;

  constructor(private readonly o: ReaperOptions) {}

  start(): void {
    this.timer = setInterval(() => void this.tickOnce(), this.o.intervalMs);
    this.timer.unref?.();
  }

  /** One pass; concurrent calls share the pass in flight. */
  tickOnce(): Promise<void> {
    if (!this.ticking) this.ticking = this.tick().finally(() => (this.ticking = null));
    return this.ticking;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.ticking;
  }

  async reconcile(): Promise<void> {
    this.lastReconcile = this.o.clock.now();
    try {
      const repaired = await this.o.billing.reconcile();
      if (repaired > 0) this.o.logger.info('reconciled settlements', { repaired });
    } catch (error) {
      this.o.logger.warn('billing reconcile failed', { error: String(error) });
    }
  }

  private async tick(): Promise<void> {
    const now = this.o.clock.now();
    try {
      for (const run of await this.o.store.runs.findLapsed(now)) await this.interrupt(run, now);
      for (const run of await this.o.store.runs.findOverdue(new Date(now).toISOString())) {
        if (run.lease && run.lease.expiresAt > now) continue; // a live driver enforces its own deadline
        await this.interrupt(run, now);
      }
    } catch (error) {
      this.o.logger.warn('reaper pass failed', { error: String(error) });
    }
    if (now - this.lastReconcile >= this.o.reconcileEveryMs) await this.reconcile();
  }

  private async interrupt(run: RunDoc, now: number): Promise<void> {
    if (this.o.isDriving(run.id)) return;
    await traceInterruption(run.id, run.trace ?? {}, async () => {
      try {
        const claimed = await this.o.store.runs.claim(run.id, this.o.instanceId, this.o.leaseTtlMs, now);
        if (!claimed) return;
        this.o.logger.info('run claimed', { runId: run.id, epoch: claimed.lease.epoch, by: 'reaper', started: claimed.before.started });
        await interruptRun(this.o, claimed.before, claimed.lease, deadlineReason(claimed.before, now));
      } catch (error) {
        this.o.logger.warn('could not interrupt run', { runId: run.id, error: String(error) });
      }
    });
  }
}
