import { describe, expect, it } from 'vitest';
import type { FetchedPage, FunnelFilter, ResearchPlan, SearchHit } from '@leadfinder/wire';
import { createRuleReasoner } from './reasoner.js';

const NOW = '2026-03-15T09:00:00.000Z';
const signal = new AbortController().signal;
const reasoner = createRuleReasoner();

const article: FetchedPage = (() => {
  const passages = [
    'Lumora raises €2 million seed funding',
    'Lumora, a Berlin-based AI startup, has raised a €2 million seed round led by Northwind Ventures.',
  ];
  const url = 'https://berlin-startup-news.example/lumora';
  return { url, finalUrl: url, status: 200, contentType: 'text/html', title: passages[0]!, text: passages.join(' '), publishedAt: '2025-11-02', passages, fetchedAt: NOW };
})();
const hit: SearchHit = { url: article.url, title: article.title, snippet: article.passages[1]!, publishedAt: '2025-11-02', provider: 'test', rank: 1 };

async function plan(): Promise<ResearchPlan> {
  return (await reasoner.plan({ query: 'AI startups in Berlin that raised a seed round in the last year', now: NOW, sites: '' }, { signal })).plan;
}

/** Every answer the rule reasoner gives for one plan on one page. */
async function answers(p: ResearchPlan) {
  const screened = (await reasoner.screen({ plan: p, hits: [hit] }, { signal })).scores;
  const { candidates } = await reasoner.extract({ plan: p, page: article, round: 1 }, { signal });
  const verdicts = [];
  for (const c of candidates) for (const f of p.filters) verdicts.push((await reasoner.verify({ plan: p, filter: f, candidate: c, pages: [article] }, { signal })).verdict);
  const relaxed = [];
  for (const f of p.filters) relaxed.push((await reasoner.relax({ plan: p, filter: f }, { signal })).filter);
  const queries = (await reasoner.queries({ plan: p, round: 2, used: p.queries }, { signal })).queries;
  return { screened, candidates, verdicts, relaxed, queries };
}

describe('filter specs as the rule reasoner reads them', () => {
  it('answers the same for a plan that travelled as JSON (a gRPC Struct) as for the one it made', async () => {
    const made = await plan();
    const travelled = JSON.parse(JSON.stringify(made)) as ResearchPlan;
    const before = await answers(made);
    expect(before.candidates.map((c) => c.name)).toContain('Lumora');
    expect(before.verdicts.some((v) => v.pass)).toBe(true);
    expect(await answers(travelled)).toEqual(before);
  });

  it('treats a spec that lost its shape as unclear instead of crashing, in every call', async () => {
    const made = await plan();
    // A location spec without its place: before specs were parsed, screening spread `undefined` and threw.
    const broken: FunnelFilter = { ...made.filters[1]!, spec: { kind: 'location', steps: 0 } };
    const p: ResearchPlan = { ...made, filters: [made.filters[0]!, broken, made.filters[2]!] };
    const got = await answers(p);
    expect(got.screened).toHaveLength(1);
    expect(got.candidates.map((c) => c.name)).toContain('Lumora');
    const lumora = got.candidates.find((c) => c.name === 'Lumora')!;
    const verdict = (await reasoner.verify({ plan: p, filter: broken, candidate: lumora, pages: [article] }, { signal })).verdict;
    expect(verdict).toMatchObject({ pass: false, outcome: 'unclear' });
    expect(verdict.rationale).toMatch(/no rule-checkable criterion/);
    expect((await reasoner.relax({ plan: p, filter: broken }, { signal })).filter).toBeNull();
  });
});
