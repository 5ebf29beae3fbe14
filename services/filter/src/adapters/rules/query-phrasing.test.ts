import { describe, expect, it } from 'vitest';
import type { FetchedPage, PageFact } from '@leadfinder/wire';
import { bareProfile, outcomes, plan, planOutcomes, profilePage, reasoner, signal } from './fact-page-testing.js';

/**
 * Ways people phrase a query that the planner must read as they mean it: "or" as any-of, and places said
 * before the noun ("American physicists", "U.S.-based", "US institutions", "European"). Each is checked
 * end to end: the plan's filters, then the verdicts on profile pages written here.
 */

const fact = (label: string, value: string): PageFact => ({ label, value, passage: `${label}: ${value}` });

/** The plan's filter titles, in order. */
const titles = async (query: string): Promise<string[]> => (await plan(query)).filters.map((f) => f.title);

describe('"or" in a topic is any-of', () => {
  it('a paper about either subject passes, one about neither does not', async () => {
    const p = await plan('papers about superconductivity or superfluids');
    expect(p.filters).toHaveLength(1);
    const superfluid = bareProfile('papers.example', 'Superfluid phases of liquid helium-3', [fact('Keywords', 'superfluids, low temperature physics'), fact('Published', '1972')]);
    const superconducting = bareProfile('papers.example', 'Theory of superconductivity', [fact('Subject', 'superconductivity'), fact('Published', '1957')]);
    const laser = bareProfile('papers.example', 'Optical frequency combs', [fact('Subject', 'lasers, spectroscopy'), fact('Published', '2002')]);
    expect(await planOutcomes(p, superfluid)).toEqual(['yes']);
    expect(await planOutcomes(p, superconducting)).toEqual(['yes']);
    expect(await planOutcomes(p, laser)).not.toContain('yes');
  });

  it('each alternative is also searched on its own (a search engine reads both words as wanted)', async () => {
    const p = await plan('fintech or insurance startups in Berlin');
    expect(p.queries).toEqual(expect.arrayContaining(['fintech startup Berlin', 'insurance startup Berlin']));
  });

  it('"fintech or insurance startups" takes a company in either sector, and "and" still needs both', async () => {
    const either = await plan('fintech or insurance startups');
    const insurer = bareProfile('companies.example', 'Coverly', [fact('Industry', 'Insurance'), fact('Location', 'Austin, TX')]);
    expect(await planOutcomes(either, insurer)).toEqual(['yes']);
    const both = await plan('fintech and insurance startups');
    expect((await planOutcomes(both, insurer))[0]).not.toBe('yes');
  });
});

describe('"or" between phrases', () => {
  it('an alternative after "or" runs to the end of the term ("graphene or carbon nanotubes" is not "carbon" alone)', async () => {
    const p = await plan('papers on graphene or carbon nanotubes published in the 2000s');
    expect(p.filters[0]!.spec.groups).toEqual([['graphene', 'carbon nanotubes']]);
    const tubes = bareProfile('papers.example', 'Helical microtubules of graphitic carbon', [fact('Keywords', 'carbon nanotubes'), fact('Published', '2001-11-07')]);
    const capture = bareProfile('papers.example', 'Amine sorbents for flue gas', [fact('Keywords', 'carbon capture'), fact('Published', '2004-02-01')]);
    expect(await planOutcomes(p, tubes)).toEqual(['yes', 'yes']);
    expect((await planOutcomes(p, capture))[0]).not.toBe('yes');
  });
});

describe('a list ending in "or"', () => {
  it('"biotech, medtech or healthcare startups" is one any-of criterion', async () => {
    const p = await plan('biotech, medtech or healthcare startups');
    expect(p.filters).toHaveLength(1);
    const medtech = bareProfile('companies.example', 'Stentra', [fact('Industry', 'Medtech')]);
    const games = bareProfile('companies.example', 'Pixelforge', [fact('Industry', 'Gaming')]);
    expect(await planOutcomes(p, medtech)).toEqual(['yes']);
    expect(await planOutcomes(p, games)).toEqual(['no']);
  });
});

describe('who a query asks for', () => {
  it('"Nobel Prize winners in physics" asks for researchers, and "winners" is no topic word', async () => {
    const p = await plan('Nobel Prize winners in physics');
    expect(p.entityType).toBe('researcher');
    const laureate = bareProfile('laureates.example', 'Kip Thorne', [fact('Prize', 'Nobel Prize in Physics 2017'), fact('Field', 'Physics')]);
    expect(await planOutcomes(p, laureate)).toEqual(['yes']);
  });
});

describe('places said before the noun', () => {
  it.each([
    ['American physicists who won the Nobel prize', 'the United States'],
    ['U.S.-based biotech companies', 'the United States'],
    ['researchers at US institutions', 'the United States'],
    ['UK fintech startups', 'the United Kingdom'],
    ['Berlin-based fintech startups', 'Berlin'],
    ['European climate startups', 'Europe'],
    ['Swiss chemists', 'Switzerland'],
  ])('%s → based in %s, and the place word is no topic word', async (query, place) => {
    const p = await plan(query);
    expect(p.filters.map((f) => f.title)).toContain(`Based in ${place}`);
    const type = p.filters[0]!;
    expect(JSON.stringify(type.spec.groups)).not.toMatch(/american|u\.s|"us"|"uk"|berlin|european|swiss|institution/i);
  });

  it('one word of a longer capitalised name is not a place of its own ("the Bay Area" is not Bay, Somalia)', async () => {
    const p = await plan('biotech nonprofits in the Bay Area');
    expect(p.filters.map((f) => f.title)).toContain('Based in the Bay Area');
    expect(JSON.stringify(p.filters)).not.toContain('"SO"');
  });

  it('two-letter words and capitalised topics are not places', async () => {
    for (const q of ['IT companies', 'AI startups', 'Nobel laureates in chemistry']) {
      const p = await plan(q);
      expect(p.filters.some((f) => f.spec.kind === 'location'), q).toBe(false);
    }
  });

  it('a U.S.-based query passes a profile located in a US city and fails one in Canada', async () => {
    const p = await plan('U.S.-based biotech companies');
    const boston = bareProfile('companies.example', 'Helixa', [fact('Sector', 'Biotechnology'), fact('Headquarters', 'Boston, MA, USA')]);
    const toronto = bareProfile('companies.example', 'Northgene', [fact('Sector', 'Biotechnology'), fact('Headquarters', 'Toronto, Canada')]);
    expect(await planOutcomes(p, boston)).toEqual(['yes', 'yes']);
    expect(await planOutcomes(p, toronto)).toEqual(['yes', 'no']);
  });
});

describe('parts of a country that are no state of it', () => {
  it('"on the West Coast" is the Pacific states: a company in Portland, OR passes, one in Boston fails', async () => {
    const p = await plan('healthcare companies on the West Coast');
    expect(p.filters.map((f) => f.title)).toEqual(['Is a healthcare company', 'Based on the West Coast']);
    const portland = bareProfile('companies.example', 'Carewell', [fact('Industry', 'Healthcare'), fact('Location', 'Portland, OR, USA')]);
    const boston = bareProfile('companies.example', 'Mendwise', [fact('Industry', 'Healthcare'), fact('Location', 'Boston, MA, USA')]);
    expect(await planOutcomes(p, portland)).toEqual(['yes', 'yes']);
    expect(await planOutcomes(p, boston)).toEqual(['yes', 'no']);
  });

  it('"East Coast companies" and "startups in the Midwest" read the place before or after the noun', async () => {
    const east = await plan('East Coast companies');
    expect(east.filters.map((f) => f.title)).toEqual(['Is a company', 'Based on the East Coast']);
    const atlanta = bareProfile('companies.example', 'Peachline', [fact('Headquarters', 'Atlanta, GA, USA')]);
    const austin = bareProfile('companies.example', 'Lonestar Labs', [fact('Headquarters', 'Austin, TX, USA')]);
    expect(await planOutcomes(east, atlanta)).toEqual(['yes', 'yes']);
    expect(await planOutcomes(east, austin)).toEqual(['yes', 'no']);
    const midwest = await plan('startups in the Midwest');
    expect(midwest.filters.map((f) => f.title)).toContain('Based in the Midwest');
    const chicago = bareProfile('companies.example', 'Loopward', [fact('Location', 'Chicago, Illinois, United States')]);
    expect(await planOutcomes(midwest, chicago)).toEqual(['yes', 'yes']);
  });

  it('"on the" names no place otherwise ("papers on the Higgs boson")', async () => {
    const p = await plan('papers on the Higgs boson');
    expect(p.filters.some((f) => f.spec.kind === 'location')).toBe(false);
  });
});

describe('places typed in lower case', () => {
  it.each([
    ['bay area ai startups', 'Based in the Bay Area'],
    ['west coast climate startups', 'Based on the West Coast'],
    ['startups in sf that are hiring', 'Based in San Francisco'],
    ['startups in nyc with 1000+ employees', 'Based in New York City'],
  ])('%s → %s, and the place words are no topic words', async (query, title) => {
    const p = await plan(query);
    expect(p.filters.map((f) => f.title)).toContain(title);
    expect(JSON.stringify(p.filters[0]!.spec.groups)).not.toMatch(/"(?:bay|area|west|coast|sf|nyc)"/);
  });

  it('a place name after "in" as compromise\'s lexicon knows it ("in texas", "in chicago"), not a topic ("in energy")', async () => {
    expect((await plan('companies in texas')).filters.map((f) => f.title)).toEqual(['Is a company', 'Based in Texas']);
    expect((await plan('fintechs in london')).filters.map((f) => f.title)).toContain('Based in London');
    expect((await plan('startups in energy')).filters.some((f) => f.spec.kind === 'location')).toBe(false);
  });

  it('a list of places in lower case, read in the terms of the first ("georgia" after "texas" is the state)', async () => {
    const p = await plan('companies in texas, georgia or illinois');
    expect(p.filters.map((f) => f.title)).toEqual(['Is a company', 'Based in Texas, Georgia or Illinois']);
    const atlanta = bareProfile('companies.example', 'Peachline', [fact('Location', 'Atlanta, GA, USA')]);
    const tbilisi = bareProfile('companies.example', 'Kartly', [fact('Location', 'Tbilisi, Georgia')]);
    expect(await planOutcomes(p, atlanta)).toEqual(['yes', 'yes']);
    expect(await planOutcomes(p, tbilisi)).toEqual(['yes', 'no']);
  });

  it('a lower-case region name is a place only before a kind noun ("papers on the north america plate" is none)', async () => {
    const p = await plan('papers on the north america plate');
    expect(p.filters.some((f) => f.spec.kind === 'location')).toBe(false);
  });
});

describe('several places, any of which will do', () => {
  it('"companies in Los Angeles or Chicago" passes a company in either city and fails one in Boston; both cities are searched', async () => {
    const p = await plan('companies in Los Angeles or Chicago');
    expect(p.filters.map((f) => f.title)).toEqual(['Is a company', 'Based in Los Angeles or Chicago']);
    expect(p.queries.some((q) => q.includes('Los Angeles'))).toBe(true);
    expect(p.queries.some((q) => q.includes('Chicago'))).toBe(true);
    const la = bareProfile('companies.example', 'Sunset Labs', [fact('Location', 'Los Angeles, CA, USA')]);
    const chicago = bareProfile('companies.example', 'Loopward', [fact('Location', 'Chicago, IL, USA')]);
    const boston = bareProfile('companies.example', 'Harborly', [fact('Location', 'Boston, MA, USA')]);
    expect(await planOutcomes(p, la)).toEqual(['yes', 'yes']);
    expect(await planOutcomes(p, chicago)).toEqual(['yes', 'yes']);
    expect(await planOutcomes(p, boston)).toEqual(['yes', 'no']);
  });

  it('"and" before a word that is no place ends the list ("companies in New York and hiring")', async () => {
    const p = await plan('companies in New York and hiring');
    expect(p.filters.map((f) => f.title)).toEqual(['Is a company', 'Based in New York City', 'Is hiring']);
  });
});

describe('sub-sectors pages print in place of the sector', () => {
  it('"devtools companies" takes a company tagged "Databases, Cloud Computing" (inferred) and not one tagged "Marketing"', async () => {
    const p = await plan('devtools companies');
    const db = bareProfile('companies.example', 'Rowstore', [fact('Industry', 'B2B (Analytics)'), fact('Tags', 'Databases, Cloud Computing')]);
    const ads = bareProfile('companies.example', 'Adloop', [fact('Industry', 'B2B (Marketing)'), fact('Tags', 'Marketing, SaaS')]);
    expect(await planOutcomes(p, db)).toEqual(['yes']);
    expect(await planOutcomes(p, ads)).toEqual(['no']);
  });
});

describe('what a query rules out', () => {
  it('"B2B software companies excluding fintech" keeps a SaaS company and drops a payments one', async () => {
    const p = await plan('B2B software companies excluding fintech');
    expect(p.filters.map((f) => f.title)).toEqual(['Is a B2B software company', 'Not in fintech']);
    expect(p.queries.join(' ')).not.toMatch(/fintech|financial/i);
    const saas = bareProfile('companies.example', 'Shipwise', [fact('Industry', 'B2B'), fact('Tags', 'SaaS, Logistics')]);
    const payments = bareProfile('companies.example', 'Paylane', [fact('Industry', 'B2B'), fact('Tags', 'SaaS, Payments')]);
    expect(await planOutcomes(p, saas)).toEqual(['yes', 'yes']);
    expect(await planOutcomes(p, payments)).toEqual(['yes', 'no']);
  });

  it('"non-fintech consumer companies" rules fintech out; "non-profit" stays an organisation form', async () => {
    const p = await plan('non-fintech consumer companies');
    expect(p.filters.map((f) => f.title)).toEqual(['Is a consumer company', 'Not in fintech']);
    const shop = bareProfile('companies.example', 'Cartly', [fact('Industry', 'Consumer'), fact('Tags', 'E-commerce')]);
    const wallet = bareProfile('companies.example', 'Pocketly', [fact('Industry', 'Consumer'), fact('Tags', 'Fintech, Payments')]);
    expect(await planOutcomes(p, shop)).toEqual(['yes', 'yes']);
    expect(await planOutcomes(p, wallet)).toEqual(['yes', 'no']);
    const nonprofit = await plan('non-profit orgs in India');
    expect(nonprofit.filters.some((f) => f.spec.kind === 'exclude')).toBe(false);
    expect(nonprofit.filters.map((f) => f.title)).toContain('Is a nonprofit');
  });

  it('"not headquartered in California", "not in the US" and "non-US" rule a place out', async () => {
    const p = await plan('companies not headquartered in California');
    expect(p.filters.map((f) => f.title)).toEqual(['Is a company', 'Based outside California']);
    const ny = bareProfile('companies.example', 'Hudsonly', [fact('Location', 'New York, NY, USA')]);
    const sf = bareProfile('companies.example', 'Baylight', [fact('Location', 'San Francisco, CA, USA')]);
    expect(await planOutcomes(p, ny)).toEqual(['yes', 'yes']);
    expect(await planOutcomes(p, sf)).toEqual(['yes', 'no']);
    for (const q of ['health startups not in the US', 'non-US startups']) {
      const out = await plan(q);
      expect(out.filters.map((f) => f.title), q).toContain('Based outside the United States');
      expect(JSON.stringify(out.filters[0]!.spec.groups), q).not.toMatch(/"not"|"non"/);
    }
  });

  it('a place ruled out is "outside" it ("startups excluding the US")', async () => {
    const p = await plan('startups excluding the US');
    expect(p.filters.map((f) => f.title)).toContain('Based outside the United States');
    expect(p.filters.some((f) => f.spec.kind === 'exclude')).toBe(false);
  });
});

describe('words people use for companies in a query', () => {
  it('"climate tech ventures" and "teams hiring in Berlin" ask for companies; "ventures" and "teams" are no topic words', async () => {
    const climate = await plan('climate tech ventures');
    expect(climate.entityType).toBe('company');
    expect(JSON.stringify(climate.filters[0]!.spec.groups)).not.toMatch(/ventur/);
    expect(climate.queries.join(' ')).not.toMatch(/ventur/);
    const solar = bareProfile('companies.example', 'Sunrow', [fact('Industry', 'Climate'), fact('Tags', 'Solar Power')]);
    expect(await planOutcomes(climate, solar)).toEqual(['yes']);
    const teams = await plan('teams hiring in Berlin');
    expect(teams.filters.map((f) => f.title)).toEqual(['Is a company', 'Based in Berlin', 'Is hiring']);
    expect(teams.queries.join(' ')).not.toMatch(/\bteam/);
  });

  it('brackets the size was read from leave nothing behind ("B2B firms (50 to 500 employees)")', async () => {
    const p = await plan('mid-sized B2B firms (50 to 500 employees)');
    expect(p.filters.map((f) => f.title).join(' | ')).not.toContain('(');
    expect(p.queries.join(' ')).not.toContain('(');
  });
});

describe('topic labels pages use', () => {
  it.each(['Keywords', 'Research area', 'Expertise', 'About', 'Known for'])('a "%s" fact states the topic, and a different one rules it out', async (label) => {
    const p = await plan('researchers working on neutrinos');
    const yes = bareProfile('scholars.example', 'Ada Quill', [fact(label, 'neutrino oscillations'), fact('Affiliation', 'University of Tokyo')]);
    expect(await planOutcomes(p, yes)).toEqual(['yes']);
  });

  it('a sector word found only in Keywords is not overruled by another Industry fact', async () => {
    const p = await plan('fintech startups');
    const page = bareProfile('companies.example', 'Ledgerly', [fact('Industry', 'B2B'), fact('Keywords', 'fintech, payments, SaaS')]);
    expect(await planOutcomes(p, page)).toEqual(['yes']);
  });

  it('"Area served" is not a topic', async () => {
    const p = await plan('fintech startups');
    const page = bareProfile('companies.example', 'Shipwise', [fact('Industry', 'Logistics'), fact('Area served', 'fintech hubs of Europe')]);
    expect(await planOutcomes(p, page)).toEqual(['no']);
  });
});

describe('word variants (Porter stems)', () => {
  it('"condensate" in the query meets "condensation" on the page, and "superconducting" meets "superconductivity"', async () => {
    const bec = bareProfile('papers.example', 'Observation of a dilute atomic vapour at low temperature', [fact('Subject', 'Bose-Einstein condensation in rubidium')]);
    expect(await planOutcomes(await plan('papers on Bose-Einstein condensates'), bec)).toEqual(['yes']);
    const sc = bareProfile('papers.example', 'Magnetic flux in thin films', [fact('Keywords', 'superconductivity, vortices')]);
    expect(await planOutcomes(await plan('papers on superconducting vortices'), sc)).toEqual(['yes']);
  });

  it('a curated sector word is not met by a word merely sharing its stem ("secure" is not "security")', async () => {
    const p = await plan('security startups');
    const shipping = bareProfile('companies.example', 'Portline', []);
    shipping.passages.push('Portline makes moving ocean containers fast, simple and secure.');
    shipping.text = shipping.passages.join('\n');
    expect(await planOutcomes(p, shipping)).not.toContain('yes');
    const guard = bareProfile('companies.example', 'Vaultic', []);
    guard.passages.push('Vaultic is a security company protecting cloud accounts.');
    guard.text = guard.passages.join('\n');
    expect(await planOutcomes(p, guard)).toEqual(['yes']);
  });
});

describe('sector names of several words, and their other names', () => {
  it('"financial technology" is one criterion, met by a fintech (not "financial" and "technology" apart)', async () => {
    const p = await plan('financial technology businesses that went public');
    expect(p.filters.map((f) => f.title)).toEqual(['Is a financial technology business', 'Is publicly traded']);
    const listed = bareProfile('companies.example', 'Paylane', [fact('Industry', 'Fintech'), fact('Status', 'Public')]);
    const techCo = bareProfile('companies.example', 'Gridworks', [fact('Industry', 'Technology'), fact('Keywords', 'financial reporting'), fact('Status', 'Public')]);
    expect(await planOutcomes(p, listed)).toEqual(['yes', 'yes']);
    expect((await planOutcomes(p, techCo))[0]).not.toBe('yes');
  });

  it('"healthtech" and "digital health" companies include one whose sector is printed "Healthcare"', async () => {
    const clinic = bareProfile('companies.example', 'Carebridge', [fact('Industry', 'Healthcare'), fact('Hiring', 'Yes')]);
    expect(await planOutcomes(await plan('healthtech companies that are hiring'), clinic)).toEqual(['yes', 'yes']);
    expect(await planOutcomes(await plan('digital health startups'), clinic)).toEqual(['yes']);
    const shop = bareProfile('companies.example', 'Cartwise', [fact('Industry', 'E-commerce'), fact('Hiring', 'Yes')]);
    expect((await planOutcomes(await plan('healthtech companies that are hiring'), shop))[0]).toBe('no');
  });
});

describe('kind words people type', () => {
  it('"orgs" names the kind, so "non-profit orgs working on education" asks for an education nonprofit only', async () => {
    const p = await plan('non-profit orgs working on education');
    expect(p.entityType).toBe('company');
    expect(p.filters.map((f) => f.title)).toEqual(['Works on education', 'Is a nonprofit']);
    const tutors = bareProfile('orgs.example', 'Read Ahead', [fact('Industry', 'Education'), fact('Company type', 'Non-profit')]);
    expect(await planOutcomes(p, tutors)).toEqual(['yes', 'yes']);
  });

  it('"physics articles published before 1965" asks for papers, and the criterion says "was published"', async () => {
    const p = await plan('physics articles published before 1965');
    expect(p.entityType).toBe('paper');
    expect(p.filters.map((f) => f.criterion)).toEqual(['The paper is a physics article.', 'The paper was published, on or before 1964-12-31.']);
    const old = bareProfile('papers.example', 'Broken symmetry and gauge bosons', [fact('Field', 'Physics'), fact('Published', '1964')]);
    const late = bareProfile('papers.example', 'Quantum dots at low temperature', [fact('Field', 'Physics'), fact('Published', '1995')]);
    expect(await planOutcomes(p, old)).toEqual(['yes', 'yes']);
    expect(await planOutcomes(p, late)).toEqual(['yes', 'no']);
    expect((await plan('news articles about fintech startups')).entityType).toBe('news');
  });

  it('"in science" after a researcher noun is no field to check, and the title is in the singular', async () => {
    const p = await plan('female Nobel prize winners in science');
    expect(p.entityType).toBe('researcher');
    expect(p.filters.map((f) => f.title)).toEqual(['Is a female Nobel prize winner']);
    const laureate = bareProfile('laureates.example', 'Ada Yonath', [fact('Gender', 'Female'), fact('Awards', 'Nobel Prize in Chemistry (2009)')]);
    expect(await planOutcomes(p, laureate)).toEqual(['yes']);
  });
});

describe('a birth place said before the noun', () => {
  it('"Japanese-born physicists" is born in Japan, checked against the birth fact, not where they work', async () => {
    const p = await plan('Japanese-born physicists');
    expect(p.filters.map((f) => f.title)).toEqual(['Is a physicist', 'Born in Japan']);
    const nagoya = bareProfile('laureates.example', 'Hiro Sato', [fact('Field', 'Physics'), fact('Born', '1949-10-08 in Nagoya, Japan'), fact('Institution', 'University of Chicago, USA')]);
    const chicago = bareProfile('laureates.example', 'Ann Ward', [fact('Field', 'Physics'), fact('Born', '1951 in Chicago, USA'), fact('Institution', 'University of Tokyo, Japan')]);
    expect(await planOutcomes(p, nagoya)).toEqual(['yes', 'yes']);
    expect(await planOutcomes(p, chicago)).toEqual(['yes', 'no']);
  });
});

describe('the verb that ties a place asks nothing more', () => {
  it('"who worked in the UK" is a place filter, not an event "worked" no page prints', async () => {
    const p = await plan('Nobel laureates in chemistry who worked in the UK');
    expect(p.filters.map((f) => f.title)).toEqual(['Is a Nobel laureate in chemistry', 'Based in the United Kingdom']);
    const cambridge = bareProfile('laureates.example', 'Tom Lind', [fact('Awards', 'Nobel Prize in Chemistry (2015)'), fact('Institution', 'Francis Crick Institute, London, United Kingdom')]);
    expect(await planOutcomes(p, cambridge)).toEqual(['yes', 'yes']);
  });
});

describe('founded, started and launched', () => {
  it('"founded after 2015" takes a profile\'s launch year for the founding, inferred and said so; an earlier launch fails', async () => {
    const p = await plan('B2B software companies founded after 2015');
    const late = bareProfile('companies.example', 'Shiplane', [fact('Industry', 'B2B'), fact('Launch year', '2017')]);
    const early = bareProfile('companies.example', 'Oldstack', [fact('Industry', 'B2B'), fact('Launch year', '2012')]);
    expect(await planOutcomes(p, late)).toEqual(['yes', 'yes']);
    expect(await planOutcomes(p, early)).toEqual(['yes', 'no']);
    const { candidates } = await reasoner.extract({ plan: p, page: late, round: 1 }, { signal });
    const v = (await reasoner.verify({ plan: p, filter: p.filters[1]!, candidate: candidates[0]!, pages: [late] }, { signal })).verdict;
    expect(v.verification).toBe('inferred');
    expect(v.rationale).toContain('Launch year: 2017');
    expect(v.rationale).toContain('the launch date taken as the founding');
  });

  it('"orgs started in 2021" is a founding in 2021, met by "Launched: March 2021"', async () => {
    const p = await plan('orgs started in 2021');
    expect(p.filters.map((f) => f.title)).toEqual(['Is an org', 'Started (in 2021)']);
    expect(await planOutcomes(p, bareProfile('orgs.example', 'Tidewater', [fact('Launched', 'March 4, 2021')]))).toEqual(['yes', 'yes']);
    expect(await planOutcomes(p, bareProfile('orgs.example', 'Oldgrove', [fact('Launched', 'May 2, 2014')]))).toEqual(['yes', 'no']);
  });
});

describe('founding on someone else\'s page', () => {
  /** A directory page dated 2021 with one line per company. */
  function listing(lines: [string, string][]): FetchedPage {
    const page = bareProfile('lists.example', 'Identity companies', []);
    page.model = { subject: null, items: lines.map(([n, line]) => ({ name: n, kind: null, link: `https://${n.toLowerCase()}.example/`, passage: `${n} — ${line}`, facts: [], source: 'list' })), siteName: null };
    page.passages.push(...lines.map(([n, line]) => `${n} — ${line}`));
    page.text = page.passages.join('\n');
    page.publishedAt = '2021-05-31T00:00:00.000Z';
    return page;
  }

  it('"starts with" in a listing line is no founding, and a line that dates nothing leaves it unclear (its own page is worth opening), not ruled out', async () => {
    const p = await plan('orgs started in 2021');
    const page = listing([['Verisafe', 'identity verification that starts with just a selfie (San Francisco, CA, USA)']]);
    const { candidates } = await reasoner.extract({ plan: p, page, round: 1 }, { signal });
    const v = (await reasoner.verify({ plan: p, filter: p.filters[1]!, candidate: candidates.find((c) => c.name === 'Verisafe')!, pages: [page] }, { signal })).verdict;
    expect(v.outcome).toBe('unclear');
    expect(v.rationale).toContain('only a passing mention was read');
    // Its own page, once opened, decides.
    const own = bareProfile('verisafe.example', 'Verisafe', [fact('Launched', 'May 16, 2014')]);
    expect(await planOutcomes(p, own)).toEqual(['yes', 'no']);
  });
});

describe('a paper dated by its own page only', () => {
  it('a list of 1950s papers put online in 1988 does not date a paper in the 1980s; the paper\'s own page does', async () => {
    const p = await plan('chemistry papers from the 1980s');
    const list = bareProfile('lists.example', 'Chemistry papers of the 1950s', []);
    list.model = { subject: null, items: [{ name: 'Spectrophotometric study of sulfhydryl groups', kind: null, link: null, passage: 'Spectrophotometric study of sulfhydryl groups — A chemistry paper', facts: [], source: 'list' }], siteName: null };
    list.passages.push('Spectrophotometric study of sulfhydryl groups — A chemistry paper');
    list.text = list.passages.join('\n');
    list.publishedAt = '1988-06-01T00:00:00.000Z';
    const { candidates } = await reasoner.extract({ plan: p, page: list, round: 1 }, { signal });
    const listed = candidates.find((c) => c.name.startsWith('Spectrophotometric'))!;
    const onList = (await reasoner.verify({ plan: p, filter: p.filters[1]!, candidate: listed, pages: [list] }, { signal })).verdict;
    expect(onList.outcome).not.toBe('yes');
    const own = bareProfile('papers.example', 'Electrospray ionization of large biomolecules', [fact('Field', 'Chemistry')]);
    own.publishedAt = '1989-06-01T00:00:00.000Z';
    expect(await planOutcomes(p, own)).toEqual(['yes', 'yes']);
  });
});

describe('metropolitan areas and short city names', () => {
  it('"based out of the Bay Area" takes Palo Alto and Oakland (by the gazetteer\'s coordinates), not Sacramento or Los Angeles', async () => {
    const p = await plan('digital health startups based out of the Bay Area');
    expect(p.filters.map((f) => f.title)).toEqual(['Is a digital health startup', 'Based in the Bay Area']);
    // Pages name the towns, not the area: its core city is searched for too.
    expect(p.queries).toContain('digital health startup San Francisco');
    const at = (name: string, where: string) => bareProfile('companies.example', name, [fact('Industry', 'Healthcare'), fact('Location', where)]);
    expect(await planOutcomes(p, at('Clinicly', 'Palo Alto, CA, USA'))).toEqual(['yes', 'yes']);
    expect(await planOutcomes(p, at('Caremesh', 'Oakland, CA'))).toEqual(['yes', 'yes']);
    expect(await planOutcomes(p, at('Valleymed', 'Sacramento, CA, USA'))).toEqual(['yes', 'no']);
    expect(await planOutcomes(p, at('Sunhealth', 'Los Angeles, CA, USA'))).toEqual(['yes', 'no']);
    const { candidates } = await reasoner.extract({ plan: p, page: at('Clinicly', 'Palo Alto, CA, USA'), round: 1 }, { signal });
    const v = (await reasoner.verify({ plan: p, filter: p.filters[1]!, candidate: candidates[0]!, pages: [at('Clinicly', 'Palo Alto, CA, USA')] }, { signal })).verdict;
    expect(v.verification).toBe('inferred');
    expect(v.rationale).toContain('Palo Alto lies in Bay Area');
  });

  it('"the Boston area" and "Greater London" are areas around the city the gazetteer knows', async () => {
    const boston = await plan('AI startups in the Boston area');
    expect(boston.filters.map((f) => f.title)).toContain('Based in the Boston area');
    const near = bareProfile('companies.example', 'Neurofold', [fact('Industry', 'AI'), fact('Location', 'Cambridge, MA, USA')]);
    const far = bareProfile('companies.example', 'Westlake AI', [fact('Industry', 'AI'), fact('Location', 'Springfield, MA, USA')]);
    expect(await planOutcomes(boston, near)).toEqual(['yes', 'yes']);
    expect(await planOutcomes(boston, far)).toEqual(['yes', 'no']);
    const london = await plan('fintech firms in Greater London');
    expect(london.filters.map((f) => f.title)).toContain('Based in Greater London');
    expect(await planOutcomes(london, bareProfile('companies.example', 'Paycroft', [fact('Industry', 'Fintech'), fact('HQ', 'Croydon, England, United Kingdom')]))).toEqual(['yes', 'yes']);
  });

  it('"NYC-based startups" and "SF startups" name the cities, and the short form is no topic word', async () => {
    const nyc = await plan('NYC-based startups');
    expect(nyc.filters.map((f) => f.title)).toEqual(['Is a startup', 'Based in New York City']);
    expect(await planOutcomes(nyc, bareProfile('companies.example', 'Hudsonly', [fact('Location', 'New York, NY, USA')]))).toEqual(['yes', 'yes']);
    expect(await planOutcomes(nyc, bareProfile('companies.example', 'Bayside', [fact('Location', 'San Francisco, CA, USA')]))).toEqual(['yes', 'no']);
    const sf = await plan('SF startups');
    expect(sf.filters.map((f) => f.title)).toEqual(['Is a startup', 'Based in San Francisco']);
  });

  it('a US state code after a city is the state, not a country with that code ("Oakland, CA" is in California, not Canada)', async () => {
    const p = await plan('startups in California');
    expect(await planOutcomes(p, bareProfile('companies.example', 'Eastbay Labs', [fact('Location', 'Oakland, CA')]))).toEqual(['yes', 'yes']);
    const canada = await plan('startups in Canada');
    expect(await planOutcomes(canada, bareProfile('companies.example', 'Eastbay Labs', [fact('Location', 'Oakland, CA')]))).toEqual(['yes', 'no']);
    expect(await planOutcomes(canada, bareProfile('companies.example', 'Pacific Loop', [fact('Location', 'Vancouver, BC')]))).toEqual(['yes', 'yes']);
  });
});

describe('a state named after a city', () => {
  it('"Atlanta, Georgia" and "Washington, DC" are in the United States, not in Georgia the country or in England', async () => {
    const outside = await plan('nonprofits outside the United States');
    const atlanta = bareProfile('orgs.example', 'Codebridge', [fact('Type', 'Nonprofit'), fact('Based in', 'Atlanta, Georgia')]);
    const dc = bareProfile('orgs.example', 'Foodwise', [fact('Type', 'Nonprofit'), fact('HQ', 'Washington, DC')]);
    const tbilisi = bareProfile('orgs.example', 'Mtatsminda Fund', [fact('Type', 'Nonprofit'), fact('HQ', 'Tbilisi, Georgia')]);
    const district = bareProfile('orgs.example', 'Capitol Harvest', [fact('Type', 'Nonprofit'), fact('Based in', 'Washington, District of Columbia')]);
    expect((await planOutcomes(outside, district))[1]).toBe('no');
    expect((await planOutcomes(outside, atlanta))[1]).toBe('no');
    expect((await planOutcomes(outside, dc))[1]).toBe('no');
    expect((await planOutcomes(outside, tbilisi))[1]).toBe('yes');
    const inUs = await plan('nonprofits in the United States');
    expect((await planOutcomes(inUs, dc))[1]).toBe('yes');
  });
});

describe('where someone was born is not where they work', () => {
  it('neither a sentence saying a physicist was born in the US nor a town of a US name in "Weston Creek (Australia)" places them there', async () => {
    const p = await plan('physicists at American universities');
    const page = bareProfile('laureates.example', 'Brian Schmidt', []);
    page.passages.push(
      'Brian Schmidt, a physicist, is affiliated with Australian National University in Weston Creek (Australia).',
      'He was born on 1967-02-24 in Missoula, MT, United States of America.',
    );
    page.text = page.passages.join('\n');
    expect((await planOutcomes(p, page))[1]).not.toBe('yes');
  });
});

describe('words written apart or joined', () => {
  it('"ed-tech" is edtech (an education company passes) and "non profits" is the nonprofit form', async () => {
    const p = await plan('ed-tech startups in India');
    expect(p.filters[0]!.spec.groups).toEqual([expect.arrayContaining(['edtech', 'education'])]);
    expect(await planOutcomes(p, bareProfile('companies.example', 'Padhai', [fact('Industry', 'Education'), fact('Location', 'Bengaluru, KA, India')]))).toEqual(['yes', 'yes']);
    const np = await plan('non profits in San Francisco');
    expect(np.filters.map((f) => f.title)).toEqual(['Is an organization', 'Based in San Francisco', 'Is a nonprofit']);
  });

  it('"agtech" names agriculture, as directories print it', async () => {
    const p = await plan('agtech startups');
    expect(await planOutcomes(p, bareProfile('companies.example', 'Fieldsense', [fact('Industry', 'Agriculture')]))).toEqual(['yes']);
    expect(await planOutcomes(p, bareProfile('companies.example', 'Cartwise', [fact('Industry', 'E-commerce')]))).toEqual(['no']);
  });
});

describe('a kind noun inside a sector name', () => {
  it('"developer tools companies" asks for companies (not products), titled in the singular', async () => {
    const p = await plan('developer tools companies with under 100 employees');
    expect(p.entityType).toBe('company');
    expect(p.filters.map((f) => f.title)).toEqual(['Is a developer tools company', 'Has at most 99 employees']);
  });

  it('"consumer electronics makers": "makers" is the kind, no topic word a page must print', async () => {
    const p = await plan('consumer electronics makers');
    expect(p.filters[0]!.spec.groups).toHaveLength(1);
    expect(await planOutcomes(p, bareProfile('companies.example', 'Loudbox', [fact('Industry', 'Consumer Electronics')]))).toEqual(['yes']);
  });
});

describe('parts of continents', () => {
  it('"Latin America" holds Colombia and Mexico (the UN subregions of the world-countries data), not Spain', async () => {
    const p = await plan('logistics companies in Latin America');
    expect(p.filters.map((f) => f.title)).toEqual(['Is a logistics company', 'Based in Latin America']);
    const at = (name: string, where: string) => bareProfile('companies.example', name, [fact('Industry', 'Logistics'), fact('Location', where)]);
    expect(await planOutcomes(p, at('Rutas', 'Bogotá, Colombia'))).toEqual(['yes', 'yes']);
    expect(await planOutcomes(p, at('Envios', 'Mexico City, Mexico'))).toEqual(['yes', 'yes']);
    expect(await planOutcomes(p, at('Cargolid', 'Madrid, Spain'))).toEqual(['yes', 'no']);
  });

  it('"South Asian startups" and "startups in South Asia" take Bengaluru and Kathmandu, not Tokyo; "the Middle East" reads with its article', async () => {
    for (const q of ['South Asian startups', 'startups in South Asia']) {
      const p = await plan(q);
      expect(p.filters.map((f) => f.title)).toEqual(['Is a startup', 'Based in South Asia']);
      expect(await planOutcomes(p, bareProfile('companies.example', 'Kirana', [fact('HQ', 'Bengaluru, KA, India')]))).toEqual(['yes', 'yes']);
      expect(await planOutcomes(p, bareProfile('companies.example', 'Himal', [fact('HQ', 'Kathmandu, Nepal')]))).toEqual(['yes', 'yes']);
      expect(await planOutcomes(p, bareProfile('companies.example', 'Sakura', [fact('HQ', 'Tokyo, Japan')]))).toEqual(['yes', 'no']);
    }
    expect((await plan('companies in the Middle East')).filters.map((f) => f.title)).toContain('Based in the Middle East');
  });
});

describe('researchers, said as people say them', () => {
  it('"economics Nobel winners" are researchers, and "affiliated with Harvard" checks the institution only', async () => {
    expect((await plan('economics Nobel winners from the US')).entityType).toBe('researcher');
    const p = await plan('chemists affiliated with Harvard');
    expect(p.filters[0]!.spec.groups).toEqual([expect.arrayContaining(['chemist']), ['harvard']]);
    const page = bareProfile('laureates.example', 'Martin Karp', [fact('Field', 'Chemistry'), fact('Institution', 'Harvard University')]);
    expect(await planOutcomes(p, page)).toEqual(['yes']);
  });

  it('"born before 1940" is a date of birth: "Date of birth: 1930-03-15" passes, 1951 fails', async () => {
    const p = await plan('laureates born before 1940');
    expect(p.filters.map((f) => f.criterion)).toEqual(['The researcher is a laureate.', 'The researcher was born, on or before 1939-12-31.']);
    const old = bareProfile('laureates.example', 'Ada Old', [fact('Date of birth', '1930-03-15'), fact('Awards', 'Nobel Prize in Chemistry (2013)')]);
    const young = bareProfile('laureates.example', 'Bo Young', [fact('Born', 'March 3, 1951, Tokyo, Japan'), fact('Awards', 'Nobel Prize in Physics (2014)')]);
    expect(await planOutcomes(p, old)).toEqual(['yes', 'yes']);
    expect(await planOutcomes(p, young)).toEqual(['yes', 'no']);
  });

  it('"journal articles about graphene": "journal" is the kind, not a word the paper must print', async () => {
    const p = await plan('journal articles about graphene');
    expect(p.entityType).toBe('paper');
    expect(p.filters[0]!.spec.groups).toEqual([['graphene']]);
  });
});

describe('other labels for a headcount and a founding', () => {
  it('"Employee count: 45" is a headcount, and "Year of foundation: 2018" a founding', async () => {
    const small = bareProfile('companies.example', 'Tinyteam', [fact('Employee count', '45')]);
    const big = bareProfile('companies.example', 'Bigcorp', [fact('Employee count', '4,500')]);
    expect(await planOutcomes(await plan('companies with fewer than 50 employees'), small)).toEqual(['yes', 'yes']);
    expect(await planOutcomes(await plan('companies with fewer than 50 employees'), big)).toEqual(['yes', 'no']);
    const p = await plan('companies founded after 2015');
    expect(await planOutcomes(p, bareProfile('companies.example', 'Newco', [fact('Year of foundation', '2018')]))).toEqual(['yes', 'yes']);
    expect(await planOutcomes(p, bareProfile('companies.example', 'Oldco', [fact('Inception', '2009')]))).toEqual(['yes', 'no']);
  });
});

describe('headcounts said with the team word first, and in round words', () => {
  it.each([
    ['startups with a team of 10 or fewer', 'Has at most 10 employees'],
    ['companies with a headcount above 1000', 'Has at least 1,001 employees'],
    ['companies with a staff of over 200', 'Has at least 201 employees'],
    ['startups with team size under 20', 'Has at most 19 employees'],
    ['companies with a team of 50+', 'Has at least 50 employees'],
    ['large companies with thousands of employees', 'Has at least 1,000 employees'],
    ['companies with hundreds of employees', 'Has 100 to 999 employees'],
    ['startups with fewer than 10 people on the team', 'Has at most 9 employees'],
    ['B2B software startups with teams of 10-50 people', 'Has 10 to 50 employees'],
    ['companies employing more than 500 people', 'Has at least 501 employees'],
  ])('"%s" → %s, and no team, number or size word is left to a topic criterion', async (query, title) => {
    const p = await plan(query);
    expect(p.filters.map((f) => f.title)).toContain(title);
    expect(JSON.stringify(p.filters[0]!.spec.groups)).not.toMatch(/team|headcount|staff|thousand|hundred|employ|large|"\d+"/);
  });

  it('"a team of 12" states no bound and is left as words, not read as a size', async () => {
    const p = await plan('startups with a team of 12');
    expect(p.filters.some((f) => f.spec.kind === 'size')).toBe(false);
  });
});

describe('what a company makes, said with its verb', () => {
  it('"startups making robots" is titled "Makes robots" and met by a robotics company', async () => {
    const p = await plan('startups making robots');
    expect(p.filters.map((f) => f.title)).toEqual(['Makes robots']);
    expect(p.filters[0]!.criterion).toBe('The company makes robots.');
    expect(await planOutcomes(p, bareProfile('companies.example', 'Botworks', [fact('Industry', 'Robotics')]))).toEqual(['yes']);
    expect(await planOutcomes(p, bareProfile('companies.example', 'Ledgerly', [fact('Industry', 'Fintech')]))).toEqual(['no']);
    // A sector that opens the query is no verb: "building materials companies".
    expect((await plan('building materials companies')).filters[0]!.title).toBe('Is a building materials company');
  });
});

describe('forms, cohorts and foundings said other ways', () => {
  it.each([
    ['companies that IPOed after 2019', 'Is publicly traded'],
    ['listed fintech companies', 'Is publicly traded'],
    ['charitable organizations in the US', 'Is a nonprofit'],
    ['YC alumni in fintech', 'Went through Y Combinator'],
    ['companies established in 2015 or later', 'Established (in 2015 or later)'],
  ])('"%s" has the filter "%s"', async (query, title) => {
    const p = await plan(query);
    expect(p.filters.map((f) => f.title)).toContain(title);
    expect(p.filters[0]!.title).not.toMatch(/^Is an? (?:in|listed|charitable|ipoed)\b/i);
  });

  it('"companies building open-source developer tools" is one topic, titled by its verb', async () => {
    const p = await plan('companies building open-source developer tools');
    expect(p.filters.map((f) => f.title)).toEqual(['Builds open-source developer tools']);
    expect(await planOutcomes(p, bareProfile('companies.example', 'Gitforge', [fact('Tags', 'Developer Tools, Open Source')]))).toEqual(['yes']);
  });
});

describe('praise is neither checked nor titled', () => {
  it.each([
    ['seminal papers about the Higgs boson', 'Is a paper about the Higgs boson'],
    ['promising AI startups in Berlin', 'Is an AI startup'],
    ['influential physics papers from the 1970s', 'Is a physics paper'],
  ])('"%s" → "%s"', async (query, title) => {
    const p = await plan(query);
    expect(p.filters[0]!.title).toBe(title);
    expect(JSON.stringify(p.filters[0]!.spec.groups)).not.toMatch(/seminal|promising|influential/);
  });

  it('"papers published between 1960 and 1970 on superconductivity": the subject is the paper\'s topic, the years its publication', async () => {
    const p = await plan('papers published between 1960 and 1970 on superconductivity');
    expect(p.filters.map((f) => f.title)).toEqual(['Is a paper on superconductivity', 'Published (between 1960 and 1970)']);
    const bcs = bareProfile('papers.example', 'Quasi particles and gauge invariance', [fact('Subject', 'superconductivity'), fact('Published', '1960')]);
    expect(await planOutcomes(p, bcs)).toEqual(['yes', 'yes']);
  });
});

describe('the economics prize is a Nobel prize', () => {
  it('"female Nobel prize winners" takes a laureate whose award is printed "Nobel Memorial Prize in Economic Sciences"', async () => {
    const p = await plan('female Nobel prize winners in science');
    const ostrom = bareProfile('laureates.example', 'Elinor Ostrom', [fact('Gender', 'Female'), fact('Awards', 'Nobel Memorial Prize in Economic Sciences (2009)')]);
    expect(await planOutcomes(p, ostrom)).toEqual(['yes']);
  });
});

describe("HQ'd in", () => {
  it.each(["fintech firms HQ'd in San Francisco", 'fintech firms HQed in San Francisco', 'fintech firms with HQ in San Francisco'])('"%s" leaves no "HQ" word to check', async (query) => {
    const p = await plan(query);
    expect(p.filters.map((f) => f.title)).toEqual(['Is a fintech firm', 'Based in San Francisco']);
    expect(JSON.stringify(p.filters[0]!.spec.groups)).not.toMatch(/hq|"d"/i);
  });
});

describe('who leads a company is no kind', () => {
  it('"women-led health startups" asks for companies, "women founders" for people (a woman founder, in the title)', async () => {
    for (const query of ['women-led health startups', 'veteran-owned businesses in Texas', 'people-first companies']) {
      expect((await plan(query)).entityType, query).toBe('company');
    }
    const founders = await plan('women founders in fintech');
    expect(founders.entityType).toBe('professional');
    expect(founders.filters[0]!.title).toBe('Is a woman founder in fintech');
    expect((await plan('companies led by women')).filters[0]!.title).toBe('Is a company led by women');
  });

  it('"marketplaces for freelancers" asks for companies: whom it serves, after "for", is no kind', async () => {
    const p = await plan('marketplaces for freelancers');
    expect(p.entityType).toBe('company');
    expect(p.filters[0]!.title).toBe('Is a marketplace for freelancers');
    expect((await plan('software for doctors')).entityType).toBe('company');
    expect((await plan('freelancers in Berlin')).entityType).toBe('freelancer');
  });
});

describe('a funding stage said before the kind', () => {
  it('"Series A fintech startups in Berlin" is the round they raised: a profile\'s Series A passes, its seed round does not', async () => {
    const p = await plan('Series A fintech startups in Berlin');
    expect(p.filters.map((f) => f.title)).toEqual(['Is a fintech startup', 'Based in Berlin', 'Raised a Series A']);
    const seriesA = bareProfile('startupindex.example', 'Finbolt', [fact('Industry', 'Fintech'), fact('Location', 'Berlin, Germany'), fact('Funding', 'Series A, €12 million (2025)')]);
    const seed = bareProfile('startupindex.example', 'Paylark', [fact('Industry', 'Fintech'), fact('Location', 'Berlin, Germany'), fact('Funding', 'Seed round, €2 million (2025)')]);
    expect(await planOutcomes(p, seriesA)).toEqual(['yes', 'yes', 'yes']);
    expect((await planOutcomes(p, seed))[2]).not.toBe('yes');
  });

  it('"seed-stage" and "pre-seed" are rounds too; plain "seed companies" sell seeds', async () => {
    expect((await plan('seed-stage AI startups')).filters.map((f) => f.title)).toEqual(['Is an AI startup', 'Raised a seed round']);
    expect((await plan('pre-seed startups in London')).filters.at(-1)!.title).toBe('Raised a pre-seed round');
    expect((await plan('seed companies in Iowa')).filters.map((f) => f.title)).toEqual(['Is a seed company', 'Based in Iowa']);
  });
});

describe('public and private said as what a company is now', () => {
  it('"that are now public" is publicly traded, "still private" and "private companies" are not; "private equity" stays a sector', async () => {
    expect(await titles('YC companies that are now public')).toEqual(['Is a company', 'Is publicly traded', 'Went through Y Combinator']);
    expect(await titles('companies that are public and hiring')).toEqual(['Is a company', 'Is publicly traded', 'Is hiring']);
    expect(await titles('YC companies that are still private')).toEqual(['Is a company', 'Is not publicly traded', 'Has not shut down', 'Went through Y Combinator']);
    expect(await titles('private companies in Germany')).toEqual(['Is a company', 'Based in Germany', 'Is not publicly traded', 'Has not shut down']);
    expect(await titles('private equity firms in London')).toEqual(['Is a private equity firm', 'Based in London']);
  });

  it('a profile that says "Privately Held" passes "still private" and fails "now public"; one that closed is no private company', async () => {
    const held = bareProfile('companyregister.example', 'Lumora', [fact('Industry', 'Software'), fact('Ownership Status', 'Privately Held')]);
    expect(await outcomes('companies that are still private', held)).toEqual(['yes', 'yes', 'yes']);
    expect((await outcomes('companies that are now public', held))[1]).toBe('no');
    const closed = bareProfile('companyregister.example', 'Quillon', [fact('Industry', 'Software'), fact('Status', 'Inactive')]);
    expect(await outcomes('private companies', closed)).toEqual(['yes', 'yes', 'no']);
  });
});

describe('events people look for', () => {
  it('"fintech events in London next month" and "hackathons" are events held somewhere, at some time', async () => {
    const titles = async (query: string) => {
      const p = await plan(query);
      return [p.entityType, ...p.filters.map((f) => f.title)];
    };
    expect(await titles('fintech events in London next month')).toEqual(['conference', 'Is a fintech event', 'Held in London', 'Takes place next month']);
    expect(await titles('hackathons in San Francisco')).toEqual(['conference', 'Is a hackathon', 'Held in San Francisco']);
    // "held" said of a conference is no event of its own to find on its page.
    expect(await titles('security conferences held in Las Vegas')).toEqual(['conference', 'Is a security conference', 'Held in Las Vegas']);
    expect(await titles('companies that host events')).toEqual(['company', 'Is a company', 'Host events']);
  });

  it('a conference held in a city relaxes to its metropolitan area, still "held"', async () => {
    const p = await plan('developer conferences in Berlin');
    const place = p.filters.find((f) => f.title === 'Held in Berlin')!;
    expect((await reasoner.relax({ plan: p, filter: place }, { signal })).filter!.title).toBe('Held in Greater Berlin');
  });
});

describe('"recent" is a window back from now, not a word to find', () => {
  it('recent papers are published within two years, the latest news within a month; a window said already stands', async () => {
    expect(await titles('recent papers on large language models')).toEqual(['Is a paper on large language models', 'Published (in the last 2 years)']);
    expect(await titles('latest news about Stripe')).toEqual(['Is news about Stripe', 'Dated from the last month']);
    expect(await titles('recent fintech startups in Berlin')).toEqual(['Is a fintech startup', 'Based in Berlin', 'Founded (in the last 2 years)']);
    expect(await titles('recent papers on graphene from 2020')).toEqual(['Is a paper on graphene', 'Dated from 2020']);
    expect(await titles('recent Nobel laureates in physics')).toEqual(['Is a Nobel laureate in physics']);
    // The window runs back from the run's clock (NOW, 2026-03-15).
    const window = (await plan('recent papers on large language models')).filters[1]!.spec['dateRange'] as { from: string };
    expect(window.from).toBe('2024-03-15');
  });
});

describe('a state said after the noun', () => {
  it('"companies in the Winter 2023 batch that are B2B" qualifies the kind as "B2B companies" would; a verb keeps its event', async () => {
    expect(await titles('companies in the Winter 2023 batch that are B2B')).toEqual(['Is a B2B company', "Was in Y Combinator's Winter 2023 batch"]);
    expect(await titles('companies that are in fintech')).toEqual(['Is a fintech company']);
    expect(await titles('companies that are based in Berlin')).toEqual(['Is a company', 'Based in Berlin']);
    expect(await titles('startups that are acquired')).toEqual(['Is a startup', 'Was acquired']);
    expect(await titles('startups that raised a Series A')).toEqual(['Is a startup', 'Raised a Series A']);
  });
});

describe('people looked for by role', () => {
  it('"VPs of marketing at SaaS companies" and "founders of YC companies" ask for people; acronyms keep their capitals', async () => {
    const read = async (query: string) => {
      const p = await plan(query);
      return [p.entityType, p.filters[0]!.title];
    };
    expect(await read('CTOs of fintech startups in Berlin')).toEqual(['professional', 'Is a CTO of fintech startups']);
    expect(await read('VPs of marketing at SaaS companies in London')).toEqual(['professional', 'Is a VP of marketing at SaaS companies']);
    expect(await read('founders of YC companies in healthcare')).toEqual(['professional', 'Is a founder of companies in healthcare']);
    expect(await read('developer tools companies')).toEqual(['company', 'Is a developer tools company']);
  });
});

describe('a size said in a word', () => {
  it('"small fintech startups" have at most 50 people, "large healthcare companies" over 500; sector words keep theirs', async () => {
    expect(await titles('small fintech startups')).toEqual(['Is a fintech startup', 'Has at most 50 employees']);
    expect(await titles('large healthcare companies')).toEqual(['Is a healthcare company', 'Has at least 501 employees']);
    expect(await titles('mid-sized companies in Germany')).toEqual(['Is a company', 'Based in Germany', 'Has 51 to 500 employees']);
    expect(await titles('SMEs in France')).toEqual(['Is a company', 'Based in France', 'Has at most 249 employees']);
    // A number said wins over the word; a sector's own words are no size.
    expect(await titles('mid-sized B2B firms (50 to 500 employees)')).toEqual(['Is a mid-sized B2B firm', 'Has 50 to 500 employees']);
    expect(await titles('small molecule drug companies')).toEqual(['Is a small molecule drug company']);
    expect(await titles('large language model startups')).toEqual(['Is a large language model startup']);
  });

  it('a profile of 11-50 employees passes "small", one of 201-500 does not', async () => {
    const p = await plan('small fintech startups');
    const few = bareProfile('startupindex.example', 'Paylark', [fact('Industry', 'Fintech'), fact('Company size', '11-50 employees')]);
    const many = bareProfile('startupindex.example', 'Finbolt', [fact('Industry', 'Fintech'), fact('Company size', '201-500 employees')]);
    expect(await planOutcomes(p, few)).toEqual(['yes', 'yes']);
    expect(await planOutcomes(p, many)).toEqual(['yes', 'no']);
  });
});

describe('an acquisition with its date or its buyer', () => {
  it('"acquired in 2021" dates the acquisition, not the founding; "acquired by Stripe" names the buyer', async () => {
    expect(await titles('companies that were acquired in 2021')).toEqual(['Is a company', 'Was acquired (in 2021)']);
    expect(await titles('startups acquired by Stripe')).toEqual(['Is a startup', 'Acquired by Stripe']);
    expect(await titles('startups acquired by another company')).toEqual(['Is a startup', 'Was acquired']);
    const p = await plan('companies that were acquired in 2021');
    const site = { urlPrefix: 'https://companyregister.example/c/', titleSuffix: 'Company Register', siteName: 'Company Register' };
    const in2021 = profilePage(site, 'Lumora', [fact('Industry', 'Software'), fact('Founded', '2014')], ['Lumora was acquired by Autodesk in 2021.']);
    expect(await planOutcomes(p, in2021)).toEqual(['yes', 'yes']);
    // Founded in 2021, acquired in 2016: the founding year is not the acquisition's.
    const in2016 = profilePage(site, 'Quillon', [fact('Industry', 'Software'), fact('Founded', '2021')], ['Quillon was acquired by Oracle in 2016.']);
    expect((await planOutcomes(p, in2016))[1]).not.toBe('yes');
  });
});
