import { afterEach, describe, expect, it } from 'vitest';
import type { SequencedEvent } from '@leadfinder/wire';
import { createFakeResearch } from './fake-research.js';
import { createHarness, type Harness } from './harness.js';
import { standardWorld } from './world.js';

/**
 * The run's end marker (EventLog.end) is what closes event streams: the coordinator appends it after the
 * run record is terminal, for a driven run and for one it interrupts. A follower started before the run
 * ends by itself, finds the record terminal at that moment, and has seen every event of the run.
 */
describe('the end marker a coordinator writes', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  /** Follows a run from its first event with no abort: only the end marker ends it. */
  function followToEnd(harness: Harness, runId: string) {
    const seen: SequencedEvent[] = [];
    const ended = (async () => {
      for await (const item of harness.events.follow(runId, 0, new AbortController().signal)) seen.push(item);
      return (await harness.store.runs.get(runId))!.status;
    })();
    return { seen, ended };
  }

  it('follows a driven run to its end marker, appended once the record is terminal', async () => {
    h = await createHarness();
    const research = createFakeResearch(standardWorld());
    await h.coordinator(research.fetcher, research.filter).start();
    const run = await h.createRun();
    const follower = followToEnd(h, run.id);
    await h.work.enqueue(run.id, {});
    await expect(follower.ended).resolves.toBe('done');
    expect(follower.seen.map((e) => e.event)).toEqual(await h.eventsOf(run.id));
    expect(follower.seen.at(-1)?.event.type).toBe('done');
  });

  it('follows a run it interrupts (driven before, lease lapsed) to its end marker', async () => {
    h = await createHarness();
    const research = createFakeResearch(standardWorld());
    await h.coordinator(research.fetcher, research.filter).start();
    const run = await h.createRun({ started: true, where: 'round 1 · extracting', spendMicrousd: 7_000 });
    const follower = followToEnd(h, run.id);
    await h.work.enqueue(run.id, {});
    await expect(follower.ended).resolves.toBe('interrupted');
    expect(follower.seen.map((e) => e.event)).toEqual([expect.objectContaining({ type: 'cost', stage: 'Interrupted', usd: 0.007 })]);
  });
});
