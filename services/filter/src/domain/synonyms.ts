import { stem, tokens } from './text.js';

/**
 * Term groups: a query word or phrase and the words pages use for the same thing. A filter criterion
 * is a list of groups; a passage satisfies it when it contains one phrase of every group.
 * `broader` lists what Relax adds when loosening.
 */
interface SynonymEntry {
  same: string[];
  broader?: string[];
  /**
   * Sub-sectors: a company whose own facts name one of them is in the sector (inferred), as industry
   * classifications nest them (biotech and telemedicine under healthcare, payments and lending under fintech,
   * travel and apparel under consumer goods and services).
   */
  narrower?: string[];
  /** False for words that are no sector ("female", "physicist"): they are not checked against sector facts only. */
  sector?: false;
}

const ENTRIES: SynonymEntry[] = [
  // Machine learning and its fields are parts of AI (a company tagged "Computer Vision" is an AI company, inferred);
  // "data" is not: loosened that far, "AI startups" took any analytics or data-pipeline company.
  { same: ['AI', 'artificial intelligence', 'AI-native'], broader: ['machine learning', 'deep learning', 'generative AI'],
    narrower: ['machine learning', 'deep learning', 'computer vision', 'natural language processing', 'generative AI'] },
  { same: ['machine learning', 'ML'], broader: ['AI', 'artificial intelligence', 'deep learning'] },
  { same: ['fintech', 'financial technology', 'financial services'], broader: ['payments', 'banking', 'insurtech', 'finance'],
    narrower: ['payments', 'banking', 'neobank', 'lending', 'credit and lending', 'consumer finance', 'asset management', 'wealth management', 'banking as a service', 'remittances'] },
  { same: ['climate tech', 'climatetech', 'cleantech', 'climate'], broader: ['energy', 'sustainability'] },
  { same: ['cybersecurity', 'cyber security', 'security'] },
  { same: ['mobility', 'transport'] },
  { same: ['startup', 'start-up', 'scaleup', 'scale-up'], broader: ['company', 'firm', 'business'] },
  { same: ['company', 'firm', 'business', 'startup', 'start-up'] },
  { same: ['raise', 'raised', 'secured', 'closed', 'landed', 'bagged', 'announced'] },
  { same: ['seed round', 'seed funding', 'seed financing', 'seed investment'] },
  { same: ['series a', 'series a round'] },
  { same: ['series b', 'series b round'] },
  { same: ['round', 'funding', 'financing', 'investment'] },
  { same: ['launch', 'launched', 'released', 'unveiled', 'introduced'] },
  { same: ['publish', 'published', 'appeared', 'publication date', 'publication year', 'date of publication'] },
  // A person's field and gender, as profiles and prize lines state them.
  { same: ['women', 'woman', 'female'], sector: false },
  // The economics prize is printed "Nobel Memorial Prize in Economic Sciences": a Nobel prize as people say it.
  { same: ['nobel prize', 'nobel memorial prize'], sector: false },
  // When someone was born, as profiles label it ("Born", "Date of birth", schema.org birthDate).
  { same: ['born', 'birth', 'date of birth', 'birth date', 'birthdate'], sector: false },
  { same: ['physicist', 'physics'], sector: false },
  { same: ['chemist', 'chemistry'], sector: false },
  { same: ['economist', 'economics'], sector: false },
  { same: ['biologist', 'biology'], sector: false },
  { same: ['mathematician', 'mathematics'], sector: false },
  { same: ['astronomer', 'astronomy', 'astrophysics'], sector: false },
  // Profiles label the founding year in several ways ("Founded", "Established", schema.org foundingDate).
  { same: ['founded', 'established', 'founding date', 'year founded', 'incorporated'] },
  { same: ['release', 'released', 'premiered', 'dropped'] },
  { same: ['open', 'opened', 'opening', 'opens', 'runs', 'running'] },
  { same: ['hire', 'hiring', 'recruiting'] },
  { same: ['novel', 'book'] },
  { same: ['researcher', 'scientist', 'professor'] },
  { same: ['lawyer', 'attorney', 'solicitor'] },
  { same: ['doctor', 'physician', 'clinician'] },
  { same: ['cto', 'chief technology officer'] },
  { same: ['ceo', 'chief executive officer', 'chief executive'] },
  { same: ['cfo', 'chief financial officer'] },
  { same: ['conference', 'summit', 'congress'] },
  { same: ['exhibition', 'exhibit', 'show'] },
  { same: ['paper', 'preprint', 'study'] },
  { same: ['ux', 'user experience'] },
  // Sector names as company directories print them (industry, sub-industry and tag vocabularies).
  // "Healthtech" and "digital health" name the healthcare sector as startup people say it: one group, so a
  // company whose sector is printed "Healthcare" (or a sub-sector of it) is one.
  { same: ['healthcare', 'health care', 'health tech', 'healthtech', 'digital health', 'healthcare IT', 'medical'], broader: ['health', 'medtech', 'biotech', 'therapeutics', 'diagnostics'],
    narrower: ['biotech', 'biotechnology', 'therapeutics', 'drug discovery', 'diagnostics', 'oncology', 'telemedicine', 'telehealth', 'consumer health', 'mental health', 'medical devices', 'medtech', 'pharmaceuticals', 'genomics', 'healthcare services'] },
  { same: ['education', 'edtech', 'e-learning', 'elearning', 'learning', 'tutoring', 'schools'] },
  { same: ['logistics', 'supply chain', 'delivery', 'shipping', 'freight', 'fulfillment'] },
  { same: ['climate', 'climate tech', 'cleantech', 'sustainability', 'renewable energy', 'solar power', 'energy storage', 'carbon'] },
  { same: ['hr tech', 'hr', 'human resources', 'recruiting', 'payroll', 'talent acquisition'] },
  { same: ['civic tech', 'govtech', 'government', 'election tech', 'civic'] },
  { same: ['consumer', 'b2c', 'consumers'],
    narrower: ['food and beverage', 'apparel', 'cosmetics', 'travel', 'leisure and tourism', 'gaming', 'video games', 'consumer electronics', 'home and personal', 'virtual and augmented reality', 'social media', 'social network'] },
  // "B2B" is the "B2B software and services" sector of company directories.
  { same: ['b2b', 'business-to-business', 'enterprise software', 'saas'] },
  { same: ['software', 'saas', 'b2b', 'enterprise software', 'platform', 'developer tools', 'api', 'cloud'] },
  // Databases, cloud infrastructure, monitoring and security for developers are tools developers buy; directories
  // file them as engineering (YC's "Engineering, Product and Design" sub-industry).
  { same: ['developer tools', 'devtools', 'devops', 'api', 'open source'],
    narrower: ['databases', 'cloud computing', 'monitoring', 'observability', 'devsecops', 'engineering, product and design'] },
  // Trust & safety (content moderation, platform integrity) is no security company, not even a loosened one.
  { same: ['security', 'cybersecurity', 'cyber security', 'devsecops', 'identity'], broader: ['fraud', 'compliance'] },
  { same: ['crypto', 'web3', 'blockchain', 'cryptocurrency'] },
  { same: ['real estate', 'proptech', 'housing', 'construction'] },
  { same: ['e-commerce', 'ecommerce', 'online retail', 'retail tech', 'marketplace'] },
  { same: ['biotech', 'biotechnology', 'synthetic biology', 'therapeutics', 'drug discovery'] },
  { same: ['gaming', 'games', 'video games'] },
  { same: ['food', 'food tech', 'food and beverage', 'restaurant tech', 'grocery'] },
  { same: ['robotics', 'robots', 'automation'] },
  // Sector names startup directories and people use for one industry each ("agtech" is agriculture, "insurtech"
  // insurance, "legaltech" legal services, "martech" marketing, "adtech" advertising).
  { same: ['agtech', 'agritech', 'agriculture', 'agricultural technology', 'farming'] },
  { same: ['insurtech', 'insurance'] },
  { same: ['legaltech', 'legal tech', 'legal'] },
  { same: ['martech', 'marketing tech', 'marketing'] },
  { same: ['adtech', 'ad tech', 'advertising'] },
  { same: ['femtech', "women's health", 'fertility tech'] },
  { same: ['mental health', 'mental health tech'] },
  { same: ['space', 'space tech', 'aerospace', 'aviation and space', 'space exploration'] },
  { same: ['hardware', 'hard tech', 'consumer electronics', 'devices'] },
];

/** Multi-word terms kept whole when a clause is split into groups: these, and every multi-word synonym below. */
const LISTED_PHRASES = [
  'series a', 'series b', 'series c', 'series d', 'seed round', 'machine learning', 'artificial intelligence',
  'deep learning', 'computer vision', 'science fiction', 'climate tech', 'health tech', 'digital health',
  'employment law', 'intellectual property', 'head of', 'music video', 'graph neural network', 'neural network',
  'chief technology officer', 'chief executive officer', 'vice president', 'smart thermostat', 'user experience',
  'family law', 'data protection', 'open source', 'electric bus', 'data centre', 'data center', 'real estate',
  'hr tech', 'civic tech', 'food tech', 'hard tech', 'retail tech', 'election tech', 'developer tools', 'supply chain',
  'human resources', 'enterprise software', 'consumer finance', 'financial services', 'drug discovery', 'synthetic biology',
  'renewable energy', 'solar power', 'energy storage', 'trust & safety', 'video games', 'food and beverage', 'nobel prize',
  // "e-commerce" as its words are tokenised.
  'e commerce',
];

/**
 * The listed phrases and every multi-word term of the synonym table ("financial technology", "digital health",
 * "consumer finance"), longest first, so a query's "financial technology" is one criterion, not "financial"
 * and "technology" each on its own.
 */
export const PHRASES = [...new Set([
  ...LISTED_PHRASES,
  ...ENTRIES.flatMap((e) => [...e.same, ...(e.broader ?? []), ...(e.narrower ?? [])]).map((t) => tokens(t).join(' ')).filter((t) => t.includes(' ')),
])].sort((a, b) => b.split(' ').length - a.split(' ').length);

/** Multi-word sector names of the table ("developer tools", "consumer electronics"), as tokens. */
export const SECTOR_PHRASES = [...new Set(
  ENTRIES.filter((e) => e.sector !== false).flatMap((e) => [...e.same, ...(e.broader ?? []), ...(e.narrower ?? [])])
    .map((t) => tokens(t).join(' ')).filter((t) => t.includes(' ')),
)];

function key(phrase: string): string {
  return tokens(phrase).map(stem).join(' ');
}

const BY_KEY = new Map<string, SynonymEntry>();
for (const entry of ENTRIES) {
  const k = key(entry.same[0]!);
  if (!BY_KEY.has(k)) BY_KEY.set(k, entry);
}
for (const entry of ENTRIES) for (const s of entry.same) if (!BY_KEY.has(key(s))) BY_KEY.set(key(s), entry);

/** A term and the phrases pages use for it. */
export function synonymGroup(term: string): string[] {
  const entry = BY_KEY.get(key(term));
  return entry ? [...new Set([term, ...entry.same])] : [term];
}

/** True when the term is a sector or topic word the table knows (directories print those as facts). */
export function isKnownTerm(term: string): boolean {
  const entry = BY_KEY.get(key(term));
  return entry !== undefined && entry.sector !== false;
}

const NARROWER_KEYS = new Set(ENTRIES.flatMap((e) => (e.narrower ?? []).map(key)));

/** True when the phrase names a sector the table knows, or one of their sub-sectors ("Payments", "Food and Beverage"). */
export function namesSector(phrase: string): boolean {
  return isKnownTerm(phrase) || NARROWER_KEYS.has(key(phrase));
}

/** Sub-sectors of the group's sector (none when the table knows none). */
export function narrowerTerms(group: readonly string[]): string[] {
  const out = new Set<string>();
  for (const term of group) for (const n of BY_KEY.get(key(term))?.narrower ?? []) if (!group.includes(n)) out.add(n);
  return [...out];
}

/**
 * Phrases of other sectors that hold one of the group's words ("consumer finance" is fintech, "consumer
 * health" healthcare): in a sector fact they name that other sector, not the group's.
 */
const foreignMemo = new Map<string, string[]>();

export function foreignCompounds(group: readonly string[]): string[] {
  const memoKey = group.join('\u0000');
  const known = foreignMemo.get(memoKey);
  if (known) return known;
  const found = foreignOf(group);
  foreignMemo.set(memoKey, found);
  return found;
}

function foreignOf(group: readonly string[]): string[] {
  const own = new Set([...group, ...narrowerTerms(group)].map((t) => t.toLowerCase()));
  const words = new Set(group.filter((t) => !t.includes(' ')).map((t) => t.toLowerCase()));
  const out = new Set<string>();
  for (const entry of ENTRIES) {
    for (const phrase of [...entry.same, ...(entry.narrower ?? [])]) {
      const p = phrase.toLowerCase();
      if (!p.includes(' ') || own.has(p)) continue;
      if (p.split(/\s+/).some((w) => words.has(w))) out.add(p);
    }
  }
  return [...out];
}

/** The group widened by Relax, or null when nothing broader is known. */
export function broaderGroup(group: readonly string[]): string[] | null {
  const entry = BY_KEY.get(key(group[0]!));
  const broader = entry?.broader?.filter((b) => !group.includes(b)) ?? [];
  return broader.length > 0 ? [...group, ...broader] : null;
}

/** Splits a clause into terms: known phrases first, then remaining content words. */
export function splitTerms(clauseWords: string[]): string[] {
  const terms: string[] = [];
  let i = 0;
  outer: while (i < clauseWords.length) {
    // "ed-tech", "fin tech", "clean tech": two words that written as one are a known term ("edtech") are that term.
    const next = clauseWords[i + 1];
    if (next !== undefined && !BY_KEY.has(key(clauseWords[i]!)) && BY_KEY.has(key(`${clauseWords[i]}${next}`))) {
      terms.push(`${clauseWords[i]}${next}`.toLowerCase());
      i += 2;
      continue;
    }
    for (const phrase of PHRASES) {
      const parts = phrase.split(' ');
      if (parts.every((p, j) => stem(clauseWords[i + j] ?? '') === stem(p))) {
        terms.push(clauseWords.slice(i, i + parts.length).join(' '));
        i += parts.length;
        continue outer;
      }
    }
    terms.push(clauseWords[i]!);
    i++;
  }
  return terms;
}
