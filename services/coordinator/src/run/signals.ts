import type { Clock, RunDoc, StopFlags } from '@leadfinder/platform';
import { RunDeadlineError, StopRequestedError } from './run-end.js';

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
  watch(run: RunDoc, stops: StopFlags, clock: Clock): void {
    const watchSignal = AbortSignal.any([this.watching.signal, this.signal]);
    // wait() says whether the flag went up; a read after it could still miss the raise it saw (see StopFlags.wait).
    stops.wait(run.id, watchSignal)
      .then((raised) => { if (raised) this.stopCtl.abort(new StopRequestedError(run.id)); }, () => undefined);
    this.deadlineTimer = setTimeout(
      () => this.deadlineCtl.abort(new RunDeadlineError(run.id, run.deadlineAt)),
      Math.max(0, Date.parse(run.deadlineAt) - clock.now()),
    );
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
