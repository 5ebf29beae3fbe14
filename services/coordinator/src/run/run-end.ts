import { CancelledError, DeadlineExceededError, LeadfinderError, LeaseLostError } from '@leadfinder/platform';
import { CallFailedError } from '../activities/retry.js';
import type { RunOutcome } from '../pipeline/tail.js';

/** The stop flag was raised: the run unwinds and ends `stopped`. */
export class StopRequestedError extends CancelledError {
  constructor(readonly runId: string) {
    super(`stop requested for run ${runId}`);
    this.name = 'StopRequestedError';
  }
}
/**
 * The request's `max_usd_per_row` was passed by the marginal cost of the last rows (RowCostMeter): the run
 * unwinds like a stop and ends `stopped`, with `final.stop_reason` saying why.
 */
export class MarginalCostStopError extends CancelledError {
  constructor(readonly runId: string) {
    super(`run ${runId} passed its max_usd_per_row`);
    this.name = 'MarginalCostStopError';
  }
}
/** The run passed its deadlineAt while this coordinator drove it: it ends `interrupted` (deadline). */
export class RunDeadlineError extends DeadlineExceededError {
  constructor(readonly runId: string, readonly deadlineAt: string) {
    super(`run ${runId} passed its deadline ${deadlineAt}`, { retryable: false });
    this.name = 'RunDeadlineError';
  }
}
/** The next priced step would cross the spend ceiling (or the hold): the run ends `budget_exhausted`. */
export class BudgetExhaustedError extends LeadfinderError {
  constructor(readonly runId: string, readonly spendMicrousd: number, readonly capMicrousd: number) {
    super('LF_ERR_CANCELLED', `run ${runId} reached its spend cap`);
    this.name = 'BudgetExhaustedError';
  }
}
/** The coordinator is shutting down past its grace period: the run is left to lapse, nothing written. */
export class CoordinatorShutdownError extends CancelledError {
  constructor() {
    super('coordinator shutting down');
    this.name = 'CoordinatorShutdownError';
  }
}

/** What to do once the driving code threw: write a tail (an outcome), or leave the run untouched. */
export type EndDecision = { write: true; outcome: RunOutcome } | { write: false; why: 'lease_lost' | 'shutdown' };

/**
 * Maps what ended the drive to an outcome. The signal's reason wins over the thrown error: a port that
 * was aborted may throw anything (AbortError, CancelledError, a gRPC status).
 */
export function decideEnd(thrown: unknown, signal: AbortSignal): EndDecision {
  const cause = signal.aborted ? signal.reason : thrown;
  if (cause instanceof LeaseLostError) return { write: false, why: 'lease_lost' };
  if (cause instanceof CoordinatorShutdownError) return { write: false, why: 'shutdown' };
  if (cause instanceof StopRequestedError) return { write: true, outcome: { kind: 'stopped' } };
  if (cause instanceof MarginalCostStopError) return { write: true, outcome: { kind: 'stopped', reason: 'max_usd_per_row' } };
  if (cause instanceof RunDeadlineError) return { write: true, outcome: { kind: 'deadline' } };
  if (cause instanceof BudgetExhaustedError) return { write: true, outcome: { kind: 'budget_exhausted' } };
  return { write: true, outcome: { kind: 'error', message: publicErrorMessage(thrown) } };
}

/**
 * The `error` event's message: short and generic, by the step that failed. Addresses, hosts and
 * provider answers stay in the log (`errorDetail`, logged with the run id), never in the stream.
 */
export function publicErrorMessage(error: unknown): string {
  const call = error instanceof CallFailedError ? error.call : '';
  const unreachable = LeadfinderError.is(error) && error.code === 'LF_ERR_UNAVAILABLE';
  if (call === 'fetcher.search') {
    return unreachable ? 'The web search service could not be reached.' : 'The web search service failed.';
  }
  if (call.startsWith('fetcher.')) return 'Opening pages failed.';
  if (call.startsWith('filter.')) return 'The reasoning service failed.';
  return 'The search could not finish because of an internal error.';
}

/** Everything known about a failure, for the log: message and the chain of causes. */
export function errorDetail(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e !== undefined && depth < 5; depth += 1) {
    parts.push(e instanceof Error ? `${e.name}: ${e.message}` : String(e));
    e = e instanceof Error ? e.cause : undefined;
  }
  return parts.join(' <- ');
}
