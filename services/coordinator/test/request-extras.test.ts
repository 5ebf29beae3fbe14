/**
 * What a request may ask beyond the search (issue 18 items 3, 4, 6), driven through a real coordinator on
 * the embedded ports: `exclude` drops candidates before the funnel, `funnel_filter_done` carries the run's
 * counts, `expected` reports recall with the reason of each miss.
 */
import type { FinalEvent, RunEvent } from '@leadfinder/wire';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeResearch } from './fake-research.js';
import { createHarness, type Harness } from './harness.js';
import { embeddedPorts } from './ports.js';
import { standardWorld } from './world.js';

const finalOf = (events: RunEvent[]) => events.find((e): e is FinalEvent & RunEvent => e.type === 'final')!;
const noExclusions = { names: [], domains: [], runs: [], entities: [] };

describe('exclusions, funnel counts and expected entries', () => {
  let h: Harness;
  afterEach(async () => {
    await h?.close();
  });

  it('drops excluded entities before the funnel: never verified, never a row, counted in final', async () => {
    h = await createHarness({}, embeddedPorts);
    const research = createFakeResearch(standardWorld());
    await h.coordinator(research.fetcher, research.filter).start();
    const run = await h.submit({
      target: 10,
      exclude: {
        ...noExclusions, names: ['GAMMA'], domains: ['https://www.acme.com/'],
        // A row an earlier run returned, known by name only.
        entities: [{ name: 'delta', domain: null, ids: [] }],
      },
    });
    await h.waitTerminal(run.id);
    const final = finalOf(await h.eventsOf(run.id));
    expect(final.table.map((r) => r.name)).toEqual(['Beta AG']);
    expect(final.excluded).toBe(3);
    expect(new Set(research.calls.verified.map((v) => v.candidate))).toEqual(new Set(['beta']));
  });

  it('a request without exclude or expected gets a final without their fields', async () => {
    h = await createHarness({}, embeddedPorts);
    const research = createFakeResearch(standardWorld());
    await h.coordinator(research.fetcher, research.filter).start();
    const run = await h.submit({ target: 3 });
    await h.waitTerminal(run.id);
    const final = finalOf(await h.eventsOf(run.id));
    expect(final).not.toHaveProperty('excluded');
    expect(final).not.toHaveProperty('expected_found');
    expect(final).not.toHaveProperty('expected_missed');
    // Rows carry their own domain when known: the identity a later exclude.runs reads.
    expect(final.table.find((r) => r.name.startsWith('Acme'))?.domain).toBe('acme.com');
  });

  it('funnel_filter_done carries the filter\'s running counts over the run', async () => {
    h = await createHarness({}, embeddedPorts);
    const research = createFakeResearch(standardWorld({
      passes: (filter, c) => !(filter.title === 'Hiring' && (c.key === 'gamma' || c.key === 'delta')),
      unclear: (_filter, c) => c.key === 'delta',
    }));
    await h.coordinator(research.fetcher, research.filter).start();
    const run = await h.submit({ target: 10, relax: false });
    await h.waitTerminal(run.id);
    const done = (await h.eventsOf(run.id)).filter((e) => e.type === 'funnel_filter_done');
    const last = (index: number) => done.filter((e) => e.index === index).at(-1)!;
    expect(last(1).run_counts).toEqual({ in: 4, passed: 4, dropped: 0, unclear: 0 });
    expect(last(2).run_counts).toEqual({ in: 4, passed: 2, dropped: 2, unclear: 1 });
    // Running totals equal the sum of the per-pass figures up to each event.
    for (const index of [1, 2]) {
      const events = done.filter((e) => e.index === index);
      expect(last(index).run_counts!.passed).toBe(events.reduce((n, e) => n + e.passed, 0));
    }
  });

  it('expected: found entries, and each miss with why (dropped by filter K with its passage, excluded, never found)', async () => {
    h = await createHarness({}, embeddedPorts);
    const research = createFakeResearch(standardWorld({ passes: (filter, c) => !(filter.title === 'Hiring' && c.key === 'delta') }));
    await h.coordinator(research.fetcher, research.filter).start();
    const run = await h.submit({
      target: 10, relax: false,
      exclude: { ...noExclusions, names: ['Gamma'] },
      expected: ['acme.com', 'Beta', 'Delta', 'Gamma', 'Zeta Corp'],
    });
    await h.waitTerminal(run.id);
    const final = finalOf(await h.eventsOf(run.id));
    expect(final.expected_found).toEqual(['acme.com', 'Beta']);
    expect(final.expected_missed).toEqual([
      {
        expected: 'Delta', reason: 'dropped', name: 'Delta', filter: { index: 2, title: 'Hiring' },
        rationale: 'Hiring: no for Delta', passages: [{ text: 'Gamma and Delta hire in Berlin.', url: 'http://b.test/1' }],
      },
      { expected: 'Gamma', reason: 'excluded', name: 'Gamma' },
      { expected: 'Zeta Corp', reason: 'never_found' },
    ]);
    const record = await h.waitTerminal(run.id);
    expect(record.result?.expected_missed).toHaveLength(3);
  });
});
