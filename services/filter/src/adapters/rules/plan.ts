import nlp from 'compromise';
import type { DateRange, EntityType, FunnelFilter, ResearchPlan, SiteScope } from '@leadfinder/wire';
import { daysBack, describeRange, isoDay, OPEN_START, readPeriod, searchYear, unclearPeriodMessage } from '../../domain/dates.js';
import { detectEntityType, TYPE_NOUNS } from '../../domain/entity-types.js';
import { anyFormTitle, cohortTitle, FORM_TITLES, NOT_FORM_TITLES, readConstraints, sizeTitle, type TypedConstraints } from '../../domain/constraints.js';
import { areaCore, bornPlaceBefore, findPlace, isPlaceWord, knownPlace, placeBeside, placeContains, mainCountriesWithin, placeNames, regionsOutside, theFor, type Place } from '../../domain/places.js';
import { parseSites, steerByPageTypes } from '../../domain/sites.js';
import { EVENT_START, recentAsWindow, stageAsEvent, stateAsQualifier } from './query-rewrites.js';
import { specOf, specRecord, type FilterSpec } from '../../domain/spec.js';
import { isKnownTerm, splitTerms, synonymGroup } from '../../domain/synonyms.js';
import { derivedForms, lightStem, lightStems, stem, tokens } from '../../domain/text.js';

/**
 * Praise no page prints as a fact ("seminal papers", "promising startups", "top fintech companies"): neither
 * checked nor put in a filter's title, which says only what is checked.
 */
const PRAISE = [
  'seminal', 'influential', 'landmark', 'groundbreaking', 'notable', 'famous', 'important', 'major', 'prominent',
  'renowned', 'well-known', 'popular', 'successful', 'promising', 'innovative', 'emerging', 'hot', 'fast-growing',
  'high-growth', 'great', 'good', 'interesting', 'key', 'top', 'best', 'leading',
];
const PRAISE_WORDS = new RegExp(`(?<![\\w-])(?:${PRAISE.join('|')})(?![\\w-])\\s*`, 'gi');

/** A prize named with its year before it ("the 2005 Nobel Prize in Chemistry", "the 2003 prize"), and the word tying it on. */
const PRIZE_OF_YEAR = /\b(?:(behind|for|of|from|(?:that|which|who)\s+(?:led\s+to|earned|won|received|shared)|led\s+to|won|received|shared|cited\s+(?:for|by|in)|recogni[sz]ed\s+(?:by|with|in))\s+)?(?:the\s+|a\s+)?((?:19|20)\d{2})\s+((?:\p{Lu}[\p{L}]*\s+){0,3}[Pp]rize(?:\s+in\s+\p{Lu}[\p{L}]*(?:\s+\p{Lu}[\p{L}]*)?)?)/u;

/** A year before a prize's winners ("2005 Nobel Prize winners", "2012 Nobel laureates in physics"): year, prize name, noun, rest. */
const WINNERS_OF_YEAR = /^((?:19|20)\d{2})\s+((?:(?!(?:Prize|Award|Medal)\b)\p{Lu}[\p{L}]*\s+){1,3})(?:[Pp]rize\s+)?(winners?|laureates?|recipients?|awardees?|honou?rees?)\b(.*)$/u;

const RELATIVE = new Set(['that', 'which', 'who', 'whose', 'have', 'has', 'had', 'recently', 'just', 'were', 'was', 'is', 'are']);
const DROP = new Set([
  'a', 'an', 'the', 'of', 'in', 'on', 'at', 'to', 'for', 'by', 'with', 'from', 'and', 'or', 'about', 'some', 'any',
  'all', 'find', 'list', 'show', 'me', 'give', 'search', 'looking', 'look', 'top', 'best', 'based', 'located',
  // Participles left behind when a place or prize is cut out ("working in Japan", "prize-winning").
  'working', 'living', 'operating', 'headquartered', 'winning', 'won', 'award-winning', 'prize-winning', 'hq', 'hqd', 'hqed',
  // "who worked in the UK", "who lives in Japan": once the place is read, the verb that tied it asks nothing more.
  'worked', 'works', 'lived', 'lives', 'resides', 'resided',
  // "chemists affiliated with Harvard": the institution is what is checked.
  'affiliated', 'associated',
  // Intensifiers: "fully remote" is checked as "remote".
  'fully', 'entirely', 'completely', 'truly', 'very',
  // Vague size words ("small AI startups", "mid-sized companies"): no page prints them; a number does (size).
  'small', 'smaller', 'tiny', 'mid', 'midsize', 'midsized', 'sized', 'big', 'large', 'larger', 'huge',
  ...PRAISE,
  // "companies employing more than 500 people": the verb of a headcount read as a size.
  'employing', 'employs', 'employ',
  // Verbs that link a thing to its event, which pages do not print ("papers that led to a Nobel prize",
  // "cited for the 2001 prize"): the event itself is what is checked.
  'led', 'lead', 'leading', 'resulted', 'contributed', 'cited', 'recognized', 'recognised', 'honored', 'honoured',
  // "papers written by Nobel laureates", "the most cited papers": how a paper came about or is ranked, not what it is.
  'written', 'authored', 'co-authored', 'coauthored', 'most', 'highly', 'widely',
]);
/**
 * Words people use for companies in a query ("climate tech ventures", "teams hiring in Berlin", "e-commerce outfits") that are no kind
 * noun on pages ("joined the team" says nothing of a page's kind): here they only name the kind, as "startups" does.
 */
const QUERY_COMPANY_NOUNS = ['venture', 'ventures', 'team', 'teams', 'outfit', 'outfits'];
const QUERY_COMPANY_NOUN = new RegExp(`\\b(?:${QUERY_COMPANY_NOUNS.join('|')})\\b`, 'gi');

/** Nouns that only name the kind; the extractor already guarantees the kind, so they are not checked. */
const GENERIC_NOUNS = new Set(
  [
    'startup', 'start-up', 'company', 'firm', 'business', 'scaleup', 'scale-up', 'people', 'professional', 'news',
    'news article', 'news story', 'headline', 'product', 'researcher', 'scientist', 'academic', 'lawyer',
    'attorney', 'doctor', 'clinician', 'physician', 'freelancer', 'freelance', 'book', 'paper', 'publication',
    'conference', 'exhibition', 'music video', 'app', 'tool', 'device', 'organization', 'organisation', 'organizations',
    'organisations', 'compani', 'startups', 'companies', 'businesses', 'firms', 'laureate', 'laureates',
    'winner', 'winners', 'prize winner', 'scholar', 'scholars', 'nobelist', 'org', 'orgs', 'article', 'articles', 'professor',
    ...QUERY_COMPANY_NOUNS,
  ].map((n) => tokens(n).map(stem).join(' ')),
);

/**
 * Words that say a paper is scholarly ("scientific", "academic", "peer-reviewed", "research", "journal"): every
 * paper is, and no page prints them as a topic, so for papers they are no criterion.
 */
/** Words that say what kind of work a paper on a topic is ("theory"), left out beside the topic itself. */
const WEAK_PAPER_WORDS: ReadonlySet<string> = new Set(['theory', 'theories', 'theoretical']);

const SCHOLARLY_REGISTER: ReadonlySet<string> = new Set(['scientific', 'scholarly', 'academic', 'research', 'peer', 'reviewed', 'refereed', 'journal']);

/** "the most cited", "highly influential": ranking words no page prints as a fact about the thing. */
const RANKING_WORDS = /(?<![\w-])(?:most|highly|widely)\s+(?:cited\s+)?(?=\S)/gi;
/** A paper's kind said in the title already ("paper", "article", "study", "work"). */
const PAPER_NOUN = /\b(?:papers?|preprints?|publications?|articles?|stud(?:y|ies)|works?|writings?)\b/i;
const REGISTER_WORDS = /(?<![\w-])(?:scientific|scholarly|academic|research|peer[- ]reviewed|refereed|journal)(?![\w-])\s*/gi;

const KIND_LABEL: Record<EntityType, string> = {
  company: 'company', professional: 'professional', researcher: 'researcher', product: 'product',
  clinician: 'clinician', lawyer: 'lawyer', book: 'book', paper: 'paper', music_video: 'music video',
  exhibition: 'exhibition', conference: 'conference', freelancer: 'freelancer', news: 'news article',
};

function article(phrase: string): string {
  return /^[aeiou]/i.test(phrase) && !/^(uni|eu|one)/i.test(phrase) ? 'an' : /^(ai|ml|ux|hr)\b/i.test(phrase) ? 'an' : 'a';
}

/** A plural noun in the singular, by compromise's inflection ("businesses" → "business", "orgs" → "org"). */
function singularWord(w: string): string {
  // "CTOs", "VPs": an acronym keeps its capitals.
  if (/^[A-Z]{2,}s$/.test(w)) return w.slice(0, -1);
  if (/^(news|series|business|press|analysis|people|physics|economics|mathematics)$/i.test(w) || /(ss|us)$/i.test(w)) return w;
  const byNlp = nlp(w).nouns().toSingular().text().trim();
  // compromise reads some plurals as verbs ("firms"): then the plain rule.
  if (byNlp && !byNlp.includes(' ') && byNlp.toLowerCase() !== w.toLowerCase()) return byNlp;
  if (/ies$/i.test(w)) return `${w.slice(0, -3)}y`;
  return w.replace(/s$/i, '');
}

/** Every word of the kind nouns ("winner" of "prize winner"), by inflection: "businesses" is "business". */
const KIND_NOUN_STEMS = new Set([...Object.values(TYPE_NOUNS).flat(), ...QUERY_COMPANY_NOUNS].flatMap((n) => lightStems(n)));

/**
 * The head phrase with its kind noun in the singular ("AI startups" → "AI startup"): the noun the kind was read
 * from when the head has it ("developer tools companies" → "developer tools company"), else its first plural kind noun.
 */
function singularHead(head: string, noun: string | null): string {
  const words = head.split(' ');
  const nounStem = noun ? lightStems(noun).at(-1) : undefined;
  const isKindNoun = (w: string) => /s$/i.test(w) && KIND_NOUN_STEMS.has(lightStem(tokens(w)[0] ?? ''));
  const byNoun = nounStem ? words.findIndex((w) => /s$/i.test(w) && lightStem(tokens(w)[0] ?? '') === nounStem) : -1;
  // "marketplaces for freelancers": with no kind noun read, the head is the plural before "for", not whom it serves.
  const forAt = noun ? -1 : words.findIndex((w, i) => i > 0 && w.toLowerCase() === 'for');
  const beforeFor = forAt > 0 && /s$/i.test(words[forAt - 1]!) && !/(?:ss|us)$/i.test(words[forAt - 1]!) ? forAt - 1 : -1;
  const at = byNoun >= 0 ? byNoun : beforeFor >= 0 ? beforeFor : words.findIndex((w, i) => (forAt < 0 || i < forAt) && isKindNoun(w));
  if (at >= 0) words[at] = singularWord(words[at]!);
  // "women founders", "women in AI": one of them is a woman founder, a woman in AI (not "led by a woman" after the noun).
  return words.map((w, i) => (/^(?:wo)?men$/i.test(w) && (at < 0 || i <= at) ? w.replace(/en$/i, 'an') : w)).join(' ');
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function cut(text: string, start: number, end: number): string {
  return tidy(`${text.slice(0, start)} ${text.slice(end)}`);
}

/** Brackets a cut emptied ("B2B firms (50 to 500 employees)" once the size is read) go with what they held. */
function tidy(text: string): string {
  return text.replace(/\(\s*\)|\[\s*\]/g, ' ').replace(/\s+/g, ' ').trim();
}

/** Term groups of a clause: known phrases kept whole, stopwords dropped, synonyms attached. */
function groupsOf(words: string[]): string[][] {
  return alternativeGroups(termAlternatives(words, (t) => !DROP.has(t) && !RELATIVE.has(t) && t.length > 1));
}

/**
 * Terms of a clause with "or" read as any-of: "superconductivity or superfluids" is one criterion that
 * either word meets, not two. Each entry lists the alternatives of one criterion. An alternative runs
 * from the "or" to the nearest word that is no term ("papers on graphene or carbon nanotubes published"
 * → graphene | "carbon nanotubes"), so a multi-word alternative stays one phrase.
 */
function termAlternatives(words: string[], keep: (term: string) => boolean): string[][] {
  const out: string[][] = [];
  let run: string[][] = [[]];
  const flush = () => {
    const segments = run.filter((seg) => seg.length > 0);
    if (run.length > 1 && segments.length > 1) out.push(segments.map((seg) => seg.join(' ')));
    else for (const seg of segments) for (const t of seg) out.push([t]);
    run = [[]];
  };
  for (const t of splitTerms(words)) {
    const lower = t.toLowerCase();
    if (lower === 'or') {
      run.push([]);
      continue;
    }
    // Articles are transparent ("… or the …"); any other word that is no term ends the run.
    if (lower === 'a' || lower === 'an' || lower === 'the') continue;
    if (!keep(t)) {
      flush();
      continue;
    }
    run[run.length - 1]!.push(t);
  }
  flush();
  return out;
}

/** One term group per criterion: the synonyms of every alternative together. */
function alternativeGroups(alternatives: string[][]): string[][] {
  return alternatives.map((alts) => [...new Set(alts.flatMap((t) => synonymGroup(t)))]);
}

export interface ParsedQuery {
  entityType: EntityType;
  noun: string | null;
  head: string;
  qualifiers: string[];
  /** The qualifiers as criteria: each entry's terms are alternatives ("fintech or insurance"). */
  qualifierAlternatives: string[][];
  place: Place | null;
  /** Other places any of which will do ("in Los Angeles or Chicago"). */
  placeAlternatives?: Place[];
  /** The query asks for entities outside the place ("outside the United States"). */
  outside: boolean;
  /** Where a person was born ("born in Japan"), checked apart from where they are based. */
  birthPlace: Place | null;
  event: string | null;
  dateRange: DateRange | null;
  /** Organisation form, size, hiring and cohort, read before the rest. */
  typed: TypedConstraints;
  /** "education" of "working on education": the topic as the query phrased it, for the filter title. */
  topicPhrase: string | null;
  /** "makes", "sells": the verb of the topic when the query said what they make or sell; null for "works on". */
  topicVerb?: string | null;
  /** What the query rules out ("fintech" of "excluding fintech"), as it phrased it; null when nothing. */
  excluded?: string | null;
  /** For the user: period-like words that were left out (one `status` event each). */
  notes: string[];
}

/** The next place of a list after the first ("… or Chicago", ", Austin and Denver"): capitalised words. */
const PLACE_LIST_NEXT = /^\s*(?:,\s*(?:(?:or|and)\s+)?|\s+(?:or|and|&)\s+)(?:the\s+)?(\p{L}[\p{L}.-]*(?:\s+\p{L}[\p{L}.-]*){0,3})/u;

/** Words that rule something out, and what they rule out (up to the next clause). */
const EXCLUSION = /\b(?:excluding|except(?:\s+for)?|other\s+than|but\s+not|apart\s+from|aside\s+from|not\s+including)\s+(.+?)(?=\s+(?:that|which|who|with|founded|based|located|headquartered|in)\b|,|$)/i;

/** Splits a query into kind, head phrase, place, event clause and period. */
export function parseQuery(query: string, now: Date): ParsedQuery {
  let text = query.replace(/\s+/g, ' ').trim().replace(/[?.!]+$/, '');
  text = text.replace(/^(please\s+)?(find|list|show(\s+me)?|give\s+me|search\s+for|look(ing)?\s+for|who\s+are|which\s+are|what\s+are)\s+/i, '');
  // "a physics paper from the 1980s": the article before the kind asks for any of them, no criterion.
  text = text.replace(/^(?:an?|some|any|the(?=\s+(?:most|best|top|greatest|leading|key|major|seminal|main)\b))\s+(?=\S+\s+\S)/i, '');
  // "2005 Nobel Prize winners", "2012 Nobel laureates in physics": the year is when they won it, said as the clause
  // "laureates in physics who won the Nobel Prize in 2012" (else "won the Nobel Prize in 2005 winners" was the kind).
  text = text.replace(WINNERS_OF_YEAR, (...m: string[]) => `${m[3]}${m[4]} who won the ${m[2]!.trim()} Prize in ${m[1]}`);
  // "papers behind the 2005 Nobel Prize in Chemistry", "who won the 2012 Nobel Prize": the year is the prize's date,
  // read as the event "cited for (won) the Nobel Prize in Chemistry in 2005" rather than a word to find.
  text = text.replace(PRIZE_OF_YEAR, (...m: string[]) => {
    const link = (m[1] ?? '').trim();
    const verb = link && !/^(?:behind|for|of|from)$/i.test(link) ? link : detectEntityType(text).type === 'paper' ? 'cited for' : 'won';
    return `${verb} the ${m[3]!.trim()} in ${m[2]}`;
  });
  // Typed constraints first: "founded in the Winter 2012 batch" must not be read as a period.
  const typed = readConstraints(text);
  text = recentAsWindow(stageAsEvent(tidy(typed.rest)), now);
  text = leadingYearAsPeriod(text, now);
  // The period and any period-like words no rule reads leave the text, so no criterion half-quotes them.
  const reading = readPeriod(text, now);
  const period = reading.period;
  const spans = [...(period ? [period] : []), ...reading.unclear].sort((a, b) => b.start - a.start);
  for (const span of spans) text = cut(text, span.start, span.end);
  // "born in Japan", "Japanese-born": where a person was born is a place of its own, not where they are based.
  let birthPlace: Place | null = null;
  const bornBefore = bornPlaceBefore(text);
  if (bornBefore) {
    birthPlace = bornBefore.place;
    text = cut(text, bornBefore.start, bornBefore.end);
  }
  const bornCue = /\b(?:(?:who|that)\s+(?:were|was|are|is)\s+)?(?:born|native)\s+(?=(?:in|of)\s)/i.exec(text);
  if (bornCue && !birthPlace) {
    const afterCue = text.slice(bornCue.index + bornCue[0].length);
    const birth = findPlace(afterCue);
    if (birth && !birth.outside && birth.start === 0) {
      birthPlace = birth.place;
      text = cut(text, bornCue.index, bornCue.index + bornCue[0].length + birth.end);
    }
  }
  // "excluding fintech", "except crypto", "other than healthcare": what the query rules out is a filter of its own;
  // a place ruled out ("excluding the US") is "outside" it.
  let excluded: string | null = null;
  // "non-fintech B2B startups": a sector the table knows, ruled out before the noun.
  const nonSector = /(?<![\p{L}-])non-?\s?(\p{L}[\p{L}-]*)/iu.exec(text);
  if (nonSector && isKnownTerm(nonSector[1]!)) {
    excluded = nonSector[1]!;
    text = cut(text, nonSector.index, nonSector.index + nonSector[0].length);
  }
  const exclusion = excluded ? null : EXCLUSION.exec(text);
  if (exclusion) {
    const phrase = exclusion[1]!.replace(/^(?:the\s+)?(?:ones|those)\s+(?:in|from|based in)\s+/i, '').trim();
    if (knownPlace(phrase.replace(/^the\s+/i, ''))) text = `${text.slice(0, exclusion.index)} outside ${phrase}${text.slice(exclusion.index + exclusion[0].length)}`.trim();
    else {
      excluded = phrase;
      text = cut(text, exclusion.index, exclusion.index + exclusion[0].length);
    }
  }
  let found = findPlace(text);
  // A capitalised name after "in" that no gazetteer knows is no town when it is a sector ("startups in Fintech"), an
  // acronym ("in AI", "in ML"), or said of a paper, which appears in a journal and is based nowhere ("papers in
  // Physical Review Letters"): its words stay a criterion.
  const unknown = found !== null && !found.outside && found.place.level === 'city' && found.place.country === undefined;
  if (unknown && (isKnownTerm(found!.place.name) || /^\p{Lu}{2,4}$/u.test(found!.place.name) || detectEntityType(text).type === 'paper')) found = null;
  // "in Los Angeles or Chicago", "in Boston, Austin and Denver": more places after the first, any of which will do.
  const alternatives: Place[] = [];
  if (found && !found.outside) {
    let end = found.end;
    for (let m = PLACE_LIST_NEXT.exec(text.slice(end)); m; m = PLACE_LIST_NEXT.exec(text.slice(end))) {
      const words = m[1]!.split(/\s+/);
      let n = words.length;
      // Capitalised, or a place name as people type it in lower case ("in texas, georgia or illinois").
      const named = (k: number) => /^\p{Lu}/u.test(words[0]!) || (k === 1 ? isPlaceWord(words[0]!) : words.slice(0, k).every((w) => !/^(?:and|or|the|with|that|in)$/i.test(w)));
      while (n > 0 && !(named(n) && placeBeside(words.slice(0, n).join(' '), found.place))) n--;
      if (n === 0) break;
      const next = placeBeside(words.slice(0, n).join(' '), found.place)!;
      // "Paris, France", "Austin, Texas": a place that holds the first says where the first is, no other place.
      if (!placeContains(next, found.place)) alternatives.push(next);
      end += m[0].length - m[1]!.length + words.slice(0, n).join(' ').length;
    }
    found.end = end;
  }
  if (found) text = cut(text, found.start, found.end);
  // "researchers at US institutions": once the place is cut, "at institutions" asks for no more than an affiliation.
  // So does "affiliated with Japanese universities" once "Japanese" is read as the place.
  if (found) text = text.replace(/\s+(?:at|from|(?:affiliated|associated)\s+with|employed\s+(?:at|by))\s+(?:institutions|universities|labs|laboratories|organi[sz]ations)\b/i, '').trim();
  // "working on education", "focused on climate", "in the payments space": the topic, said as people say it.
  let topicPhrase: string | null = null;
  let topicVerb: string | null = null;
  // ("scholarly works on proteins" are writings, not a verb: the kind reads them.)
  const topic = /(?<!\b(?:scholarly|academic|scientific|peer[- ]reviewed|refereed)\s+)\b(?:(?:that|which|who)\s+)?(?:(?:are|is)\s+)?(?:work(?:s|ing)?|focus(?:es|ed|ing)?|specializ(?:e|es|ed|ing)|building|operat(?:e|es|ing))\s+(?:on|in)\s+(.+?)(?=\s+(?:that|which|who|and)\b|$)/i.exec(text)
    ?? /\bin\s+the\s+(.+?)\s+(?:space|industry|sector|field|market)\b/i.exec(text)
    // "teams building developer tools", "startups making robots", "companies that sell software": what they make,
    // said after the noun (never at the start: "building materials companies" is a sector).
    ?? /(?<=\S\s+)(?:(?:that|which|who)\s+(?:are\s+)?)?(build(?:s|ing)?|mak(?:e|es|ing)|develop(?:s|ing)?|creat(?:e|es|ing)|sell(?:s|ing)?|offer(?:s|ing)?|provid(?:e|es|ing))\s+(.+?)(?=\s+(?:that|which|who|and|with)\b|$)/i.exec(text);
  if (topic) {
    // The verb people used ("makes robots", "sells software"), when it says what they do more exactly than "works on".
    const made = topic.length > 2 && topic[2] !== undefined;
    topicPhrase = (made ? topic[2]! : topic[1]!).trim();
    if (made) topicVerb = THIRD_PERSON[topic[1]!.toLowerCase().replace(/(?:s|es|ing|e)$/, '')] ?? null;
    text = `${text.slice(0, topic.index)} ${topicPhrase} ${text.slice(topic.index + topic[0].length)}`.replace(/\s+/g, ' ').trim();
  }
  // "papers with resonance in the title", "whose title mentions lasers": a word of its title is a word it is about;
  // no page calls its own title a "title".
  text = text.replace(/\b(?:with|having|that have)\s+(?:the\s+(?:words?|terms?)\s+)?(.+?)\s+in\s+(?:the|their|its)\s+titles?\b/i, 'on $1')
    .replace(/\b(?:whose|with)\s+titles?\s+(?:mentions?|contains?|includes?|says?)\s+(?:the\s+(?:words?|terms?)\s+)?(.+?)(?=\s+(?:that|which|and|published)\b|$)/i, 'on $1');
  // "papers published in the 1960s on superconductivity": what it is about, said after the publication, is its topic.
  text = text.replace(/\b(published|released|appeared)\s+(?:on|about|regarding|concerning)\s+(.+)$/i, 'on $2 $1');
  text = stateAsQualifier(text);
  const kindCue = kindOf(text, period?.range ?? null, now);
  // "female Nobel prize winners in science", "scientists in the sciences": for a researcher "science" is
  // the kind itself, no field to check.
  if (kindCue.type === 'researcher') text = text.replace(/\s+in\s+(?:the\s+)?(?:natural\s+)?sciences?\b/i, '').trim();
  const words = text.split(' ').filter(Boolean);
  // The event clause starts at the first event word after the head noun.
  const nounStem = kindCue.noun ? tokens(kindCue.noun).map(stem) : [];
  const firstNoun = words.findIndex((w) => nounStem.length > 0 && stem(tokens(w)[0] ?? '') === nounStem[0]);
  let eventAt = words.findIndex((w, i) => i > Math.max(firstNoun, 0) && EVENT_START.has(w.toLowerCase()));
  if (eventAt < 0) eventAt = words.length;
  const head = words.slice(0, eventAt).join(' ').replace(/^(?:in|of|at|from|for|on)\s+/i, '').replace(/\s+(and|in|at|from|with|having)$/i, '').replace(/\s+(working|living|operating|based|located|headquartered)$/i, '').trim();
  const eventWords = tokens(words.slice(eventAt).join(' '));
  const eventTerms = eventWords.filter((w) => !RELATIVE.has(w) && !DROP.has(w));
  const headTerms = splitTerms(tokens(head)).filter((t) => !DROP.has(t) && t.length > 1);
  // A company noun the kind was read from ("makers", "agencies") is checked by the kind, not as a topic word; a
  // person's noun is their role ("head of"), which stays a criterion.
  // A sector said as a kind ("fintechs", "insurtech") stays the sector it names.
  // So is a paper's ("journal articles", "preprints").
  const kindNoun = kindCue.noun && (kindCue.type === 'paper' || (kindCue.type === 'company' && !isKnownTerm(kindCue.noun))) ? new Set(lightStems(kindCue.noun)) : null;
  // "scientific papers", "peer-reviewed articles": what every paper is, no topic to check.
  const register = kindCue.type === 'paper' ? SCHOLARLY_REGISTER : null;
  const isQualifier = (t: string) => !DROP.has(t) && t.length > 1 && !GENERIC_NOUNS.has(tokens(t).map(stem).join(' ')) && !(kindNoun && lightStems(t).every((w) => kindNoun.has(w)))
    && !(register && tokens(t).every((w) => register.has(w)));
  // "papers on gauge theories": beside a topic, "theory" is what a paper on it is (its title may say "gauge fields"
  // or "gauge bosons"), no second topic to find.
  const weak = kindCue.type === 'paper' && headTerms.some((t) => isQualifier(t) && !WEAK_PAPER_WORDS.has(t)) ? WEAK_PAPER_WORDS : null;
  const isTopic = (t: string) => isQualifier(t) && !(weak && weak.has(t));
  const qualifiers = headTerms.filter(isTopic);
  return {
    entityType: kindCue.type,
    noun: kindCue.noun,
    head,
    qualifiers,
    // "biotech, medtech or healthcare": the commas of a list ending in "or" are more "or"s.
    qualifierAlternatives: termAlternatives(tokens(head.replace(/,\s*(?=[^,]*\bor\b)/gi, ' or ')), isTopic),
    place: found?.place ?? null,
    placeAlternatives: alternatives,
    outside: found?.outside === true,
    birthPlace,
    event: eventTerms.length > 0 ? words.slice(eventAt).join(' ').replace(/^(that|which|who|whose)\s+(have\s+|has\s+|had\s+)?/i, '') : null,
    dateRange: period?.range ?? null,
    typed,
    topicPhrase,
    topicVerb,
    excluded,
    notes: reading.unclear.map(unclearPeriodMessage),
  };
}

/** A year opening the query before its words ("2021 startups", "1995 physics papers"). */
const LEADING_YEAR = /^((?:19|20)\d{2})\s+(?=\p{L})/u;
/** Kinds whose own date a year said before them is: a company's founding, a paper's or a book's publication. */
const DATED_BY_YEAR: ReadonlySet<EntityType> = new Set(['company', 'paper', 'book']);

/**
 * "2021 startups", "2019 fintech companies": a year said before the kind is its date, as "startups from 2021" says
 * (the date module reads a bare year only after a preposition; unread, "2021" became a word the page must print).
 * Only when the query names no other period and names a kind dated by its own year.
 */
function leadingYearAsPeriod(text: string, now: Date): string {
  const m = LEADING_YEAR.exec(text);
  if (!m) return text;
  const rest = text.slice(m[0].length);
  const kind = kindOf(rest, null, now);
  // A kind the words name, not the fallback when none does ("2010 Turing Award winners" are no companies).
  if (readPeriod(rest, now).period || kind.noun === null || !DATED_BY_YEAR.has(kind.type)) return text;
  return `${rest} from ${m[1]}`;
}

/**
 * The kind a query asks for. "Articles" with no word of a kind beside them ("pre-1960 articles", "articles from the
 * 1950s") name no company, which is only the fallback when nothing names a kind: news is asked for as news ("news
 * articles") or by its recency ("articles from last week"), so articles of any other time are papers.
 */
function kindOf(text: string, range: DateRange | null, now: Date): { type: EntityType; noun: string | null } {
  const cue = detectEntityType(text);
  const bare = /\b(articles?)\b/i.exec(text);
  if (cue.type !== 'company' || cue.noun !== null || !bare) return cue;
  const yearAgo = isoDay(daysBack(now, 365));
  const recent = range !== null && range.from !== OPEN_START && range.from >= yearAgo;
  return { type: recent ? 'news' : 'paper', noun: bare[1]!.toLowerCase() };
}

function filter(index: number, title: string, criterion: string, spec: FilterSpec): FunnelFilter {
  return { index, title, criterion, spec: specRecord(spec), relaxed: false };
}

function dateWords(range: DateRange): string {
  return describeRange(range);
}

/** A type title that opens with what it does ("Works on education", "Makes robots"): the rest is its topic. */
const TOPIC_VERB_TITLE = /^(?:Works on|Builds|Makes|Develops|Creates|Sells|Offers|Provides) /;

/** The verbs of what a company makes, in the third person, by their stem. */
const THIRD_PERSON: Record<string, string> = {
  build: 'builds', mak: 'makes', make: 'makes', develop: 'develops', creat: 'creates', create: 'creates', sell: 'sells', offer: 'offers', provid: 'provides', provide: 'provides',
};

/** Kinds that are founded: "started" said of them is a founding. */
const FOUNDED_KINDS: ReadonlySet<EntityType> = new Set(['company']);
/** Kinds that happen somewhere and at some time: a place is where they are held, a date when. */
const OCCURRING_KINDS: ReadonlySet<EntityType> = new Set(['conference', 'exhibition']);
/** "held", "taking place", "happening": said of an event alone, no event of its own to check. */
const BARE_OCCURRENCE = /^(?:(?:that|which)\s+(?:are|is|will\s+be)\s+)?(?:held|hosted|happening|occurring|scheduled|running|tak(?:ing|es?)\s+place)$/i;

/** Participles that open an event said of the thing itself ("published in 2001", "founded after 2015"). */
const PASSIVE_EVENT = /^(?:published|founded|established|incorporated|launched|released|awarded|acquired|cited|issued|born)\b/i;

/** The funnel for a parsed query, in order: kind and sector, place, event (with its dates) or period. */
export function buildFilters(parsed: ParsedQuery, now: Date): FunnelFilter[] {
  const asOf = now.toISOString();
  const filters: FunnelFilter[] = [];
  const kind = KIND_LABEL[parsed.entityType];
  // A conference is held somewhere and takes place at some time; anything else is based somewhere and dated.
  const occurs = OCCURRING_KINDS.has(parsed.entityType);
  // A paper's title says what is checked: "peer-reviewed chemistry articles" is searched as "chemistry article".
  const said = singularHead(parsed.head.replace(PRAISE_WORDS, '').replace(RANKING_WORDS, '').replace(parsed.entityType === 'paper' ? REGISTER_WORDS : /$^/, '').trim(), parsed.noun);
  // "research on the cosmic microwave background", "chemistry research": with "research" gone, the kind is said.
  const head = parsed.entityType === 'paper' && said && !PAPER_NOUN.test(said) ? (/^(?:on|about|into|in|of)\b/i.test(said) ? `paper ${said}` : `${said} paper`) : said;
  // "teams hiring in Berlin": a word people use for companies, alone, is the kind itself.
  const headPhrase = head.replace(QUERY_COMPANY_NOUN, '').trim() === '' ? kind : head;
  const isA = parsed.entityType === 'news' ? 'Is' : `Is ${article(headPhrase)}`;
  const isAlower = parsed.entityType === 'news' ? 'is' : `is ${article(headPhrase)}`;
  // A paper's title prints the adjective of its topic ("Magnetic properties of …" for magnetism): the search and the
  // match look for both.
  const typeGroups = alternativeGroups(parsed.qualifierAlternatives)
    .map((g) => (parsed.entityType === 'paper' ? [...new Set([...g, ...g.flatMap((t) => (synonymGroup(t).length === 1 ? derivedForms(t) : []))])] : g));
  // Compared as words, so "open-source developer tools" holds the qualifier "open source".
  const topicWords = parsed.topicPhrase !== null ? ` ${tokens(parsed.topicPhrase).join(' ')} ` : '';
  const onlyTopic = parsed.topicPhrase !== null && parsed.qualifiers.every((q) => topicWords.includes(` ${tokens(q).join(' ')} `));
  const verb = parsed.topicVerb ?? 'works on';
  const typeTitle = onlyTopic ? `${capitalise(verb)} ${parsed.topicPhrase}` : `${isA} ${headPhrase}`;
  const typeCriterion = onlyTopic
    ? `The ${kind} ${verb} ${parsed.topicPhrase}.`
    : headPhrase === kind ? `It is ${article(kind)} ${kind}.` : `The ${kind} ${isAlower} ${headPhrase}.`;
  filters.push(
    filter(filters.length + 1, typeTitle, typeCriterion, {
      kind: 'type', entityType: parsed.entityType, groups: typeGroups, steps: 0,
    }),
  );
  if (parsed.place && parsed.outside) {
    const the = theFor(parsed.place);
    filters.push(
      filter(filters.length + 1, `Based outside ${the}${parsed.place.name}`, `The ${kind} is based outside ${the}${parsed.place.name}.`, {
        kind: 'location', place: parsed.place, names: placeNames(parsed.place), steps: 0, outside: true,
      }),
    );
  } else if (parsed.place) {
    const the = theFor(parsed.place);
    // A coast is one a company is "on", as people say it.
    const on = /\b(?:Coast|Seaboard)$/.test(parsed.place.name);
    const others = parsed.placeAlternatives ?? [];
    const where = [parsed.place, ...others].map((p, i) => `${i > 0 ? theFor(p) : the}${p.name}`);
    const named = where.length > 1 ? `${where.slice(0, -1).join(', ')} or ${where.at(-1)}` : where[0]!;
    filters.push(
      filter(filters.length + 1, occurs ? `Held in ${named}` : `Based ${on ? 'on' : 'in'} ${named}`,
        occurs ? `The ${kind} takes place in ${named}.` : `The ${kind} is based ${on ? 'on' : 'in or located in'} ${named}.`, {
        kind: 'location', place: parsed.place, names: placeNames(parsed.place), steps: 0, ...(others.length > 0 ? { alternatives: others } : {}),
        ...(occurs ? { relation: 'held' as const } : {}),
      }),
    );
  }
  if (parsed.birthPlace) {
    filters.push(
      filter(filters.length + 1, `Born in ${theFor(parsed.birthPlace)}${parsed.birthPlace.name}`, `The ${kind} was born in ${theFor(parsed.birthPlace)}${parsed.birthPlace.name}.`, {
        kind: 'location', place: parsed.birthPlace, names: placeNames(parsed.birthPlace), steps: 0, relation: 'birth',
      }),
    );
  }
  if (parsed.excluded) {
    // Kind nouns are no sector to rule out ("excluding fintech companies" rules out fintech).
    const groups = groupsOf(tokens(parsed.excluded)).filter((g) => !g.every((t) => GENERIC_NOUNS.has(tokens(t).map(stem).join(' '))));
    if (groups.length > 0) {
      filters.push(filter(filters.length + 1, `Not in ${parsed.excluded}`, `The ${kind} is not in ${parsed.excluded}.`, { kind: 'exclude', terms: groups, steps: 0 }));
    }
  }
  const { typed } = parsed;
  for (const form of typed.forms) {
    const title = FORM_TITLES[form];
    filters.push(filter(filters.length + 1, title, `The ${kind} ${title.charAt(0).toLowerCase()}${title.slice(1)}.`, { kind: 'form', form, steps: 0 }));
  }
  for (const forms of typed.anyForms) {
    const title = anyFormTitle(forms);
    filters.push(filter(filters.length + 1, title, `The ${kind} ${title.charAt(0).toLowerCase()}${title.slice(1)}.`, {
      kind: 'form', form: forms[0]!, alternatives: forms.slice(1), steps: 0,
    }));
  }
  for (const form of typed.notForms) {
    const title = NOT_FORM_TITLES[form];
    filters.push(filter(filters.length + 1, title, `The ${kind} ${title.charAt(0).toLowerCase()}${title.slice(1)}.`, { kind: 'form', form, negated: true, steps: 0 }));
  }
  if (typed.cohort) {
    const title = cohortTitle(typed.cohort);
    filters.push(filter(filters.length + 1, title, `The ${kind} ${title.charAt(0).toLowerCase()}${title.slice(1)}.`, {
      kind: 'cohort', programme: typed.cohort.programme, season: typed.cohort.season, year: typed.cohort.year, steps: 0,
    }));
  }
  if (typed.size) {
    const title = sizeTitle(typed.size);
    filters.push(filter(filters.length + 1, title, `The ${kind} ${title.charAt(0).toLowerCase()}${title.slice(1)} (${typed.size.phrase}).`, {
      kind: 'size', min: typed.size.min, max: typed.size.max, steps: 0,
    }));
  }
  if (typed.remote) {
    const fully = typed.remote === 'fully';
    filters.push(filter(filters.length + 1, fully ? 'Works fully remotely' : 'Works remotely', `The ${kind} ${fully ? 'is fully remote (remote-first)' : 'works remotely'}.`, {
      kind: 'remote', fully, steps: 0,
    }));
  }
  if (typed.hiring) {
    filters.push(filter(filters.length + 1, 'Is hiring', `The ${kind} is hiring now.`, { kind: 'hiring', steps: 0 }));
  }
  if (typed.notHiring) {
    filters.push(filter(filters.length + 1, 'Is not hiring', `The ${kind} is not hiring now.`, { kind: 'hiring', negated: true, steps: 0 }));
  }
  // Said of one of them: "were acquired in 2021" is "Was acquired (in 2021)".
  const event = parsed.event && !(occurs && BARE_OCCURRENCE.test(parsed.event.trim()))
    ? parsed.event.replace(/^were\b/i, 'was').replace(/^are\b/i, 'is').replace(/^have\b/i, 'has')
    : null;
  if (event) {
    // "started in 2021", "began in 2019" said of an organisation is its founding: checked as founded (pages say
    // "Founded", "Established"); the word itself is too common ("starts with a…") to be the evidence.
    const words = tokens(event).map((w) => (FOUNDED_KINDS.has(parsed.entityType) && /^(?:started|began|begun)$/.test(w) ? 'founded' : w));
    const groups = groupsOf(words);
    const when = parsed.dateRange ? ` (${parsed.dateRange.phrase})` : '';
    const dates = parsed.dateRange ? `, ${dateWords(parsed.dateRange)}` : '';
    // "published before 1965", "founded after 2015": said of the thing, these read "was published".
    const was = PASSIVE_EVENT.test(event) ? 'was ' : '';
    filters.push(
      filter(filters.length + 1, `${capitalise(event)}${when}`, `The ${kind} ${was}${event}${dates}.`, {
        kind: 'event', groups, dateRange: parsed.dateRange, steps: 0, asOf,
      }),
    );
  } else if (parsed.dateRange && FOUNDED_KINDS.has(parsed.entityType)) {
    // "post-2018 startups", "2021 companies", "startups from before 2014": a time said of an organisation alone is
    // when it was founded, as "founded after 2018" would say; any other date on its pages ("raised in 2020") is not it.
    const range = parsed.dateRange;
    filters.push(
      filter(filters.length + 1, `Founded ${range.phrase.replace(/^(?:from|of|during)\s+/i, 'in ')}`, `The ${kind} was founded, ${dateWords(range)}.`, {
        kind: 'event', groups: groupsOf(['founded']), dateRange: range, steps: 0, asOf,
      }),
    );
  } else if (parsed.dateRange) {
    filters.push(
      filter(filters.length + 1, `${occurs ? 'Takes place' : 'Dated'} ${parsed.dateRange.phrase}`, occurs ? `The ${kind} takes place ${dateWords(parsed.dateRange)}.` : `The ${kind}'s date falls ${dateWords(parsed.dateRange)}.`, {
        kind: 'period', dateRange: parsed.dateRange, steps: 0, asOf,
      }),
    );
  }
  return filters;
}

/** Every search string this plan can produce, in the order they are worth trying. */
export function queryPool(plan: Pick<ResearchPlan, 'filters' | 'sites' | 'dateRange'> & { head?: string }): string[] {
  const specs = plan.filters.flatMap((f) => specOf(f) ?? []);
  const type = specs.find((s) => s.kind === 'type');
  // Where it is based; a birth place ("born in Japan") is searched as the words pages print.
  const loc = specs.find((s) => s.kind === 'location' && s.relation !== 'birth');
  const event = specs.find((s) => s.kind === 'event');
  // "climate tech venture", "team": a word people use for companies in a query is searched as the kind's own word.
  // "Is a woman laureate": one of them is a woman in the title, and pages write of them as "women laureates".
  const typeTitle = plan.filters[0]?.title.replace(/^Is (an? )?/, '').replace(TOPIC_VERB_TITLE, '').replace(QUERY_COMPANY_NOUN, 'company').replace(/\bwoman\b/gi, 'women') ?? '';
  // A place to exclude ("outside the United States") is no word to search for: it finds exactly the excluded.
  const born = specs.find((s) => s.kind === 'location' && s.relation === 'birth');
  const place = [
    loc?.kind === 'location' && !loc.outside ? loc.place.name : '',
    born?.kind === 'location' ? `born in ${born.place.name}` : '',
  ].filter(Boolean).join(' ');
  const eventGroups = event?.kind === 'event' ? event.groups : [];
  const year = searchYear(plan.dateRange);
  const altType = type?.kind === 'type' ? type.groups.map((g) => g[1] ?? g[0]).join(' ') : '';
  const noun = type?.kind === 'type' ? KIND_LABEL[type.entityType] : '';
  // Pages name a metropolitan area by its towns ("Palo Alto, CA"): its core city is searched for too.
  const core = loc?.kind === 'location' && !loc.outside ? areaCore(loc.place) : null;
  // "in Los Angeles or Chicago": each other place gets its phrasing right after the first, so early rounds see both.
  const alternatives = loc?.kind === 'location' && !loc.outside ? (loc.alternatives ?? []).map((p) => [typeTitle, p.name]) : [];
  const pool = [
    // A prize is printed with its year ("Nobel Prize in Physics 2003"): the year goes with it from the first search.
    [typeTitle, place, eventGroups.map((g) => g[0]).join(' '), eventGroups.some((g) => g.some((t) => /\b(?:prize|award|medal)s?\b/i.test(t))) ? year : ''],
    ...alternatives,
    ...(core ? [[typeTitle, core], [altType, noun, core]] : []),
    [place, typeTitle, eventGroups.map((g) => g[1] ?? g[0]).join(' '), year],
    [typeTitle, place],
    [altType, noun, place, eventGroups.map((g) => g[g.length - 1]).join(' ')],
    [place, typeTitle, 'news'],
    [typeTitle, place, 'profile'],
    [typeTitle, place, year],
    [place, altType, noun, 'list'],
    [typeTitle, eventGroups.map((g) => g[2] ?? g[0]).join(' ')],
    [place, place ? noun : '', place ? 'directory' : ''],
    [typeTitle, place, 'announcement'],
    [altType, noun, 'interview'],
  ].map((parts) => parts.filter(Boolean).join(' ').replace(/\s+/g, ' ').trim());
  // "superconductivity or superfluids": a search engine reads both words as wanted, so each alternative
  // also gets a phrasing of its own, right after the first two.
  const eitherOr = /(\S+) or (\S+)/i.exec(typeTitle);
  if (eitherOr) {
    const alone = [eitherOr[1]!, eitherOr[2]!].map((alt) => [typeTitle.replace(eitherOr[0], alt), place].filter(Boolean).join(' '));
    pool.splice(2, 0, ...alone);
  }
  // Pages name a topic by one of its words ("Delivery", "Freight"): each synonym of the type's terms also gets
  // a phrasing, after the ones above (later rounds reach them when the first bring too little).
  if (type?.kind === 'type') {
    const bare = (w: string) => w.toLowerCase().replace(/(?:es|s)$/, '');
    const tried = new Set(pool.join(' ').split(/\s+/).map(bare));
    for (const term of [...new Set(type.groups.flatMap((g) => g.slice(1, 6)))]) {
      if (term.split(/\s+/).every((w) => tried.has(bare(w)))) continue;
      pool.push([term, noun, place].filter(Boolean).join(' '));
    }
  }
  // "Companies in Europe": pages print the country ("Amsterdam, Netherlands"), never the continent; the main
  // countries of the region each get a phrasing after the others (later rounds reach them).
  if (loc?.kind === 'location' && !loc.outside) for (const country of mainCountriesWithin(loc.place, 8)) pool.push([typeTitle, country].filter(Boolean).join(' '));
  // "papers published in the 1990s": pages print the year ("First published 1993"), never the decade; each year of
  // a window of a few years gets a phrasing after the others (later rounds reach them).
  pool.push(...yearsWithin(plan.dateRange).slice(1).map((y) => [typeTitle, place, y].filter(Boolean).join(' ')));
  // "papers published after 1985": a publication's own page prints its year; the years nearest the bound are searched
  // one by one, last of all.
  if (type?.kind === 'type' && PUBLISHED_KINDS.has(type.entityType)) pool.push(...yearsNearBound(plan.dateRange).map((y) => [typeTitle, place, y].filter(Boolean).join(' ')));
  // "Outside the United States": the excluded place is no search word, but the continents outside it are.
  if (loc?.kind === 'location' && loc.outside) {
    const what = typedPhrasings(specs, typeTitle, '', noun)[0] ?? typeTitle;
    const regions = regionsOutside(loc.place);
    pool.push(...regions.map((r) => `${what} ${r.name}`));
    // Pages print the country ("Bengaluru, Karnataka, India"), not the continent: then each region's main countries,
    // two at a time across the regions, so later rounds reach every continent.
    const countries = regions.map((r) => mainCountriesWithin(r, 4));
    for (let i = 0; i < 4; i++) for (const list of countries) if (list[i]) pool.push(`${what} ${list[i]}`);
  }
  // With a form, cohort, size or hiring constraint the typed phrasings lead: the kind and place alone
  // ("company India") find pages about everything.
  const typed = typedPhrasings(specs, typeTitle, place, noun);
  if (core) typed.splice(1, 0, ...typedPhrasings(specs, typeTitle, core, noun).slice(0, 2));
  if (specs.some((s) => s.kind === 'form' || s.kind === 'cohort' || s.kind === 'size' || s.kind === 'hiring' || s.kind === 'remote')) pool.unshift(...typed);
  else pool.push(...typed);
  // "orgs started in 2021", "post-2018 startups": a dated founding is searched as pages and list titles print it
  // ("companies founded in 2021", "2021 startups"); "org founded" alone finds no year. With nothing else to search
  // for they lead; beside a topic or a place, the first phrasing comes after the first two phrasings of those and
  // the rest last, and a window open on one side is searched by its bound's year alone, so the topic's own
  // phrasings are not pushed back by a dozen years.
  const onlyKind = place === '' && typeTitle.replace(TITLE_KIND_NOUN, '').trim() === '';
  const founding = foundingPhrasings(specs, typeTitle, place, !onlyKind);
  if (onlyKind) pool.unshift(...founding.flat());
  else {
    pool.splice(2, 0, ...(founding[0] ?? []));
    pool.push(...founding.slice(1).flat());
  }
  // A phrasing of kind and page-type words alone ("top companies", "organization news") finds pages about
  // anything; it is kept only when the query has nothing else to search for.
  // An empty phrasing says nothing either (it used to count as specific and leave a size-only query none).
  const saysSomething = (q: string) => q.toLowerCase().split(/\s+/).some((w) => w.length > 0 && !GENERIC_SEARCH_WORDS.has(w));
  const specific = pool.filter(saysSomething);
  // Each preferred page type gets its own phrasing of every query (not all types' words on each).
  // A query that says little besides its kind and a typed bound ("startups with under 100 employees") has few
  // specific phrasings: the kind's own (lists, directories, profiles) follow them, so later rounds still have
  // pages to enumerate instead of ending the run.
  const chosen = specific.length >= 4 ? specific : [...specific, ...pool.filter((q) => q.length > 0 && !specific.includes(q))];
  const steered = steerByPageTypes(chosen, plan.sites.pageTypes);
  return [...new Set(steered.filter((q) => q.length > 0))];
}

/** A kind noun at the end of a type title ("fintech startup", "org"), which the founding phrasings say in their own words. */
const TITLE_KIND_NOUN = /\s*\b(?:startup|start-up|company|org|organi[sz]ation|business|firm|venture|outfit|team|scaleup)$/i;

/**
 * Searches for a company founded or launched in a window, as registers, profiles and list titles print it:
 * "companies founded in 2021", "2021 startups", "startups launched in 2021", one year at a time (every year of
 * the window, the nearest the bound first when it is open; with `boundOnly`, an open window's bound year alone):
 * one list per phrasing, in the order worth trying.
 */
function foundingPhrasings(specs: readonly FilterSpec[], typeTitle: string, place: string, boundOnly: boolean): string[][] {
  const event = specs.find((s) => s.kind === 'event');
  const type = specs.find((s) => s.kind === 'type');
  if (event?.kind !== 'event' || !event.dateRange || type?.kind !== 'type' || !FOUNDED_KINDS.has(type.entityType)) return [];
  const terms = event.groups.flat();
  const verb = terms.includes('founded') ? 'founded' : terms.includes('launched') ? 'launched' : null;
  if (!verb) return [];
  const open = event.dateRange.to === null || event.dateRange.from === OPEN_START;
  const years = foundingYears(event.dateRange, event.asOf).slice(0, boundOnly && open ? 1 : undefined);
  // A startup is called one on its pages; any other word people use for a company ("orgs", "outfits") is not.
  const kind = /\bstart-?ups?$/i.test(typeTitle) ? 'startups' : 'companies';
  const topic = typeTitle.replace(TITLE_KIND_NOUN, '').trim();
  const other = verb === 'founded' ? 'launched' : 'founded';
  const phrase = (...parts: string[]) => parts.filter(Boolean).join(' ');
  return [
    years.map((y) => phrase(topic, kind, verb, 'in', y, place)),
    years.map((y) => phrase(y, topic, kind, place)),
    years.map((y) => phrase(topic, kind, other, 'in', y, place)),
  ];
}

/**
 * The years a founding window is searched by: every year of a closed window of up to twelve years; for a window
 * open on one side, the twelve years nearest its bound (after it: up to the plan's day when the spec has one).
 */
function foundingYears(range: Pick<DateRange, 'from' | 'to'>, asOf: string | undefined): string[] {
  const from = Number(range.from.slice(0, 4));
  const to = range.to ? Number(range.to.slice(0, 4)) : null;
  if (range.from === OPEN_START) return to === null ? [] : Array.from({ length: 12 }, (_, i) => String(to - i));
  const last = Math.min(to ?? (asOf ? Number(asOf.slice(0, 4)) : from + 11), from + 11);
  if (to !== null && to - from > 11) return [];
  return Array.from({ length: Math.max(last - from + 1, 0) }, (_, i) => String(from + i));
}

/** Kinds dated by their own publication, whose pages print the year. */
const PUBLISHED_KINDS: ReadonlySet<EntityType> = new Set(['paper', 'book']);

/** The eleven years nearest the bound of a window open on one side ("after 1985": 1987-1997; the bound's year is searched already). */
function yearsNearBound(range: Pick<DateRange, 'from' | 'to'> | null): string[] {
  if (!range) return [];
  if (range.to === null && range.from !== OPEN_START) {
    const from = Number(range.from.slice(0, 4));
    return Array.from({ length: 11 }, (_, i) => String(from + 1 + i));
  }
  if (range.from === OPEN_START && range.to) {
    const to = Number(range.to.slice(0, 4));
    return Array.from({ length: 11 }, (_, i) => String(to - 1 - i));
  }
  return [];
}

/** Every year of a closed window of two to twelve years, in order; none for an open or a longer one. */
function yearsWithin(range: Pick<DateRange, 'from' | 'to'> | null): string[] {
  if (!range?.to) return [];
  const from = Number(range.from.slice(0, 4));
  const to = Number(range.to.slice(0, 4));
  if (!Number.isInteger(from) || !Number.isInteger(to) || to - from < 1 || to - from > 11) return [];
  return Array.from({ length: to - from + 1 }, (_, i) => String(from + i));
}

/** Words of a search phrasing that say what kind of page or entity, not which one. */
const GENERIC_SEARCH_WORDS = new Set([
  'company', 'companies', 'startup', 'startups', 'organization', 'organizations', 'organisation', 'organisations', 'business',
  'businesses', 'firm', 'firms', 'top', 'best', 'list', 'news', 'profile', 'directory', 'announcement', 'interview', 'in', 'the',
  'researcher', 'researchers', 'paper', 'papers', 'people', 'person', 'product', 'products', 'batch',
]);

const FORM_WORDS: Record<string, string> = { nonprofit: 'nonprofit', public: 'publicly traded', acquired: 'acquired', inactive: 'shut down', active: '' };
/**
 * Other ways pages print a form, hiring or remote work (a search engine matches words, not meanings):
 * an encyclopedia's "Type: Public company", a profile's "IPO", "Subsidiary", "Defunct", "Open roles".
 */
const FORM_ALTERNATES: Record<string, string[]> = {
  nonprofit: ['non-profit organization', 'charity'], public: ['public company', 'IPO'], acquired: ['acquisition', 'subsidiary'],
  inactive: ['defunct', 'closed'], active: [],
};
const PLURALS: Partial<Record<string, string>> = { company: 'companies', product: 'products', paper: 'papers', researcher: 'researchers', professional: 'people' };

/**
 * Search phrasings people use on the web for the typed constraints: list pages ("top … companies in …",
 * "… startups list"), directories, and the form, cohort and hiring words pages print.
 */
function typedPhrasings(specs: readonly FilterSpec[], typeTitle: string, place: string, noun: string): string[] {
  // Nonprofits call themselves organisations, not companies.
  const plural = noun === 'company' && specs.some((s) => s.kind === 'form' && s.form === 'nonprofit' && !s.negated) ? 'organizations' : PLURALS[noun] ?? `${noun}s`;
  // A form or hiring ruled out ("not acquired", "for-profit", "not hiring") is no word to search for: pages that
  // print it are the ones ruled out. Forms any of which will do ("exited") are searched each in turn (alternates).
  const said = (s: FilterSpec): boolean => !('negated' in s && s.negated === true);
  // "paper on neutrinos" → "neutrinos"; "fintech startup" → "fintech".
  const topic = typeTitle.replace(TOPIC_VERB_TITLE, '').replace(new RegExp(`^${noun}s?\\s+(?:on|about|in|of|from)\\s+`, 'i'), '')
    .replace(new RegExp(`\\b${noun}$`, 'i'), '').replace(/\b(startup|company|organi[sz]ation)$/i, '').trim();
  const listWord = plural === 'companies' ? 'startups list' : `${plural} list`;
  const forms = specs.flatMap((s) => (s.kind === 'form' && said(s) && !s.alternatives?.length ? [FORM_WORDS[s.form] ?? ''] : [])).filter(Boolean).join(' ');
  const cohort = specs.find((s) => s.kind === 'cohort');
  const batch = cohort?.kind === 'cohort' ? [cohort.programme, cohort.season ?? '', cohort.year ? String(cohort.year) : ''].join(' ') : '';
  const hiring = specs.some((s) => s.kind === 'hiring' && said(s)) ? 'hiring' : '';
  const remote = specs.some((s) => s.kind === 'remote') ? 'remote' : '';
  const at = place ? `in ${place}` : '';
  const alternates = specs.flatMap((s) => (s.kind === 'form' && said(s) ? [s.form, ...(s.alternatives ?? [])].flatMap((f) => [...(s.alternatives?.length ? [FORM_WORDS[f] ?? ''] : []), ...(FORM_ALTERNATES[f] ?? [])]).filter(Boolean) : []));
  if (specs.some((s) => s.kind === 'hiring' && said(s))) alternates.push('jobs', 'open roles');
  // Batches are printed both ways: "Winter 2014" and the code "W14".
  if (cohort?.kind === 'cohort' && cohort.season && cohort.year) alternates.push(`${cohort.programme} ${cohort.season.charAt(0)}${String(cohort.year).slice(2)}`);
  // A year's batches: each season, in words and in code.
  if (cohort?.kind === 'cohort' && !cohort.season && cohort.year) {
    const yy = String(cohort.year).slice(2);
    alternates.push(`${cohort.programme} Winter ${cohort.year}`, `${cohort.programme} Summer ${cohort.year}`, `${cohort.programme} W${yy}`, `${cohort.programme} S${yy}`);
  }
  if (specs.some((s) => s.kind === 'remote')) alternates.push('remote-first');
  // A headcount bound as pages and lists print it ("companies with fewer than 100 employees", "more than 1,000
  // employees"): the search matches the words "employees" and "fewer"/"more", not the bound itself.
  const size = specs.find((s) => s.kind === 'size');
  if (size?.kind === 'size') alternates.push(...sizePhrasings(size.min, size.max, plural));
  return [
    [forms, remote, topic, plural, at],
    [batch, topic, plural, forms],
    // "non-profit organization San Francisco" needs no kind word; "IPO" alone does ("companies IPO").
    ...alternates.map((alt) => [topic || (alt.includes(' ') ? '' : plural), alt, place]),
    ['top', topic, plural, at],
    [topic, listWord, place],
    [remote, topic, plural, at, hiring],
    [forms, topic, plural, 'directory', place],
    [batch, batch ? 'batch' : '', batch ? plural : '', batch ? 'list' : ''],
    [topic, plural, place, 'profile'],
    [forms, topic, place, 'news'],
  ].map((parts) => parts.filter(Boolean).join(' ').replace(/\s+/g, ' ').trim()).filter((q) => q.split(' ').length >= 2);
}

/** How pages and list titles say a headcount bound, for searching: "with fewer than 100 employees". */
function sizePhrasings(min: number | null, max: number | null, plural: string): string[] {
  const n = (x: number) => x.toLocaleString('en-US');
  if (min !== null && max !== null) return [`${plural} with ${n(min)}-${n(max)} employees`];
  if (max !== null) return [`${plural} with fewer than ${n(max + 1)} employees`];
  if (min !== null) return [`${plural} with more than ${n(Math.max(min - 1, 0))} employees`];
  return [];
}

/** Builds the research plan from the query, the run start and the `sites` field. */
export function buildPlan(query: string, now: Date, sites: string): ResearchPlan {
  const parsed = parseQuery(query, now);
  const scope: SiteScope = parseSites(sites);
  const filters = buildFilters(parsed, now);
  const base = { filters, sites: scope, dateRange: parsed.dateRange };
  const queries = queryPool(base).slice(0, 5);
  const where = parsed.place ? ` in ${parsed.place.name}` : '';
  const what = parsed.event ? `, ${parsed.event}` : '';
  const when = parsed.dateRange ? ` (${dateWords(parsed.dateRange)})` : '';
  return {
    entityType: parsed.entityType,
    filters,
    queries: queries.length >= 3 ? queries : [...queries, query.trim()].slice(0, 6),
    dateRange: parsed.dateRange,
    sites: scope,
    summary: `${capitalise(parsed.head || KIND_LABEL[parsed.entityType])}${where}${what}${when}.`,
    ...(parsed.notes.length > 0 ? { notes: parsed.notes } : {}),
  };
}

/**
 * Fresh queries for a later round: the plan's best phrasing within each site earlier rounds found
 * productive (a directory or news site that gave rows), then unused entries of the pool; up to four,
 * none when exhausted.
 */
export function nextQueries(plan: ResearchPlan, used: readonly string[], productiveSites: readonly string[] = []): string[] {
  const seen = new Set(used.map((u) => u.toLowerCase().trim()));
  const pool = queryPool(plan);
  // Sites the query scope already limits searches to need no site: term.
  const within = plan.sites.domains.length > 0 ? [] : productiveSites.slice(0, 2);
  const bySite = within.flatMap((host) => pool.slice(0, 2).map((q) => `${q} site:${host}`));
  return [...bySite, ...pool].filter((q) => !seen.has(q.toLowerCase())).slice(0, 4);
}
