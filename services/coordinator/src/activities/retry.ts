import { DeadlineExceededError, LeadfinderError, sleep } from '@leadfinder/platform';

export interface CallPolicy {
  /** Retries of a retryable LeadfinderError (convention 8: the error says whether, we say how often). @default 2 */
  retries: number;
  /** First backoff; doubles per retry unless the error suggests `nextRetryDelayMs`. @default 250 */
  backoffMs: number;
  /** Per-attempt timeout; the run signal still aborts earlier. */
  timeoutMs: number;
}

/**
 * One port call under the run signal: a timeout per attempt, retryable errors retried with backoff.
 * When the run signal aborted, its reason is thrown (never retried).
 */
export async function callWithRetry<T>(
  name: string,
  signal: AbortSignal,
  policy: CallPolicy,
  call: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    signal.throwIfAborted();
    const timeout = AbortSignal.timeout(policy.timeoutMs);
    try {
      return await call(AbortSignal.any([signal, timeout]));
    } catch (thrown) {
      if (signal.aborted) throw signal.reason;
      const error = timeout.aborted
        ? new DeadlineExceededError(`${name} took longer than ${policy.timeoutMs} ms`, { cause: thrown })
        : thrown;
      const retryable = LeadfinderError.is(error) && error.retryable;
      if (!retryable || attempt >= policy.retries) {
        throw new CallFailedError(name, error);
      }
      const suggested = LeadfinderError.is(error) ? error.nextRetryDelayMs : undefined;
      await sleep(suggested ?? policy.backoffMs * 2 ** attempt, signal);
    }
  }
}

/** A port call failed for good; its message names the call, which the run's `error` event shows. */
export class CallFailedError extends LeadfinderError {
  constructor(readonly call: string, cause: unknown) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    super(LeadfinderError.is(cause) ? cause.code : 'LF_ERR_UPSTREAM', `${call} failed: ${detail}`, { cause });
    this.name = 'CallFailedError';
  }
}
