import { describe, expect, it } from 'vitest';
import type { FetchedPage, PageEntity } from '@leadfinder/wire';
import { bareProfile, fact, NOW, outcomes, plan, profilePage, reasoner, signal } from './fact-page-testing.js';
import { relaxFilter } from './relax.js';

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

  it('a listing\'s lead said of each name it lists ("companies hiring now: A, B and C") says each is hiring', async () => {
    const site = { urlPrefix: 'https://founderletter.example/', siteName: 'Founder Letter', titleSuffix: 'Founder Letter' };
    const listed = (line: string) => profilePage(site, 'Ginkgo Bioworks', [fact('Industry', 'Healthcare')], [line]);
    expect(await outcomes('healthcare companies that are hiring', listed('Among the Y Combinator companies hiring now: Ginkgo Bioworks, Clipboard and Koko.'))).toEqual(['yes', 'yes']);
    expect((await outcomes('healthcare companies that are hiring', listed('Startups that are not hiring this year: Ginkgo Bioworks and Koko.')))[1]).toBe('no');
    expect((await outcomes('healthcare companies that are hiring', listed('We met Ginkgo Bioworks, Clipboard and Koko at the fair.')))[1]).toBe('unclear');
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

  it('a city named alone is the one most people mean (GeoNames population): Boston, Massachusetts; Toronto, Ontario', async () => {
    const card = (name: string, where: string) => bareProfile('companies.example', name, [fact('headquarters location', where)]);
    expect((await outcomes('companies based in Europe', card('Sendwave', 'Boston')))[1]).toBe('no');
    expect((await outcomes('startups in Massachusetts', card('Sendwave', 'Boston')))[1]).toBe('yes');
    expect((await outcomes('startups in Canada', card('Ada', 'Toronto')))[1]).toBe('yes');
    expect((await outcomes('startups in Australia', card('Ada', 'Toronto')))[1]).toBe('no');
    expect((await outcomes('companies in the Bay Area', card('Zapier', 'San Jose')))[1]).toBe('yes');
    // A town the value places itself stays that town.
    expect((await outcomes('companies in Massachusetts', card('Fenland Foods', 'Boston, Lincolnshire, United Kingdom')))[1]).toBe('no');
  });

  it('a city named alone is read in the country the same page gives ("Durango" beside "country: United States of America")', async () => {
    const kb = (country: string | null) => bareProfile('knowledgebase.example', 'GitPrime', [
      fact('instance of', 'business'), fact('headquarters location', 'Durango'), ...(country ? [fact('country', country)] : []),
    ]);
    expect((await outcomes('startups based outside the US', kb('United States of America')))[1]).toBe('no');
    expect((await outcomes('startups in Colorado', kb('United States of America')))[1]).toBe('yes');
    expect((await outcomes('startups in Mexico', kb('United States of America')))[1]).toBe('no');
    // Alone, Durango is the larger city, in Mexico.
    expect((await outcomes('startups in Mexico', kb(null)))[1]).toBe('yes');
  });

  it('a bare name whose namesakes are of like size ("Columbia": South Carolina, Missouri, Maryland) places it only where all lie', async () => {
    const kb = (where: string) => bareProfile('knowledgebase.example', 'EquipmentShare', [fact('instance of', 'business'), fact('headquarters location', where), fact('country', 'United States of America')]);
    expect((await outcomes('East Coast companies', kb('Columbia')))[1]).toBe('unclear');
    expect((await outcomes('companies in Missouri', kb('Columbia')))[1]).toBe('unclear');
    expect((await outcomes('companies in the United States', kb('Columbia')))[1]).toBe('yes');
    expect((await outcomes('companies in Texas', kb('Columbia')))[1]).toBe('no');
    // Said in a sentence, the same.
    const site = { urlPrefix: 'https://founderletter.example/', siteName: 'Founder Letter', titleSuffix: 'Founder Letter' };
    const said = profilePage(site, 'EquipmentShare', [fact('Industry', 'Construction')], ['The company, headquartered in Columbia, describes itself simply: Cloud solutions for the construction industry.']);
    expect((await outcomes('East Coast companies', said))[1]).toBe('unclear');
    // Placed by its state, it is that city.
    expect((await outcomes('companies in Missouri', kb('Columbia, MO')))[1]).toBe('yes');
    expect((await outcomes('East Coast companies', kb('Columbia, MO')))[1]).toBe('no');
  });

  it('two capitals that are no state code are no place ("AI", "ML")', async () => {
    expect((await plan('AI startups in SF')).filters.map((f) => f.title)).toEqual(['Is an AI startup', 'Based in San Francisco']);
    expect((await plan('ML companies')).filters.some((f) => f.title.startsWith('Based'))).toBe(false);
  });
});

describe('dates written as people write them', () => {
  it.each([
    ['post-2018 startups', 'Founded post-2018', { from: '2019-01-01', to: null }],
    ['companies founded post 2015', 'Founded (post 2015)', { from: '2016-01-01', to: null }],
    ['startups from 2021', 'Founded in 2021', { from: '2021-01-01', to: '2021-12-31' }],
    ['papers from the 50s and 60s', 'Dated from the 50s and 60s', { from: '1950-01-01', to: '1969-12-31' }],
    ['chemistry papers pre-1960', 'Dated pre-1960', { to: '1959-12-31' }],
  ])('"%s": %s', async (query, title, range) => {
    const f = (await plan(query)).filters.find((x) => x.title === title);
    expect(f, JSON.stringify((await plan(query)).filters.map((x) => x.title))).toBeDefined();
    expect((f!.spec as { dateRange: object }).dateRange).toMatchObject(range);
  });

  it('a time said of a company alone is its founding, not any date on its pages', async () => {
    const page = bareProfile('companies.example', 'Odeko', [fact('Founded', '2017'), fact('Latest funding', 'Series B, 2021')]);
    expect((await outcomes('post-2018 startups', page))[1]).toBe('no');
    const young = bareProfile('companies.example', 'Whatnot', [fact('Founded', '2019')]);
    expect((await outcomes('post-2018 startups', young))[1]).toBe('yes');
  });
});

describe('kind words and regions people use', () => {
  it('"outfits" names the kind, no topic to find', async () => {
    const p = await plan('e-commerce outfits');
    expect(p.entityType).toBe('company');
    expect(JSON.stringify(p.filters[0]!.spec)).not.toContain('outfit');
  });

  it('the Nordics, Scandinavia, DACH and Benelux are their countries', async () => {
    expect((await plan('laureates working in the Nordics')).filters.map((f) => f.title)).toEqual(['Is a laureate', 'Based in the Nordics']);
    expect((await plan('scientists at institutions in the DACH region')).filters.map((f) => f.title)).toEqual(['Is a scientist', 'Based in DACH']);
    const at = (name: string, where: string) => bareProfile('nobel.example', name, [fact('Institution', where)]);
    expect((await outcomes('laureates working in the Nordics', at('May-Britt Moser', 'Norwegian University of Science and Technology, Trondheim, Norway')))[1]).toBe('yes');
    expect((await outcomes('laureates working in the Nordics', at('Tomas Lindahl', 'Francis Crick Institute, London, United Kingdom')))[1]).toBe('no');
    expect((await outcomes('scientists at institutions in the DACH region', at('Stefan Hell', 'Max Planck Institute, Göttingen, Germany')))[1]).toBe('yes');
    expect((await outcomes('fintech startups in Benelux', bareProfile('companies.example', 'Adyen', [fact('Industry', 'Fintech'), fact('Location', 'Amsterdam, Netherlands')])))[1]).toBe('yes');
  });
});

describe('papers by a family of title words', () => {
  const article = (title: string) => bareProfile('journals.example', title, [fact('Authors', 'R. H. Grubbs, W. Tumas'), fact('Journal', 'Science'), fact('Published', '1989')]);

  it('"polymers" finds the polymerization a title names; "gauge theories" the gauge fields and bosons', async () => {
    expect((await outcomes('papers on polymers', article('Living ring opening metathesis polymerization catalyzed by alkylidene complexes')))[0]).toBe('yes');
    expect((await outcomes('papers on polymers', article('Primer directed enzymatic amplification of DNA')))[0]).not.toBe('yes');
    expect((await outcomes('papers on gauge theories', article('Broken symmetries and the masses of gauge bosons')))[0]).toBe('yes');
    expect((await outcomes('papers on gauge theories', article('Quantum tunnelling in a dissipative system')))[0]).not.toBe('yes');
  });
});

describe('a sector word used in a sentence is not the sector a listing states', () => {
  it('"consumer companies": a table row "Fintech" and an about page that says "merchants and consumers" is unclear, not a pass', async () => {
    const p = await plan('consumer companies in Los Angeles');
    const rowFacts = [fact('Industry', 'Fintech (Banking and Exchange)'), fact('Location', 'Los Angeles, CA, USA')];
    const row: PageEntity = { name: 'Coinbase', kind: null, link: 'https://coinbase.example/', passage: 'Coinbase Los Angeles, CA, USA Fintech (Banking and Exchange)', facts: rowFacts, source: 'table' };
    const listingUrl = 'https://startupindex.example/lists/los-angeles';
    const listing: FetchedPage = {
      url: listingUrl, finalUrl: listingUrl, status: 200, contentType: 'text/html', title: 'Companies in Los Angeles', text: `Companies in Los Angeles\n${row.passage}\n${rowFacts.map((f) => f.passage).join('\n')}`,
      publishedAt: null, passages: ['Companies in Los Angeles', row.passage], fetchedAt: NOW, model: { subject: null, items: [row], siteName: 'Startup Index' },
    };
    const prose = 'Coinbase is a digital currency wallet and platform where merchants and consumers can transact with new digital currencies.';
    const about: FetchedPage = {
      url: 'https://coinbase.example/', finalUrl: 'https://coinbase.example/', status: 200, contentType: 'text/html', title: 'Coinbase', text: `Coinbase\n${prose}`,
      publishedAt: null, passages: ['Coinbase', prose], fetchedAt: NOW, model: { subject: { name: 'Coinbase', kind: null, link: null, passage: 'Coinbase', facts: [], source: 'heading' }, items: [], siteName: null },
    };
    const { candidates } = await reasoner.extract({ plan: p, page: listing, round: 1 }, { signal });
    const found = candidates.find((c) => c.name === 'Coinbase')!;
    // Its own page followed from the listing's link.
    const candidate = { ...found, sourceUrls: [...found.sourceUrls, about.url] };
    const verdict = (await reasoner.verify({ plan: p, filter: p.filters[0]!, candidate, pages: [listing, about] }, { signal })).verdict;
    expect(verdict.outcome, verdict.rationale).toBe('unclear');
    // A row that states the sector asked for still passes.
    const consumerRow = { ...row, name: 'Honeylove', link: 'https://honeylove.example/', passage: 'Honeylove Los Angeles, CA, USA Consumer (Apparel and Cosmetics)', facts: [fact('Industry', 'Consumer (Apparel and Cosmetics)'), rowFacts[1]!] };
    const listing2: FetchedPage = { ...listing, text: `Companies in Los Angeles\n${consumerRow.passage}\n${consumerRow.facts.map((f) => f.passage).join('\n')}`, passages: ['Companies in Los Angeles', consumerRow.passage], model: { subject: null, items: [consumerRow], siteName: 'Startup Index' } };
    const c2 = (await reasoner.extract({ plan: p, page: listing2, round: 1 }, { signal })).candidates.find((c) => c.name === 'Honeylove')!;
    expect((await reasoner.verify({ plan: p, filter: p.filters[0]!, candidate: c2, pages: [listing2] }, { signal })).verdict.outcome).toBe('yes');
  });
});

describe('a person\'s profile is no company', () => {
  it('a registry record whose facts are a person\'s (Employment) fails "It is a company"; a company\'s profile passes', async () => {
    const researcher = bareProfile('researcherid.example', 'Luc Montagnier', [
      fact('Employment', 'World Foundation for AIDS Research and Prevention: Paris, France'), fact('Keywords', 'Physiology, Medicine'), fact('Country', 'France'),
    ]);
    expect(await outcomes('companies based in Europe', researcher)).toEqual(['no', 'yes']);
    // A company's profile may name people; its own facts say what it is.
    const company = bareProfile('companies.example', 'Quist Labs', [fact('Founded', '2015'), fact('Employer of record', 'Deel'), fact('Country', 'France')]);
    expect((await outcomes('companies based in Europe', company))[0]).toBe('yes');
    // Researchers asked for: a person's record is what is wanted.
    expect((await outcomes('researchers working in France', researcher))[0]).toBe('yes');
  });
});

describe('what a page leaves open is unclear, not ruled out', () => {
  it('a wider place than the one asked for ("SF Bay Area", "California" for San Francisco) rules nothing out; a place beside it does', async () => {
    const card = (where: string) => bareProfile('startups.example', 'OpenInvest', [fact('Locations', where)]);
    expect((await outcomes('startups in San Francisco', card('SF Bay Area')))[1]).toBe('unclear');
    expect((await outcomes('startups in San Francisco', card('SF Bay Area · Palo Alto, CA')))[1]).toBe('unclear');
    expect((await outcomes('startups in San Francisco', card('California')))[1]).toBe('unclear');
    expect((await outcomes('startups in San Francisco', card('Palo Alto, CA')))[1]).toBe('no');
    // A state's name alone is the state, not a town of that name (California, Maryland).
    expect((await outcomes('startups in California', card('California')))[1]).toBe('yes');
    expect((await outcomes('startups in Maryland', card('California')))[1]).toBe('no');
  });

  it('a person\'s profile silent on the birth leaves "born before 1940" open, as a company\'s silent on its founding does', async () => {
    const record = bareProfile('researcherid.example', 'Elinor Ostrom', [fact('Employment', 'Indiana University: Bloomington, IN, United States'), fact('Distinctions', 'Nobel Memorial Prize in Economic Sciences (2009)')]);
    expect((await outcomes('laureates born before 1940', record))[1]).toBe('unclear');
    const dated = bareProfile('people.example', 'Elinor Ostrom', [fact('Born', '1933-08-07'), fact('Award', 'Nobel Memorial Prize in Economic Sciences (2009)')]);
    expect((await outcomes('laureates born before 1940', dated))[1]).toBe('yes');
    expect((await outcomes('laureates born after 1940', dated))[1]).toBe('no');
  });

  it('a registry\'s "Distinctions: Nobel Prize in Physics (2014)" dates the prize', async () => {
    const record = bareProfile('researcherid.example', 'Isamu Akasaki', [fact('Keywords', 'Physics'), fact('Distinctions', 'Nobel Prize in Physics (2014)')]);
    expect((await outcomes('physics laureates awarded after 2012', record))[1]).toBe('yes');
    expect((await outcomes('physics laureates awarded before 2010', record))[1]).toBe('no');
  });
});

describe('relaxing a place stops at its country', () => {
  it('"who worked in the UK", "in the Nordics": no loosening to a continent; a city widens to its metropolitan area', async () => {
    for (const query of ['Nobel laureates in chemistry who worked in the UK', 'laureates working in the Nordics']) {
      const place = (await plan(query)).filters.find((f) => f.title.startsWith('Based in'))!;
      expect(relaxFilter(place, new Date(NOW)), query).toBeNull();
    }
    const city = (await plan('fintech startups in Berlin')).filters.find((f) => f.title.startsWith('Based in'))!;
    expect(relaxFilter(city, new Date(NOW))?.title).toBe('Based in Greater Berlin');
    const la = (await plan('consumer companies in Los Angeles')).filters.find((f) => f.title.startsWith('Based in'))!;
    expect(relaxFilter(la, new Date(NOW))?.title).toBe('Based in Greater Los Angeles');
    const sf = (await plan('fintech startups in San Francisco')).filters.find((f) => f.title.startsWith('Based in'))!;
    expect(relaxFilter(sf, new Date(NOW))?.title).toBe('Based in the Bay Area');
  });
});

describe('a reference list names works, not their authors', () => {
  it('an item whose line opens with its author and initials is no paper; the linked title is', async () => {
    const lines = [
      'Grubbs, R. (1992). ring opening metathesis polymerization romp of norbornene by a group viii carbene complex in protic media. Journal of Chemistry.',
      'Schrock, R. “Living Ring Opening Metathesis Polymerization Catalyzed by Well Characterized Transition Metal Alkylidene Complexes.” Journal of Chemistry, 1990.',
      'Glauber RJ. Coherent and Incoherent States of the Radiation Field. Journal of Physics. 1963.',
    ];
    const items: PageEntity[] = [
      { name: 'Grubbs', kind: null, link: null, passage: lines[0]!, facts: [], source: 'list' },
      { name: 'Living Ring Opening Metathesis Polymerization Catalyzed by Well Characterized Transition Metal Alkylidene Complexes', kind: null, link: 'https://journals.example/article/living', passage: lines[1]!, facts: [], source: 'list' },
      { name: 'Glauber', kind: null, link: null, passage: lines[2]!, facts: [], source: 'list' },
    ];
    const url = 'https://readinglists.example/lists/prize-2005';
    const page: FetchedPage = {
      url, finalUrl: url, status: 200, contentType: 'text/html', title: 'Reading list: papers behind the 2005 Nobel prizes', text: ['Reading list', ...lines].join('\n'),
      publishedAt: null, passages: ['Reading list', ...lines], fetchedAt: NOW, model: { subject: null, items, siteName: 'Reading Lists' },
    };
    const names = (await reasoner.extract({ plan: await plan('papers on polymers'), page, round: 1 }, { signal })).candidates.map((c) => c.name);
    expect(names).not.toContain('Grubbs');
    expect(names).not.toContain('Glauber');
    expect(names).toContain(items[1]!.name);
  });
});

describe('a capitalised word after "in" that no gazetteer knows', () => {
  it.each([
    ['startups in AI', 'Is a startup in AI'],
    ['companies in Fintech', 'Is a company in Fintech'],
    ['papers in Physical Review Letters', 'Is a paper in Physical Review Letters'],
  ])('"%s" is no place: %s', async (query, title) => {
    const titles = (await plan(query)).filters.map((f) => f.title);
    expect(titles[0]).toBe(title);
    expect(titles.some((t) => t.startsWith('Based in'))).toBe(false);
  });

  it('a town the gazetteer does not know is still a place for a company', async () => {
    expect((await plan('startups in Smallville')).filters.map((f) => f.title)).toContain('Based in Smallville');
  });
});

describe('"for-profit" from a status only a company with owners has', () => {
  it('a listed or acquired company is no nonprofit (inferred); an active one says nothing either way', async () => {
    const card = (name: string, status: string) => bareProfile('companies.example', name, [fact('Industry', 'Healthcare'), fact('Status', status)]);
    const verdictOf = async (page: FetchedPage) => {
      const p = await plan('for-profit healthcare companies');
      const { candidates } = await reasoner.extract({ plan: p, page, round: 1 }, { signal });
      return (await reasoner.verify({ plan: p, filter: p.filters[1]!, candidate: candidates[0]!, pages: [page] }, { signal })).verdict;
    };
    const acquired = await verdictOf(card('NURX', 'Acquired'));
    expect([acquired.outcome, acquired.verification]).toEqual(['yes', 'inferred']);
    expect((await verdictOf(card('Benchling', 'Public'))).outcome).toBe('yes');
    expect((await verdictOf(card('Koko', 'Active'))).outcome).toBe('unclear');
  });
});

describe('outside a place', () => {
  it('a region that holds the excluded place is no evidence of being outside it', async () => {
    const about = bareProfile('sendwave.example', 'Sendwave', [fact('Industry', 'Fintech')]);
    const line = 'Our app sends transfers securely from North America and Europe to Africa, Asia, and the Americas at great rates.';
    about.passages.push(line);
    about.text += `\n${line}`;
    expect((await outcomes('startups based outside the US', about))[1]).not.toBe('yes');
    const lagos = bareProfile('paystack.example', 'Paystack', [fact('Location', 'Lagos, Nigeria')]);
    expect((await outcomes('startups based outside the US', lagos))[1]).toBe('yes');
    const region = bareProfile('acme.example', 'Acme', [fact('Region', 'North America')]);
    expect((await outcomes('startups based outside the US', region))[1]).not.toBe('yes');
  });
});
