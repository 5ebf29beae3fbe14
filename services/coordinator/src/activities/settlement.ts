import type { Billing, Clock, EventLog, Logger, RunDoc, RunLease, Store } from '@leadfinder/platform';
import { microsToUsdDisplay, microsToUsdNumber, TAIL_STAGES } from '@leadfinder/wire';
import { RunEmitter } from './emitter.js';

export interface SettlementDeps {
  store: Store;
  billing: Billing;
  events: EventLog;
  clock: Clock;
  logger: Logger;
}

/**
 * Ends a run nobody is driving any more as `interrupted` (`where` kept), charged its persisted spend.
 * The only event is a `cost` (stage `Interrupted`) with the charge, so the run's last `cost` figure is
 * exactly what it was charged even when its driver died between persisting spend and announcing it.
 */
export async function interruptRun(deps: SettlementDeps, run: RunDoc, lease: RunLease, stopReason: 'deadline' | null): Promise<boolean> {
  const charge = Math.min(run.spendMicrousd, run.holdMicrousd);
  const emitter = new RunEmitter(deps.events, run.id, deps.clock, { dedupePrefix: `${run.id}:interrupted:${lease.epoch}` });
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
  if (finished) deps.logger.info('run ended', { runId: run.id, status: 'interrupted', stopReason, where: run.where, chargeMicrousd: charge });
  return finished;
}

/** Deadline passed by this clock? Then an interruption carries stopReason `deadline`. */
export function deadlineReason(run: RunDoc, now: number): 'deadline' | null {
  return Date.parse(run.deadlineAt) <= now ? 'deadline' : null;
}
