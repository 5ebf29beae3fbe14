import { describe, expect, it } from 'vitest';
import type { Candidate, FetchedPage, ResearchPlan } from '@leadfinder/wire';
import { bareProfile, fact, plan, planOutcomes, profilePage, reasoner, signal } from './fact-page-testing.js';
import { queryPool } from './plan.js';

/**
 * How people ask for papers and laureates, read as they mean it: a topic word in another form than the title
 * prints it, the words that only say a paper is scholarly, a word "in the title", and a prize year said in a
 * sentence. Each is checked end to end: the plan, then the verdicts on pages written here.
 */

describe('a topic word meets the title in another form of the word', () => {
  it('"research articles on superconductivity" takes a paper on superconductors', async () => {
    const p = await plan('research articles on superconductivity');
    const abrikosov = bareProfile('journals.example', 'Magnetic properties of superconductors of the second group', [fact('Keywords', 'Physics'), fact('Published', '1957')]);
    expect(await planOutcomes(p, abrikosov)).toEqual(['yes']);
  });

  it('"journal articles on magnetism" takes a title on magnetic layers, not a paper on optics, and searches the adjective', async () => {
    const p = await plan('journal articles on magnetism');
    const gmr = bareProfile('journals.example', 'Layered magnetic structures: antiferromagnetic coupling of Fe layers across Cr interlayers', [fact('Keywords', 'Physics')]);
    const optics = bareProfile('journals.example', 'The quantum theory of optical coherence', [fact('Keywords', 'Physics')]);
    expect(await planOutcomes(p, gmr)).toEqual(['yes']);
    expect(await planOutcomes(p, optics)).not.toContain('yes');
    // A search engine matches words: "magnetism" alone never finds "Magnetic properties of …".
    expect(p.queries.some((q) => /\bmagnetic\b/.test(q))).toBe(true);
  });

  it('"catalysis research papers" takes a title on catalysts and searches "catalytic"', async () => {
    const p = await plan('catalysis research papers');
    const grubbs = bareProfile('journals.example', 'Syntheses and activities of new single component ruthenium based olefin metathesis catalysts', [fact('Keywords', 'Chemistry')]);
    expect(await planOutcomes(p, grubbs)).toEqual(['yes']);
    const schrock = bareProfile('journals.example', 'Living ring opening metathesis polymerization catalyzed by transition metal alkylidene complexes', [fact('Keywords', 'Chemistry')]);
    expect(await planOutcomes(p, schrock)).toEqual(['yes']);
    expect(p.queries.some((q) => /\bcatalytic\b/.test(q))).toBe(true);
  });

  it('a short stem stays exact: "papers on public health" does not take a paper about publicity', async () => {
    const p = await plan('papers on public health');
    const ads = bareProfile('journals.example', 'Publicity and advertising in the press', [fact('Keywords', 'Economics')]);
    expect(await planOutcomes(p, ads)).not.toContain('yes');
  });
});

describe('words that only say a paper is scholarly are no criterion', () => {
  it.each([
    ['scientific papers about quantum physics', 'Is a paper about quantum physics'],
    ['peer-reviewed chemistry articles', 'Is a chemistry article'],
    ['journal articles on magnetism', 'Is an article on magnetism'],
    ['academic publications about lasers', 'Is a publication about lasers'],
    ['scholarly works on proteins', 'Is a work on proteins'],
  ])('"%s" → "%s"', async (query, title) => {
    const p = await plan(query);
    expect(p.entityType).toBe('paper');
    expect(p.filters[0]!.title).toBe(title);
    expect(JSON.stringify(p.filters[0]!.spec.groups)).not.toMatch(/scientific|peer|reviewed|journal|academic|scholarly|"works?"/);
  });

  it('a journal page that never says "scientific" still passes "scientific papers about quantum physics"', async () => {
    const p = await plan('scientific papers about quantum physics');
    const leggett = bareProfile('journals.example', 'Quantum tunnelling in a dissipative system', [fact('Keywords', 'Physics'), fact('Journal', 'Journal of Physics')]);
    expect(await planOutcomes(p, leggett)).toEqual(['yes']);
  });
});

describe('a word "in the title" is a word the paper is about', () => {
  it.each(['publications with resonance in the title', 'papers whose title mentions resonance'])('"%s" checks "resonance", not "title"', async (query) => {
    const p = await plan(query);
    expect(p.filters[0]!.spec.groups).toEqual([['resonance']]);
    const nmr = bareProfile('journals.example', 'Two dimensional spectroscopy application to nuclear magnetic resonance', [fact('Keywords', 'Chemistry')]);
    expect(await planOutcomes(p, nmr)).toEqual(['yes']);
  });
});

/** A page about one laureate or paper whose only word on it is a sentence, the page dated after the prize it names. */
function roundup(name: string, sentence: string, publishedAt: string): FetchedPage {
  return { ...profilePage({ urlPrefix: 'https://news.example/people/', siteName: 'Daily Brief', titleSuffix: 'Daily Brief' }, name, [], [sentence]), publishedAt };
}

/** The last filter's outcome (the event) for the page's subject, judged on that page. */
async function eventOutcome(p: ResearchPlan, page: FetchedPage): Promise<string | undefined> {
  const name = page.model!.subject!.name;
  const candidate: Candidate = {
    key: name.toLowerCase(), name, entityType: p.entityType, details: '', intentSignal: '', discoveryRationale: '',
    sourceUrls: [page.url], passages: [], domain: null, round: 1,
  };
  return (await reasoner.verify({ plan: p, filter: p.filters.at(-1)!, candidate, pages: [page] }, { signal })).verdict.outcome;
}

describe('a prize year said in a sentence dates the prize', () => {
  it('"won the Nobel prize in 2012" does not take a 2011 laureate from a page dated 2012', async () => {
    const p = await plan('researchers who won the Nobel prize in 2012');
    const sargent = roundup('Thomas J. Sargent', 'Thomas J. Sargent, of New York University, received the Nobel Memorial Prize in Economic Sciences in 2011.', '2012-10-28T00:00:00.000Z');
    const wineland = roundup('David J. Wineland', 'David J. Wineland, of NIST in Boulder, received the Nobel Prize in Physics in 2012.', '2013-10-28T00:00:00.000Z');
    expect(await eventOutcome(p, sargent)).not.toBe('yes');
    expect(await eventOutcome(p, wineland)).toBe('yes');
  });

  it('the year may come before the prize\'s name ("shared the 2011 Nobel Memorial Prize")', async () => {
    const p = await plan('researchers who won the Nobel prize in 2012');
    const sargent = roundup('Thomas J. Sargent', 'Thomas J. Sargent, who works at New York University, shared the 2011 Nobel Memorial Prize in Economic Sciences.', '2012-01-14T00:00:00.000Z');
    const kobilka = roundup('Brian K. Kobilka', 'Brian K. Kobilka, who works at Stanford University, shared the 2012 Nobel Prize in Chemistry.', '2013-01-14T00:00:00.000Z');
    expect(await eventOutcome(p, sargent)).not.toBe('yes');
    expect(await eventOutcome(p, kobilka)).toBe('yes');
  });

  it('a publication is dated by its publishing year, not by the prize the sentence also names', async () => {
    const p = await plan('chemistry articles published after 1985');
    const kohn = roundup('Inhomogeneous electron gas', 'This chemistry article, first published in 1964, was later cited for the Nobel Prize in Chemistry 1998.', '1998-11-01T00:00:00.000Z');
    const mullis = roundup('Primer directed enzymatic amplification of DNA', 'This chemistry article, first published in 1988, was later cited for the Nobel Prize in Chemistry 1993.', '1993-11-01T00:00:00.000Z');
    expect(await eventOutcome(p, kohn)).not.toBe('yes');
    expect(await eventOutcome(p, mullis)).toBe('yes');
  });
});

describe('a prize named with its year', () => {
  it('"papers behind the 2005 Nobel Prize in Chemistry" asks for the prize of 2005, searched with its year', async () => {
    const p = await plan('papers behind the 2005 Nobel Prize in Chemistry');
    expect(p.filters.map((f) => f.title)).toEqual(['Is a paper', 'Cited for the Nobel Prize in Chemistry (in 2005)']);
    expect(p.queries[0]).toMatch(/\b2005\b/);
    const grubbs = roundup('Syntheses and activities of new ruthenium metathesis catalysts', 'The committee of the Nobel Prize in Chemistry 2005 pointed to this work.', '1996-06-01T00:00:00.000Z');
    const agre = roundup('Appearance of water channels in xenopus oocytes', 'Agre published Appearance of water channels in xenopus oocytes; the Nobel Prize in Chemistry followed in 2003.', '2005-11-13T00:00:00.000Z');
    expect(await eventOutcome(p, grubbs)).toBe('yes');
    expect(await eventOutcome(p, agre)).not.toBe('yes');
  });

  it('"who won the 2012 Nobel Prize in Chemistry" is the prize won in 2012, with no "2012" left to find as a word', async () => {
    const p = await plan('researchers who won the 2012 Nobel Prize in Chemistry');
    expect(p.filters.map((f) => f.title)).toEqual(['Is a researcher', 'Won the Nobel Prize in Chemistry (in 2012)']);
  });
});

describe('laureates and professors', () => {
  it('"Nobel laureates from Japan", "laureates in the United Kingdom": a country after "laureates" is a place, a field is not', async () => {
    expect((await plan('Nobel laureates from Japan')).filters.map((f) => f.title)).toEqual(['Is a Nobel laureate', 'Based in Japan']);
    expect((await plan('laureates in the United Kingdom')).filters.map((f) => f.title)).toEqual(['Is a laureate', 'Based in the United Kingdom']);
    expect((await plan('laureates in Physics')).filters.map((f) => f.title)).toEqual(['Is a laureate in Physics']);
  });

  it('"chemistry professors at US universities" takes a chemist whose profile never says "professor"', async () => {
    const p = await plan('chemistry professors at US universities');
    const heck = bareProfile('laureates.example', 'Richard F. Heck', [fact('Prize', 'Nobel Prize in Chemistry 2010'), fact('Affiliation', 'University of Delaware, Newark, DE, USA')]);
    expect(await planOutcomes(p, heck)).toEqual(['yes', 'yes']);
  });
});

describe('research said as a thing, and words that rank or tell how a paper came about', () => {
  it.each([
    ['research on the cosmic microwave background', 'Is a paper on the cosmic microwave background'],
    ['1970s chemistry research', 'Is a chemistry paper'],
    ['the most cited papers on quantum computing', 'Is a paper on quantum computing'],
  ])('"%s" → "%s"', async (query, title) => {
    const p = await plan(query);
    expect(p.entityType).toBe('paper');
    expect(p.filters[0]!.title).toBe(title);
    expect(JSON.stringify(p.filters[0]!.spec.groups)).not.toMatch(/"(?:research|most|cited)"/);
  });

  it('"papers written by Nobel laureates in physics" checks no word "written"; "market research companies" stay companies', async () => {
    expect(JSON.stringify((await plan('papers written by Nobel laureates in physics')).filters[0]!.spec.groups)).not.toMatch(/written/);
    expect((await plan('market research companies')).entityType).toBe('company');
  });
});

describe('a decade is searched year by year', () => {
  it('"papers published in the 1990s" gets a phrasing for each year, since pages print the year, never the decade', async () => {
    const pool = queryPool(await plan('papers published in the 1990s'));
    for (const year of ['1991', '1995', '1999']) expect(pool.some((q) => q.endsWith(` ${year}`))).toBe(true);
  });

  it('a paper window open on one side ("after 1990") is searched by the years nearest its bound, not by every year since', async () => {
    const pool = queryPool(await plan('chemistry papers published after 1990'));
    for (const year of ['1992', '1996', '2001']) expect(pool.some((q) => q.endsWith(` ${year}`))).toBe(true);
    expect(pool.some((q) => /\b(?:2003|2010|2020)\b/.test(q))).toBe(false);
  });

  it('a company\'s founding window open on one side is not spelled out year by year', async () => {
    const pool = queryPool(await plan('B2B software companies founded after 2015'));
    expect(pool.filter((q) => /\b20(?:1[7-9]|2\d)\b/.test(q))).toEqual([]);
  });

  it('"a physics paper from the 1980s": the leading article is no part of the kind', async () => {
    const p = await plan('a physics paper from the 1980s');
    expect(p.filters.map((f) => f.title)).toEqual(['Is a physics paper', 'Dated from the 1980s']);
  });
});
