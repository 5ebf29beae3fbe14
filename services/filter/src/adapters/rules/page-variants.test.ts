import { describe, expect, it } from 'vitest';
import type { Candidate, FetchedPage, PageEntity } from '@leadfinder/wire';
import { fact, NOW, outcomes, plan, profilePage, reasoner, signal } from './fact-page-testing.js';

/**
 * Candidates and verdicts on pages real sites vary, as the fetcher's page model reads them (its
 * page-variants test is the HTML side): an article whose headline is not the name and whose prose does not
 * open with it, a profile whose "Similar" widget names other entities, a listing's "Est." column.
 */

/** An article about `subject` (named by its headline), its paragraphs, and other entities it links to. */
function article(url: string, title: string, subject: string, paragraphs: string[], related: PageEntity[] = []): FetchedPage {
  const passages = [title, ...paragraphs, ...related.map((r) => r.passage)];
  const model = { subject: { name: subject, kind: null, link: null, passage: title, facts: [], source: 'headline' }, items: related, siteName: 'Tech Weekly' };
  return { url, finalUrl: url, status: 200, contentType: 'text/html', title: `${title} | Tech Weekly`, text: passages.join('\n'), publishedAt: '2024-05-02', passages, fetchedAt: NOW, model };
}

async function candidates(query: string, page: FetchedPage): Promise<Candidate[]> {
  return (await reasoner.extract({ plan: await plan(query), page, round: 1 }, { signal })).candidates;
}

describe('an article about one entity, told in prose that does not open with its name', () => {
  const quarkly = article('https://techweekly.example/spotlight/quarkly', 'Inside Quarkly', 'Quarkly', [
    'Austin-based Quarkly (YC W21) makes observability software for developer teams.',
    'The company employs about 85 people.',
  ]);

  it('the entity the headline names is the candidate, with the sentence that introduces it, and the place is read', async () => {
    const found = await candidates('developer tools startups in Austin', quarkly);
    expect(found.map((c) => c.name)).toEqual(['Quarkly']);
    expect(found[0]!.passages.map((p) => p.text)).toContain('Austin-based Quarkly (YC W21) makes observability software for developer teams.');
    const p = await plan('startups in Austin');
    const verdict = (await reasoner.verify({ plan: p, filter: p.filters.find((f) => /Austin/.test(f.title))!, candidate: found[0]!, pages: [quarkly] }, { signal })).verdict;
    expect(verdict.outcome).toBe('yes');
  });

  it('other openings say the same: "Founded in 2021, X …", "X, which is headquartered in …, makes …"', async () => {
    for (const opening of ['Founded in 2021, Quarkly makes observability software.', 'Quarkly, which is headquartered in Austin, Texas, makes observability software.']) {
      const page = article('https://techweekly.example/spotlight/quarkly', 'Quarkly at a glance', 'Quarkly', [opening]);
      expect((await candidates('software companies', page)).map((c) => c.name), opening).toEqual(['Quarkly']);
    }
  });

  it('a scientist\'s article is no company: "Born in Kyoto, Japan, X shared …" and "He …" make a person', async () => {
    const suzuki = article('https://techweekly.example/spotlight/akira-suzuki', 'Inside Akira Suzuki', 'Akira Suzuki', [
      'Born in Mukawa, Japan, Akira Suzuki shared the 2010 Nobel Prize in Chemistry.', 'He is affiliated with Hokkaido University, Sapporo, Japan.',
    ]);
    expect(await candidates('companies in Japan', suzuki)).toEqual([]);
    expect((await candidates('chemists in Japan', suzuki)).map((c) => c.name)).toEqual(['Akira Suzuki']);
  });
});

describe('a profile with a "Similar" widget naming others', () => {
  const related: PageEntity[] = [
    { name: 'Search for neutrinos from the sun', kind: null, link: 'https://catalog.example/records/search-for-neutrinos-from-the-sun', passage: 'Search for neutrinos from the sun — A physics paper', facts: [], source: 'related' },
  ];
  const chip = profilePage({ urlPrefix: 'https://catalog.example/records/', siteName: 'Citation Catalog', titleSuffix: 'Citation Catalog' },
    'Invention of the integrated circuit', [fact('Year', '1959'), fact('Subject', 'Physics')], related.map((r) => r.passage));
  chip.model!.items = related;

  it('the widget\'s entries are no candidates: only the page\'s own subject is', async () => {
    const p = await plan('physics papers');
    expect((await reasoner.extract({ plan: p, page: chip, round: 1 }, { signal })).candidates.map((c) => c.name)).toEqual(['Invention of the integrated circuit']);
  });

  it('the widget\'s line about another paper is no evidence for the page\'s own: a neutrino query does not take it', async () => {
    const p = await plan('papers on neutrinos');
    const own = (await reasoner.extract({ plan: p, page: chip, round: 1 }, { signal })).candidates.find((c) => c.name === 'Invention of the integrated circuit')!;
    const verdicts = [];
    for (const filter of p.filters) verdicts.push((await reasoner.verify({ plan: p, filter, candidate: own, pages: [chip] }, { signal })).verdict);
    expect(verdicts.some((v) => v.outcome === 'yes' && v.passages.some((q) => q.text.includes('neutrinos')))).toBe(false);
    expect(verdicts.map((v) => v.outcome)).not.toEqual(p.filters.map(() => 'yes'));
  });
});

describe('where someone works, under the labels directories use', () => {
  it('"Works at: …, Cambridge, United Kingdom" places a researcher in Europe; "Place of birth" does not', async () => {
    const page = profilePage({ urlPrefix: 'https://scientistsdirectory.example/scientists/', siteName: 'Scientists Directory', titleSuffix: 'Scientists Directory' },
      'Ada Quill', [fact('Works at', 'MRC Laboratory of Molecular Biology, Cambridge, United Kingdom'), fact('Place of birth', 'Chennai, India'), fact('Gender', 'Female')]);
    expect(await outcomes('researchers working in Europe', page)).toEqual(['yes', 'yes']);
    expect(await outcomes('researchers working in India', page)).toEqual(['yes', 'no']);
  });
});

describe('labels listings abbreviate', () => {
  it('"Est. 2021" dates the founding, so it answers "launched after 2020" and not "launched before 2015"', async () => {
    const page = profilePage({ urlPrefix: 'https://startuptracker.example/startups/', siteName: 'Startup Tracker', titleSuffix: 'Startup Tracker' },
      'Perkly', [fact('Est.', '2021'), fact('Sector', 'HR Tech')]);
    expect(await outcomes('companies launched after 2020', page)).toEqual(['yes', 'yes']);
    expect(await outcomes('companies launched before 2015', page)).toEqual(['yes', 'no']);
  });
});

describe('an organisation typed by schema.org', () => {
  it('"Type: NGO" (a JSON-LD NGO) answers "nonprofits"; a Corporation does not', async () => {
    const site = { urlPrefix: 'https://entitydata.example/company/', siteName: 'Entity Data', titleSuffix: 'Entity Data' };
    expect(await outcomes('nonprofits in India', profilePage(site, 'Noora Health', [fact('Type', 'NGO'), fact('Location', 'Bengaluru, India')]))).toEqual(['yes', 'yes', 'yes']);
    const corporation = await outcomes('nonprofits in India', profilePage(site, 'Razorpay', [fact('Type', 'Corporation'), fact('Location', 'Bengaluru, India')]));
    expect(corporation).not.toEqual(['yes', 'yes', 'yes']);
  });
});

