import { describe, expect, it } from 'vitest';
import type { FetchedPage, PageEntity, SearchHit } from '@leadfinder/wire';
import { outcomesByCandidate, plan, reasoner, signal } from './fact-page-testing.js';
import { screenHits } from './screen.js';

/**
 * Articles read as a person reads them: a headline's words that name a class are no row, a year written before
 * "paper" dates the paper, a laureate's year is the prize's, and an excerpt that says "acquired" shows nothing of
 * "not acquired". Pages written here, shaped as news and blog articles generally are.
 */

function articlePage(url: string, title: string, paragraphs: string[], items: PageEntity[], subject: PageEntity | null = null): FetchedPage {
  const passages = [title, ...paragraphs];
  return {
    url, finalUrl: url, status: 200, contentType: 'text/html', title, text: passages.join('\n'), publishedAt: '2015-03-02',
    passages, fetchedAt: '2026-03-15T09:00:00.000Z', model: { subject, items, siteName: 'Harbour Post' },
  };
}

const series = (name: string, passage: string): PageEntity => ({ name, kind: null, link: null, passage, facts: [], source: 'series' });

describe('a headline that names a class of things', () => {
  it('is no candidate: "What we learned from: logistics startups" names no startup', async () => {
    const p = await plan('logistics startups');
    const title = 'What we learned from: logistics startups';
    const line = 'Among the logistics startups: Parcelwise, Dockyard and Relay.';
    // A colon line read as a label and its value: on a page about one thing it would be that thing's fact.
    const page = articlePage('https://harbour.example/2015/logistics', title, [line], [],
      { name: 'logistics startups', kind: null, link: null, passage: title, facts: [{ label: 'Among the logistics startups', value: 'Parcelwise, Dockyard and Relay.', passage: line }], source: 'headline' });
    const { candidates } = await reasoner.extract({ plan: p, page, round: 1 }, { signal });
    expect(candidates.map((c) => c.name)).toEqual([]);
  });

  it('a headline\'s name that ends in a plural of its own is still one ("Gladstone Institutes")', async () => {
    const p = await plan('biomedical research institutes');
    const title = 'Inside: Gladstone Institutes';
    const page = articlePage('https://harbour.example/2015/gladstone', title, ['Gladstone Institutes is a biomedical research institute in San Francisco.'], [],
      { name: 'Gladstone Institutes', kind: null, link: null, passage: title, facts: [], source: 'headline' });
    const { candidates } = await reasoner.extract({ plan: p, page, round: 1 }, { signal });
    expect(candidates.map((c) => c.name)).toContain('Gladstone Institutes');
  });
});

describe('dates an article gives', () => {
  it('"The 1996 paper <title>" dates the paper, on an article about several', async () => {
    const p = await plan('physics papers published in the 1990s');
    const a = 'The 1996 paper Light and matter in small cavities, by R. J. Olsen, is one of the physics papers the jury cited.';
    const b = 'The 2004 paper Notes on cold atoms, by T. Lind, is one of the physics papers the jury cited.';
    const page = articlePage('https://harbour.example/2015/papers', 'Papers the jury cited', [a, b],
      [series('Light and matter in small cavities', a), series('Notes on cold atoms', b)]);
    expect(await outcomesByCandidate(p, page)).toEqual({ 'Light and matter in small cavities': ['yes', 'yes'], 'Notes on cold atoms': ['yes', 'no'] });
  });

  it('a citation\'s year after the quoted title dates the work ("A. Quist, “<title>” (1998)")', async () => {
    const p = await plan('physics papers published in the 1990s');
    const a = 'A. Quist, “Light and matter in small cavities” (1998), physics';
    const b = 'T. Lind, “Notes on cold atoms” (2001), physics';
    const listed = (name: string, passage: string): PageEntity => ({ name, kind: null, link: null, passage, facts: [], source: 'list' });
    const page = articlePage('https://harbour.example/2015/cited', 'Physics papers that mattered', [a, b],
      [listed('Light and matter in small cavities', a), listed('Notes on cold atoms', b)]);
    const out = await outcomesByCandidate(p, page);
    expect(out['Light and matter in small cavities']![1]).toBe('yes');
    expect(out['Notes on cold atoms']![1]).toBe('no');
  });

  it('"physics papers from the 1990s" (a period, not "published") is dated by the year written before "paper" too', async () => {
    const p = await plan('physics papers from the 1990s');
    const a = 'The 1996 paper Light and matter in small cavities, by R. J. Olsen, is one of the physics papers the jury cited.';
    const b = 'The 2004 paper Notes on cold atoms, by T. Lind, is one of the physics papers the jury cited.';
    const page = articlePage('https://harbour.example/2015/papers', 'Papers the jury cited', [a, b],
      [series('Light and matter in small cavities', a), series('Notes on cold atoms', b)]);
    expect(await outcomesByCandidate(p, page)).toEqual({ 'Light and matter in small cavities': ['yes', 'yes'], 'Notes on cold atoms': ['yes', 'no'] });
  });

  it('a laureate of 2009-2011 is dated by the year said of the prize, not by a birth year', async () => {
    const p = await plan('physics laureates of 2009-2011');
    const a = 'Ada B. Quist, born in 1931 in Oslo, was honoured with the Nobel Prize in Physics in 2010 for work done at Quist Institute.';
    const b = '“It was a surprise,” said Tomas Lind, a professor at Uppsala University, who shared the 2014 Nobel Prize in Physics.';
    const page = articlePage('https://harbour.example/2015/laureates', 'Laureates we met', [a, b], [series('Ada B. Quist', a), series('Tomas Lind', b)]);
    const out = await outcomesByCandidate(p, page);
    expect(out['Ada B. Quist']).toEqual(['yes', 'yes']);
    expect(out['Tomas Lind']![1]).not.toBe('yes');
  });
});

describe('a sector a sentence says', () => {
  const a = 'Ledgerly (S21) — the Austin-based Payments startup and employs 40 people.';
  const b = 'Lisbon-based Crumbly works in Food and Beverage and employs 90 people.';
  const c = '“Groceries and financial services for students,” said a spokesperson for Crumbly.';
  const page = () => articlePage('https://harbour.example/2015/roundup', 'Who is building what', [a, `${b} ${c}`],
    [series('Ledgerly', a), series('Crumbly', `${b} ${c}`)]);

  it('a sub-sector said as what it is ("the Austin-based Payments startup") places it in the sector', async () => {
    expect((await outcomesByCandidate(await plan('fintech startups'), page()))['Ledgerly']).toEqual(['yes']);
  });

  it('a word elsewhere does not beat the sector a sentence gives ("works in Food and Beverage" is no fintech)', async () => {
    const out = await outcomesByCandidate(await plan('fintech companies'), page());
    expect(out['Crumbly']).toEqual(['unclear']);
    expect((await outcomesByCandidate(await plan('food and beverage companies'), page()))['Crumbly']).toEqual(['yes']);
  });
});

describe('an article headed by a sector', () => {
  const a = '“We started because nobody else would,” a spokesperson for Ledgerly told us.';
  const b = 'Lisbon-based Crumbly works in Food and Beverage and employs 90 people.';
  const headline = 'Who is building what: fintech companies';
  const page = (items: PageEntity[]) => articlePage('https://harbour.example/2015/fintech', headline, [`Among them: Ledgerly and Crumbly.`, a, b], items);

  it('takes its entries to be of that sector (inferred), quoting the headline', async () => {
    const p = await plan('fintech companies');
    const out = await outcomesByCandidate(p, page([series('Ledgerly', a), series('Crumbly', b)]));
    expect(out['Ledgerly']).toEqual(['yes']);
    // A sentence that gives an entry another sector is not overruled by the headline.
    expect(out['Crumbly']).not.toEqual(['yes']);
    const { candidates } = await reasoner.extract({ plan: p, page: page([series('Ledgerly', a)]), round: 1 }, { signal });
    const verdict = (await reasoner.verify({ plan: p, filter: p.filters[0]!, candidate: candidates[0]!, pages: [page([series('Ledgerly', a)])] }, { signal })).verdict;
    expect(verdict.verification).toBe('inferred');
    expect(verdict.rationale).toContain(headline);
  });

  it('a widget\'s entry ("Related") is not taken for the article\'s', async () => {
    const related: PageEntity = { name: 'Ledgerly', kind: null, link: null, passage: a, facts: [], source: 'related' };
    const { candidates } = await reasoner.extract({ plan: await plan('fintech companies'), page: page([related]), round: 1 }, { signal });
    expect(candidates.map((c) => c.name)).not.toContain('Ledgerly');
  });
});

describe('where a listing line puts it', () => {
  const listed = (name: string, passage: string): PageEntity => ({ name, kind: null, link: null, passage, facts: [], source: 'list' });
  const a = 'Ledgerly (S21), San Francisco: Invoices that pay themselves.';
  const b = 'Ada B. Quist (Quist Institute, Norway) — Prize in Chemistry, 2016';
  const c = 'Tomas Lind (Uppsala University, Sweden) — Prize in Physics, 2016';

  it('reads the place beside the name, before what the line says of it', async () => {
    const companies = articlePage('https://harbour.example/2015/list', 'Startups we like', [a], [listed('Ledgerly', a), listed('Crumbly', 'Crumbly (W20), Lisbon: Snacks.')]);
    expect((await outcomesByCandidate(await plan('startups in San Francisco'), companies))['Ledgerly']).toEqual(['yes', 'yes']);
    const people = articlePage('https://harbour.example/2016/winners', 'Scientists we met', [b, c], [listed('Ada B. Quist', b), listed('Tomas Lind', c)]);
    const out = await outcomesByCandidate(await plan('scientists based in Norway'), people);
    expect(out['Ada B. Quist']).toEqual(['yes', 'yes']);
    expect(out['Tomas Lind']![1]).not.toBe('yes');
  });
});

describe('a town with namesakes in other countries', () => {
  it('"San Francisco-based" is no town in Asia, "Oxford-based" none in the United States; "Dallas-based" is still in Texas', async () => {
    const a = 'Ledgerly (S16) — the San Francisco-based Payments startup and employs 20 people.';
    const b = 'Crumbly (W19) — the Oxford-based Education nonprofit and employs 19 people.';
    const c = 'Shiftly (W20) — the Dallas-based Logistics startup and employs 30 people.';
    const page = articlePage('https://harbour.example/2016/roundup', 'Startups we met', [a, b, c], [series('Ledgerly', a), series('Crumbly', b), series('Shiftly', c)]);
    expect((await outcomesByCandidate(await plan('startups in Asia'), page))['Ledgerly']!.at(-1)).not.toBe('yes');
    expect((await outcomesByCandidate(await plan('organizations in the United States'), page))['Crumbly']!.at(-1)).not.toBe('yes');
    expect((await outcomesByCandidate(await plan('startups in Texas'), page))['Shiftly']!.at(-1)).toBe('yes');
  });
});

describe('a prize year after a comma', () => {
  it('"— Nobel Memorial Prize in Economic Sciences, 2012" dates the prize, not the page', async () => {
    const listed = (name: string, passage: string): PageEntity => ({ name, kind: null, link: null, passage, facts: [], source: 'list' });
    const a = 'Ada B. Quist (Quist Institute, Norway) — Nobel Memorial Prize in Economic Sciences, 2012';
    const b = 'Tomas Lind (Uppsala University, Sweden) — Nobel Memorial Prize in Economic Sciences, 2015';
    const page = { ...articlePage('https://harbour.example/2016/winners', 'Economists we met', [a, b], [listed('Ada B. Quist', a), listed('Tomas Lind', b)]), publishedAt: '2016-01-10' };
    const out = await outcomesByCandidate(await plan('economists who won the prize after 2012'), page);
    expect(out['Ada B. Quist']!.at(-1)).not.toBe('yes');
    expect(out['Tomas Lind']!.at(-1)).toBe('yes');
  });
});

describe('no place read into a sector or a name', () => {
  it('"works in Gaming" and "the chief executive of Verano Health" place nothing in Europe', async () => {
    const a = 'San Francisco-based Quarkplay works in Gaming and employs 50 people.';
    const b = '“We started because nobody else would,” the chief executive of Verano Health told us.';
    const page = articlePage('https://harbour.example/2015/gaming', 'Companies we met', [a, b], [series('Quarkplay', a), series('Verano Health', b)]);
    const out = await outcomesByCandidate(await plan('companies based in Europe'), page);
    expect(out['Quarkplay']![1]).not.toBe('yes');
    expect(out['Verano Health']![1]).not.toBe('yes');
  });
});

describe('the excerpt screen and a negated filter', () => {
  const hit = (url: string, title: string, snippet: string, rank: number): SearchHit => ({ url, title, snippet, publishedAt: null, provider: 'corpus', rank });

  it('scores "not acquired" and "not hiring" hits without the words they rule out', async () => {
    const p = await plan('healthcare companies that have not been acquired');
    const [said, silent] = screenHits(p, [
      hit('https://news.example/a', 'Healthcare companies acquired this year', 'Five healthcare companies were acquired.', 20),
      hit('https://news.example/b', 'Healthcare companies to watch', 'Five healthcare companies we like.', 21),
    ]);
    expect(said!.score).toBe(silent!.score);
    const h = await plan('fintech companies that are not hiring');
    const [hiring, quiet] = screenHits(h, [
      hit('https://news.example/c', 'Fintech companies hiring now', 'Fintech jobs.', 20),
      hit('https://news.example/d', 'Fintech companies we like', 'Fintech.', 21),
    ]);
    expect(hiring!.score).toBe(quiet!.score);
  });
});
