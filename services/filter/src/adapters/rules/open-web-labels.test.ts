import { describe, expect, it } from 'vitest';
import type { FetchedPage, PageEntity, PageFact } from '@leadfinder/wire';
import { NOW, fact, outcomes, plan, profilePage, reasoner, signal } from './fact-page-testing.js';
import { relaxFilter } from './relax.js';

/**
 * Facts as the open web labels them (an encyclopedia infobox, schema.org property names) and search
 * phrasings as pages print a constraint; checked through the rule reasoner's own plan, extract and verify.
 */

const profile = (name: string, facts: PageFact[], prose: string[] = []): FetchedPage => profilePage({ urlPrefix: 'https://encyclopedia.example/wiki/', siteName: 'Encyclopedia', titleSuffix: 'Encyclopedia' }, name, facts, prose);

describe('forms shown by a label rather than a status word', () => {
  it('"Traded as: NYSE: DBX" is a listed company; a company without one is unclear, not listed', async () => {
    const listed = profile('Dropbox', [fact('Type', 'Private'), fact('Traded as', 'Nasdaq: DBX'), fact('Industry', 'Software')]);
    expect(await outcomes('software companies that are publicly traded', listed)).toEqual(['yes', 'yes']);
    const other = profile('Quietly', [fact('Industry', 'Software')]);
    expect(await outcomes('software companies that are publicly traded', other)).toEqual(['yes', 'unclear']);
  });

  it('"Parent organization: Autodesk" is taken as acquired, and the verdict says it was inferred', async () => {
    const p = await plan('acquired construction software companies');
    const page = profile('PlanGrid', [fact('Industry', 'Construction software'), fact('Parent organization', 'Autodesk')]);
    const { candidates } = await reasoner.extract({ plan: p, page, round: 1 }, { signal });
    const form = p.filters.find((f) => f.title.toLowerCase().includes('acquired'))!;
    const { verdict } = await reasoner.verify({ plan: p, filter: form, candidate: candidates[0]!, pages: [page] }, { signal });
    expect(verdict).toMatchObject({ outcome: 'yes', verification: 'inferred' });
    expect(verdict.rationale).toContain('Autodesk');
  });

  it('"Dissolved: 2019" (schema.org dissolutionDate) is a company that shut down', async () => {
    const page = profile('Homejoy', [fact('Industry', 'Home services'), fact('Dissolved', '2015-07-31')]);
    expect(await outcomes('home services startups that shut down', page)).toEqual(['yes', 'yes']);
  });
});

describe('an infobox\'s "Services" says what a company does', () => {
  it('a sector word under Services passes, and a company whose Industry and Services say otherwise fails', async () => {
    const yes = profile('Sqreen', [fact('Industry', 'B2B'), fact('Services', 'Security, Monitoring')]);
    const no = profile('Gusto', [fact('Industry', 'B2B, Human Resources'), fact('Services', 'Payroll, Health Insurance')]);
    expect(await outcomes('security startups', yes)).toEqual(['yes']);
    expect(await outcomes('security startups', no)).toEqual(['no']);
  });

  it('a lead sentence whose verb\'s object names people ("builds people infrastructure") does not make the company a person', async () => {
    const page = profile('Checkr', [fact('Industry', 'B2B, Human Resources')], ['Checkr builds people infrastructure for the future of work.']);
    expect(await outcomes('HR tech companies', page)).toEqual(['yes']);
  });
});

describe('AI and its fields', () => {
  it('a company tagged "Computer Vision" is an AI company; one tagged "Data Engineering" is not, even once the filter is loosened', async () => {
    const p = await plan('AI startups');
    const vision = profile('Lensly', [fact('Industry', 'B2B'), fact('Tags', 'Computer Vision, Robotics')]);
    const pipes = profile('Pipewell', [fact('Industry', 'B2B'), fact('Tags', 'SaaS, B2B, Analytics, Data Engineering')]);
    expect(await outcomes('AI startups', vision)).toEqual(['yes']);
    expect(await outcomes('AI startups', pipes)).toEqual(['no']);
    const loosened = relaxFilter(p.filters[0]!, new Date(NOW))!;
    const { candidates } = await reasoner.extract({ plan: p, page: pipes, round: 1 }, { signal });
    const verdict = await reasoner.verify({ plan: { ...p, filters: [loosened] }, filter: loosened, candidate: candidates[0]!, pages: [pipes] }, { signal });
    expect(verdict.verdict.outcome).not.toBe('yes');
  });
});

describe('"outside" a place', () => {
  it('is never loosened (widening would turn "outside the United States" into "in North America")', async () => {
    const p = await plan('nonprofits outside the United States');
    const outside = p.filters.find((f) => f.title.includes('outside'))!;
    expect(relaxFilter(outside, new Date(NOW))).toBeNull();
  });

  it('the excluded place is no search word', async () => {
    const p = await plan('nonprofits outside the United States');
    expect(p.queries.length).toBeGreaterThan(0);
    for (const q of p.queries) expect(q).not.toMatch(/United States/);
  });
});

describe('search phrasings', () => {
  it('search a form as pages print it ("public company", "IPO") and say something besides kind words', async () => {
    const p = await plan('B2B software companies that are publicly traded');
    expect(p.queries).toEqual(expect.arrayContaining(['B2B software public company']));
    const later = await reasoner.queries({ plan: p, round: 2, used: p.queries, productiveSites: [] }, { signal });
    expect([...p.queries, ...later.queries].some((q) => /\bIPO\b/.test(q))).toBe(true);
  });

  it('never send a phrasing of kind and page words alone ("top companies", "company directory")', async () => {
    const p = await plan('nonprofits outside the United States');
    const later = await reasoner.queries({ plan: p, round: 2, used: p.queries, productiveSites: [] }, { signal });
    for (const q of [...p.queries, ...later.queries]) expect(q).not.toMatch(/^(?:top )?(?:companies|organizations?|company)(?: (?:list|directory|profile|news))?$/);
  });

  it('name a paper query\'s topic, not "papers on X papers"', async () => {
    const p = await plan('papers on neutrinos');
    const later = await reasoner.queries({ plan: p, round: 2, used: p.queries, productiveSites: [] }, { signal });
    for (const q of [...p.queries, ...later.queries]) expect(q).not.toMatch(/paper on neutrinos papers|startups list/);
  });
});

describe('places in a query', () => {
  it('"in Physics" after a prize is a field, and a later "in Germany" is still the place', async () => {
    const paper = await plan('papers that won the 2016 Nobel Prize in Physics');
    expect(paper.filters.some((f) => f.title.startsWith('Based in'))).toBe(false);
    const people = await plan('Nobel laureates in Physics working in Germany');
    expect(people.filters.map((f) => f.title)).toContain('Based in Germany');
  });

  it('a city name several countries share ("Boston") matches the one a page names with its state', async () => {
    const page = profile('Lena Ortiz', [fact('Fields', 'Economics'), fact('Institutions', 'Boston University, Boston, MA, United States')]);
    expect(await outcomes('economists in Boston', page)).toEqual(['yes', 'yes']);
    const elsewhere = profile('Ivo Marek', [fact('Fields', 'Economics'), fact('Institutions', 'Charles University, Prague, Czech Republic')]);
    expect(await outcomes('economists in Boston', elsewhere)).toEqual(['yes', 'no']);
  });
});

describe('dates a profile gives as facts', () => {
  it('an award and its year as two facts date the award ("Award: Nobel Prize in Physics", "Year: 2012")', async () => {
    const page = profile('Serge Haroche', [fact('Fields', 'Physics'), fact('Award', 'Nobel Prize in Physics'), fact('Year', '2012')]);
    expect(await outcomes('physicists who won the Nobel prize after 2010', page)).toEqual(['yes', 'yes']);
    expect(await outcomes('physicists who won the Nobel prize before 2000', page)).toEqual(['yes', 'no']);
  });

  it('a year inside an award or publication value dates it ("Nobel Prize: Physics (2012)", "Published in: Physical Review B, 1973")', async () => {
    const laureate = profile('Serge Haroche', [fact('Fields', 'Physics'), fact('Nobel Prize', 'Physics (2012)')]);
    expect(await outcomes('physicists who won the Nobel prize after 2010', laureate)).toEqual(['yes', 'yes']);
    const paper = profile('Ordering, metastability and phase transitions', [fact('Field', 'Physics'), fact('Published in', 'Physical Review B, 1973')]);
    expect(await outcomes('physics papers published before 1980', paper)).toEqual(['yes', 'yes']);
  });

  it('a paper\'s own "Year" or "Date" is when it was published', async () => {
    const paper = profile('Ordering, metastability and phase transitions', [fact('Field', 'Physics'), fact('Year', '1973')]);
    expect(await outcomes('physics papers published in the 1970s', paper)).toEqual(['yes', 'yes']);
    expect(await outcomes('physics papers published after 1990', paper)).toEqual(['yes', 'no']);
  });
});

describe('who a query asks for', () => {
  it('"women who won the Nobel prize" asks for researchers, and a female laureate\'s profile passes', async () => {
    const p = await plan('women who won the Nobel prize in chemistry');
    expect(p.entityType).toBe('researcher');
    const page = profile('Ada Yonath', [fact('Gender', 'Female'), fact('Nobel Prize', 'Chemistry 2009')]);
    expect(await outcomes('women who won the Nobel prize in chemistry', page)).toEqual(['yes', 'yes']);
  });

  it('"led to" and "cited for" are no words to find: the event is', async () => {
    const page = profile('Green fluorescent protein', [fact('Field', 'Chemistry'), fact('Prize', 'Nobel Prize in Chemistry 2008')]);
    expect(await outcomes('papers that led to a Nobel prize in chemistry', page)).toEqual(['yes', 'yes']);
  });
});

describe('forms under other labels', () => {
  it('"Ownership: Subsidiary of Visa" is acquired, "Stock: NYSE: SQ" is listed', async () => {
    expect(await outcomes('acquired fintech companies', profile('Plaid', [fact('Sector', 'Fintech'), fact('Ownership', 'Subsidiary of Visa')]))).toEqual(['yes', 'yes']);
    expect(await outcomes('publicly traded fintech companies', profile('Square', [fact('Sector', 'Fintech'), fact('Stock', 'NYSE: SQ')]))).toEqual(['yes', 'yes']);
  });
});

describe('a news sentence naming several companies', () => {
  const url = 'https://technews.example/2025/05/four-hr-startups';
  const sentences = [
    'Four HR startups to watch in Texas',
    "Houston's Shiftly schedules hourly workers.",
    'Meanwhile Perkly sells perks to remote teams, and HireWise, a Dallas-based recruiting platform, raised $12M.',
  ];
  const item = (name: string, passage: string): PageEntity => ({ name, kind: null, link: `https://${name.toLowerCase()}.example/`, passage, facts: [], source: 'link' });
  const news: FetchedPage = {
    url, finalUrl: url, status: 200, contentType: 'text/html', title: sentences[0]!, text: sentences.join('\n'), publishedAt: '2025-05-02',
    passages: sentences, fetchedAt: NOW,
    model: { subject: null, items: [item('Shiftly', sentences[1]!), item('Perkly', sentences[2]!), item('HireWise', sentences[2]!)], siteName: 'Tech News' },
  };

  async function verdicts(query: string, name: string) {
    const p = await plan(query);
    const { candidates } = await reasoner.extract({ plan: p, page: news, round: 1 }, { signal });
    const c = candidates.find((x) => x.name === name)!;
    const out = [];
    for (const filter of p.filters) out.push((await reasoner.verify({ plan: p, filter, candidate: c, pages: [news] }, { signal })).verdict);
    return out;
  }

  it('reads each company only in its own clause: HireWise\'s "recruiting platform" says nothing of Perkly', async () => {
    expect((await verdicts('HR tech startups', 'HireWise')).map((v) => v.outcome)).toEqual(['yes']);
    const perkly = await verdicts('HR tech startups', 'Perkly');
    expect(perkly.map((v) => v.outcome)).toEqual(['unclear']);
  });

  it('places a company by "Dallas-based" and by the possessive "Houston\'s", within the state asked for', async () => {
    const hirewise = await verdicts('startups in Texas', 'HireWise');
    expect(hirewise.at(-1)).toMatchObject({ outcome: 'yes', verification: 'inferred' });
    expect(hirewise.at(-1)!.passages[0]!.text).toBe('HireWise, a Dallas-based recruiting platform, raised $12M.');
    expect((await verdicts('startups in Texas', 'Shiftly')).at(-1)).toMatchObject({ outcome: 'yes', verification: 'inferred' });
    expect((await verdicts('startups in Germany', 'HireWise')).at(-1)!.outcome).not.toBe('yes');
  });
});

describe('searching for what lies outside a place', () => {
  it('later rounds search the continents outside it, and the screen does not favour excerpts naming it', async () => {
    const p = await plan('nonprofits outside the United States');
    const later = await reasoner.queries({ plan: p, round: 2, used: p.queries, productiveSites: [] }, { signal });
    const third = await reasoner.queries({ plan: p, round: 3, used: [...p.queries, ...later.queries], productiveSites: [] }, { signal });
    expect([...later.queries, ...third.queries].some((q) => /\b(Europe|Asia|Africa)\b/.test(q))).toBe(true);
    const hit = (url: string, snippet: string) => ({ url, title: 'Org profile', snippet, rank: 1, publishedAt: null, provider: 'fake' });
    const { scores } = await reasoner.screen({ plan: p, hits: [hit('https://a.example/', 'A nonprofit in Bengaluru, India'), hit('https://b.example/', 'A nonprofit in the United States')] }, { signal });
    expect(scores[0]!.score).toBeGreaterThanOrEqual(scores[1]!.score);
  });

  it('after the continents, rounds search countries on each of them (pages print "Lagos, Nigeria", not "Africa")', async () => {
    const p = await plan('startups based outside the US');
    const used = [...p.queries];
    for (let round = 2; round <= 6; round++) used.push(...(await reasoner.queries({ plan: p, round, used, productiveSites: [] }, { signal })).queries);
    expect(used.some((q) => /\bNigeria\b/.test(q))).toBe(true);
    expect(used.some((q) => /\b(?:Italy|France|Germany)\b/.test(q))).toBe(true);
    expect(used.some((q) => /United States|\bUS\b/.test(q))).toBe(false);
  });
});

describe('listings titled for more than one kind', () => {
  const listing = (title: string, names: string[]): FetchedPage => {
    const url = 'https://sciencenews.example/2016/prize-papers';
    const lines = names.map((n) => `${n} was cited by the committee.`);
    const items: PageEntity[] = names.map((n, i) => ({ name: n, kind: null, link: `https://papers.example/${i}`, passage: lines[i]!, facts: [], source: 'link' }));
    return {
      url, finalUrl: url, status: 200, contentType: 'text/html', title, text: [title, ...lines].join('\n'), publishedAt: null,
      passages: [title, ...lines], fetchedAt: NOW, model: { subject: null, items, siteName: null },
    };
  };

  it('a title naming the kind anywhere lets its items be candidates; a title naming only another kind does not', async () => {
    const p = await plan('papers on phase transitions');
    const names = ['Ordering metastability and phase transitions in two dimensional systems', 'Quantised Hall conductance in a two dimensional periodic potential'];
    const mixed = await reasoner.extract({ plan: p, page: listing('Two physicists whose papers changed the field', names), round: 1 }, { signal });
    expect(mixed.candidates.map((c) => c.name)).toEqual(names);
    const people = await reasoner.extract({ plan: p, page: listing('Two physicists to remember', names), round: 1 }, { signal });
    expect(people.candidates).toEqual([]);
  });
});

describe('structured-data fields as profiles print them', () => {
  it('"public fintech companies" asks for listed companies, not papers ("public" is no "publication")', async () => {
    const p = await plan('public fintech companies');
    expect(p.entityType).toBe('company');
    expect(p.filters.map((f) => f.title)).toContain('Is publicly traded');
  });

  it('yes/no fields named for a form, and schema.org\'s TELECOMMUTE, answer', async () => {
    expect(await outcomes('nonprofit fintech organizations', profile('Kiva', [fact('Industry', 'Fintech'), fact('Nonprofit', 'true')]))).toEqual(['yes', 'yes']);
    expect(await outcomes('nonprofit fintech organizations', profile('Brex', [fact('Industry', 'Fintech'), fact('Nonprofit', 'No')]))).toEqual(['yes', 'no']);
    expect(await outcomes('fully remote fintech companies', profile('Deel', [fact('Industry', 'Fintech'), fact('Job location type', 'TELECOMMUTE')]))).toEqual(['yes', 'yes']);
  });
});
