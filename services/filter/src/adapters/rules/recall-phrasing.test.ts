import { describe, expect, it } from 'vitest';
import type { FetchedPage, PageEntity, PageFact } from '@leadfinder/wire';
import { nextQueries, queryPool } from './plan.js';
import { bareProfile, NOW, plan, planOutcomes, reasoner, signal } from './fact-page-testing.js';

/**
 * Queries that say little besides their kind and a typed bound, institutions said with "affiliated with", and
 * a founding given under its abbreviation: each is something the run used to lose whole rows on (no search
 * to make, a criterion no page prints, a founding left unclear on the entity's own page).
 */

const fact = (label: string, value: string): PageFact => ({ label, value, passage: `${label} ${value}` });

describe('a query of a kind and a size bound alone', () => {
  it('searches the bound as pages say it, and later rounds still have searches to make', async () => {
    const p = await plan('startups with under 100 employees');
    expect(p.filters.map((f) => f.title)).toEqual(['Is a startup', 'Has at most 99 employees']);
    // Before: the one search was the query itself, and no later round had any (the run ended with one row).
    expect(p.queries).toContain('companies with fewer than 100 employees');
    expect(p.queries.length).toBeGreaterThanOrEqual(3);
    const later = nextQueries(p, p.queries);
    expect(later.length).toBeGreaterThan(0);
    expect(later.some((q) => p.queries.includes(q))).toBe(false);
  });

  it('a lower bound is searched as "more than"', async () => {
    const p = await plan('fintech startups with more than 500 employees');
    expect(p.queries).toContain('fintech companies with more than 500 employees');
  });
});

describe('"affiliated with Japanese universities"', () => {
  it('is a place of work; "universities" is no criterion of its own', async () => {
    const p = await plan('Nobel laureates affiliated with Japanese universities');
    expect(p.filters.map((f) => f.title)).toEqual(['Is a Nobel laureate', 'Based in Japan']);
    // A laureate at a research institute (not a university) in Japan is what the query means.
    const kek = bareProfile('laureates.example', 'Makoto Kobayashi', [fact('Award', 'Nobel Prize in Physics 2008'), fact('Affiliation', 'High Energy Accelerator Research Organization (KEK), Tsukuba, Japan')]);
    const mit = bareProfile('laureates.example', 'Wolfgang Ketterle', [fact('Award', 'Nobel Prize in Physics 2001'), fact('Affiliation', 'Massachusetts Institute of Technology, Cambridge, MA, USA')]);
    expect(await planOutcomes(p, kek)).toEqual(['yes', 'yes']);
    expect(await planOutcomes(p, mit)).toEqual(['yes', 'no']);
  });
});

describe('a founding given as "Est."', () => {
  it('dates the founding on the company\'s own page, both ways', async () => {
    const p = await plan('B2B software companies founded after 2015');
    const after = bareProfile('tracker.example', 'Rippling', [fact('Category', 'B2B / Human Resources'), fact('Topics', 'SaaS, HR Tech'), fact('Est.', '2016')]);
    const before = bareProfile('tracker.example', 'Heap', [fact('Category', 'B2B / Analytics'), fact('Topics', 'SaaS, Analytics'), fact('Est.', '2013')]);
    // Before: both were left unclear ("no passage about it says when") and neither became a row.
    expect(await planOutcomes(p, after)).toEqual(['yes', 'yes']);
    expect((await planOutcomes(p, before))[1]).toBe('no');
  });
});

describe('a year a sentence puts in time', () => {
  const article = (name: string, sentence: string, publishedAt: string): FetchedPage => {
    const url = `https://news.example/spotlight/${name.toLowerCase()}`;
    const passages = [`Inside ${name}`, sentence];
    const subject: PageEntity = { name, kind: null, link: null, passage: sentence, facts: [], source: 'heading' };
    return {
      url, finalUrl: url, status: 200, contentType: 'text/html', title: `Inside ${name}`, text: passages.join('\n'),
      publishedAt, passages, fetchedAt: NOW, model: { subject, items: [], siteName: null },
    };
  };

  it('"Founded in 2013, Weave …" is founded in 2013, whatever day the page is dated', async () => {
    const p = await plan('startups founded between 2014 and 2016');
    const founding = p.filters.at(-1)!;
    const verdict = async (page: FetchedPage) => {
      const { candidates } = await reasoner.extract({ plan: p, page, round: 1 }, { signal });
      return (await reasoner.verify({ plan: p, filter: founding, candidate: candidates[0]!, pages: [page] }, { signal })).verdict.outcome;
    };
    // Before: the sentence's year was no date, and the page's date (2014) stood in for it: yes.
    expect(await verdict(article('Weave', 'Founded in 2013, Weave makes a customer communication platform.', '2014-01-15T00:00:00.000Z'))).toBe('no');
    expect(await verdict(article('Odeko', 'Founded in 2015, Odeko supplies independent cafes.', '2016-03-01T00:00:00.000Z'))).toBe('yes');
  });
});

describe('whom a company sells to is not its sector', () => {
  it('a sector that does not say it (Productivity) leaves B2B unclear; a consumer one rules it out; a page that says B2B settles it', async () => {
    const p = await plan('B2B companies that got acquired');
    const typeFilter = p.filters[0]!;
    const verdict = async (...pages: FetchedPage[]) => {
      const { candidates } = await reasoner.extract({ plan: p, page: pages[0]!, round: 1 }, { signal });
      const candidate = { ...candidates[0]!, sourceUrls: pages.map((x) => x.url) };
      return (await reasoner.verify({ plan: p, filter: typeFilter, candidate, pages }, { signal })).verdict.outcome;
    };
    const home = bareProfile('heap.io', 'Heap', [fact('Industry', 'Productivity'), fact('Keywords', 'Analytics, Data Visualization')]);
    // Before: "its sector is stated otherwise" (no), and no other page was ever looked for.
    expect(await verdict(home)).toBe('unclear');
    expect(await verdict(bareProfile('shop.example', 'Shoply', [fact('Industry', 'Consumer'), fact('Keywords', 'Retail')]))).toBe('no');
    const card = bareProfile('bizgraph.example', 'Heap', [fact('Industries', 'B2B, Productivity')]);
    expect(await verdict(home, card)).toBe('yes');
  });
});

describe('"awarded" said alone', () => {
  it('is what a laureate profile\'s prize or honours fact states, dated by its year', async () => {
    const p = await plan('physics laureates awarded after 2012');
    const amano = bareProfile('tracker.example', 'Hiroshi Amano', [fact('Field', 'Physics'), fact('Honours', 'Nobel Prize in Physics 2014')]);
    const ketterle = bareProfile('tracker.example', 'Wolfgang Ketterle', [fact('Field', 'Physics'), fact('Prize', 'Nobel Prize in Physics 2001')]);
    // Before: "no sentence about it mentions this event" for both.
    expect(await planOutcomes(p, amano)).toEqual(['yes', 'yes']);
    expect((await planOutcomes(p, ketterle))[1]).toBe('no');
  });
});

describe('a region searched by its countries', () => {
  it('"companies based in Europe" also searches the main countries of Europe, as pages print them; a city query does not', async () => {
    const europe = await plan('companies based in Europe');
    const pool = queryPool(europe);
    // Before: every phrasing said "Europe", which no company page prints.
    expect(pool).toEqual(expect.arrayContaining(['company Germany', 'company France', 'company United Kingdom']));
    expect(pool.filter((q) => /Germany|France|Italy|Spain|Poland/.test(q)).length).toBeLessThanOrEqual(8);
    expect(queryPool(await plan('fintech startups in Berlin')).some((q) => /Germany|France|Italy/.test(q))).toBe(false);
  });
});
