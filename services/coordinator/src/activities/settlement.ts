import type { Billing, Clock, EventLog, LeadfinderMetrics, Logger, RunDoc, RunLease, Store } from '@leadfinder/platform';
import { microsToUsdDisplay, microsToUsdNumber, TAIL_STAGES, type TerminalStatus } from '@leadfinder/wire';
import { RunEmitter } from './emitter.js';

export interface SettlementDeps {
  store: Store;
  billing: Billing;
  events: EventLog;
  clock: Clock;
  logger: Logger;
  /** Runs by end state, their duration and spend by stage, lost leases. */
  metrics: LeadfinderMetrics;
}

/**
 * Counts a run that became terminal: by end state, its duration from accept (on the injected clock) and
 * its spend by the stage it was made in.
 */
export function recordRunEnd(metrics: LeadfinderMetrics, end: { status: TerminalStatus; durationMs: number; spendByStage: ReadonlyMap<string, number> }): void {
  metrics.runEnded(end.status);
  metrics.runDuration(end.status, Math.max(0, end.durationMs));
  for (const [stage, micros] of end.spendByStage) if (micros > 0) metrics.spend(micros, { stage });
}

/**
 * The `stage` label of the spend of a run ended by someone who did not drive it (a later claimer, the
 * reaper): which stage each amount went to died with its driver.
 */
export const UNATTRIBUTED_STAGE = 'unknown';

/**
 * Ends a run nobody is driving any more as `interrupted` (`where` kept), charged its persisted spend.
 * The only event is a `cost` (stage `Interrupted`) with the charge, so the run's last `cost` figure is
 * exactly what it was charged even when its driver died between persisting spend and announcing it.
 * Its dedupe id is the run's, not the claim's: when this claimer's lease lapses before it ends the run
 * and another claims it in turn, both announce the same charge, and the log keeps one.
 */
export async function interruptRun(deps: SettlementDeps, run: RunDoc, lease: RunLease, stopReason: 'deadline' | null): Promise<boolean> {
  const charge = Math.min(run.spendMicrousd, run.holdMicrousd);
  const emitter = new RunEmitter(deps.events, run.id, deps.clock, { dedupePrefix: `${run.id}:interrupted` });
  try {
    await emitter.emit({ type: 'cost', stage: TAIL_STAGES.interrupted, usd: microsToUsdNumber(charge) });
  } catch (error) {
    deps.logger.warn('could not append the interruption cost event', { runId: run.id, error: String(error) });
  }
  // Terminal (fenced by the lease) and settled in one step; a failed settle is left to billing.reconcile().
  const finished = await deps.billing.endRun(run, lease, {
    status: 'interrupted',
    where: run.where,
    spendMicrousd: run.spendMicrousd,
    chargeMicrousd: charge,
    usdDisplay: microsToUsdDisplay(charge),
    stopReason,
    result: null,
    finishedAt: new Date(deps.clock.now()).toISOString(),
  });
  // Event streams close on the end marker, appended once the record is terminal.
  if (finished) await emitter.end(deps.logger);
  if (finished) {
    recordRunEnd(deps.metrics, {
      status: 'interrupted', durationMs: deps.clock.now() - Date.parse(run.createdAt),
      spendByStage: new Map([[UNATTRIBUTED_STAGE, run.spendMicrousd]]),
    });
    deps.logger.info('run ended', { runId: run.id, status: 'interrupted', stopReason, where: run.where, chargeMicrousd: charge });
  }
  return finished;
}

/** Deadline passed by this clock? Then an interruption carries stopReason `deadline`. */
export function deadlineReason(run: RunDoc, now: number): 'deadline' | null {
  return Date.parse(run.deadlineAt) <= now ? 'deadline' : null;
}
