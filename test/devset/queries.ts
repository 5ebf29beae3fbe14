/**
 * The development set's queries, written as people type them for lead generation, each with a RULE over the
 * records' structured fields that decides every entity: yes (a correct row), no (a wrong row) or maybe (the
 * record cannot settle it; neither counted right nor wrong). No name is ever picked by hand: the gold set is
 * whatever the rule says over the data.
 *
 * The split is fixed here (`split` on each query): dev queries are for tuning, test queries are held out.
 */
import type { CompanyFields, DevEntity, DevKind, PaperFields, ResearcherFields } from './records.js';
import type { Split } from './pages.js';

export type Verdict = 'yes' | 'no' | 'maybe';

export interface DevQuery {
  id: string;
  q: string;
  kind: DevKind;
  split: Split;
  rule(e: DevEntity): Verdict;
}

export interface GoldSet {
  yes: DevEntity[];
  maybe: DevEntity[];
}

/** Several conditions together: no beats maybe beats yes. */
export function all(...verdicts: Verdict[]): Verdict {
  if (verdicts.includes('no')) return 'no';
  if (verdicts.includes('maybe')) return 'maybe';
  return 'yes';
}

const bool = (b: boolean): Verdict => (b ? 'yes' : 'no');
const lower = (s: string) => s.toLowerCase();

// ------------------------------------------------------------------ company conditions

type C = CompanyFields;

function cityVerdict(f: C, cities: readonly string[]): Verdict {
  if (f.places.length === 0) return f.remote ? 'no' : 'maybe';
  const want = cities.map(lower);
  return bool(f.places.some((p) => p.city !== null && want.includes(lower(p.city))));
}

/** Headquartered in: the record's first location; a city among its other locations is arguable (maybe). */
function hqCityVerdict(f: C, cities: readonly string[]): Verdict {
  const v = cityVerdict(f, cities);
  if (v !== 'yes') return v;
  const want = cities.map(lower);
  return f.places[0]?.city && want.includes(lower(f.places[0].city)) ? 'yes' : 'maybe';
}

/** Country or US state: a record with a region only ("CA, USA") still answers a country question. */
function countryVerdict(f: C, countries: readonly string[]): Verdict {
  if (f.places.length === 0) return f.remote ? 'no' : 'maybe';
  return bool(f.places.some((p) => p.country !== null && countries.includes(p.country)));
}

/** In a US state (the record's region code): a record with no place is maybe, a remote-only one no. */
function stateVerdict(f: C, code: string): Verdict {
  if (f.places.length === 0) return f.remote ? 'no' : 'maybe';
  return bool(f.places.some((p) => p.country === 'USA' && p.region === code));
}

function regionVerdict(f: C, region: string): Verdict {
  if (f.regions.length === 0 || f.regions.includes('Unspecified')) return 'maybe';
  return bool(f.regions.includes(region));
}

interface Topic {
  industries?: string[];
  subindustries?: string[];
  tags?: string[];
  /** Tags or subindustries that make the topic arguable: maybe. */
  near?: string[];
  /**
   * Words which, in the company's own one-liner or description, make the topic arguable (maybe): a
   * reader could count "a marketplace for grocery delivery" as a marketplace though the record's tags
   * do not say so. Yes comes only from the structured fields.
   */
  words?: RegExp;
}

function topicVerdict(f: C, t: Topic): Verdict {
  if (t.industries?.includes(f.industry)) return 'yes';
  if (f.subindustry && t.subindustries?.includes(f.subindustry)) return 'yes';
  if (f.tags.some((tag) => t.tags?.includes(tag))) return 'yes';
  if (t.near?.some((n) => f.tags.includes(n) || f.subindustry === n)) return 'maybe';
  if (t.words && (t.words.test(f.oneLiner) || t.words.test(f.longDescription))) return 'maybe';
  return 'no';
}

function sizeVerdict(f: C, test: (n: number) => boolean): Verdict {
  return f.teamSize === null ? 'maybe' : bool(test(f.teamSize));
}

const FINTECH: Topic = { industries: ['Fintech'], tags: ['Fintech', 'Payments', 'Banking as a Service'], near: ['Insurance', 'Investing', 'Crypto / Web3', 'Finance and Accounting'], words: /\bfintech\b|\bpayments?\b|\bbanking\b|financial services/i };
const HEALTH: Topic = { industries: ['Healthcare'], tags: ['Healthcare', 'Health Tech', 'Digital Health', 'Consumer Health Services', 'Telemedicine', 'Biotech'], near: ['Health & Wellness', 'Health Insurance', 'Fitness', 'Femtech'], words: /\bhealth|\bmedical\b|\bpatients?\b|\bclinic/i };
const EDUCATION: Topic = { industries: ['Education'], tags: ['Education', 'Edtech', 'eLearning', 'AI-Enhanced Learning'], near: ['Diversity & Inclusion'], words: /\beducat|\bschools?\b|\bstudents?\b|\bteachers?\b|\blearning\b/i };
const B2B_SOFTWARE: Topic = { industries: ['B2B'], tags: ['SaaS', 'B2B', 'Enterprise Software', 'Developer Tools', 'API'], near: ['Analytics'], words: /\bsoftware\b|\bsaas\b/i };
const DEVTOOLS: Topic = { subindustries: ['Engineering, Product and Design'], tags: ['Developer Tools', 'DevOps', 'DevSecOps', 'API', 'Open Source', 'Databases', 'Cloud Computing', 'Monitoring'], near: ['Infrastructure', 'Data Engineering'], words: /\bdevelopers?\b|\bdevops\b|\bsoftware engineers?\b/i };
const AI: Topic = { tags: ['AI', 'Artificial Intelligence', 'Machine Learning', 'Computer Vision', 'AI-Enhanced Learning'], near: ['Data Science', 'Robotics', 'Self-Driving Vehicles', 'Automation'], words: /\bAI\b|artificial intelligence|machine learning|computer vision/ };
const CLIMATE: Topic = { subindustries: ['Energy'], tags: ['Climate', 'Solar Power', 'Renewable Energy', 'Energy Storage', 'Energy', 'Electric Vehicles', 'Small Modular Reactors'], near: ['Agriculture'], words: /\bclimate\b|\bcarbon\b|\bsolar\b|\brenewable\b|\bclean energy\b|\bemissions?\b/i };
const LOGISTICS: Topic = { subindustries: ['Supply Chain and Logistics'], tags: ['Logistics', 'Supply Chain', 'Delivery', 'Autonomous Delivery'], near: ['Grocery', 'E-commerce'], words: /\blogistics?\b|supply chain|\bshipping\b|\bfreight\b|\bdelivery\b/i };
const HR: Topic = { subindustries: ['Human Resources', 'Recruiting and Talent'], tags: ['HR Tech', 'Payroll', 'Human Resources', 'Talent Acquisition'], near: ['Remote Work', 'Diversity & Inclusion'], words: /\bpayroll\b|\brecruit|human resources|\bHR\b|\bhiring\b/ };
const CONSUMER: Topic = { industries: ['Consumer'] };
const CIVIC: Topic = { industries: ['Government'], tags: ['Civic Tech', 'GovTech'], near: ['Legal', 'LegalTech'], words: /\bgovernment\b|\bcivic\b|\bvot(e|ing|ers?)\b|\bdemocra/i };
const ECOMMERCE: Topic = { subindustries: ['Retail'], tags: ['E-commerce', 'Retail', 'Marketplace', 'Grocery'], near: ['Delivery', 'Retail Tech'], words: /e-?commerce|online store|\bretail|\bshopping\b/i };
const SECURITY: Topic = { subindustries: ['Security'], tags: ['Security', 'DevSecOps', 'Identity', 'Compliance', 'Biometrics'], words: /\bsecurity\b|\bfraud\b|\bidentity\b|\bcompliance\b/i };
const BIOTECH: Topic = { subindustries: ['Therapeutics', 'Industrial Bio', 'Drug Discovery and Delivery', 'Diagnostics'], tags: ['Biotech', 'Synthetic Biology', 'Drug discovery', 'Therapeutics', 'Diagnostics', 'Oncology'], words: /\bbiotech|\bbiolog|\bdrugs?\b|\btherap|\bgenom|\bvaccines?\b/i };

const FOOD: Topic = { subindustries: ['Food and Beverage'], tags: ['Grocery', 'Food Tech', 'Food Service Robots & Machines'], near: ['Delivery', 'Agriculture'], words: /\bfood\b|\brestaurants?\b|\bgrocer|\bmeals?\b|\bbeverages?\b/i };

const SF = ['San Francisco'];
const NYC = ['New York', 'New York City'];
const BAY_AREA = ['San Francisco', 'Oakland', 'Palo Alto', 'Mountain View', 'Sunnyvale', 'Redwood City', 'San Carlos', 'Foster City', 'Santa Clara', 'San Mateo', 'San Jose', 'Menlo Park', 'Berkeley', 'Newark', 'Emeryville', 'South San Francisco', 'Burlingame', 'Cupertino'];

function company(id: string, split: Split, q: string, rule: (f: C, e: DevEntity) => Verdict): DevQuery {
  return { id, q, kind: 'company', split, rule: (e) => (e.fields.kind === 'company' ? rule(e.fields, e) : 'no') };
}

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

// ------------------------------------------------------------------ researchers (Nobel laureates 2008-2016)

type R = ResearcherFields;

function researcher(id: string, split: Split, q: string, rule: (f: R) => Verdict): DevQuery {
  return { id, q, kind: 'researcher', split, rule: (e) => (e.fields.kind === 'researcher' ? rule(e.fields) : 'no') };
}

/** An affiliation in one of `countries`; a laureate with no recorded institution is maybe. */
function worksIn(f: R, countries: readonly string[]): Verdict {
  if (f.affiliations.length === 0 || f.affiliations.every((a) => a.country === null)) return 'maybe';
  return bool(f.affiliations.some((a) => a.country !== null && countries.includes(a.country)));
}

function institution(f: R, words: RegExp): Verdict {
  if (f.affiliations.length === 0) return 'maybe';
  return bool(f.affiliations.some((a) => words.test(a.name)));
}

const USA = ['United States of America'];

/** Born in one of `countries` (the record's birth country; "Prussia (Germany)" counts as Germany); none recorded is maybe. */
function bornIn(f: R, countries: readonly string[]): Verdict {
  if (!f.birthCountry) return 'maybe';
  return bool(countries.some((c) => f.birthCountry === c || f.birthCountry!.endsWith(`(${c})`)));
}

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

// ------------------------------------------------------------------ papers (prize-winning papers)

type P = PaperFields;

function paper(id: string, split: Split, q: string, rule: (f: P) => Verdict): DevQuery {
  return { id, q, kind: 'paper', split, rule: (e) => (e.fields.kind === 'paper' ? rule(e.fields) : 'no') };
}

const titleHas = (f: P, words: RegExp): boolean => words.test(f.title.toLowerCase());

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

export function allQueries(): DevQuery[] {
  return [...COMPANY_QUERIES, ...RESEARCHER_QUERIES, ...PAPER_QUERIES];
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

