import { describe, expect, it } from 'vitest';
import type { ResearchPlan } from '@leadfinder/wire';
import { createRuleReasoner } from './reasoner.js';

/** What the planner asks for and searches: the kind a query names and the searches its constraints make. */
const NOW = '2026-03-15T09:00:00.000Z';
const signal = new AbortController().signal;
const reasoner = createRuleReasoner();
const plan = async (query: string): Promise<ResearchPlan> => (await reasoner.plan({ query, now: NOW, sites: '' }, { signal })).plan;
/** Every search the run can make from the plan, round 1's first, then the later rounds' in turn. */
async function allSearches(p: ResearchPlan): Promise<string[]> {
  const used = [...p.queries];
  for (let round = 2; round < 40; round++) {
    const next = (await reasoner.queries({ plan: p, round, used }, { signal })).queries;
    if (next.length === 0) break;
    used.push(...next);
  }
  return used;
}

describe('articles named by a date alone', () => {
  it('"pre-1960 articles" asks for papers published before 1960, not companies founded then', async () => {
    const p = await plan('pre-1960 articles');
    expect(p.entityType).toBe('paper');
    expect(p.dateRange).toMatchObject({ to: '1959-12-31' });
    expect(p.filters.map((f) => f.criterion).join(' | ')).not.toMatch(/company|founded/i);
  });

  it('articles from the last weeks are news, and a named kind still wins ("articles about fintech startups")', async () => {
    expect((await plan('articles from last month')).entityType).toBe('news');
    expect((await plan('physics articles from the 1970s')).entityType).toBe('paper');
    expect((await plan('fintech startups')).entityType).toBe('company');
  });
});

describe('searches for a founding date', () => {
  it('"orgs started in 2021" searches the year with the words pages print, from round 1', async () => {
    const p = await plan('orgs started in 2021');
    expect(p.queries).toContain('companies founded in 2021');
    expect(p.queries).toContain('2021 companies');
    expect(p.queries.filter((q) => !/2021/.test(q)).length).toBeLessThanOrEqual(2);
  });

  it('"post-2018 startups" searches each year from 2019 to the plan day, the bound first', async () => {
    const p = await plan('post-2018 startups');
    expect(p.queries[0]).toBe('startups founded in 2019');
    const searches = await allSearches(p);
    for (const year of [2019, 2020, 2021, 2022, 2023, 2024, 2025, 2026]) expect(searches).toContain(`startups founded in ${year}`);
    expect(searches).not.toContain('startups founded in 2027');
    expect(searches).toContain('2020 startups');
  });

  it('"companies launched after 2020" searches launches and foundings by year', async () => {
    const searches = await allSearches(await plan('companies launched after 2020'));
    expect(searches.slice(0, 5)).toContain('companies launched in 2021');
    expect(searches).toContain('companies founded in 2022');
  });

  it('"startups founded before 2014" searches the years nearest the bound', async () => {
    const searches = await allSearches(await plan('startups founded before 2014'));
    expect(searches.slice(0, 3)).toEqual(['startups founded in 2013', 'startups founded in 2012', 'startups founded in 2011']);
  });

  it('beside a topic, the topic\'s own searches come first, and an open window is searched by its bound year', async () => {
    const p = await plan('B2B software companies founded before 2014');
    expect(p.queries.slice(0, 2).every((q) => !/\b20\d\d\b/.test(q) || /established/.test(q))).toBe(true);
    const searches = await allSearches(p);
    expect(searches).toContain('B2B software companies founded in 2013');
    expect(searches).not.toContain('B2B software companies founded in 2012');
  });

  it('a closed window beside a topic is searched year by year ("fintech firms founded 2012-2014")', async () => {
    const searches = await allSearches(await plan('fintech firms founded 2012-2014'));
    for (const year of [2012, 2013, 2014]) expect(searches).toContain(`fintech companies founded in ${year}`);
  });
});

describe('a year said before the kind', () => {
  it('"2021 startups" are startups founded in 2021, not startups whose pages print "2021"', async () => {
    const p = await plan('2021 startups');
    expect(p.dateRange).toMatchObject({ from: '2021-01-01', to: '2021-12-31' });
    expect(p.filters.map((f) => f.title)).toEqual(['Is a startup', 'Founded in 2021']);
    expect(p.queries[0]).toBe('startups founded in 2021');
  });

  it('"2019 fintech companies" keeps the sector and dates the founding; "1995 physics papers" dates the publication', async () => {
    const fintech = await plan('2019 fintech companies');
    expect(fintech.filters.map((f) => f.title)).toEqual(['Is a fintech company', 'Founded in 2019']);
    const papers = await plan('1995 physics papers');
    expect(papers.entityType).toBe('paper');
    expect(papers.dateRange).toMatchObject({ from: '1995-01-01', to: '1995-12-31' });
    expect(papers.filters[0]!.title).toBe('Is a physics paper');
  });

  it('"begun" opens the founding clause as "began" does', async () => {
    const p = await plan('ventures begun in 2018');
    expect(p.filters.map((f) => f.title)).toEqual(['Is a company', 'Begun (in 2018)']);
  });
});

describe('a year said before a prize\'s winners', () => {
  it('"2005 Nobel Prize winners" won the Nobel Prize in 2005; the prize is no part of the kind', async () => {
    const p = await plan('2005 Nobel Prize winners');
    expect(p.entityType).toBe('researcher');
    expect(p.filters.map((f) => f.title)).toEqual(['Is a winner', 'Won the Nobel Prize (in 2005)']);
  });

  it('"2012 Nobel laureates in physics" keeps the field and dates the prize', async () => {
    const p = await plan('2012 Nobel laureates in physics');
    expect(p.filters.map((f) => f.title)).toEqual(['Is a laureate in physics', 'Won the Nobel Prize (in 2012)']);
    expect(p.dateRange).toMatchObject({ from: '2012-01-01', to: '2012-12-31' });
  });

  it('a year before words that name no kind is no founding ("2010 Turing Award winners")', async () => {
    const p = await plan('2010 Turing Award winners');
    expect(p.filters.map((f) => f.title).join(' | ')).not.toMatch(/Founded/);
  });
});

