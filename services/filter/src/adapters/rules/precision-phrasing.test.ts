import { describe, expect, it } from 'vitest';
import type { FetchedPage } from '@leadfinder/wire';
import { bareProfile, fact, outcomes, plan } from './fact-page-testing.js';

/**
 * Queries as people type them for leads and research, read so that they bring no wrong rows: negations,
 * exclusions, forms and stages, places written as codes and regions, dates written many ways (issue 14, fifth pass).
 */

/** A page dated as a news article about the subject is: its date is the article's, not the subject's. */
function dated(page: FetchedPage, day: string): FetchedPage {
  return { ...page, publishedAt: `${day}T00:00:00.000Z` };
}

describe('a birth is dated only by a date said of it', () => {
  it('"born after 1950": a page dated 2010 whose sentence says where, not when, someone was born does not date the birth', async () => {
    const page = dated(bareProfile('nobel.example', 'Akira Suzuki', [fact('Prize', 'Nobel Prize in Chemistry 2010')]), '2010-10-06');
    page.passages.push('Born in Mukawa, Japan, Akira Suzuki studied at Hokkaido University.');
    page.text += '\nBorn in Mukawa, Japan, Akira Suzuki studied at Hokkaido University.';
    const [, born] = await outcomes('laureates born after 1950', page);
    expect(born).not.toBe('yes');
    const stated = dated(bareProfile('nobel.example', 'Andre Geim', [fact('Born', '1 October 1958, Sochi, Russia')]), '2010-10-05');
    expect((await outcomes('laureates born after 1950', stated))[1]).toBe('yes');
    const older = dated(bareProfile('nobel.example', 'Richard Heck', [fact('Born', '15 August 1931, Springfield, Massachusetts')]), '2010-10-06');
    expect((await outcomes('laureates born after 1950', older))[1]).toBe('no');
  });
});

describe('forms and hiring said negated, or any of two', () => {
  it.each([
    ['fintech companies that are not hiring', ['Is a fintech company', 'Is not hiring']],
    ['healthcare companies that have not been acquired', ['Is a healthcare company', 'Was not acquired']],
    ["startups which haven't gone public", ['Is a startup', 'Is not publicly traded']],
    ['for-profit healthcare companies', ['Is a healthcare company', 'Is not a nonprofit']],
    ['not-for-profit orgs working on education', ['Works on education', 'Is a nonprofit']],
    ['B2B startups that exited', ['Is a B2B startup', 'Was acquired or is publicly traded']],
    ['companies that were acquired or went public', ['Is a company', 'Was acquired or is publicly traded']],
  ])('"%s" is read as %j', async (query, titles) => {
    expect((await plan(query)).filters.map((f) => f.title)).toEqual(titles);
  });

  it('a negated form or hiring is checked against what the page states, and unclear stays unclear', async () => {
    const card = (name: string, facts: [string, string][]) => bareProfile('companies.example', name, facts.map(([l, v]) => fact(l, v)));
    const forProfit = card('DrChrono', [['Industry', 'Healthcare'], ['Company type', 'For Profit']]);
    const nonprofit = card('Watsi', [['Industry', 'Healthcare'], ['Company type', 'Non-profit']]);
    const silent = card('Koko', [['Industry', 'Healthcare']]);
    expect(await outcomes('for-profit healthcare companies', forProfit)).toEqual(['yes', 'yes']);
    expect(await outcomes('for-profit healthcare companies', nonprofit)).toEqual(['yes', 'no']);
    expect((await outcomes('for-profit healthcare companies', silent))[1]).toBe('unclear');
    const closed = card('Brex', [['Industry', 'Fintech'], ['Careers', 'No openings right now']]);
    const open = card('Ramp', [['Industry', 'Fintech'], ['Careers', 'Actively recruiting']]);
    expect(await outcomes('fintech companies that are not hiring', closed)).toEqual(['yes', 'yes']);
    expect(await outcomes('fintech companies that are not hiring', open)).toEqual(['yes', 'no']);
    const acquired = card('Heroku', [['Industry', 'B2B'], ['Status', 'Acquired']]);
    const listed = card('Dropbox', [['Industry', 'B2B'], ['Status', 'Public']]);
    const active = card('Zapier', [['Industry', 'B2B'], ['Status', 'Active']]);
    expect((await outcomes('B2B startups that exited', acquired))[1]).toBe('yes');
    expect((await outcomes('B2B startups that exited', listed))[1]).toBe('yes');
    expect((await outcomes('B2B startups that exited', active))[1]).toBe('no');
    expect((await outcomes('B2B companies that have not been acquired', active))[1]).toBe('yes');
    expect((await outcomes('B2B companies that have not been acquired', acquired))[1]).toBe('no');
  });

  it('a form or hiring ruled out is not searched for', async () => {
    const p = await plan('fintech companies that are not hiring and have not been acquired');
    expect(p.queries.some((q) => /\b(?:hiring|jobs|open roles|acquired|acquisition)\b/i.test(q))).toBe(false);
  });
});

describe('places written as people type them', () => {
  it.each([
    ['publicly traded firms in CA', 'Based in California'],
    ['companies in NY', 'Based in New York'],
    ['startups based in MA, IL or GA', 'Based in Massachusetts, Illinois or Georgia'],
    ['CA startups with fewer than 50 people', 'Based in California'],
    ['startups in Paris, France', 'Based in Paris'],
  ])('"%s": %s', async (query, title) => {
    expect((await plan(query)).filters.map((f) => f.title)).toContain(title);
  });

  it('a state after a city says which city of that name ("Boston, MA" is not Boston, England)', async () => {
    const boston = (await plan('companies in Boston, MA')).filters.find((f) => f.title === 'Based in Boston')!;
    expect(boston.spec).toMatchObject({ place: { country: 'US', state: 'MA' } });
    const card = (name: string, where: string) => bareProfile('companies.example', name, [fact('Location', where)]);
    expect((await outcomes('companies in Boston, MA', card('Sendwave', 'Boston, MA, USA')))[1]).toBe('yes');
    expect((await outcomes('companies in Boston, MA', card('Fenland Foods', 'Boston, Lincolnshire, United Kingdom')))[1]).toBe('no');
    expect((await outcomes('companies in CA', card('Zapier', 'Sunnyvale, CA, USA')))[1]).toBe('yes');
    expect((await outcomes('companies in CA', card('Shopify', 'Ottawa, Ontario, Canada')))[1]).toBe('no');
  });

  it('two capitals that are no state code are no place ("AI", "ML")', async () => {
    expect((await plan('AI startups in SF')).filters.map((f) => f.title)).toEqual(['Is an AI startup', 'Based in San Francisco']);
    expect((await plan('ML companies')).filters.some((f) => f.title.startsWith('Based'))).toBe(false);
  });
});
