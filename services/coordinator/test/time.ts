/**
 * The real timers, kept before any test installs fake ones (fake-time.ts imports this module first):
 * waits for real I/O use these.
 */
const realSetTimeout = globalThis.setTimeout.bind(globalThis);
export const realPause = (ms: number) => new Promise<void>((resolve) => realSetTimeout(resolve, ms));

/**
 * Time as a test lets it pass. Lease renewals and lapses, deadlines, reaper passes, redelivery delays
 * and the fake roles' slowness are all timers (and `Date.now()`, which the coordinator's clock reads), so
 * on fake time they fire as fast as the store's real I/O allows, and a test whose subject is time ends in
 * milliseconds. Real time stays for the end-to-end suites (JetStream, whose client has timers of its own).
 */
export interface TestTime {
  readonly fake: boolean;
  /** Lets `ms` pass: at once on fake time (every timer due fires, in order), for real otherwise. */
  advance(ms: number): Promise<void>;
  /**
   * Waits until `check` holds, letting time pass meanwhile (on fake time in small steps, each after the
   * real I/O in flight had a moment), or with time standing still (`passing: false`: only I/O proceeds).
   * Throws after `timeoutMs` of the test's time.
   */
  until(check: () => boolean | Promise<boolean>, options?: UntilOptions): Promise<void>;
  /** Waits for `promise`, letting time pass meanwhile (a shutdown's grace period, say). */
  settle<T>(promise: Promise<T>): Promise<T>;
  /** Back to real timers (fake timers still pending are dropped). */
  restore(): void;
}

export interface UntilOptions {
  /** @default 5000 */
  timeoutMs?: number;
  /** Named in the error. @default 'condition' */
  what?: string;
  /** Whether time passes while waiting (fake time only; real time always passes). @default true */
  passing?: boolean;
}

export function realTime(): TestTime {
  return {
    fake: false,
    advance: realPause,
    async until(check, { timeoutMs = 5_000, what = 'condition' } = {}) {
      const until = Date.now() + timeoutMs;
      while (!(await check())) {
        if (Date.now() > until) throw new Error(`${what} not reached within ${timeoutMs} ms`);
        await realPause(10);
      }
    },
    settle: (promise) => promise,
    restore() {},
  };
}
