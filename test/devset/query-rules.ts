/**
 * The rules the development set's queries are written with: verdicts over the records' structured fields
 * (yes, no, maybe), the topics and places they name, and one constructor per kind. Shared by the original
 * queries (queries.ts) and the dev-only paraphrases (paraphrases.ts).
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

export const bool = (b: boolean): Verdict => (b ? 'yes' : 'no');
export const lower = (s: string) => s.toLowerCase();

// ------------------------------------------------------------------ company conditions

export type C = CompanyFields;

export function cityVerdict(f: C, cities: readonly string[]): Verdict {
  if (f.places.length === 0) return f.remote ? 'no' : 'maybe';
  const want = cities.map(lower);
  return bool(f.places.some((p) => p.city !== null && want.includes(lower(p.city))));
}

/** Headquartered in: the record's first location; a city among its other locations is arguable (maybe). */
export function hqCityVerdict(f: C, cities: readonly string[]): Verdict {
  const v = cityVerdict(f, cities);
  if (v !== 'yes') return v;
  const want = cities.map(lower);
  return f.places[0]?.city && want.includes(lower(f.places[0].city)) ? 'yes' : 'maybe';
}

/** Country or US state: a record with a region only ("CA, USA") still answers a country question. */
export function countryVerdict(f: C, countries: readonly string[]): Verdict {
  if (f.places.length === 0) return f.remote ? 'no' : 'maybe';
  return bool(f.places.some((p) => p.country !== null && countries.includes(p.country)));
}

/** In a US state (the record's region code): a record with no place is maybe, a remote-only one no. */
export function stateVerdict(f: C, code: string): Verdict {
  if (f.places.length === 0) return f.remote ? 'no' : 'maybe';
  return bool(f.places.some((p) => p.country === 'USA' && p.region === code));
}

export function regionVerdict(f: C, region: string): Verdict {
  if (f.regions.length === 0 || f.regions.includes('Unspecified')) return 'maybe';
  return bool(f.regions.includes(region));
}

export interface Topic {
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

export function topicVerdict(f: C, t: Topic): Verdict {
  if (t.industries?.includes(f.industry)) return 'yes';
  if (f.subindustry && t.subindustries?.includes(f.subindustry)) return 'yes';
  if (f.tags.some((tag) => t.tags?.includes(tag))) return 'yes';
  if (t.near?.some((n) => f.tags.includes(n) || f.subindustry === n)) return 'maybe';
  if (t.words && (t.words.test(f.oneLiner) || t.words.test(f.longDescription))) return 'maybe';
  return 'no';
}

export function sizeVerdict(f: C, test: (n: number) => boolean): Verdict {
  return f.teamSize === null ? 'maybe' : bool(test(f.teamSize));
}

export const FINTECH: Topic = { industries: ['Fintech'], tags: ['Fintech', 'Payments', 'Banking as a Service'], near: ['Insurance', 'Investing', 'Crypto / Web3', 'Finance and Accounting'], words: /\bfintech\b|\bpayments?\b|\bbanking\b|financial services/i };
export const HEALTH: Topic = { industries: ['Healthcare'], tags: ['Healthcare', 'Health Tech', 'Digital Health', 'Consumer Health Services', 'Telemedicine', 'Biotech'], near: ['Health & Wellness', 'Health Insurance', 'Fitness', 'Femtech'], words: /\bhealth|\bmedical\b|\bpatients?\b|\bclinic/i };
export const EDUCATION: Topic = { industries: ['Education'], tags: ['Education', 'Edtech', 'eLearning', 'AI-Enhanced Learning'], near: ['Diversity & Inclusion'], words: /\beducat|\bschools?\b|\bstudents?\b|\bteachers?\b|\blearning\b/i };
export const B2B_SOFTWARE: Topic = { industries: ['B2B'], tags: ['SaaS', 'B2B', 'Enterprise Software', 'Developer Tools', 'API'], near: ['Analytics'], words: /\bsoftware\b|\bsaas\b/i };
export const DEVTOOLS: Topic = { subindustries: ['Engineering, Product and Design'], tags: ['Developer Tools', 'DevOps', 'DevSecOps', 'API', 'Open Source', 'Databases', 'Cloud Computing', 'Monitoring'], near: ['Infrastructure', 'Data Engineering'], words: /\bdevelopers?\b|\bdevops\b|\bsoftware engineers?\b/i };
export const AI: Topic = { tags: ['AI', 'Artificial Intelligence', 'Machine Learning', 'Computer Vision', 'AI-Enhanced Learning'], near: ['Data Science', 'Robotics', 'Self-Driving Vehicles', 'Automation'], words: /\bAI\b|artificial intelligence|machine learning|computer vision/ };
export const CLIMATE: Topic = { subindustries: ['Energy'], tags: ['Climate', 'Solar Power', 'Renewable Energy', 'Energy Storage', 'Energy', 'Electric Vehicles', 'Small Modular Reactors'], near: ['Agriculture'], words: /\bclimate\b|\bcarbon\b|\bsolar\b|\brenewable\b|\bclean energy\b|\bemissions?\b/i };
export const LOGISTICS: Topic = { subindustries: ['Supply Chain and Logistics'], tags: ['Logistics', 'Supply Chain', 'Delivery', 'Autonomous Delivery'], near: ['Grocery', 'E-commerce'], words: /\blogistics?\b|supply chain|\bshipping\b|\bfreight\b|\bdelivery\b/i };
export const HR: Topic = { subindustries: ['Human Resources', 'Recruiting and Talent'], tags: ['HR Tech', 'Payroll', 'Human Resources', 'Talent Acquisition'], near: ['Remote Work', 'Diversity & Inclusion'], words: /\bpayroll\b|\brecruit|human resources|\bHR\b|\bhiring\b/ };
export const CONSUMER: Topic = { industries: ['Consumer'] };
export const CIVIC: Topic = { industries: ['Government'], tags: ['Civic Tech', 'GovTech'], near: ['Legal', 'LegalTech'], words: /\bgovernment\b|\bcivic\b|\bvot(e|ing|ers?)\b|\bdemocra/i };
export const ECOMMERCE: Topic = { subindustries: ['Retail'], tags: ['E-commerce', 'Retail', 'Marketplace', 'Grocery'], near: ['Delivery', 'Retail Tech'], words: /e-?commerce|online store|\bretail|\bshopping\b/i };
export const SECURITY: Topic = { subindustries: ['Security'], tags: ['Security', 'DevSecOps', 'Identity', 'Compliance', 'Biometrics'], words: /\bsecurity\b|\bfraud\b|\bidentity\b|\bcompliance\b/i };
export const BIOTECH: Topic = { subindustries: ['Therapeutics', 'Industrial Bio', 'Drug Discovery and Delivery', 'Diagnostics'], tags: ['Biotech', 'Synthetic Biology', 'Drug discovery', 'Therapeutics', 'Diagnostics', 'Oncology'], words: /\bbiotech|\bbiolog|\bdrugs?\b|\btherap|\bgenom|\bvaccines?\b/i };

export const FOOD: Topic = { subindustries: ['Food and Beverage'], tags: ['Grocery', 'Food Tech', 'Food Service Robots & Machines'], near: ['Delivery', 'Agriculture'], words: /\bfood\b|\brestaurants?\b|\bgrocer|\bmeals?\b|\bbeverages?\b/i };

export const SF = ['San Francisco'];
export const NYC = ['New York', 'New York City'];
export const BAY_AREA = ['San Francisco', 'Oakland', 'Palo Alto', 'Mountain View', 'Sunnyvale', 'Redwood City', 'San Carlos', 'Foster City', 'Santa Clara', 'San Mateo', 'San Jose', 'Menlo Park', 'Berkeley', 'Newark', 'Emeryville', 'South San Francisco', 'Burlingame', 'Cupertino'];

export function company(id: string, split: Split, q: string, rule: (f: C, e: DevEntity) => Verdict): DevQuery {
  return { id, q, kind: 'company', split, rule: (e) => (e.fields.kind === 'company' ? rule(e.fields, e) : 'no') };
}


// ------------------------------------------------------------------ researchers (Nobel laureates 2008-2016)

export type R = ResearcherFields;

export function researcher(id: string, split: Split, q: string, rule: (f: R) => Verdict): DevQuery {
  return { id, q, kind: 'researcher', split, rule: (e) => (e.fields.kind === 'researcher' ? rule(e.fields) : 'no') };
}

/** An affiliation in one of `countries`; a laureate with no recorded institution is maybe. */
export function worksIn(f: R, countries: readonly string[]): Verdict {
  if (f.affiliations.length === 0 || f.affiliations.every((a) => a.country === null)) return 'maybe';
  return bool(f.affiliations.some((a) => a.country !== null && countries.includes(a.country)));
}

export function institution(f: R, words: RegExp): Verdict {
  if (f.affiliations.length === 0) return 'maybe';
  return bool(f.affiliations.some((a) => words.test(a.name)));
}

export const USA = ['United States of America'];

/** Born in one of `countries` (the record's birth country; "Prussia (Germany)" counts as Germany); none recorded is maybe. */
export function bornIn(f: R, countries: readonly string[]): Verdict {
  if (!f.birthCountry) return 'maybe';
  return bool(countries.some((c) => f.birthCountry === c || f.birthCountry!.endsWith(`(${c})`)));
}


// ------------------------------------------------------------------ papers (prize-winning papers)

export type P = PaperFields;

export function paper(id: string, split: Split, q: string, rule: (f: P) => Verdict): DevQuery {
  return { id, q, kind: 'paper', split, rule: (e) => (e.fields.kind === 'paper' ? rule(e.fields) : 'no') };
}

export const titleHas = (f: P, words: RegExp): boolean => words.test(f.title.toLowerCase());
