import { describe, expect, it } from 'vitest';
import type { FetchedPage, PageEntity, PageFact, ResearchPlan } from '@leadfinder/wire';
import { createRuleReasoner } from './reasoner.js';

/**
 * Structure first, typed constraints, typed verdicts: the query becomes an entity kind plus typed
 * filters, each checked by its matcher against the page model's facts before any sentence, answering
 * yes, no or unclear (never a pass) and saying when a verdict needed knowledge beyond the passage.
 */

const NOW = '2026-03-15T09:00:00.000Z';
const signal = new AbortController().signal;
const reasoner = createRuleReasoner();

const fact = (label: string, value: string): PageFact => ({ label, value, passage: `${label}: ${value}` });

/** A profile page as the fetcher reads it: an h1 subject with a facts list. */
function profile(name: string, facts: PageFact[], prose: string[] = []): FetchedPage {
  const url = `https://startupindex.example/companies/${name.toLowerCase().replace(/\W+/g, '-')}`;
  const passages = [name, ...prose, ...facts.map((f) => f.passage)];
  const subject: PageEntity = { name, kind: null, link: null, passage: name, facts, source: 'heading' };
  return {
    url, finalUrl: url, status: 200, contentType: 'text/html', title: `${name} | Startup Index`, text: passages.join('\n'),
    publishedAt: null, passages, fetchedAt: NOW, model: { subject, items: [], siteName: 'Startup Index' },
  };
}

/** A directory page: one line per company, each linking to its profile. */
function directory(lines: [string, string][]): FetchedPage {
  const url = 'https://startupindex.example/lists/fintech';
  const passages = ['Fintech startups in San Francisco', ...lines.map(([n, rest]) => `${n} — ${rest}`)];
  const items: PageEntity[] = lines.map(([n, rest]) => ({
    name: n, kind: null, link: `https://startupindex.example/companies/${n.toLowerCase()}`, passage: `${n} — ${rest}`, facts: [], source: 'list',
  }));
  return {
    url, finalUrl: url, status: 200, contentType: 'text/html', title: 'Fintech startups in San Francisco', text: passages.join('\n'),
    publishedAt: null, passages, fetchedAt: NOW, model: { subject: null, items, siteName: null },
  };
}

async function plan(query: string): Promise<ResearchPlan> {
  return (await reasoner.plan({ query, now: NOW, sites: '' }, { signal })).plan;
}

async function verdicts(p: ResearchPlan, page: FetchedPage) {
  const { candidates } = await reasoner.extract({ plan: p, page, round: 1 }, { signal });
  expect(candidates).toHaveLength(1);
  const out = [];
  for (const f of p.filters) out.push((await reasoner.verify({ plan: p, filter: f, candidate: candidates[0]!, pages: [page] }, { signal })).verdict);
  return out;
}

describe('query understanding: an entity kind and typed constraints, titled as a person would write them', () => {
  it.each([
    ['nonprofits working on education', 'company', ['Works on education', 'Is a nonprofit']],
    ['B2B software companies that are publicly traded', 'company', ['Is a B2B software company', 'Is publicly traded']],
    ['fintech startups in San Francisco that were acquired', 'company', ['Is a fintech startup', 'Based in San Francisco', 'Was acquired']],
    ['consumer companies with more than 1000 employees', 'company', ['Is a consumer company', 'Has at least 1,001 employees']],
    ['healthcare companies that are hiring', 'company', ['Is a healthcare company', 'Is hiring']],
    ['YC companies from the Winter 2012 batch', 'company', ['Is a company', "Was in Y Combinator's Winter 2012 batch"]],
    ['YC-backed nonprofits outside the United States', 'company', ['Is an organization', 'Based outside the United States', 'Is a nonprofit', 'Went through Y Combinator']],
    ['Nobel prize winning researchers working in Japan', 'researcher', ['Is a Nobel prize winning researcher', 'Based in Japan']],
  ])('%s', async (query, kind, titles) => {
    const p = await plan(query);
    expect(p.entityType).toBe(kind);
    expect(p.filters.map((f) => f.title)).toEqual(titles);
    // No criterion repeats a plural kind noun as a predicate ("The company is a nonprofits …").
    for (const f of p.filters) expect(f.criterion).not.toMatch(/\bis an? \w+s\b(?! \w)/);
  });

  it('searches later rounds within the sites that gave rows', async () => {
    const p = await plan('fintech startups in San Francisco');
    const { queries } = await reasoner.queries({ plan: p, round: 2, used: p.queries, productiveSites: ['startupindex.example'] }, { signal });
    expect(queries[0]).toMatch(/ site:startupindex\.example$/);
    expect(queries.every((q) => !p.queries.includes(q))).toBe(true);
  });

  it('phrases searches per constraint and as list pages, not the query reshuffled', async () => {
    const p = await plan('nonprofits working on education');
    expect(p.queries).toContain('nonprofit education organizations');
    expect(p.queries.some((q) => /^top |list$|startups list/.test(q))).toBe(true);
  });
});

describe('typed verification against the page model', () => {
  it('places a San Francisco company in California by gazetteer containment, and says it inferred that', async () => {
    const p = await plan('fintech startups in California');
    const [, place] = await verdicts(p, profile('Brex', [fact('Location', 'San Francisco, CA, USA'), fact('Industry', 'Fintech')]));
    expect(place).toMatchObject({ pass: true, outcome: 'yes', verification: 'inferred' });
    expect(place!.rationale).toContain('San Francisco lies in California');
    expect(place!.passages).toEqual([{ text: 'Location: San Francisco, CA, USA', url: 'https://startupindex.example/companies/brex' }]);
  });

  it('answers no from a location fact elsewhere, and unclear (not a pass) when nothing says where', async () => {
    const p = await plan('fintech startups in Berlin');
    const [, elsewhere] = await verdicts(p, profile('Brex', [fact('Location', 'San Francisco, CA, USA'), fact('Industry', 'Fintech')]));
    expect(elsewhere).toMatchObject({ pass: false, outcome: 'no' });
    const [, unknown] = await verdicts(p, profile('Plaid', [fact('Industry', 'Fintech')]));
    expect(unknown).toMatchObject({ pass: false, outcome: 'unclear' });
    expect(unknown!.rationale).toMatch(/^Unclear/);
  });

  it('compares headcounts as numbers', async () => {
    const big = await plan('companies with more than 500 employees');
    const small = await plan('companies with fewer than 50 employees');
    const gitlab = profile('GitLab', [fact('Team size', '2,000')]);
    expect((await verdicts(big, gitlab)).at(-1)).toMatchObject({ outcome: 'yes', pass: true });
    expect((await verdicts(small, gitlab)).at(-1)).toMatchObject({ outcome: 'no', pass: false });
    expect((await verdicts(small, profile('Tiny', [fact('Industry', 'B2B')]))).at(-1)).toMatchObject({ outcome: 'unclear', pass: false });
  });

  it('reads organisation form from a status fact or a sentence', async () => {
    const acquired = await plan('companies that were acquired');
    expect((await verdicts(acquired, profile('PlanGrid', [fact('Status', 'Acquired')]))).at(-1)).toMatchObject({ outcome: 'yes' });
    expect((await verdicts(acquired, profile('Stripe', [fact('Status', 'Active')]))).at(-1)).toMatchObject({ outcome: 'no' });
    expect((await verdicts(acquired, profile('Cruise', [], ['Cruise was acquired by General Motors in 2016.']))).at(-1)).toMatchObject({ outcome: 'yes' });
    const nonprofit = await plan('nonprofits in India');
    expect((await verdicts(nonprofit, profile('Dost Education', [fact('Location', 'Delhi, DL, India'), fact('Tags', 'Education, Nonprofit')]))).map((v) => v.outcome))
      .toEqual(['yes', 'yes', 'yes']);
  });

  it('matches a batch in either spelling, and rules out another batch', async () => {
    const p = await plan('Y Combinator startups from the W15 batch');
    expect((await verdicts(p, profile('GitLab', [fact('Batch', 'Winter 2015')]))).at(-1)).toMatchObject({ outcome: 'yes' });
    expect((await verdicts(p, profile('Zapier', [fact('Batch', 'S12')]))).at(-1)).toMatchObject({ outcome: 'no' });
  });

  it('reads remote work from a work-mode fact or "Remote" among the locations', async () => {
    const p = await plan('fully remote companies');
    expect(p.filters.map((f) => f.title)).toEqual(['Is a company', 'Works fully remotely']);
    expect((await verdicts(p, profile('Zapier', [fact('Remote', 'Fully remote')]))).at(-1)).toMatchObject({ outcome: 'yes' });
    expect((await verdicts(p, profile('Rappi', [fact('Location', 'Bogotá, Bogota, Colombia'), fact('Remote', 'Partly remote')]))).at(-1)).toMatchObject({ outcome: 'no' });
    expect((await verdicts(p, profile('Deel', [fact('Location', 'San Francisco, CA, USA; Remote')]))).at(-1)).toMatchObject({ outcome: 'yes' });
  });

  it('reads hiring from a fact', async () => {
    const p = await plan('healthcare companies that are hiring');
    const yes = await verdicts(p, profile('Koko', [fact('Industry', 'Healthcare'), fact('Hiring', 'Yes')]));
    const no = await verdicts(p, profile('Watsi', [fact('Industry', 'Healthcare'), fact('Hiring', 'No')]));
    expect(yes.map((v) => v.outcome)).toEqual(['yes', 'yes']);
    expect(no.map((v) => v.outcome)).toEqual(['yes', 'no']);
  });

  it('checks a sector word against the profile\'s sector facts, not a passing mention', async () => {
    const p = await plan('consumer companies');
    const coinbase = profile('Coinbase', [fact('Industry', 'Fintech (Banking and Exchange)')], ['Coinbase is a platform where merchants and consumers trade digital currency.']);
    expect((await verdicts(p, coinbase))[0]).toMatchObject({ outcome: 'no', pass: false });
  });

  it('reads a place in a sentence only as a locative: "a San Francisco payments company" yes, "money sent to Africa" no', async () => {
    const news = (sentence: string): FetchedPage => ({
      url: 'https://news.example/story', finalUrl: 'https://news.example/story', status: 200, contentType: 'text/html',
      title: 'Payments roundup', text: sentence, passages: [sentence], publishedAt: null, fetchedAt: NOW,
    });
    const sf = await plan('payments companies in San Francisco');
    const [, yes] = await verdicts(sf, news('Paysly, a San Francisco payments company, hired 40 engineers.'));
    expect(yes).toMatchObject({ outcome: 'yes', verification: 'stated' });
    const africa = await plan('payments companies in Africa');
    const [, unclearVerdict] = await verdicts(africa, news('Remitly, a payments company, lets families send money to Africa.'));
    expect(unclearVerdict).toMatchObject({ outcome: 'unclear', pass: false });
  });

  it('marks Berlin ⊂ Germany as inferred after the place is loosened to the country, and says what was inferred', async () => {
    const p = await plan('AI startups in Hamburg');
    const metro = (await reasoner.relax({ plan: p, filter: p.filters[1]! }, { signal })).filter!;
    expect(metro.title).toBe('Based in Greater Hamburg');
    const loosened = (await reasoner.relax({ plan: p, filter: metro }, { signal })).filter!;
    expect(loosened.title).toBe('Based in Germany');
    const page: FetchedPage = {
      url: 'https://news.example/lumora', finalUrl: 'https://news.example/lumora', status: 200, contentType: 'text/html',
      title: 'Lumora raises €2 million', text: 'Lumora, a Berlin-based AI startup, has raised €2 million.',
      passages: ['Lumora, a Berlin-based AI startup, has raised €2 million.'], publishedAt: null, fetchedAt: NOW,
    };
    const { candidates } = await reasoner.extract({ plan: p, page, round: 1 }, { signal });
    const v = (await reasoner.verify({ plan: p, filter: loosened, candidate: candidates[0]!, pages: [page] }, { signal })).verdict;
    expect(v).toMatchObject({ pass: true, verification: 'inferred' });
    expect(v.rationale).toMatch(/inferred: “Berlin(-based)?” is Berlin, which lies in Germany/);
  });
});

describe('extraction from structure', () => {
  it('takes one candidate per directory line, with its line as passage and its link as the lead', async () => {
    const p = await plan('fintech startups in San Francisco');
    const page = directory([['Stripe', 'Payments infrastructure. San Francisco, CA, USA'], ['Brex', 'Corporate cards. San Francisco, CA, USA']]);
    const { candidates } = await reasoner.extract({ plan: p, page, round: 1 }, { signal });
    expect(candidates.map((c) => [c.name, c.lead, c.passages[0]!.text])).toEqual([
      ['Stripe', 'https://startupindex.example/companies/stripe', 'Stripe — Payments infrastructure. San Francisco, CA, USA'],
      ['Brex', 'https://startupindex.example/companies/brex', 'Brex — Corporate cards. San Francisco, CA, USA'],
    ]);
  });

  it('takes a profile page\'s subject with its facts, without any sentence introducing it', async () => {
    const p = await plan('fintech startups in San Francisco');
    const page = profile('Stripe', [fact('Location', 'San Francisco, CA, USA'), fact('Industry', 'Fintech'), fact('Website', 'https://stripe.com')]);
    const { candidates } = await reasoner.extract({ plan: p, page, round: 1 }, { signal });
    expect(candidates.map((c) => [c.name, c.domain])).toEqual([['Stripe', 'stripe.com']]);
  });
});

describe('a programme year said after its companies', () => {
  it('"Y Combinator startups from 2014" is a 2014 batch (either season), not a page dated 2014', async () => {
    const p = (await reasoner.plan({ query: 'Y Combinator startups from 2014', now: NOW, sites: '' }, { signal })).plan;
    expect(p.filters.map((f) => f.title)).toEqual(['Is a startup', 'Was in a 2014 Y Combinator batch']);
    const summer = profile('Shipbright', [fact('Batch', 'Summer 2014')]);
    const later = profile('Latebloom', [fact('Batch', 'Winter 2016')]);
    const verdicts = async (page: FetchedPage) => {
      const { candidates } = await reasoner.extract({ plan: p, page, round: 1 }, { signal });
      return (await reasoner.verify({ plan: p, filter: p.filters[1]!, candidate: candidates[0]!, pages: [page] }, { signal })).verdict.outcome;
    };
    expect(await verdicts(summer)).toBe('yes');
    expect(await verdicts(later)).toBe('no');
    // A founding year stays a founding.
    const founded = (await reasoner.plan({ query: 'YC companies founded in 2014', now: NOW, sites: '' }, { signal })).plan;
    expect(founded.filters.map((f) => f.title)).toEqual(['Is a company', 'Went through Y Combinator', 'Founded (in 2014)']);
  });
});
