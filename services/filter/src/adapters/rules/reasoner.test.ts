import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FetchedPage, FunnelFilter, ResearchPlan } from '@leadfinder/wire';
import { createRuleReasoner } from './reasoner.js';

const NOW = '2026-03-15T09:00:00.000Z';
const signal = new AbortController().signal;
const reasoner = createRuleReasoner();

function page(url: string, title: string, publishedAt: string | null, passages: string[]): FetchedPage {
  return { url, finalUrl: url, status: 200, contentType: 'text/html', title, text: passages.join(' '), publishedAt, passages, fetchedAt: NOW };
}

const lumora = page('https://berlin-startup-news.example/lumora', 'Lumora raises €2 million seed funding', '2025-11-02', [
  'Lumora raises €2 million seed funding',
  'Lumora, a Berlin-based AI startup, has raised a €2 million seed round led by Northwind Ventures.',
  'Founded in 2023 by Anna Brandt, the company builds AI agents for insurers.',
  'Northwind Ventures has now backed 12 companies in the AI space.',
]);
const oldRound = page('https://berlin-startup-news.example/velix', 'Velix raises seed funding', '2023-05-10', [
  'Velix raises seed funding',
  'Velix, a Berlin-based AI startup, announced on 9 May 2023 that it has raised a €1 million seed round led by Granite Capital.',
]);
const potsdam = page('https://brandenburg-startups.example/lumora', 'Lumora raises seed funding', '2025-12-01', [
  'Lumora raises seed funding',
  'Lumora, a Potsdam-based AI startup, has raised a €2 million seed round led by Copper Partners.',
]);
const munich = page('https://munich-startup-news.example/quantiq', 'Quantiq raises seed funding', '2025-12-01', [
  'Quantiq raises seed funding',
  'Quantiq, a Munich-based AI startup, has raised a €3 million seed round led by Copper Partners.',
]);

async function demoPlan(): Promise<ResearchPlan> {
  return (await reasoner.plan({ query: 'AI startups in Berlin that raised a seed round in the last year', now: NOW, sites: '' }, { signal })).plan;
}

async function funnel(plan: ResearchPlan, p: FetchedPage) {
  const { candidates } = await reasoner.extract({ plan, page: p, round: 1 }, { signal });
  const out = [];
  for (const c of candidates) {
    const verdicts = [];
    for (const f of plan.filters) verdicts.push((await reasoner.verify({ plan, filter: f, candidate: c, pages: [p] }, { signal })).verdict);
    out.push({ name: c.name, verdicts });
  }
  return out;
}

describe('planning the demo query', () => {
  it('asks for companies through type, location and dated event filters', async () => {
    const plan = await demoPlan();
    expect(plan.entityType).toBe('company');
    expect(plan.filters.map((f) => f.title)).toEqual(['Is an AI startup', 'Based in Berlin', 'Raised a seed round (in the last year)']);
    expect(plan.dateRange).toEqual({ from: '2025-03-15', to: null, phrase: 'in the last year' });
    expect(plan.filters.every((f, i) => f.index === i + 1 && !f.relaxed)).toBe(true);
    expect(plan.queries.length).toBeGreaterThanOrEqual(3);
    expect(plan.queries.length).toBeLessThanOrEqual(6);
  });
  it('steers queries to page types and keeps domains from the sites field', async () => {
    const { plan } = await reasoner.plan({ query: 'fintech startups in Berlin', now: NOW, sites: 'job portals, linkedin' }, { signal });
    expect(plan.sites).toEqual({ domains: ['linkedin.com'], pageTypes: ['job portals'] });
    expect(plan.queries.every((q) => q.includes('jobs'))).toBe(true);
  });
  it('gives fresh queries in later rounds and none once the pool is used up', async () => {
    const plan = await demoPlan();
    const used = [...plan.queries];
    let fresh = (await reasoner.queries({ plan, round: 2, used }, { signal })).queries;
    expect(fresh.length).toBeGreaterThan(0);
    expect(fresh.some((q) => used.includes(q))).toBe(false);
    for (let round = 3; fresh.length > 0 && round < 20; round++) {
      used.push(...fresh);
      fresh = (await reasoner.queries({ plan, round, used }, { signal })).queries;
    }
    expect(fresh).toEqual([]);
  });
});

describe('screening excerpts', () => {
  const hit = (url: string, title: string, snippet: string, rank: number) => ({ url, title, snippet, publishedAt: '2025-11-02', provider: 'corpus', rank });

  it('scores a matching excerpt above the threshold and an unrelated one below it', async () => {
    const plan = await demoPlan();
    const { scores } = await reasoner.screen({ plan, hits: [
      hit('a', 'Lumora raises seed funding', 'Lumora, a Berlin-based AI startup, has raised a €2 million seed round.', 7),
      hit('b', 'Best bakeries in Lisbon', 'Where to eat pastel de nata.', 8),
    ] }, { signal });
    expect(scores[0]!.pass).toBe(true);
    expect(scores[1]!.pass).toBe(false);
    expect(scores[0]!.score).toBeGreaterThan(scores[1]!.score);
  });

  it("passes a search engine's top three results whatever their excerpt shows, scored as the excerpt earns", async () => {
    const plan = await demoPlan();
    // An entity's own page whose facts sit in structured data: the excerpt is a tagline.
    const { scores } = await reasoner.screen({ plan, hits: [
      hit('own', 'Lumora', 'Software that listens.', 1),
      hit('third', 'Lumora | About', 'Software that listens.', 3),
      hit('fourth', 'Lumora | Team', 'Software that listens.', 4),
    ] }, { signal });
    expect(scores.map((s) => s.pass)).toEqual([true, true, false]);
    expect(scores[0]!.score).toBeLessThan(0.33);
  });
});

describe('extracting candidates', () => {
  it('finds the startup a funding article introduces, not its investor', async () => {
    const { candidates } = await reasoner.extract({ plan: await demoPlan(), page: lumora, round: 1 }, { signal });
    expect(candidates.map((c) => c.name)).toEqual(['Lumora']);
    expect(candidates[0]!.key).toBe('lumora');
    expect(candidates[0]!.discoveryRationale).toContain('“Lumora, a Berlin-based AI startup');
  });
  it('never returns a name or passage that is not in the page text', async () => {
    const plan = await demoPlan();
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(fc.string(), fc.constantFrom(...lumora.passages, 'Dr. Mira Kell is a cardiologist at the Amber Clinic in Munich.')), { maxLength: 6 }), async (passages) => {
        const p = page('https://x.example/p', passages[0] ?? '', null, passages);
        const { candidates } = await reasoner.extract({ plan, page: p, round: 1 }, { signal });
        for (const c of candidates) {
          expect(p.text.includes(c.name)).toBe(true);
          for (const passage of c.passages) expect(p.text.includes(passage.text)).toBe(true);
        }
      }),
      { numRuns: 150 },
    );
  });
  it('keys names without legal suffixes, titles or punctuation', async () => {
    const { normaliseKey } = await import('../../domain/text.js');
    expect(normaliseKey('Lumora GmbH')).toBe('lumora');
    expect(normaliseKey('Dr. Anna Berg')).toBe('anna berg');
    expect(normaliseKey('Hartmann & Voss, Inc.')).toBe('hartmann voss');
  });
});

describe('verifying filters', () => {
  it('passes a recent Berlin AI seed round, quoting the passages from the page', async () => {
    const [row] = await funnel(await demoPlan(), lumora);
    expect(row!.verdicts.map((v) => v.pass)).toEqual([true, true, true]);
    for (const v of row!.verdicts) {
      expect(v.rationaleMode).toBe('rules');
      expect(v.passages.length).toBeGreaterThan(0);
      for (const p of v.passages) {
        expect(lumora.text.includes(p.text)).toBe(true);
        expect(v.rationale).toContain(`“${p.text}”`);
      }
    }
    // The sentence states no date, so the round's date is taken from the page: inferred.
    expect(row!.verdicts[2]!.verification).toBe('inferred');
  });
  it('rejects a round whose stated date is older than the range', async () => {
    const [row] = await funnel(await demoPlan(), oldRound);
    expect(row!.verdicts[2]!.pass).toBe(false);
    expect(row!.verdicts[2]!.passages).toEqual([]);
  });
  it('rejects a startup from another city on the location filter', async () => {
    const [row] = await funnel(await demoPlan(), munich);
    expect(row!.verdicts.map((v) => v.pass)).toEqual([true, false, true]);
  });
});

describe('relaxing a filter that keeps almost nobody', () => {
  it('widens a city to its metropolitan area, then to its country, then gives up (a continent is no slight loosening of a country)', async () => {
    const plan = await demoPlan();
    let f: FunnelFilter | null = plan.filters[1]!;
    const titles: string[] = [];
    while (f) {
      f = (await reasoner.relax({ plan, filter: f }, { signal })).filter;
      if (f) titles.push(f.title);
    }
    expect(titles).toEqual(['Based in Greater Berlin', 'Based in Germany']);
  });
  it('lets a Potsdam startup through once Berlin is widened to Greater Berlin, and a Munich one only at Germany', async () => {
    const plan = await demoPlan();
    const loosened = (await reasoner.relax({ plan, filter: plan.filters[1]! }, { signal })).filter!;
    expect(loosened.relaxed).toBe(true);
    const verdict = async (filter: FunnelFilter, from: FetchedPage) => {
      const [c] = (await reasoner.extract({ plan, page: from, round: 1 }, { signal })).candidates;
      return (await reasoner.verify({ plan, filter, candidate: c!, pages: [from] }, { signal })).verdict.pass;
    };
    expect(await verdict(plan.filters[1]!, potsdam)).toBe(false);
    expect(await verdict(loosened, potsdam)).toBe(true);
    expect(await verdict(loosened, munich)).toBe(false);
    const country = (await reasoner.relax({ plan, filter: loosened }, { signal })).filter!;
    expect(await verdict(country, munich)).toBe(true);
  });
  it('widens the event date range by half first, then accepts any funding round instead of the stage', async () => {
    const plan = await demoPlan();
    const first = (await reasoner.relax({ plan, filter: plan.filters[2]! }, { signal })).filter!;
    expect((first.spec['dateRange'] as { from: string }).from < '2025-03-15').toBe(true);
    const second = (await reasoner.relax({ plan, filter: first }, { signal })).filter!;
    expect(second.criterion).toContain('any funding round');
    const seriesA = page('https://x.example/a', 'Nordlys raises Series A', '2025-12-01', ['Nordlys, a Berlin-based AI startup, has raised a €9 million Series A round led by Foundry Capital.']);
    const [c] = (await reasoner.extract({ plan, page: seriesA, round: 1 }, { signal })).candidates;
    expect((await reasoner.verify({ plan, filter: plan.filters[2]!, candidate: c!, pages: [seriesA] }, { signal })).verdict.pass).toBe(false);
    expect((await reasoner.verify({ plan, filter: second, candidate: c!, pages: [seriesA] }, { signal })).verdict.pass).toBe(true);
  });
});

describe('a window set by calendar years is not loosened', () => {
  it('"founded after 2015" keeps its bound (a 2011 founding stays out); "in the last 6 months" still widens', async () => {
    const founded = (await reasoner.plan({ query: 'B2B software companies founded after 2015', now: NOW, sites: '' }, { signal })).plan;
    const loosened = (await reasoner.relax({ plan: founded, filter: founded.filters[1]! }, { signal })).filter;
    expect(loosened === null || (loosened.spec['dateRange'] as { from: string }).from === '2016-01-01').toBe(true);
    const decade = (await reasoner.plan({ query: 'chemistry papers from the 1980s', now: NOW, sites: '' }, { signal })).plan;
    expect((await reasoner.relax({ plan: decade, filter: decade.filters[1]! }, { signal })).filter).toBeNull();
    const recent = (await reasoner.plan({ query: 'AI startups that raised a seed round in the last 6 months', now: NOW, sites: '' }, { signal })).plan;
    const event = recent.filters.find((f) => f.spec.kind === 'event')!;
    const widened = (await reasoner.relax({ plan: recent, filter: event }, { signal })).filter!;
    expect((widened.spec['dateRange'] as { from: string }).from < (event.spec['dateRange'] as { from: string }).from).toBe(true);
  });
});
