import { describe, expect, it } from 'vitest';
import type { Candidate, FetchedPage, PageEntity, PageFact, ResearchPlan } from '@leadfinder/wire';
import { createRuleReasoner } from './reasoner.js';

/**
 * Verdicts on the page shapes of the open web, as the fetcher's page model reads them (see the fetcher's
 * page-shapes test for the HTML side): a dl/dt/dd profile with its own labels, JSON-LD-only Person and
 * Organization pages, and a news article naming several organisations whose own pages are followed.
 */

const NOW = '2026-03-15T09:00:00.000Z';
const signal = new AbortController().signal;
const reasoner = createRuleReasoner();

/** A fact as the fetcher gives a dd or a JSON-LD value: the value alone is the passage. */
const fact = (label: string, value: string): PageFact => ({ label, value, passage: value });

function subjectPage(url: string, name: string, facts: PageFact[], kind: PageEntity['kind'] = null, prose: string[] = []): FetchedPage {
  const passages = [name, ...prose, ...facts.map((f) => f.passage)];
  const subject: PageEntity = { name, kind, link: null, passage: name, facts, source: kind ? 'jsonld' : 'heading' };
  return {
    url, finalUrl: url, status: 200, contentType: 'text/html', title: name, text: passages.join('\n'),
    publishedAt: null, passages, fetchedAt: NOW, model: { subject, items: [], siteName: null },
  };
}

const news: FetchedPage = (() => {
  const url = 'https://savannatech.example/news/four-health-startups';
  const passages = [
    'Four health startups to watch',
    'Telemedicine is spreading fast across West Africa, and investors have noticed.',
    'Ibadan-based Mendwell runs community clinics and now employs 240 people. In Nairobi, Kliniq sells diagnostic kits to pharmacies.',
  ];
  const items: PageEntity[] = [
    { name: 'Mendwell', kind: null, link: 'https://mendwell.example/', passage: 'Ibadan-based Mendwell runs community clinics and now employs 240 people.', facts: [], source: 'link' },
    { name: 'Kliniq', kind: null, link: 'https://kliniq.example/', passage: 'In Nairobi, Kliniq sells diagnostic kits to pharmacies.', facts: [], source: 'link' },
  ];
  return {
    url, finalUrl: url, status: 200, contentType: 'text/html', title: 'Four health startups to watch', text: passages.join('\n'),
    publishedAt: '2024-03-03', passages, fetchedAt: NOW, model: { subject: null, items, siteName: 'Savanna Tech News' },
  };
})();

const mendwellHome = subjectPage('https://mendwell.example/', 'Mendwell', [
  fact('Description', 'Community clinics and telemedicine for rural families.'), fact('Founded', '2016-03-01'),
  fact('Location', 'Ibadan, Oyo, NG'), fact('Team size', '240'), fact('Industry', 'Healthcare, Telemedicine'), fact('Tags', 'health, clinics'),
], 'company');

async function plan(query: string): Promise<ResearchPlan> {
  return (await reasoner.plan({ query, now: NOW, sites: '' }, { signal })).plan;
}

async function judge(p: ResearchPlan, candidate: Candidate, pages: FetchedPage[]) {
  const out = [];
  for (const f of p.filters) out.push((await reasoner.verify({ plan: p, filter: f, candidate, pages }, { signal })).verdict);
  return out;
}

async function only(p: ResearchPlan, page: FetchedPage): Promise<Candidate> {
  const { candidates } = await reasoner.extract({ plan: p, page, round: 1 }, { signal });
  expect(candidates).toHaveLength(1);
  return candidates[0]!;
}

describe('a dl/dt/dd profile with its own labels', () => {
  const quarkly = subjectPage('https://ventureatlas.example/companies/quarkly', 'Quarkly', [
    fact('Sector', 'Developer tools; Analytics'), fact('Head office', 'Austin, Texas, United States'), fact('Headcount', '85'),
    fact('Established', '2019'), fact('Work model', 'Remote-first'), fact('Currently recruiting', 'Yes'),
  ]);

  it('"Currently recruiting: Yes" is hiring and "Established: 2019" dates the founding', async () => {
    const p = await plan('companies founded after 2018 that are hiring');
    const verdicts = await judge(p, await only(p, quarkly), [quarkly]);
    expect(verdicts.map((v) => v.outcome)).toEqual(['yes', 'yes', 'yes']);
    const before = await plan('companies founded before 2018');
    expect((await judge(before, await only(before, quarkly), [quarkly])).map((v) => v.outcome)).toEqual(['yes', 'no']);
  });
});

describe('dl profiles of papers and people', () => {
  it('"Publication year: 1995" on a paper profile dates its publication', async () => {
    const paper = subjectPage('https://citations.example/p/cooling', 'Cooling atoms to a single quantum state', [
      fact('Authors', 'Ines Morgan; Tomas Ruiz'), fact('Publication year', '1995'), fact('Subject area', 'Bose-Einstein condensation'),
    ]);
    const nineties = await plan('papers on Bose-Einstein condensates published in the 1990s');
    expect((await judge(nineties, await only(nineties, paper), [paper])).map((v) => v.outcome)).toEqual(['yes', 'yes']);
    const later = await plan('papers on Bose-Einstein condensates published in the 2000s');
    expect((await judge(later, await only(later, paper), [paper])).map((v) => v.outcome)).toEqual(['yes', 'no']);
  });

  it('an untyped profile stating a gender is a person: no candidate for a company query', async () => {
    const person = subjectPage('https://scholars.example/ada-quill', 'Ada Quill', [fact('Gender', 'Female'), fact('Institution', 'University of Chicago, Chicago, IL, USA')]);
    const p = await plan('companies in Chicago');
    const { candidates } = await reasoner.extract({ plan: p, page: person, round: 1 }, { signal });
    expect(candidates).toEqual([]);
    const r = await plan('researchers in Chicago');
    expect((await reasoner.extract({ plan: r, page: person, round: 1 }, { signal })).candidates.map((c) => c.name)).toEqual(['Ada Quill']);
  });
});

describe('JSON-LD Person pages', () => {
  const berg = subjectPage('https://hannaberg.example/', 'Hanna Berg', [
    fact('Job title', 'Professor of Physics'), fact('Gender', 'Female'), fact('Affiliation', 'Uppsala University, Uppsala, SE'),
    fact('Award', 'Nobel Prize in Physics (2011)'), fact('Industry', 'neutrino oscillations, particle physics'),
  ], 'professional');

  it('a schema.org Person is a candidate for a researcher query; field, gender and an ISO country code are read', async () => {
    const p = await plan('women physicists at Swedish universities');
    const verdicts = await judge(p, await only(p, berg), [berg]);
    expect(verdicts.map((v) => v.outcome)).toEqual(['yes', 'yes']);
    expect(verdicts[1]!.rationale).toContain('Uppsala');
  });

  it('a chemistry query does not take the physicist, and Denmark is not where Uppsala is', async () => {
    const p = await plan('chemists in Denmark');
    const verdicts = await judge(p, await only(p, berg), [berg]);
    expect(verdicts.map((v) => v.outcome)).toEqual(['no', 'no']);
  });

  it('where someone works counts under its usual labels, where they were born does not', async () => {
    const emigre = subjectPage('https://laureates.example/r-weiss', 'Rainer Weiss', [
      fact('Birth country', 'Germany'), fact('Organization', 'Massachusetts Institute of Technology, Cambridge, MA, USA'), fact('Field', 'Physics'),
    ], 'professional');
    const inGermany = await plan('physicists in Germany');
    expect((await judge(inGermany, await only(inGermany, emigre), [emigre])).map((v) => v.outcome)).toEqual(['yes', 'no']);
    const inUs = await plan('physicists in the United States');
    expect((await judge(inUs, await only(inUs, emigre), [emigre])).map((v) => v.outcome)).toEqual(['yes', 'yes']);
  });

  it('an affiliation the gazetteer cannot place leaves the location unclear, not ruled out', async () => {
    const bare = subjectPage('https://ines.example/', 'Ines Morgan', [fact('Job title', 'Professor of Physics'), fact('Affiliation', 'Institute of Cold Matter')], 'professional');
    const p = await plan('physicists in Sweden');
    expect((await judge(p, await only(p, bare), [bare])).map((v) => v.outcome)).toEqual(['yes', 'unclear']);
  });
});

describe('a lead whose own page is typed', () => {
  it('a researcher named in a paper query\'s news story is ruled out once her own page says she is a Person', async () => {
    const p = await plan('papers on neutrino oscillations');
    const story = subjectPage('https://bulletin.example/news/neutrinos', 'Neutrinos change flavour', [], 'news', [
      'The prize went to work on neutrino oscillations led by Hanna Berg.',
    ]);
    story.model = { subject: null, items: [{ name: 'Hanna Berg', kind: null, link: 'https://hannaberg.example/', passage: 'The prize went to work on neutrino oscillations led by Hanna Berg.', facts: [], source: 'link' }], siteName: null };
    const home = subjectPage('https://hannaberg.example/', 'Hanna Berg', [fact('Job title', 'Professor of Physics'), fact('Industry', 'neutrino oscillations')], 'professional');
    const { candidates } = await reasoner.extract({ plan: p, page: story, round: 1 }, { signal });
    const berg = candidates.find((c) => c.name === 'Hanna Berg')!;
    const followed = { ...berg, sourceUrls: [...berg.sourceUrls, home.url] };
    const verdict = (await judge(p, followed, [story, home]))[0]!;
    expect(verdict.outcome).toBe('no');
    expect(verdict.rationale).toContain('a person');
    // A paper whose own page is typed Article (not ScholarlyArticle) still counts as a paper.
    const listing = subjectPage('https://papers.example/lists/neutrinos', 'Papers on neutrinos', [], null, ['Neutrino flavour change observed — 1998']);
    listing.model = { subject: null, items: [
      { name: 'Neutrino flavour change observed', kind: null, link: 'https://journal.example/a/1', passage: 'Neutrino flavour change observed — 1998', facts: [], source: 'list' },
      { name: 'Solar neutrino deficit measured', kind: null, link: 'https://journal.example/a/2', passage: 'Solar neutrino deficit measured — 1968', facts: [], source: 'list' },
    ], siteName: null };
    const paperPage = subjectPage('https://journal.example/a/1', 'Neutrino flavour change observed', [fact('About', 'neutrino oscillations')], 'news');
    const listed = (await reasoner.extract({ plan: p, page: listing, round: 1 }, { signal })).candidates.find((c) => c.name === 'Neutrino flavour change observed')!;
    const withOwn = { ...listed, sourceUrls: [...listed.sourceUrls, paperPage.url] };
    expect((await judge(p, withOwn, [listing, paperPage]))[0]!.outcome).toBe('yes');
  });
});

describe('a news article naming several organisations', () => {
  it('each is a candidate with its own sentence and its site as the lead; a place in one sentence is not another\'s', async () => {
    const p = await plan('health startups in Nigeria');
    const { candidates } = await reasoner.extract({ plan: p, page: news, round: 1 }, { signal });
    expect(candidates.map((c) => [c.name, c.lead])).toEqual([['Mendwell', 'https://mendwell.example/'], ['Kliniq', 'https://kliniq.example/']]);
    const kliniq = candidates.find((c) => c.name === 'Kliniq')!;
    expect((await judge(p, kliniq, [news]))[1]!.outcome).not.toBe('yes');
  });

  it('a passing mention that does not say what it does is unclear (its lead is worth following), not a no', async () => {
    const p = await plan('fintech startups');
    const { candidates } = await reasoner.extract({ plan: p, page: news, round: 1 }, { signal });
    const mendwell = candidates.find((c) => c.name === 'Mendwell')!;
    expect((await judge(p, mendwell, [news]))[0]!.outcome).toBe('unclear');
    // Its own page states its sector: now it is a no.
    const followed = { ...mendwell, sourceUrls: [...mendwell.sourceUrls, mendwellHome.url] };
    expect((await judge(p, followed, [news, mendwellHome]))[0]!.outcome).toBe('no');
  });

  it('once the lead (its JSON-LD homepage) joins its sources, its own facts settle the filters', async () => {
    const p = await plan('health startups in Nigeria');
    const { candidates } = await reasoner.extract({ plan: p, page: news, round: 1 }, { signal });
    const mendwell = candidates.find((c) => c.name === 'Mendwell')!;
    const followed = { ...mendwell, sourceUrls: [...mendwell.sourceUrls, mendwellHome.url] };
    const verdicts = await judge(p, followed, [news, mendwellHome]);
    expect(verdicts.map((v) => v.outcome)).toEqual(['yes', 'yes']);
    for (const v of verdicts) for (const q of v.passages) expect([news.text, mendwellHome.text].some((t) => t.includes(q.text))).toBe(true);
  });
});
