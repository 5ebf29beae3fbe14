import { describe, expect, it } from 'vitest';
import { systemClock, type RunDoc, type StopFlags } from '@leadfinder/platform';
import { createInProcessStopFlags } from '@leadfinder/platform/embedded';
import { RunSignals } from './signals.js';
import { StopRequestedError } from './run-end.js';

const RUN = { id: 'run-1', deadlineAt: new Date(systemClock.now() + 60_000).toISOString() } as RunDoc;

/**
 * In-process stop flags whose reads lag behind their waits, as JetStream's do: a waiter sees a raise as it is
 * published, and the stream may store it a moment later.
 */
function laggingReads(): StopFlags & { reads: number } {
  const flags = createInProcessStopFlags();
  const lagging = {
    reads: 0,
    raise: (id: string) => flags.raise(id),
    wait: (id: string, signal: AbortSignal) => flags.wait(id, signal),
    close: () => flags.close(),
    isRaised: async () => {
      lagging.reads += 1;
      return false;
    },
  };
  return lagging;
}

describe('RunSignals', () => {
  it('ends the run on a stop its watch saw, though a read of the flag does not show it yet', async () => {
    const stops = laggingReads();
    const signals = new RunSignals(new AbortController().signal);
    signals.watch(RUN, stops, systemClock);
    await stops.raise(RUN.id);
    await expect.poll(() => signals.signal.aborted, { timeout: 2000 }).toBe(true);
    expect(signals.signal.reason).toBeInstanceOf(StopRequestedError);
    signals.unwatch();
  });

  it('does not end the run when the watch ends without a raise', async () => {
    const stops = laggingReads();
    const signals = new RunSignals(new AbortController().signal);
    signals.watch(RUN, stops, systemClock);
    signals.unwatch();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(signals.signal.aborted).toBe(false);
  });
});
