import { vi } from 'vitest';
import { realPause, type TestTime } from './time.js';

/*
 * Kept apart from time.ts: fake timers replace the worker process's global timers, so vitest.config.ts
 * gives a test file that imports this module a process of its own, while files that use real time only
 * (harness.ts, through time.ts) can share one.
 */

/** Fake timers and `Date`, starting at the real now; promises, I/O and setImmediate stay real. */
export function fakeTime(stepMs = 20): TestTime {
  vi.useFakeTimers({ now: Date.now(), toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  const time: TestTime = {
    fake: true,
    advance: async (ms) => {
      await vi.advanceTimersByTimeAsync(ms);
    },
    async until(check, { timeoutMs = 5_000, what = 'condition', passing = true } = {}) {
      const start = Date.now();
      // A bound in real time too, so a wait that no timer can end fails instead of hanging.
      const realUntil = performance.now() + (passing ? 10_000 : timeoutMs);
      while (!(await check())) {
        if (Date.now() - start > timeoutMs || performance.now() > realUntil) throw new Error(`${what} not reached within ${timeoutMs} ms`);
        await realPause(1);
        if (passing) await vi.advanceTimersByTimeAsync(stepMs);
      }
    },
    async settle(promise) {
      let done = false;
      const watched = promise.finally(() => (done = true));
      await time.until(() => done, { timeoutMs: 60_000, what: 'settled promise' });
      return watched;
    },
    restore() {
      vi.useRealTimers();
    },
  };
  return time;
}
