import { sleep } from '@leadfinder/platform';
import type { Clock, Logger, RunDoc, StopFlags } from '@leadfinder/platform';
import { RunDeadlineError, StopRequestedError } from './run-end.js';

/** Pauses before watching the stop flag again after a failed watch: doubling from the first, up to the last. */
const REWATCH_PAUSE_MS = { first: 250, max: 5_000 };

/**
 * The reasons a drive must end early, as one signal: the user's stop flag, the run's deadline, the
 * loss of the lease and the coordinator's shutdown. Every port call of the run gets `signal`; the
 * reason it carries says how the run ends (see decideEnd).
 */
export class RunSignals {
  readonly signal: AbortSignal;
  private readonly stopCtl = new AbortController();
  private readonly deadlineCtl = new AbortController();
  private readonly leaseCtl = new AbortController();
  private readonly costCtl = new AbortController();
  /** Ends the stop-flag watch and the deadline timer (not the run signal). */
  private readonly watching = new AbortController();
  private deadlineTimer: NodeJS.Timeout | undefined;

  constructor(shutdown: AbortSignal) {
    this.signal = AbortSignal.any([this.stopCtl.signal, this.deadlineCtl.signal, this.leaseCtl.signal, this.costCtl.signal, shutdown]);
  }

  /** Starts watching the run's stop flag and arms its deadline (by `clock`). */
  watch(run: RunDoc, stops: StopFlags, clock: Clock, logger: Logger): void {
    void this.watchStopFlag(run.id, stops, logger);
    this.deadlineTimer = setTimeout(
      () => this.deadlineCtl.abort(new RunDeadlineError(run.id, run.deadlineAt)),
      Math.max(0, Date.parse(run.deadlineAt) - clock.now()),
    );
  }

  /**
   * Waits for the stop flag until the drive ends. A failed wait (the event log unreachable) is logged and
   * made again: given up, the run could no longer be stopped and would spend on to its ceiling.
   */
  private async watchStopFlag(runId: string, stops: StopFlags, logger: Logger): Promise<void> {
    const watchSignal = AbortSignal.any([this.watching.signal, this.signal]);
    for (let pauseMs = REWATCH_PAUSE_MS.first; !watchSignal.aborted; pauseMs = Math.min(2 * pauseMs, REWATCH_PAUSE_MS.max)) {
      try {
        // wait() says whether the flag went up; a read after it could still miss the raise it saw (see StopFlags.wait).
        if (await stops.wait(runId, watchSignal)) this.stopCtl.abort(new StopRequestedError(runId));
        return;
      } catch (error) {
        logger.warn('stop-flag watch failed; watching again', { error: String(error), retryInMs: pauseMs });
        await sleep(pauseMs, watchSignal).catch(() => undefined);
      }
    }
  }

  /** The lease is gone: the run must stop at once and write nothing more. */
  leaseLost(reason: Error): void {
    this.leaseCtl.abort(reason);
  }

  /** The request's marginal-cost stop was passed: the run unwinds like a stop (MarginalCostStopError). */
  marginalCostPassed(reason: Error): void {
    this.costCtl.abort(reason);
  }

  /** The drive is over: stop watching the flag and the deadline. */
  unwatch(): void {
    clearTimeout(this.deadlineTimer);
    this.watching.abort();
  }
}
