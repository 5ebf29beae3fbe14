import type { EntityType } from '@leadfinder/wire';
import { SECTOR_PHRASES as SECTOR_NAMES } from './synonyms.js';
import { containsPhrase, lightStems, stems } from './text.js';

/**
 * Words that name each entity kind. In a query the earliest cue wins ("CTOs of fintech companies" asks
 * for professionals); in a page the earliest cue of a descriptor classifies the subject
 * ("the CTO of Finbolt, a London fintech company" is a professional).
 */
export const TYPE_NOUNS: Record<EntityType, readonly string[]> = {
  music_video: ['music video', 'video clip', 'music clip'],
  conference: ['conference', 'summit', 'congress', 'symposium', 'meetup', 'trade fair', 'trade show', 'expo', 'convention', 'hackathon', 'workshop', 'webinar', 'event'],
  exhibition: ['exhibition', 'exhibit', 'retrospective', 'art show', 'installation'],
  paper: ['paper', 'preprint', 'publication', 'journal article', 'study'],
  researcher: [
    'researcher', 'scientist', 'professor', 'postdoc', 'postdoctoral', 'academic', 'research fellow', 'phd student',
    'laureate', 'economist', 'physicist', 'chemist', 'biologist', 'mathematician', 'astronomer', 'scholar',
    'prize winner', 'nobelist',
  ],
  clinician: [
    'clinician', 'doctor', 'physician', 'surgeon', 'cardiologist', 'dermatologist', 'pediatrician', 'paediatrician',
    'neurologist', 'oncologist', 'psychiatrist', 'dentist', 'general practitioner', 'radiologist', 'orthopaedist',
    'orthopedist', 'gynaecologist', 'gynecologist', 'nurse', 'therapist', 'physiotherapist',
  ],
  lawyer: ['lawyer', 'attorney', 'solicitor', 'barrister', 'legal counsel', 'notary', 'advocate'],
  freelancer: ['freelance', 'freelancer', 'contractor', 'self-employed', 'independent consultant'],
  book: ['book', 'novel', 'memoir', 'biography', 'cookbook', 'thriller', 'short story collection', 'poetry collection', 'nonfiction title'],
  news: ['news', 'news article', 'headline', 'press coverage', 'news story', 'news stories'],
  product: [
    'product', 'app', 'device', 'gadget', 'thermostat', 'e-bike', 'headphone', 'smartwatch', 'wearable', 'speaker',
    'robot vacuum', 'software tool', 'tool', 'camera', 'air purifier', 'smart lock', 'coffee grinder',
  ],
  professional: [
    'professional', 'people', 'executive', 'cto', 'ceo', 'cfo', 'coo', 'cmo', 'chief', 'founder', 'co-founder',
    'head of', 'director', 'manager', 'vp', 'vps', 'vice president', 'engineer', 'designer', 'marketer', 'recruiter',
    'consultant', 'product lead', 'team lead', 'person', 'women', 'woman', 'men', 'individual', 'expert', 'leader', 'pioneer',
  ],
  company: [
    'startup', 'start-up', 'company', 'companies', 'firm', 'business', 'scaleup', 'scale-up', 'maker', 'manufacturer',
    'provider', 'vendor', 'agency', 'brand', 'employer', 'sme', 'fintech', 'insurtech', 'proptech', 'enterprise',
    'organization', 'organisation', 'nonprofit', 'non-profit', 'charity', 'ngo', 'org',
  ],
};

/** Person nouns that say no profession: the rest of the query decides which kind of person. */
const WEAK_PERSON_NOUNS: ReadonlySet<string> = new Set(['people', 'person', 'women', 'woman', 'men', 'individual', 'expert', 'leader', 'pioneer']);
/** Words after a person noun that make it a modifier ("women-led", "people-first", "women-founded"), by light stem. */
const PERSON_AS_MODIFIER: ReadonlySet<string> = new Set(['led', 'own', 'owned', 'run', 'found', 'founded', 'back', 'backed', 'focus', 'focused', 'first', 'centric', 'centered']);
const RESEARCH_CONTEXT = /\b(?:nobel|research(?:ers?)?|scien(?:ce|tists?)|professors?|universit(?:y|ies)|phd|academi[ac]s?|laureates?)\b/i;

/** Multi-word sector names whose words include a kind noun ("developer tools", "consumer electronics"). */
const SECTOR_PHRASES = SECTOR_NAMES.map((p) => lightStems(p)).filter((p) => p.length > 1);

/** Fields of science and scholarly words: "articles" among them are papers. */
const SCIENCE_FIELD = /\b(?:physics|chemistry|biology|mathematics|astronomy|astrophysics|neuroscience|genetics|economics|medicine|medical|scientific|scholarly|academic|journal|peer[- ]reviewed|research)\b/i;

/** Tie-break order when two cues start at the same word. */
const PRIORITY: EntityType[] = [
  'music_video', 'conference', 'exhibition', 'paper', 'researcher', 'clinician', 'lawyer', 'freelancer', 'book',
  'news', 'product', 'professional', 'company',
];

export interface TypeCue {
  type: EntityType;
  noun: string;
  /** Word index of the cue in the text. */
  at: number;
}

/** Every entity-type cue in a text, earliest first. */
export function typeCues(text: string): TypeCue[] {
  // Kind nouns are curated words: inflection only, so "public" is no "publication" (Porter folds both to "public").
  const words = lightStems(text);
  // A kind noun inside a sector's name ("developer tools companies", "consumer electronics makers") names the
  // sector, not the kind.
  const inSector = new Set<number>();
  for (const phrase of SECTOR_PHRASES) {
    for (let i = 0; i + phrase.length <= words.length; i++) if (phrase.every((w, j) => words[i + j] === w)) for (let j = 0; j < phrase.length; j++) inSector.add(i + j);
  }
  const cues: TypeCue[] = [];
  for (const type of PRIORITY) {
    for (const noun of TYPE_NOUNS[type]) {
      const needle = lightStems(noun);
      for (let i = 0; i + needle.length <= words.length; i++) {
        // "women-led startups", "veteran-owned businesses": a person noun that says who leads or owns names no kind.
        if (WEAK_PERSON_NOUNS.has(noun) && PERSON_AS_MODIFIER.has(words[i + needle.length] ?? '')) continue;
        if (needle.every((n, j) => words[i + j] === n) && !needle.every((_n, j) => inSector.has(i + j))) cues.push({ type, noun, at: i });
      }
    }
  }
  // Longer cues at the same place first ("music video" over "video"), then kind priority.
  return cues.sort((a, b) => a.at - b.at || lightStems(b.noun).length - lightStems(a.noun).length || PRIORITY.indexOf(a.type) - PRIORITY.indexOf(b.type));
}

/** Research as a thing: "research on/about/into X", or a field's research ("chemistry research"). */
const RESEARCH_WORK = /\bresearch\s+(?:on|about|into|in)\b|\b(?:physics|chemistry|biology|astronomy|astrophysics|genetics|neuroscience|medical|scientific)\s+research\b(?!\s+(?:compan|firm|startup|lab|institute|cent(?:er|re)|group))/i;

/** Scholarly writing named by a word that is no kind noun of its own ("scholarly works", "academic articles"). */
const SCHOLARLY_WORK = /\b(?:scholarly|academic|scientific|peer[- ]reviewed|refereed)\s+(works|articles?|writings)\b/i;

/**
 * The earliest cue, unless the next word is another kind's cue: then that one, the head of the compound
 * ("academic publications", "company founders"), and so on along the compound.
 */
function headOfCompound(cues: readonly TypeCue[]): TypeCue | undefined {
  let head = cues[0];
  while (head) {
    const end = head.at + lightStems(head.noun).length;
    const next = cues.find((c) => c.at === end && c.type !== head!.type);
    if (!next) break;
    head = next;
  }
  return head;
}

/** The entity kind a query asks for: its earliest cue; company when it names none. */
export function detectEntityType(query: string): { type: EntityType; noun: string | null } {
  // "scholarly works on proteins", "academic articles": scholarly writing is a paper, though "works" names no kind.
  const scholarly = SCHOLARLY_WORK.exec(query);
  if (scholarly) return { type: 'paper', noun: scholarly[1]!.toLowerCase() };
  const cues = typeCues(query);
  // "news about …" and "papers on …" name the kind even when a company noun comes later.
  // In a compound the last noun is the head: "academic publications" are papers, "startup founders" people.
  const first = headOfCompound(cues);
  // "physics articles", "research articles on graphene": an article in a field of science is a paper; no
  // kind noun of its own, since "news articles" are news.
  if (!first && /\barticles?\b/i.test(query) && (RESEARCH_CONTEXT.test(query) || SCIENCE_FIELD.test(query))) {
    return { type: 'paper', noun: /\barticles\b/i.test(query) ? 'articles' : 'article' };
  }
  // "economics Nobel winners", "Nobel recipients in chemistry": winners of a research prize are researchers.
  // "research on the cosmic microwave background", "1970s chemistry research": research said as a thing is its papers.
  if (!first && RESEARCH_WORK.test(query)) return { type: 'paper', noun: 'research' };
  if (!first && /\bnobel\b/i.test(query) && /\b(?:winners?|recipients?|honou?rees?|awardees?)\b/i.test(query)) {
    return { type: 'researcher', noun: /\b(winners?|recipients?|honou?rees?|awardees?)\b/i.exec(query)![1]!.toLowerCase() };
  }
  if (!first) return { type: 'company', noun: null };
  // "marketplaces for freelancers", "software for doctors": the people after "for" are whom it serves, not the kind.
  if (first.at > 1 && lightStems(query)[first.at - 1] === 'for' && !cues.some((c) => c.at < first.at)) return { type: 'company', noun: null };
  // "women who won the Nobel prize", "people at Stanford who won a Nobel": a plain person noun with a
  // research prize or a research word asks for researchers.
  if (first.type === 'professional' && WEAK_PERSON_NOUNS.has(first.noun) && RESEARCH_CONTEXT.test(query)) return { type: 'researcher', noun: first.noun };
  // "freelance" as an adjective before a profession still means a freelancer.
  return { type: first.type, noun: first.noun };
}

/** True when a text uses a noun of this kind. */
export function mentionsType(text: string, type: EntityType): boolean {
  const words = stems(text);
  return TYPE_NOUNS[type].some((noun) => containsPhrase(words, noun));
}
