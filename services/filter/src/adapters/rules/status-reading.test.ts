import { describe, expect, it } from 'vitest';
import type { FetchedPage, PageEntity } from '@leadfinder/wire';
import { bareProfile, fact, outcomes, outcomesByCandidate, plan } from './fact-page-testing.js';

/**
 * Hiring and an organisation's status and form, read where real pages state them: an article's headline or the
 * lead of the series it announces ("Among the companies hiring now: A, B and C"), a private-markets database's
 * ownership status, a company register's company type, a knowledge base's "instance of" (issue 14). What a page
 * leaves open stays unclear.
 */

function articlePage(title: string, paragraphs: string[], items: PageEntity[]): FetchedPage {
  const url = 'https://harbour.example/2022/hiring/notes-from-the-field';
  const passages = [title, ...paragraphs];
  return {
    url, finalUrl: url, status: 200, contentType: 'text/html', title, text: passages.join('\n'), publishedAt: '2022-05-21T00:00:00.000Z',
    passages, fetchedAt: '2026-03-15T09:00:00.000Z', model: { subject: null, items, siteName: 'Harbour Post' },
  };
}

const entry = (source: string) => (name: string, passage: string): PageEntity => ({ name, kind: null, link: null, passage, facts: [], source });
const series = entry('series');

describe('hiring said once of every entry an article lists', () => {
  const koko = 'Koko (YC W22) works in Consumer Health and employs 8 people. “Making mental health accessible to everyone,” said the chief executive of Koko, a nonprofit.';
  const upchieve = 'Then there is UPchieve in New York, an Education nonprofit that went through Y Combinator\'s W21 batch.';

  it('the lead of the series it announces ("Among the companies hiring now: A and B") says each is hiring', async () => {
    const p = await plan('nonprofits that are hiring');
    const page = articlePage('What we learned talking to Y Combinator companies', ['Among the Y Combinator companies hiring now: UPchieve and Koko.', upchieve, koko],
      [series('UPchieve', upchieve), series('Koko', koko)]);
    const out = await outcomesByCandidate(p, page);
    expect(out.Koko?.at(-1)).toBe('yes');
    expect(out.UPchieve?.at(-1)).toBe('yes');
  });

  it('a headline that names its entries as hiring ("4 names to know among companies hiring now") says each is', async () => {
    const p = await plan('nonprofits that are hiring');
    const page = articlePage('2 names to know among Y Combinator companies hiring now', ['We kept hearing the same names: UPchieve and Koko.', upchieve, koko],
      [series('UPchieve', upchieve), series('Koko', koko)]);
    expect((await outcomesByCandidate(p, page)).Koko?.at(-1)).toBe('yes');
  });

  it('a lead or headline that says nothing of hiring leaves it unclear, and one that says "not hiring" rules it out', async () => {
    const p = await plan('nonprofits that are hiring');
    const quiet = articlePage('2 names to know among Y Combinator nonprofits', ['We kept hearing the same names: UPchieve and Koko.', upchieve, koko],
      [series('UPchieve', upchieve), series('Koko', koko)]);
    expect((await outcomesByCandidate(p, quiet)).Koko?.at(-1)).toBe('unclear');
    const closed = articlePage('Notes from the field', ['Among the nonprofits that are not hiring this year: UPchieve and Koko.', upchieve, koko],
      [series('UPchieve', upchieve), series('Koko', koko)]);
    expect((await outcomesByCandidate(p, closed)).Koko?.at(-1)).toBe('no');
  });

  it('a name the headline does not list (one linked in passing in its prose) is not said to be hiring by it', async () => {
    const p = await plan('nonprofits that are hiring');
    const page = articlePage('Companies hiring now', ['Koko, a nonprofit, shared the stage with the founders.'],
      [entry('link')('Koko', 'Koko, a nonprofit, shared the stage with the founders.')]);
    expect((await outcomesByCandidate(p, page)).Koko?.at(-1) ?? 'unclear').not.toBe('yes');
  });
});

describe('operating status as business databases print it', () => {
  const card = (name: string, facts: [string, string][]) => bareProfile('dealbase.example', name, facts.map(([l, v]) => fact(l, v)));

  it('"Ownership Status: Privately Held" is a company still running on its own; "Status: Private" alone says nothing of it', async () => {
    const held = card('Benchling', [['Year Founded', '2012'], ['Ownership Status', 'Privately Held (backing)'], ['Status', 'Private'], ['Primary Industry', 'Software']]);
    const gone = card('Omgpop', [['Year Founded', '2012'], ['Ownership Status', 'Out of Business'], ['Status', 'Out of Business']]);
    const merged = card('Heroku', [['Year Founded', '2012'], ['Ownership Status', 'Acquired/Merged (Operating Subsidiary)'], ['Status', 'Acquired by a larger company']]);
    const privateOnly = card('Wave', [['Year Founded', '2012'], ['Status', 'Private']]);
    expect((await outcomes('companies that are still operating', held)).at(-1)).toBe('yes');
    expect((await outcomes('companies that are still operating', gone)).at(-1)).toBe('no');
    expect((await outcomes('companies that are still operating', merged)).at(-1)).toBe('no');
    expect((await outcomes('companies that are still operating', privateOnly)).at(-1)).toBe('unclear');
  });

  it('a knowledge base\'s "instance of" states the form: a subsidiary or a public company is no longer independent', async () => {
    const kb = (name: string, instance: string) => bareProfile('knowledgebase.example', name, [fact('instance of', instance), fact('inception', 'May 2012')]);
    expect((await outcomes('companies that are still operating', kb('NURX', 'subsidiary'))).at(-1)).toBe('no');
    expect((await outcomes('companies that were acquired', kb('NURX', 'subsidiary'))).at(-1)).toBe('yes');
    expect((await outcomes('companies that are still operating', kb('Go1', 'business'))).at(-1)).toBe('unclear');
  });
});

describe('for-profit read from the form a register or database prints', () => {
  const card = (host: string, name: string, facts: [string, string][]) => bareProfile(host, name, [fact('Industry', 'Healthcare'), ...facts.map(([l, v]) => fact(l, v))]);
  const forProfit = async (page: FetchedPage) => (await outcomes('for-profit healthcare companies', page))[1];

  it('a company with share capital, privately held, or a business is not a nonprofit', async () => {
    expect(await forProfit(card('companyregister.example', 'Pardes Biosciences', [['Company status', 'Active'], ['Company type', 'Private limited company']]))).toBe('yes');
    expect(await forProfit(card('companyregister.example', 'Ginkgo Bioworks', [['Company status', 'Active'], ['Company type', 'Public limited company']]))).toBe('yes');
    expect(await forProfit(card('dealbase.example', 'Clipboard', [['Ownership Status', 'Privately Held (backing)'], ['Status', 'Private']]))).toBe('yes');
    expect(await forProfit(card('knowledgebase.example', 'NURX', [['instance of', 'business']]))).toBe('yes');
  });

  it('a charity\'s form rules it out; a guarantee company, a category or "Status: Private" alone leaves it open', async () => {
    expect(await forProfit(card('companyregister.example', 'Watsi', [['Company status', 'Active'], ['Company type', 'Private company limited by guarantee (charity)']]))).toBe('no');
    expect(await forProfit(card('knowledgebase.example', 'Koko', [['instance of', 'nonprofit organization']]))).toBe('no');
    const quoted = card('news.example', 'Women Who Code', []);
    quoted.passages.push('“Women Who Code is a non profit that empowers diverse women to excel in tech,” said its chief executive.');
    quoted.text += `\n${quoted.passages.at(-1)!}`;
    expect(await forProfit(quoted)).toBe('no');
    expect(await forProfit(card('companyregister.example', 'Mercy', [['Company status', 'Active'], ['Company type', 'Private company limited by guarantee']]))).toBe('unclear');
    expect(await forProfit(card('companyregister.example', 'Mercy', [['Company status', 'Active'], ['Company type', 'Company limited by guarantee']]))).toBe('unclear');
    expect(await forProfit(card('directory.example', 'Koko', [['Category', 'Business services']]))).toBe('unclear');
    expect(await forProfit(card('dealbase.example', 'Koko', [['Status', 'Private']]))).toBe('unclear');
  });
});

describe('still operating, read from what a page says it does now', () => {
  const network = (name: string, facts: [string, string][], prose: string[] = []) => {
    const page = bareProfile('startupnetwork.example', name, [fact('Founded', '2012'), ...facts.map(([l, v]) => fact(l, v))]);
    page.passages.push(...prose);
    page.text += `\n${prose.join('\n')}`;
    return page;
  };
  const active = async (page: FetchedPage) => (await outcomes('companies that are still operating', page)).at(-1);

  it('a company that is hiring is still operating, unless its page states an exit', async () => {
    expect(await active(network('Zapier', [['Jobs', 'Hiring now']]))).toBe('yes');
    expect(await active(network('Notable Labs', [['Jobs', 'Actively hiring'], ['Status', 'Public']]))).toBe('no');
    expect(await active(network('Wave', [['Jobs', 'Not currently hiring']]))).toBe('unclear');
  });

  it('an exit said in a sentence about it ("It was acquired last year.") rules "still operating" out', async () => {
    expect(await active(network('Cruise', [['Jobs', 'Hiring now']], ['Cruise builds self-driving cars. It was acquired last year.']))).toBe('no');
    expect(await active(network('Omgpop', [], ['Omgpop made party games. It has since shut down.']))).toBe('no');
  });
});

describe('the sector a headline gives the entries it lists', () => {
  const zapier = 'Zapier (YC S12) describes itself simply: the easiest way to automate your work. It is hiring.';
  const sectorOf = async (title: string) => {
    const p = await plan('edtech startups');
    return (await outcomesByCandidate(p, articlePage(title, [`We kept hearing the same names: Zapier and Gusto.`, zapier], [series('Zapier', zapier), series('Gusto', 'Gusto runs payroll.')]))).Zapier?.[0];
  };

  it('is read from its nouns: "What we learned talking to B2B companies" is no e-learning headline, nor is "machine learning"', async () => {
    expect(await sectorOf('The shortlist: edtech companies backed by Y Combinator')).toBe('yes');
    expect(await sectorOf('What we learned talking to B2B: Y Combinator companies')).not.toBe('yes');
    expect(await sectorOf('The shortlist: machine learning Y Combinator companies')).not.toBe('yes');
  });
});

describe('hiring read from the roles an organisation has open', () => {
  it('a "Job posting" fact (schema.org JobPosting\'s title) says it is hiring; a vacancy of none says it is not', async () => {
    const careers = bareProfile('ledgerly.example', 'Ledgerly', [fact('Industry', 'Fintech'), fact('Job posting', 'Senior Backend Engineer')]);
    expect(await outcomes('fintech companies that are hiring', careers)).toEqual(['yes', 'yes']);
    expect(await outcomes('fintech companies that are not hiring', careers)).toEqual(['yes', 'no']);
    const none = bareProfile('ledgerly.example', 'Ledgerly', [fact('Industry', 'Fintech'), fact('Open positions', 'None at the moment')]);
    expect((await outcomes('fintech companies that are hiring', none))[1]).toBe('no');
  });
});
