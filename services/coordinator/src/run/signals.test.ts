import { describe, expect, it } from 'vitest';
import { silentLogger, systemClock, type Logger, type RunDoc, type StopFlags } from '@leadfinder/platform';
import { createInProcessStopFlags } from '@leadfinder/platform/embedded';
import { RunSignals } from './signals.js';
import { StopRequestedError } from './run-end.js';

const RUN = { id: 'run-1', deadlineAt: new Date(systemClock.now() + 60_000).toISOString() } as RunDoc;

/** In-process stop flags with some methods replaced; `replace` gets the real flags to call on. */
function inProcessFlags(replace: (flags: StopFlags) => Partial<StopFlags>): StopFlags {
  const flags = createInProcessStopFlags();
  return {
    raise: (id) => flags.raise(id),
    isRaised: (id) => flags.isRaised(id),
    wait: (id, signal) => flags.wait(id, signal),
    close: () => flags.close(),
    ...replace(flags),
  };
}

/**
 * In-process stop flags whose reads lag behind their waits, as JetStream's do: a waiter sees a raise as it is
 * published, and the stream may store it a moment later.
 */
function laggingReads(): StopFlags {
  return inProcessFlags(() => ({ isRaised: async () => false }));
}

describe('RunSignals', () => {
  it('ends the run on a stop its watch saw, though a read of the flag does not show it yet', async () => {
    const stops = laggingReads();
    const signals = new RunSignals(new AbortController().signal);
    signals.watch(RUN, stops, systemClock, silentLogger);
    await stops.raise(RUN.id);
    await expect.poll(() => signals.signal.aborted, { timeout: 2000 }).toBe(true);
    expect(signals.signal.reason).toBeInstanceOf(StopRequestedError);
    signals.unwatch();
  });

  it('watches again after a failed watch, says so in the log, and still ends the run on a stop', async () => {
    let failures = 2;
    const stops = inProcessFlags((flags) => ({
      wait: async (id, signal) => {
        if (failures > 0) {
          failures -= 1;
          throw new Error('CONNECTION_CLOSED');
        }
        return flags.wait(id, signal);
      },
    }));
    const warnings: Array<[string, Record<string, unknown> | undefined]> = [];
    const logger: Logger = { ...silentLogger, warn: (message, meta) => void warnings.push([message, meta]) };
    const signals = new RunSignals(new AbortController().signal);
    signals.watch(RUN, stops, systemClock, logger);
    await expect.poll(() => failures, { timeout: 5000 }).toBe(0);
    // Seen by the third wait, made after a pause.
    await stops.raise(RUN.id);
    await expect.poll(() => signals.signal.aborted, { timeout: 5000 }).toBe(true);
    expect(signals.signal.reason).toBeInstanceOf(StopRequestedError);
    expect(warnings.map(([message, meta]) => [message, meta?.error])).toEqual([
      ['stop-flag watch failed; watching again', 'Error: CONNECTION_CLOSED'],
      ['stop-flag watch failed; watching again', 'Error: CONNECTION_CLOSED'],
    ]);
    signals.unwatch();
  });

  it('stops watching again once the drive is over', async () => {
    let waits = 0;
    const stops = inProcessFlags(() => ({
      wait: async () => {
        waits += 1;
        throw new Error('CONNECTION_CLOSED');
      },
    }));
    const signals = new RunSignals(new AbortController().signal);
    signals.watch(RUN, stops, systemClock, silentLogger);
    signals.unwatch();
    // Past the first pause (250 ms), when a watch still running would have waited again.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(waits).toBe(1);
    expect(signals.signal.aborted).toBe(false);
  });

  it('does not end the run when the watch ends without a raise', async () => {
    const stops = laggingReads();
    const signals = new RunSignals(new AbortController().signal);
    signals.watch(RUN, stops, systemClock, silentLogger);
    signals.unwatch();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(signals.signal.aborted).toBe(false);
  });
});
