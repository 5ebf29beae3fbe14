/**
 * Spend per row (issue 18 item 5), driven through a real coordinator on the embedded ports: every `cost`
 * event carries per_row_usd and projected_usd, and a request's max_usd_per_row ends the run `stopped` with
 * `final.stop_reason` once the marginal cost of its last rows passes it.
 */
import type { CostEvent, FinalEvent, RunEvent } from '@leadfinder/wire';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeResearch } from './fake-research.js';
import { createHarness, type Harness } from './harness.js';
import { embeddedPorts } from './ports.js';
import { standardWorld } from './world.js';

const finalOf = (events: RunEvent[]) => events.find((e): e is FinalEvent & RunEvent => e.type === 'final')!;
const costsOf = (events: RunEvent[]) => events.filter((e): e is CostEvent & RunEvent => e.type === 'cost');
const micros = (usd: number) => Math.round(usd * 1_000_000);

describe('spend per row and the marginal-cost stop', () => {
  let h: Harness;
  afterEach(async () => {
    await h?.close();
  });

  it('cost events carry spend per row and its projection to target; null before the first row', async () => {
    h = await createHarness({}, embeddedPorts);
    const research = createFakeResearch(standardWorld());
    await h.coordinator(research.fetcher, research.filter).start();
    const run = await h.submit({ target: 10 });
    const ended = await h.waitTerminal(run.id);
    expect(ended.status).toBe('done');
    const events = await h.eventsOf(run.id);
    const final = finalOf(events);
    const rows = final.table.length;
    expect(rows).toBeGreaterThan(0);
    expect(rows).toBeLessThan(10);
    const costs = costsOf(events);
    const firstRowAt = events.findIndex((e) => e.type === 'funnel_filter_done');
    // Before any row: nothing to divide by, nothing to project from.
    const early = costs.filter((c) => events.indexOf(c) < firstRowAt);
    expect(early.length).toBeGreaterThan(0);
    for (const c of early) expect([c.per_row_usd, c.projected_usd]).toEqual([null, null]);
    // Once rows exist: usd ÷ rows and usd × target ÷ rows, rows never more than the final table.
    let lastRows = 0;
    for (const c of costs.filter((c) => c.per_row_usd !== null)) {
      const n = Math.round(micros(c.usd) / micros(c.per_row_usd!));
      expect(n).toBeGreaterThanOrEqual(Math.max(1, lastRows));
      expect(n).toBeLessThanOrEqual(rows);
      expect(micros(c.per_row_usd!)).toBe(Math.round(micros(c.usd) / n));
      expect(micros(c.projected_usd!)).toBe(Math.round((micros(c.usd) * 10) / n));
      lastRows = n;
    }
    // The tail's cost: the charge over the final table's rows.
    const tail = costs.at(-1)!;
    expect(tail.stage).toBe('Done');
    expect(micros(tail.per_row_usd!)).toBe(Math.round(micros(tail.usd) / rows));
    expect(micros(tail.projected_usd!)).toBe(Math.round((micros(tail.usd) * 10) / rows));
    expect(final).not.toHaveProperty('stop_reason');
  });

  it('a met target projects the spend itself', async () => {
    h = await createHarness({}, embeddedPorts);
    const research = createFakeResearch(standardWorld());
    await h.coordinator(research.fetcher, research.filter).start();
    const run = await h.submit({ target: 2 });
    await h.waitTerminal(run.id);
    const events = await h.eventsOf(run.id);
    expect(finalOf(events).met).toBe(true);
    const tail = costsOf(events).at(-1)!;
    expect(tail.projected_usd).toBe(tail.usd);
    expect(micros(tail.per_row_usd!)).toBe(Math.round(micros(tail.usd) / 2));
  });

  it('max_usd_per_row: past it the run ends stopped with the reason, keeping its rows and charged what it spent', async () => {
    h = await createHarness({}, embeddedPorts);
    const research = createFakeResearch(standardWorld());
    await h.coordinator(research.fetcher, research.filter).start();

    const free = await h.submit({ target: 10 });
    const freeEnd = await h.waitTerminal(free.id);
    const freeEvents = await h.eventsOf(free.id);

    // Rows here cost several thousand microusd each: a limit of 1 microusd is passed at the first rows.
    const capped = await h.submit({ target: 10, maxMicrousdPerRow: 1 });
    const cappedEnd = await h.waitTerminal(capped.id);
    const events = await h.eventsOf(capped.id);
    const final = finalOf(events);
    expect(cappedEnd.status).toBe('stopped');
    expect(final.stopped).toBe(true);
    expect(final.stop_reason).toBe('max_usd_per_row');
    expect(final.table.length).toBeGreaterThan(0);
    expect(events.map((e) => e.type).slice(-4)).toEqual(['final', 'cost', 'usage', 'done']);
    expect(costsOf(events).at(-1)!.stage).toBe('Stopped');
    // It stopped where the unlimited run went on to a round 2; charged what it spent.
    expect(events.some((e) => e.type === 'status' && e.where.startsWith('round 2'))).toBe(false);
    expect(freeEvents.some((e) => e.type === 'status' && e.where.startsWith('round 2'))).toBe(true);
    expect(cappedEnd.chargeMicrousd).toBe(cappedEnd.spendMicrousd);
    expect(cappedEnd.chargeMicrousd).toBeGreaterThan(0);
    expect(cappedEnd.settled).toBe(true);

    // A limit the rows stay under changes nothing.
    const roomy = await h.submit({ target: 10, maxMicrousdPerRow: 1_000_000 });
    const roomyEnd = await h.waitTerminal(roomy.id);
    expect(roomyEnd.status).toBe('done');
    expect(finalOf(await h.eventsOf(roomy.id))).not.toHaveProperty('stop_reason');
    expect(roomyEnd.chargeMicrousd).toBe(freeEnd.chargeMicrousd);
  });
});
