/**
 * The development set's queries, written as people type them for lead generation, each with a RULE over the
 * records' structured fields that decides every entity: yes (a correct row), no (a wrong row) or maybe (the
 * record cannot settle it; neither counted right nor wrong). No name is ever picked by hand: the gold set is
 * whatever the rule says over the data.
 *
 * The split is fixed here (`split` on each query): dev queries are for tuning, test queries are held out.
 */
import type { DevEntity } from './records.js';
import { PARAPHRASE_QUERIES } from './paraphrases.js';
import { AI, B2B_SOFTWARE, BAY_AREA, BIOTECH, CIVIC, CLIMATE, CONSUMER, DEVTOOLS, ECOMMERCE, EDUCATION, FINTECH, FOOD, HEALTH, HR, LOGISTICS, NYC, SECURITY, SF, USA, all, bool, bornIn, cityVerdict, company, countryVerdict, hqCityVerdict, institution, paper, regionVerdict, researcher, sizeVerdict, stateVerdict, titleHas, topicVerdict, worksIn } from './query-rules.js';
import type { DevQuery, GoldSet } from './query-rules.js';

export type { DevQuery, GoldSet, Verdict } from './query-rules.js';
export { all } from './query-rules.js';

export const COMPANY_QUERIES: DevQuery[] = [
  company('c01', 'dev', 'fintech startups in San Francisco', (f) => all(topicVerdict(f, FINTECH), cityVerdict(f, SF), bool(!f.nonprofit))),
  company('c02', 'test', 'YC nonprofits working on education', (f) => all(bool(f.nonprofit), topicVerdict(f, EDUCATION))),
  company('c03', 'dev', 'B2B software companies that are publicly traded', (f) => all(topicVerdict(f, B2B_SOFTWARE), bool(f.status === 'Public'))),
  company('c04', 'test', 'companies with more than 500 employees in San Francisco that are hiring', (f) => all(sizeVerdict(f, (n) => n > 500), cityVerdict(f, SF), bool(f.hiring))),
  company('c05', 'dev', 'acquired healthcare startups', (f) => all(topicVerdict(f, HEALTH), bool(f.status === 'Acquired'))),
  company('c06', 'test', 'startups in India', (f) => countryVerdict(f, ['India'])),
  company('c07', 'dev', 'healthcare companies that are hiring', (f) => all(topicVerdict(f, HEALTH), bool(f.hiring))),
  company('c08', 'test', 'developer tools companies', (f) => all(topicVerdict(f, DEVTOOLS), bool(!f.nonprofit))),
  company('c09', 'dev', 'consumer companies in Los Angeles', (f) => all(topicVerdict(f, CONSUMER), cityVerdict(f, ['Los Angeles']))),
  company('c10', 'test', 'Y Combinator companies from the 2012 batches', (f) => (f.batchYear === null ? 'no' : bool(f.batchYear === 2012))),
  company('c11', 'dev', 'climate tech startups', (f) => topicVerdict(f, CLIMATE)),
  company('c12', 'test', 'AI startups', (f) => all(topicVerdict(f, AI), bool(!f.nonprofit))),
  company('c13', 'dev', 'public companies headquartered in San Francisco', (f) => all(bool(f.status === 'Public'), hqCityVerdict(f, SF))),
  company('c14', 'test', 'YC companies that shut down', (f) => bool(f.status === 'Inactive')),
  company('c15', 'dev', 'acquired fintech companies', (f) => all(topicVerdict(f, FINTECH), bool(f.status === 'Acquired'))),
  company('c16', 'test', 'e-commerce companies that are hiring', (f) => all(topicVerdict(f, ECOMMERCE), bool(f.hiring))),
  company('c17', 'dev', 'logistics and supply chain startups', (f) => topicVerdict(f, LOGISTICS)),
  // Private: still independent (Active); an acquired company is arguable (maybe), a public or closed one is not.
  company('c18', 'test', 'private companies with more than 2000 employees', (f) => all(sizeVerdict(f, (n) => n > 2000), f.status === 'Active' ? 'yes' : f.status === 'Acquired' ? 'maybe' : 'no', bool(!f.nonprofit))),
  company('c19', 'dev', 'nonprofits in San Francisco', (f) => all(bool(f.nonprofit), cityVerdict(f, SF))),
  company('c20', 'test', 'healthcare nonprofits', (f) => all(bool(f.nonprofit), topicVerdict(f, HEALTH))),
  company('c21', 'dev', 'companies based in New York', (f) => cityVerdict(f, NYC)),
  company('c22', 'test', 'YC companies in Europe', (f) => regionVerdict(f, 'Europe')),
  company('c23', 'dev', 'HR tech companies', (f) => topicVerdict(f, HR)),
  company('c24', 'test', 'companies in Chicago', (f) => cityVerdict(f, ['Chicago'])),
  company('c25', 'dev', 'civic tech and government organizations', (f) => topicVerdict(f, CIVIC)),
  company('c26', 'test', 'biotech startups', (f) => topicVerdict(f, BIOTECH)),
  company('c27', 'dev', 'consumer companies with more than 1000 employees', (f) => all(topicVerdict(f, CONSUMER), sizeVerdict(f, (n) => n > 1000))),
  company('c28', 'test', 'startups in Latin America', (f) => regionVerdict(f, 'Latin America')),
  company('c29', 'dev', 'security startups', (f) => topicVerdict(f, SECURITY)),
  company('c30', 'test', 'fintech companies with fewer than 500 employees', (f) => all(topicVerdict(f, FINTECH), sizeVerdict(f, (n) => n < 500), bool(!f.nonprofit))),
  company('c31', 'dev', 'YC-backed nonprofits outside the United States', (f) => all(bool(f.nonprofit), f.places.length === 0 ? 'maybe' : bool(f.places.every((p) => p.country !== 'USA')))),
  company('c32', 'test', 'Bay Area companies that went public', (f) => all(bool(f.status === 'Public'), cityVerdict(f, BAY_AREA))),
  company('c33', 'dev', 'fully remote companies that are hiring', (f) => all(bool(f.regions.includes('Fully Remote')), bool(f.hiring))),
  company('c34', 'test', 'marketplace startups', (f) => topicVerdict(f, { tags: ['Marketplace'], words: /\bmarketplaces?\b/i })),
  company('c35', 'dev', 'startups in Africa', (f) => regionVerdict(f, 'Africa')),
  company('c36', 'test', 'real estate and construction companies', (f) => topicVerdict(f, { industries: ['Real Estate and Construction'], tags: ['Construction', 'Housing'], words: /\breal estate\b|\bconstruction\b|\bhousing\b/i })),
  // Added with the profile-card, homepage-ld and roundup shapes (dev only): containment in a US state, a headcount
  // range, a launch-year window, status and hiring words, a batch written either way ("W14", "Winter 2014").
  company('c37', 'dev', 'consumer startups in California', (f) => all(topicVerdict(f, CONSUMER), stateVerdict(f, 'CA'))),
  company('c38', 'dev', 'B2B software companies with between 100 and 1,000 employees', (f) => all(topicVerdict(f, B2B_SOFTWARE), sizeVerdict(f, (n) => n >= 100 && n <= 1000))),
  company('c39', 'dev', 'companies launched after 2020', (f) => (f.launchedAt === null ? 'maybe' : bool(Number(f.launchedAt.slice(0, 4)) > 2020))),
  company('c40', 'dev', 'nonprofits that are hiring', (f) => all(bool(f.nonprofit), bool(f.hiring))),
  company('c41', 'dev', 'companies that are no longer operating', (f) => bool(f.status === 'Inactive')),
  company('c42', 'dev', 'food and beverage companies', (f) => topicVerdict(f, FOOD)),
  company('c43', 'dev', 'healthcare startups with fewer than 100 employees', (f) => all(topicVerdict(f, HEALTH), sizeVerdict(f, (n) => n < 100))),
  company('c44', 'dev', 'California companies that were acquired', (f) => all(stateVerdict(f, 'CA'), bool(f.status === 'Acquired'))),
  company('c45', 'dev', 'YC startups from the Winter 2014 batch', (f) => bool(f.batch === 'Winter 2014' || f.batch === 'W14')),
  company('c46', 'dev', 'startups that went through Y Combinator in 2016', (f) => (f.batch === null ? 'no' : bool(/\b2016$|^[WSXF]16$/.test(f.batch)))),
  company('c47', 'dev', 'e-commerce companies with 50-500 employees', (f) => all(topicVerdict(f, ECOMMERCE), sizeVerdict(f, (n) => n >= 50 && n <= 500))),
];

export const RESEARCHER_QUERIES: DevQuery[] = [
  researcher('r01', 'dev', 'Nobel prize winning researchers working in Japan', (f) => worksIn(f, ['Japan'])),
  researcher('r02', 'test', 'women scientists who won a Nobel prize', (f) => bool(f.gender === 'Female')),
  researcher('r03', 'dev', 'economists at Princeton University', (f) => all(bool(f.category === 'Economics'), institution(f, /Princeton/))),
  researcher('r04', 'test', 'physicists working in the United Kingdom', (f) => all(bool(f.category === 'Physics'), worksIn(f, ['United Kingdom']))),
  researcher('r05', 'dev', 'Stanford researchers who won the Nobel prize', (f) => institution(f, /Stanford/)),
  researcher('r06', 'test', 'Nobel laureates in medicine at US institutions', (f) => all(bool(f.category === 'Medicine'), worksIn(f, USA))),
  researcher('r07', 'dev', 'chemistry Nobel laureates working in Europe', (f) => all(bool(f.category === 'Chemistry'), worksIn(f, ['United Kingdom', 'France', 'Germany', 'Netherlands', 'Denmark', 'Norway', 'Belgium']))),
  researcher('r08', 'test', 'economists at the University of Chicago', (f) => all(bool(f.category === 'Economics'), institution(f, /University of Chicago/))),
  // Added with the new dev shapes: where someone was born is not where they work.
  researcher('r09', 'dev', 'Nobel laureates born in Japan', (f) => bornIn(f, ['Japan'])),
  researcher('r10', 'dev', 'physicists born in the United States', (f) => all(bool(f.category === 'Physics'), bornIn(f, USA))),
];

export const PAPER_QUERIES: DevQuery[] = [
  paper('p01', 'dev', 'papers on neutrinos', (f) => bool(titleHas(f, /neutrino/))),
  paper('p02', 'test', 'papers about superconductivity or superfluids', (f) => bool(titleHas(f, /superconduct|superfluid/))),
  paper('p03', 'dev', 'chemistry papers about DNA', (f) => all(bool(f.field === 'Chemistry'), bool(titleHas(f, /\bdna\b/)))),
  paper('p04', 'test', 'physics papers published before 1965', (f) => all(bool(f.field === 'Physics'), bool(f.pubYear < 1965))),
  paper('p05', 'dev', 'papers on Bose-Einstein condensation', (f) => bool(titleHas(f, /bose einstein/))),
  paper('p06', 'test', 'olefin metathesis papers', (f) => (titleHas(f, /metathesis/) ? 'yes' : titleHas(f, /olefin/) ? 'maybe' : 'no')),
  // Added with the new dev shapes: a decade and an open publication window.
  paper('p07', 'dev', 'physics papers from the 1970s', (f) => all(bool(f.field === 'Physics'), bool(f.pubYear >= 1970 && f.pubYear <= 1979))),
  paper('p08', 'dev', 'chemistry papers published after 1985', (f) => all(bool(f.field === 'Chemistry'), bool(f.pubYear > 1985))),
];

/**
 * Queries added for tuning after the set was first split 25/25 (with the profile-card, homepage-ld and roundup
 * shapes): all in dev, so the held-out half stays exactly what it was.
 */
export const TUNING_ADDITIONS: ReadonlySet<string> = new Set(['c37', 'c38', 'c39', 'c40', 'c41', 'c42', 'c43', 'c44', 'c45', 'c46', 'c47', 'r09', 'r10', 'p07', 'p08']);

/** A query added after the 25/25 split, for tuning only (always `dev`). */
export function isTuningAddition(q: DevQuery): boolean {
  return TUNING_ADDITIONS.has(q.id) || PARAPHRASE_QUERIES.includes(q);
}

export function allQueries(): DevQuery[] {
  return [...COMPANY_QUERIES, ...RESEARCHER_QUERIES, ...PAPER_QUERIES, ...PARAPHRASE_QUERIES];
}

/** The gold set of a query over the entities of its kind. */
export function goldSet(query: DevQuery, entities: readonly DevEntity[]): GoldSet {
  const yes: DevEntity[] = [];
  const maybe: DevEntity[] = [];
  for (const e of entities) {
    if (e.kind !== query.kind) continue;
    const v = query.rule(e);
    if (v === 'yes') yes.push(e);
    else if (v === 'maybe') maybe.push(e);
  }
  return { yes, maybe };
}

/** Rows asked of a query: the gold size (so recall is never capped by the target), at least 5, at most 30. */
export function targetFor(gold: GoldSet): number {
  return Math.min(30, Math.max(5, gold.yes.length));
}

