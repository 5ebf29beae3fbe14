import { describe, expect, it } from 'vitest';
import { systemClock, type RunDoc, type StopFlags } from '@leadfinder/platform';
import { createInProcessStopFlags } from '@leadfinder/platform/embedded';
import { RunSignals } from './signals.js';
import { StopRequestedError } from './run-end.js';

const RUN = { id: 'run-1', deadlineAt: new Date(systemClock.now() + 60_000).toISOString() } as RunDoc;

/** In-process stop flags whose next `failures` reads of a flag throw, as a store under strain can. */
function flakyReads(failures: number): StopFlags & { reads: number } {
  const flags = createInProcessStopFlags();
  const flaky = {
    reads: 0,
    raise: (id: string) => flags.raise(id),
    wait: (id: string, signal: AbortSignal) => flags.wait(id, signal),
    close: () => flags.close(),
    isRaised: async (id: string) => {
      flaky.reads += 1;
      if (flaky.reads <= failures) throw new Error('request timed out');
      return flags.isRaised(id);
    },
  };
  return flaky;
}

describe('RunSignals', () => {
  it('ends the run on a stop even when reading the raised flag fails at first', async () => {
    const stops = flakyReads(2);
    const signals = new RunSignals(new AbortController().signal);
    signals.watch(RUN, stops, systemClock);
    await stops.raise(RUN.id);
    await expect.poll(() => signals.signal.aborted, { timeout: 2000 }).toBe(true);
    expect(signals.signal.reason).toBeInstanceOf(StopRequestedError);
    expect(stops.reads).toBe(3);
    signals.unwatch();
  });

  it('does not end the run when the watch ends without a raise', async () => {
    const stops = flakyReads(0);
    const signals = new RunSignals(new AbortController().signal);
    signals.watch(RUN, stops, systemClock);
    signals.unwatch();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(signals.signal.aborted).toBe(false);
  });
});
