import { describe, expect, it } from 'vitest';
import type { FetchedPage, PageFact } from '@leadfinder/wire';
import { NOW, fact, outcomes, plan, profilePage, reasoner, signal } from './fact-page-testing.js';
import { relaxFilter } from './relax.js';

/**
 * Facts as business and scholarly databases print them (a funding status "M&A", an operating status
 * "Active" beside it, "Company type: For Profit", "Careers: Actively recruiting", a headcount bucket), where
 * a person was born as its own constraint, and places said before the noun; checked through the rule
 * reasoner's own plan, extract and verify.
 */

const profile = (name: string, facts: PageFact[], prose: string[] = []): FetchedPage => profilePage({ urlPrefix: 'https://database.example/organization/', siteName: 'Database', titleSuffix: 'Profile | Database' }, name, facts, prose);

describe('organisation forms as business databases print them', () => {
  it('"Funding status: M&A" is an acquired company, though its operating status says Active', async () => {
    const page = profile('PlanGrid', [fact('Industries', 'Construction'), fact('Operating status', 'Active'), fact('Funding status', 'M&A')]);
    expect(await outcomes('acquired construction companies', page)).toEqual(['yes', 'yes']);
  });

  it('an operating status of Active neither shows nor rules out a listed company; "Closed" is one that shut down', async () => {
    const active = profile('Quietly', [fact('Industries', 'Software'), fact('Operating status', 'Active')]);
    expect(await outcomes('software companies that are publicly traded', active)).toEqual(['yes', 'unclear']);
    const closed = profile('Homejoy', [fact('Industries', 'Home services'), fact('Operating status', 'Closed')]);
    expect(await outcomes('companies that are no longer operating', closed)).toEqual(['yes', 'yes']);
  });

  it('"still operating" takes "Operating status: Active" alone, not beside "Funding status: M&A" or "IPO"', async () => {
    const independent = profile('Go1', [fact('Industries', 'Education'), fact('Operating status', 'Active'), fact('Funding status', 'Late Stage Venture')]);
    const acquired = profile('Clever', [fact('Industries', 'Education'), fact('Operating status', 'Active'), fact('Funding status', 'M&A')]);
    const listed = profile('Coursera', [fact('Industries', 'Education'), fact('Operating status', 'Active'), fact('Funding status', 'IPO')]);
    expect(await outcomes('edtech startups that are still operating', independent)).toEqual(['yes', 'yes']);
    expect(await outcomes('edtech startups that are still operating', acquired)).toEqual(['yes', 'no']);
    expect(await outcomes('edtech startups that are still operating', listed)).toEqual(['yes', 'no']);
  });

  it('"Company type: For Profit" rules a nonprofit out; "Non-profit" shows one', async () => {
    const forProfit = profile('Stripe', [fact('Company type', 'For Profit')]);
    const nonprofit = profile('Khan Academy', [fact('Company type', 'Non-profit')]);
    expect(await outcomes('nonprofit organizations', forProfit)).toEqual(['yes', 'no']);
    expect(await outcomes('nonprofit organizations', nonprofit)).toEqual(['yes', 'yes']);
  });
});

describe('hiring and headcount as profiles print them', () => {
  it('"Careers: Actively recruiting" is hiring, "No openings right now" is not', async () => {
    const yes = profile('Gusto', [fact('Careers', 'Actively recruiting')]);
    const no = profile('Zenefits', [fact('Careers', 'No openings right now')]);
    expect(await outcomes('companies that are hiring', yes)).toEqual(['yes', 'yes']);
    expect(await outcomes('companies that are hiring', no)).toEqual(['yes', 'no']);
  });

  it('a headcount bucket decides when it lies on one side of the bound, and is unclear when it straddles it', async () => {
    const page = (size: string) => profile('Acme', [fact('Company size', size)]);
    expect(await outcomes('companies with more than 500 employees', page('501-1,000 employees'))).toEqual(['yes', 'yes']);
    expect(await outcomes('companies with more than 500 employees', page('51-200 employees'))).toEqual(['yes', 'no']);
    expect(await outcomes('companies with more than 2,000 employees', page('1,001-5,000 employees'))).toEqual(['yes', 'unclear']);
  });

  it('"the team counts 355 people" in a sentence about it gives its headcount', async () => {
    const page = profile('PlanGrid', [], ['PlanGrid builds software for builders. The team counts 355 people.']);
    expect(await outcomes('companies with fewer than 100 employees', page)).toEqual(['yes', 'no']);
  });
});

describe('where someone was born', () => {
  it('"born in Japan" is a birth place of its own, not where the person works, and is searched as people write it', async () => {
    const p = await plan('Nobel laureates born in Japan');
    expect(p.entityType).toBe('researcher');
    expect(p.filters.map((f) => f.title)).toEqual(['Is a Nobel laureate', 'Born in Japan']);
    expect(p.queries.some((q) => q.includes('born in Japan'))).toBe(true);
  });

  it('a birth fact decides (its date left out), whatever the affiliation says', async () => {
    const page = (born: string, affiliation: string) => profile('Shuji Nakamura', [fact('Honours', 'Nobel Prize in Physics (2014)'), fact('Date of birth', 'May 22, 1954'), fact('Place of birth', born), fact('Current affiliation', affiliation)]);
    expect(await outcomes('Nobel laureates born in Japan', page('Ikata, Ehime, Japan', 'University of California, Santa Barbara, United States'))).toEqual(['yes', 'yes']);
    expect(await outcomes('Nobel laureates born in Japan', page('Boston, United States', 'University of Tokyo, Tokyo, Japan'))).toEqual(['yes', 'no']);
    const infobox = profile('Andre Geim', [fact('Awards', 'Nobel Prize in Physics (2010)'), fact('Born', '1 October 1958, Sochi, Russia'), fact('Institutions', 'University of Manchester, Manchester, United Kingdom')]);
    expect(await outcomes('Nobel laureates born in Russia', infobox)).toEqual(['yes', 'yes']);
  });

  it('a historical name with today\'s in brackets is read both ways; a sentence "was born in" counts, a place after it does not', async () => {
    const bracketed = profile('Dan Shechtman', [fact('Born', '1941-01-24 in Tel Aviv, British Mandate of Palestine (Israel)')]);
    expect((await outcomes('chemists born in Israel', bracketed))[1]).toBe('yes');
    const sentence = profile('Ei-ichi Negishi', [], ['Ei-ichi Negishi is a chemist. He was born in Changchun, China, and later worked at Purdue University in the United States.']);
    expect((await outcomes('chemists born in China', sentence))[1]).toBe('yes');
    expect((await outcomes('chemists born in the United States', sentence))[1]).toBe('no');
  });

  it('is loosened to a wider place of birth, never to where someone works', async () => {
    const p = await plan('chemists born in Kyoto');
    const born = p.filters.find((f) => f.title.startsWith('Born in'))!;
    const relaxed = relaxFilter(born, new Date(NOW));
    expect(relaxed?.title).toMatch(/^Born in /);
    expect(relaxed?.title).not.toBe(born.title);
  });
});

describe('a place said before the noun', () => {
  it('"California companies", "Berlin startups": a state or a city before the kind noun is the place filter', async () => {
    expect((await plan('California companies that were acquired')).filters.map((f) => f.title)).toEqual(['Is a company', 'Based in California', 'Was acquired']);
    expect((await plan('Berlin startups')).filters.map((f) => f.title)).toEqual(['Is a startup', 'Based in Berlin']);
  });

  it('"a company (Boston, Massachusetts, United States)": a place in brackets after the name places it', async () => {
    const page = profile('Sendwave', [fact('Industries', 'Fintech')], ['Sendwave (Boston, Massachusetts, United States) pitches itself simply: instant remittances.']);
    expect((await outcomes('companies in Massachusetts', page))[1]).toBe('yes');
    expect((await outcomes('companies in Texas', page))[1]).not.toBe('yes');
  });
});

describe('sectors as classifications nest them', () => {
  it('a sub-sector among its own facts places a company in the sector, and the verdict says it was inferred', async () => {
    const p = await plan('healthcare startups');
    const page = profile('Notable Labs', [fact('Industry', 'Therapeutics'), fact('Tags', 'Biotech, Oncology')]);
    const { candidates } = await reasoner.extract({ plan: p, page, round: 1 }, { signal });
    const { verdict } = await reasoner.verify({ plan: p, filter: p.filters[0]!, candidate: candidates[0]!, pages: [page] }, { signal });
    expect(verdict).toMatchObject({ outcome: 'yes', verification: 'inferred' });
    expect(await outcomes('consumer companies', profile('Airbnb', [fact('Industry', 'Travel, Leisure and Tourism')]))).toEqual(['yes']);
  });

  it('a phrase naming another sector with the same word is not the sector ("Consumer Finance" is fintech, not consumer)', async () => {
    expect(await outcomes('consumer companies', profile('FutureAdvisor', [fact('Industries', 'Fintech, Consumer Finance')]))).toEqual(['no']);
    expect(await outcomes('consumer companies', profile('Modern Fertility', [fact('Industries', 'Healthcare, Consumer Health and Wellness')]))).toEqual(['no']);
    expect(await outcomes('consumer companies', profile('Proxy', [fact('Industries', 'Consumer, Consumer Electronics')]))).toEqual(['yes']);
    expect(await outcomes('fintech companies', profile('FutureAdvisor', [fact('Industries', 'Fintech, Consumer Finance')]))).toEqual(['yes']);
  });
});

describe('phrasings people type for size, sector and cohort', () => {
  it('reads "50-200 employees" as a headcount range and drops vague size words ("small") from the topic', async () => {
    expect((await plan('companies with 50-200 employees in Seattle')).filters.map((f) => f.title)).toEqual(['Is a company', 'Based in Seattle', 'Has 50 to 200 employees']);
    const small = await plan('small AI startups with under 50 employees');
    expect(JSON.stringify(small.filters[0]!.spec)).not.toContain('small');
  });

  it('keeps "e-commerce" one sector term with its synonyms', async () => {
    const p = await plan('e-commerce startups');
    expect(await outcomes('e-commerce startups', profile('Faire', [fact('Industry', 'Retail'), fact('Tags', 'Marketplace, E-commerce')]))).toEqual(['yes']);
    expect(JSON.stringify(p.filters[0]!.spec)).toContain('ecommerce');
  });

  it('a year of batches without a season ("went through Y Combinator in 2016") passes either season of that year, in words or code', async () => {
    const q = 'startups that went through Y Combinator in 2016';
    expect((await plan(q)).filters.map((f) => f.title)).toEqual(['Is a startup', 'Was in a 2016 Y Combinator batch']);
    expect(await outcomes(q, profile('Scale AI', [fact('Batch', 'S16')]))).toEqual(['yes', 'yes']);
    expect(await outcomes(q, profile('Gusto', [fact('Batch', 'Winter 2012')]))).toEqual(['yes', 'no']);
    expect((await plan(q)).queries.join(' | ')).toMatch(/W16|S16|Winter 2016|Summer 2016|2016/);
  });
});

describe('launch dates', () => {
  it('a company\'s own "Founded" year stands for its launch (inferred); a tag naming a launch is no launch, nor is the page\'s date', async () => {
    const q = 'companies launched after 2020';
    const founded = profile('Vote.org', [fact('Founded', '2021')]);
    expect(await outcomes(q, founded)).toEqual(['yes', 'yes']);
    const old = profile('Flock', [fact('Founded', '2017')]);
    expect(await outcomes(q, old)).toEqual(['yes', 'no']);
    const tagged = { ...profile('Momentus', [fact('Tags', 'Commercial Space Launch, Space Exploration')]), publishedAt: '2022-05-08T09:00:00.000Z' };
    expect((await outcomes(q, tagged))[1]).not.toBe('yes');
  });
});

describe('forms said in plain words', () => {
  it('"its shares trade on a public stock exchange" is listed; "was later bought by a larger company" is acquired', async () => {
    const listed = profile('PagerDuty', [fact('Industries', 'Software')], ['PagerDuty builds incident response software. Its shares trade on a public stock exchange.']);
    expect(await outcomes('software companies that are publicly traded', listed)).toEqual(['yes', 'yes']);
    const bought = profile('PlanGrid', [fact('Industries', 'Construction')], ['PlanGrid makes construction software. It was later bought by a larger company.']);
    expect(await outcomes('acquired construction companies', bought)).toEqual(['yes', 'yes']);
  });
});

describe('an entity\'s own domain', () => {
  it('is a site of its own, never a shared host holding a page about it (each person on it stays a row of their own)', async () => {
    const p = await plan('economists at Princeton University');
    const page = (name: string, website: string) => profile(name, [fact('Website', website), fact('Works for', 'Princeton University, Princeton, NJ, United States'), fact('Research areas', 'Economics')]);
    const [deaton] = (await reasoner.extract({ plan: p, page: page('Angus Deaton', 'https://researcherpages.example/angus-deaton/'), round: 1 }, { signal })).candidates;
    const [sims] = (await reasoner.extract({ plan: p, page: page('Christopher A. Sims', 'https://researcherpages.example/christopher-a-sims/'), round: 1 }, { signal })).candidates;
    expect(deaton?.domain ?? null).toBeNull();
    expect(sims?.domain ?? null).toBeNull();
    const c = await plan('fintech companies');
    const [stripe] = (await reasoner.extract({ plan: c, page: profile('Stripe', [fact('Industry', 'Fintech'), fact('Website', 'https://stripe.com/')]), round: 1 }, { signal })).candidates;
    expect(stripe?.domain).toBe('stripe.com');
  });
});

describe('facts under the labels sites use, values by type', () => {
  it.each(['Location', 'HQ', 'Headquarters', 'Based in', 'City', 'Head office', 'Office location', 'Address', 'Country'])('a place under "%s"', async (label) => {
    expect((await outcomes('companies in California', profile('Acme', [fact(label, 'Oakland, CA, USA')])))[1]).toBe('yes');
    expect((await outcomes('companies in California', profile('Acme', [fact(label, 'Austin, TX, USA')])))[1]).toBe('no');
  });

  it.each(['Employees', 'Number of employees', 'Company size', 'Headcount', 'Team size', 'Staff', 'Workforce'])('a headcount under "%s"', async (label) => {
    expect((await outcomes('companies with more than 500 employees', profile('Acme', [fact(label, '1,200')])))[1]).toBe('yes');
    expect((await outcomes('companies with more than 500 employees', profile('Acme', [fact(label, '40')])))[1]).toBe('no');
  });

  it.each([['Status', 'Acquired'], ['Company status', 'Acquired'], ['Ownership', 'Subsidiary'], ['Exit', 'Acquired'], ['Funding status', 'M&A'], ['Type', 'Subsidiary (acquired)']])('an acquisition under "%s: %s"', async (label, value) => {
    expect((await outcomes('acquired companies', profile('Acme', [fact(label, value)])))[1]).toBe('yes');
  });

  it.each([['Hiring', 'Yes'], ['Open positions', 'Yes, hiring now'], ['Careers', 'We are hiring'], ['Jobs', '12 open roles'], ['Open roles', 'true']])('hiring under "%s: %s"', async (label, value) => {
    expect((await outcomes('companies that are hiring', profile('Acme', [fact(label, value)])))[1]).toBe('yes');
  });
});

describe('"outside" a place, said in a sentence', () => {
  it('a page with no location fact that says where it is decides: outside when every place lies elsewhere, not when one lies inside', async () => {
    const q = 'nonprofits outside the United States';
    const lagos = profile('Kudi Health', [fact('Type', 'Nonprofit')], ['Kudi Health is headquartered in Lagos, Nigeria.']);
    expect(await outcomes(q, lagos)).toEqual(['yes', 'yes', 'yes']);
    const sf = profile('Upsolve', [fact('Type', 'Nonprofit')], ['Upsolve is based in San Francisco, California.']);
    expect((await outcomes(q, sf))[1]).toBe('no');
  });
});
