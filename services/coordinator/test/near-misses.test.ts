/**
 * Near misses and tri-state verdicts (issue 18 items 4 and 7), driven through a real coordinator on the
 * embedded ports: `near_misses` reports rejected candidates with the filter, verdict and whether the run's
 * loosened filter recovers them; `keep_unclear` keeps `unclear` candidates in their own list, never in
 * `table`; without the flags `final` has neither field.
 */
import type { FinalEvent, FunnelFilter, RunEvent } from '@leadfinder/wire';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeResearch } from './fake-research.js';
import { createHarness, type Harness } from './harness.js';
import { embeddedPorts } from './ports.js';
import { standardWorld } from './world.js';

const finalOf = (events: RunEvent[]) => events.find((e): e is FinalEvent & RunEvent => e.type === 'final')!;

/**
 * Delta is not in Berlin (filter 1). Nobody passes the original Hiring filter (filter 2), so the relax rule
 * loosens it; the loosened one passes everyone but Beta.
 */
const relaxingWorld = () => standardWorld({
  passes: (filter: FunnelFilter, c) => filter.title === 'Based in Berlin' ? c.key !== 'delta' : filter.relaxed && c.key !== 'beta',
  loosen: (filter: FunnelFilter) => (filter.title === 'Hiring' ? { ...filter, criterion: 'Hiring or recently hired' } : null),
});

describe('near misses and unclear verdicts', () => {
  let h: Harness;
  afterEach(async () => {
    await h?.close();
  });

  it('near_misses: each rejected candidate with its filter, verdict, passage and whether the loosened filter recovers it', async () => {
    h = await createHarness({}, embeddedPorts);
    const research = createFakeResearch(relaxingWorld());
    await h.coordinator(research.fetcher, research.filter).start();
    const run = await h.submit({ target: 10, nearMisses: true });
    const record = await h.waitTerminal(run.id);
    const final = finalOf(await h.eventsOf(run.id));
    expect(research.calls.relaxed).toEqual(['Hiring']);
    expect(final.table.map((r) => r.name)).toEqual(['Acme GmbH', 'Gamma']);
    // Nearest first: Beta passed filter 1 and the loosened Hiring filter re-checked it; Delta fell at filter 1.
    expect(final.near_misses).toEqual([
      {
        name: 'Beta AG', entity_type: 'company', source_urls: ['http://a.test/1'], filter: { index: 2, title: 'Hiring' },
        outcome: 'no', rationale: 'Hiring: no for Beta AG',
        passages: [{ text: 'Acme GmbH in Berlin is hiring. Beta AG too.', url: 'http://a.test/1' }], recovered_if_loosened: false,
      },
      {
        name: 'Delta', entity_type: 'company', source_urls: ['http://b.test/1'], filter: { index: 1, title: 'Based in Berlin' },
        outcome: 'no', rationale: 'Based in Berlin: no for Delta',
        passages: [{ text: 'Gamma and Delta hire in Berlin.', url: 'http://b.test/1' }], recovered_if_loosened: null,
      },
    ]);
    expect(final).not.toHaveProperty('unclear');
    // The record's result is that final.
    expect(record.result?.near_misses).toEqual(final.near_misses);
  });

  it('near_misses holds at most `target` candidates, the nearest', async () => {
    h = await createHarness({}, embeddedPorts);
    const research = createFakeResearch(relaxingWorld());
    await h.coordinator(research.fetcher, research.filter).start();
    const run = await h.submit({ target: 1, nearMisses: true });
    await h.waitTerminal(run.id);
    const final = finalOf(await h.eventsOf(run.id));
    expect(final.near_misses?.map((m) => [m.name, m.filter.index])).toEqual([['Beta AG', 2]]);
  });

  it('keep_unclear: unclear candidates in their own list with the rationale, never in table; a plain no is not there', async () => {
    h = await createHarness({}, embeddedPorts);
    const research = createFakeResearch(standardWorld({
      passes: (filter, c) => !(filter.title === 'Hiring' && (c.key === 'gamma' || c.key === 'delta')),
      unclear: (_filter, c) => c.key === 'delta',
    }));
    await h.coordinator(research.fetcher, research.filter).start();
    const run = await h.submit({ target: 10, relax: false, keepUnclear: true });
    const record = await h.waitTerminal(run.id);
    const final = finalOf(await h.eventsOf(run.id));
    expect(final.table.map((r) => r.name)).toEqual(['Acme GmbH', 'Beta AG']);
    expect(final.unclear).toEqual([{
      name: 'Delta', entity_type: 'company', source_urls: ['http://b.test/1'], filter: { index: 2, title: 'Hiring' },
      rationale: 'Hiring: no for Delta', passages: [{ text: 'Gamma and Delta hire in Berlin.', url: 'http://b.test/1' }],
    }]);
    expect(final).not.toHaveProperty('near_misses');
    expect(record.result?.unclear).toEqual(final.unclear);
  });

  it('both flags: an unclear candidate is also a near miss, marked unclear', async () => {
    h = await createHarness({}, embeddedPorts);
    const research = createFakeResearch(standardWorld({
      passes: (filter, c) => !(filter.title === 'Hiring' && (c.key === 'gamma' || c.key === 'delta')),
      unclear: (_filter, c) => c.key === 'delta',
    }));
    await h.coordinator(research.fetcher, research.filter).start();
    const run = await h.submit({ target: 10, relax: false, keepUnclear: true, nearMisses: true });
    await h.waitTerminal(run.id);
    const final = finalOf(await h.eventsOf(run.id));
    expect(final.near_misses?.map((m) => [m.name, m.outcome, m.recovered_if_loosened])).toEqual([['Gamma', 'no', null], ['Delta', 'unclear', null]]);
    expect(final.unclear?.map((u) => u.name)).toEqual(['Delta']);
  });

  it('without the flags, final carries neither near_misses nor unclear', async () => {
    h = await createHarness({}, embeddedPorts);
    const research = createFakeResearch(standardWorld({
      passes: (filter, c) => !(filter.title === 'Hiring' && c.key === 'delta'),
      unclear: (_filter, c) => c.key === 'delta',
    }));
    await h.coordinator(research.fetcher, research.filter).start();
    const run = await h.submit({ target: 10, relax: false });
    const record = await h.waitTerminal(run.id);
    const final = finalOf(await h.eventsOf(run.id));
    expect(final.table.map((r) => r.name)).toEqual(['Acme GmbH', 'Beta AG', 'Gamma']);
    expect(final).not.toHaveProperty('near_misses');
    expect(final).not.toHaveProperty('unclear');
    expect(record.result).not.toHaveProperty('near_misses');
    expect(record.result).not.toHaveProperty('unclear');
  });
});
