import type { Candidate, DateRange, FetchedPage, FunnelFilter, PageEntity, PageFact, QuotedPassage, ResearchPlan, Verdict } from '@leadfinder/wire';
import { readBatch, type OrgForm } from '../../domain/constraints.js';
import { statedDates, withinRange } from '../../domain/dates.js';
import { cityReadings, likeReadings, placeContains, placeNames, placesNamedIn, resolveLocation, type Place } from '../../domain/places.js';
import { PAGE_DATED_KINDS, specOf, type FilterSpec } from '../../domain/spec.js';
import { foreignCompounds, isKnownTerm, namesSector, narrowerTerms } from '../../domain/synonyms.js';
import { lightStem, lightStems, matchesGroup, normaliseKey, pageSentences, sameWordFamily, stem, stems } from '../../domain/text.js';

/**
 * Checks one funnel filter against what the candidate's pages say about it: first the facts of the
 * page model (its own page's subject, or its line on a listing), then sentences. Each filter type has
 * its matcher (place containment, numeric comparison, date window, synonym sets, status and cohort
 * facts). The answer is yes, no or unclear; only yes passes. A yes quotes the passages it rests on,
 * `stated` when they say it outright, `inferred` when it needs knowledge beyond them (a city lies in
 * a country, a date taken from the page's publication date), and the rationale says what was inferred.
 */

interface Evidence {
  text: string;
  url: string;
  page: FetchedPage;
  /** The passage names the candidate, or belongs to its entry in the page model. */
  named: boolean;
  /** The label–value fact this passage states, when it comes from the page model. */
  fact?: PageFact;
  /** The fact is from a page about the candidate (a profile), not from its line on a listing. */
  ownFact?: boolean;
  /** The passage is from a page about the candidate (its profile, homepage or about page). */
  ownPage?: boolean;
}

function pageUrl(page: FetchedPage): string {
  return page.finalUrl || page.url;
}

/** The candidate's entry in a page's model: the subject it is, or the listing line that names it. */
export function entityOf(candidate: Pick<Candidate, 'key' | 'name'>, page: FetchedPage): PageEntity | null {
  const model = page.model;
  if (!model) return null;
  const same = (e: PageEntity) => {
    const k = normaliseKey(e.name);
    return k === candidate.key || k === normaliseKey(candidate.name);
  };
  if (model.subject && same(model.subject)) return model.subject;
  return model.items.find(same) ?? null;
}

const CLAUSE_BREAK = /[;:]\s+|,\s+(?:(?:and|while|but|whereas)\s+)?|\s+(?:and|while|but|whereas)\s+/g;

/**
 * The part of a sentence that is about `name` when the sentence also names other entities of the page
 * ("Perkly sells perks to remote teams, and HireWise, a Dallas-based recruiting platform, raised $12M":
 * Perkly's part ends before ", and HireWise"). The sentence itself when it names no other entity.
 */
export function clauseAbout(text: string, name: string, others: readonly string[]): string {
  const at = text.indexOf(name);
  if (at < 0) return text;
  const spans: [number, number][] = [];
  for (const o of others) {
    if (!o || o === name || o.includes(name) || name.includes(o)) continue;
    for (let i = text.indexOf(o); i >= 0; i = text.indexOf(o, i + o.length)) spans.push([i, i + o.length]);
  }
  if (spans.length === 0) return text;
  const prevEnd = Math.max(0, ...spans.filter(([, e]) => e <= at).map(([, e]) => e));
  const nextStart = Math.min(text.length, ...spans.filter(([b]) => b >= at + name.length).map(([b]) => b));
  const breaks = [...text.matchAll(CLAUSE_BREAK)].map((m) => [m.index, m.index + m[0].length] as const);
  const startBreak = breaks.filter(([, e]) => e > prevEnd && e <= at).at(-1);
  const endBreak = nextStart < text.length ? breaks.filter(([b]) => b >= at + name.length && b < nextStart).at(-1) : undefined;
  const start = startBreak ? startBreak[1] : prevEnd;
  const end = endBreak ? endBreak[0] : nextStart;
  const clause = text.slice(start, end).trim();
  return clause.includes(name) ? clause : text;
}

/** Passages about the candidate: its facts first, then sentences naming it, then the rest of a page about it. */
export function evidenceFor(candidate: Candidate, pages: readonly FetchedPage[]): Evidence[] {
  const out: Evidence[] = [];
  const wanted = new Set(candidate.sourceUrls);
  const own = pages.filter((p) => wanted.size === 0 || wanted.has(pageUrl(p)) || wanted.has(p.url));
  for (const page of own.length > 0 ? own : pages) {
    const url = pageUrl(page);
    const entity = entityOf(candidate, page);
    const aboutPage = candidate.entityType === 'news' || page.title.includes(candidate.name) || (entity !== null && entity === page.model?.subject);
    // On a page about several entities (a news story, a listing), a sentence naming others is read only
    // in the part about this one: another's descriptor says nothing of it.
    const others = aboutPage ? [] : [...(page.model?.items ?? []), ...(page.model?.subject ? [page.model.subject] : [])].map((i) => i.name);
    const about = (text: string) => (others.length > 0 ? clauseAbout(text, candidate.name, others) : text);
    if (entity) {
      const own = entity === page.model?.subject;
      for (const fact of entity.facts) if (page.text.includes(fact.passage)) out.push({ text: fact.passage, url, page, named: true, fact, ownFact: own });
      if (page.text.includes(entity.passage)) out.push({ text: own ? entity.passage : about(entity.passage), url, page, named: true });
    }
    if (aboutPage) for (const e of out) if (e.page === page) e.ownPage = true;
    // On a page about the candidate, a line naming another entity the page lists (a "Similar" widget's
    // "Lumenrail — rail freight booking") is about that one, not the candidate.
    const listed = aboutPage ? (page.model?.items ?? []).map((i) => i.name).filter((n) => n && !n.includes(candidate.name) && !candidate.name.includes(n)) : [];
    for (const text of pageSentences(page)) {
      const named = text.includes(candidate.name);
      if (!named && listed.some((n) => text.includes(n))) continue;
      if (named || aboutPage) out.push({ text: named ? about(text) : text, url, page, named: named || aboutPage, ...(aboutPage ? { ownPage: true } : {}) });
    }
  }
  // Facts first, then sentences that name the candidate: the strongest evidence is tried first.
  const rank = (e: Evidence) => (e.fact ? 2 : 0) + (e.named ? 1 : 0);
  const seen = new Set<string>();
  return out
    .filter((e) => {
      const id = `${e.url}\u0000${e.text}\u0000${e.fact?.label ?? ''}`;
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    })
    .sort((a, b) => rank(b) - rank(a));
}

function quoted(passages: readonly Evidence[]): string {
  return passages.map((p) => (p.fact && !p.text.includes(p.fact.label) ? `${p.fact.label}: “${p.text}”` : `“${p.text}”`)).join(' and ');
}

function quotes(used: readonly Evidence[]): QuotedPassage[] {
  const seen = new Set<string>();
  const out: QuotedPassage[] = [];
  for (const e of used) {
    const id = `${e.url}\u0000${e.text}`;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push({ text: e.text, url: e.url });
  }
  return out;
}

function pass(filter: FunnelFilter, used: Evidence[], verification: 'stated' | 'inferred', extra = ''): Verdict {
  return {
    pass: true,
    outcome: 'yes',
    rationale: `Meets “${filter.title}” because the page says: ${quoted(used)}${extra}`,
    rationaleMode: 'rules',
    verification,
    passages: quotes(used),
  };
}

function fail(filter: FunnelFilter, candidate: Candidate, why: string, used: Evidence[] = []): Verdict {
  return {
    pass: false,
    outcome: 'no',
    rationale: used.length > 0
      ? `Does not meet “${filter.title}”: ${why} The page says: ${quoted(used)}`
      : `No passage about ${candidate.name} shows “${filter.title}”: ${why}`,
    rationaleMode: 'rules',
    verification: 'stated',
    passages: quotes(used),
  };
}

/** Neither shown nor ruled out: not a pass (unclear never passes silently), and it says so. */
function unclear(filter: FunnelFilter, candidate: Candidate, why: string): Verdict {
  return {
    pass: false,
    outcome: 'unclear',
    rationale: `Unclear whether ${candidate.name} meets “${filter.title}”: ${why} Not accepted without a passage that shows it.`,
    rationaleMode: 'rules',
    verification: 'stated',
    passages: [],
  };
}

/**
 * The words of a passage; a fact is read as its label and value ("Established: 2019" states a founding), not
 * as the passage holding it: a table row's passage holds every other column too, and its Location cell is no
 * evidence of its sector.
 */
function wordsOf(e: Evidence): { words: string[]; light: string[] } {
  const text = e.fact ? `${e.fact.label} ${e.fact.value}` : e.text;
  return { words: stems(text), light: lightStems(text) };
}

/**
 * Curated words list their variants, so they match by inflection only ("secure" is not "security",
 * "public" is not "publication"); the user's other words match by word family ("condensate" meets
 * "condensation", "superconductivity" meets "superconductors").
 */
function groupMatches(w: { words: string[]; light: string[] }, group: string[]): boolean {
  return (group.some((t) => isKnownTerm(t)) ? matchesGroup(w.light, group, lightStem) : matchesGroup(w.words, group, stem, sameWordFamily)) !== null;
}

function withoutPhrases(text: string, phrases: readonly string[]): string {
  let out = text;
  for (const phrase of phrases) out = out.replace(new RegExp(`\\b${escapeRe(phrase)}\\b`, 'gi'), ' ');
  return out;
}

/** Every group satisfied, preferring one passage; otherwise by up to three passages together. */
function coverGroups(evidence: Evidence[], groups: string[][]): Evidence[] | null {
  // No words to find: the passage that names it (its line, its heading) shows what it is.
  if (groups.length === 0) return evidence.length > 0 ? [evidence.find((e) => !e.fact) ?? evidence[0]!] : null;
  const withStems = evidence.map((e) => ({ e, ...wordsOf(e) }));
  const matches = (w: { e: Evidence; words: string[]; light: string[] }, group: string[]) => {
    // "Consumer Finance" names fintech: a sector word inside another sector's phrase does not count.
    const foreign = group.some((t) => isKnownTerm(t)) ? foreignCompounds(group) : [];
    const text = w.e.fact ? `${w.e.fact.label} ${w.e.fact.value}` : w.e.text;
    if (!foreign.some((p) => text.toLowerCase().includes(p))) return groupMatches(w, group);
    const rest = withoutPhrases(text, foreign);
    return groupMatches({ words: stems(rest), light: lightStems(rest) }, group);
  };
  const whole = withStems.find((w) => groups.every((g) => matches(w, g)));
  if (whole) return [whole.e];
  const used: Evidence[] = [];
  for (const group of groups) {
    const hit = withStems.find((w) => matches(w, group));
    if (!hit) return null;
    if (!used.includes(hit.e)) used.push(hit.e);
  }
  return used.length <= 3 ? used : null;
}

// ── topic ───────────────────────────────────────────────────────────────────────────────────────

/**
 * Sector groups covered by sector facts, each fact read without the phrases that name another sector with
 * one of the group's words ("Consumer Finance" is no consumer company, "Consumer Health Services" none either).
 */
function coverSectors(facts: Evidence[], groups: string[][]): Evidence[] | null {
  const used: Evidence[] = [];
  for (const group of groups) {
    const foreign = foreignCompounds(group);
    const hit = facts.find((e) => {
      const text = withoutPhrases(`${e.fact!.label} ${e.fact!.value}`, foreign);
      return groupMatches({ words: stems(text), light: lightStems(text) }, group);
    });
    if (!hit) return null;
    if (!used.includes(hit)) used.push(hit);
  }
  return used;
}

/** Whom a company sells to: a business model, said beside its sector ("B2B" and "Productivity" both hold). */
const SELLS_TO_BUSINESSES = /^(?:b2b|business-to-business)$/i;
const SELLS_TO_CONSUMERS = /\b(?:b2c|consumers?|business-to-consumer|d2c|direct-to-consumer)\b/i;

/**
 * The only sector group the facts leave uncovered is "sells to businesses" (B2B), and the facts name no
 * consumer business either: a page giving its sector as "Productivity" or "Security" does not say whom it
 * sells to, so that is unclear rather than no.
 */
function customerTypeOnly(topicFacts: readonly Evidence[], sector: readonly string[][]): boolean {
  const uncovered = sector.filter((g) => coverSectors([...topicFacts], [[...g, ...narrowerTerms(g)]]) === null);
  if (uncovered.length === 0 || !uncovered.every((g) => g.some((t) => SELLS_TO_BUSINESSES.test(t)))) return false;
  return topicFacts.length > 0 && !topicFacts.some((e) => SELLS_TO_CONSUMERS.test(e.fact!.value));
}

// Labels pages give what something is about: "Industry", "Sector", "Keywords" (schema.org keywords), "About"
// (schema.org about), "Research area", "Expertise", "Specialty", "Research interests", "Known for", and what
// an encyclopedia's infobox lists under "Products" or "Services".
const TOPIC_LABEL = /industr|sector|tags?\b|keywords?\b|categor|\bfields?\b|vertical|market|focus|topics?\b|subjects?\b|discipline|^about\b|\bareas?\b(?! served)|expertise|speciali[sz]|specialt|interests?\b|known for|^(?:products?|services?|products and services)$/i;

/**
 * Sector words ("consumer", "fintech") are checked against the sector facts when the page states them:
 * a sentence that merely mentions consumers does not make a fintech a consumer company. Other words
 * (names, institutions) may come from any passage about the candidate.
 */
function verifyTopic(filter: FunnelFilter, groups: string[][], candidate: Candidate, evidence: Evidence[]): Verdict {
  const topicFacts = evidence.filter((e) => e.fact && TOPIC_LABEL.test(e.fact.label));
  // Only a profile's sector facts are the whole story; a listing's row shows some columns, not all.
  const authoritative = topicFacts.some((e) => e.ownFact);
  const sector = authoritative ? groups.filter((g) => g.some((t) => isKnownTerm(t))) : [];
  const other = groups.filter((g) => !sector.includes(g));
  let bySector = sector.length > 0 ? coverSectors(topicFacts, sector) : [];
  let subSector = false;
  if (bySector === null) {
    // A sub-sector among its facts ("Industry: Therapeutics" for healthcare) places it in the sector.
    bySector = coverSectors(topicFacts, sector.map((g) => [...g, ...narrowerTerms(g)]));
    if (bySector === null && customerTypeOnly(topicFacts, sector)) {
      return unclear(filter, candidate, `its sector facts (${topicFacts.map((e) => e.fact!.value).join('; ').slice(0, 120)}) do not say whether it sells to businesses.`);
    }
    if (bySector === null) return fail(filter, candidate, 'its sector is stated otherwise.', [topicFacts[0]!]);
    subSector = true;
  }
  let byOther = other.length > 0 || sector.length === 0 ? coverGroups(evidence, other) : [];
  let saidSector = false;
  if (byOther === null) {
    // A sentence that says what it is in a sector's words ("the Austin-based Payments startup", "works in Food and
    // Beverage"): a sub-sector said so places it in the sector, as a sector fact would.
    const each = other.map((g) => coverGroups(evidence, [g]) ?? (g.some((t) => isKnownTerm(t)) ? sectorSaid(evidence, g) ?? listedUnder(candidate, evidence, g) : null));
    if (each.every((e) => e !== null)) {
      byOther = [...new Set(each.flat() as Evidence[])];
      saidSector = true;
    }
  }
  if (byOther === null) {
    // Only a line or a sentence on someone else's page (a listing, a news story), no sector stated: its
    // own page may say what it does, so the lead is worth following before ruling it out.
    if (topicFacts.length === 0 && !evidence.some((e) => e.ownPage)) {
      return unclear(filter, candidate, 'only a passing mention was read, not a page about it.');
    }
    return fail(filter, candidate, 'the pages do not describe it that way.');
  }
  // A sentence that says its sector ("works in Food and Beverage") against a word elsewhere ("… and financial
  // services," said a spokesperson): the word does not settle "fintech companies", as a listed sector would not.
  if (!saidSector && topicFacts.length === 0) {
    for (const g of other.filter((x) => x.some((t) => isKnownTerm(t)))) {
      if (sectorSaid(evidence, g)) continue;
      const said = sectorPhrases(evidence).find((s) => namesSector(s.phrase) && !groupMatches(wordsOf(s.e), g));
      if (said) return unclear(filter, candidate, `a sentence gives its sector as ${said.phrase}, which is not ${g[0]}; only a word elsewhere matches.`);
    }
  }
  // A listing's sector column that names another sector ("Fintech (Banking and Exchange)") against a sentence that
  // merely uses the word ("merchants and consumers can transact"): the sentence does not settle "consumer companies".
  if (!authoritative && topicFacts.length > 0) {
    const sectorWords = other.filter((g) => g.some((t) => isKnownTerm(t)));
    const listed = sectorWords.filter((g) => coverSectors(topicFacts, [[...g, ...narrowerTerms(g)]]) === null);
    const saidOnlyInProse = listed.filter((g) => !(coverGroups(evidence.filter((e) => e.fact), [g]) ?? []).length);
    if (saidOnlyInProse.length > 0) {
      return unclear(filter, candidate, `its listed sector (${topicFacts.map((e) => e.fact!.value).join('; ').slice(0, 120)}) does not name ${saidOnlyInProse[0]![0]}, only a sentence uses the word.`);
    }
  }
  const sectorPassages = bySector;
  const used = [...sectorPassages, ...byOther.filter((e) => !sectorPassages.includes(e))];
  return subSector || saidSector ? pass(filter, used, 'inferred', ' (inferred: a sub-sector of the one asked for)') : pass(filter, used, 'stated');
}

/** Nouns a sentence describes an organisation with, after its sector: "a Payments startup", "the Healthcare nonprofit". */
const ORGANISATION_NOUN = String.raw`(?:startup|start-up|company|firm|business|nonprofit|non-profit|charity|organi[sz]ation|outfit|platform|provider|venture)`;
/** "a|the [<Place>-based] <sector words> <organisation noun>", "works|operates in <Sector Words>". */
const SECTOR_DESCRIPTOR = new RegExp(String.raw`\b(?:an?|the)\s+(?:[\p{Lu}][\p{L}.'’ -]{0,40}-based\s+)?((?:[\p{L}&-]+,?\s+){1,5}?)${ORGANISATION_NOUN}\b|\b(?:works|working|operates|operating)\s+in\s+(\p{Lu}[\p{L}-]*(?:(?:\s+(?:and|&|of))?\s+\p{Lu}[\p{L}-]*)*)`, 'gu');

/**
 * A sector a sentence about the candidate says it is in, as a descriptor ("the San Francisco-based Payments
 * startup", "a Consumer Finance company", "works in Food and Beverage"), that is `group`'s sector or one of its
 * sub-sectors; read as a sector fact, the phrases of other sectors left out ("Consumer Finance" is no consumer company).
 */
function sectorSaid(evidence: readonly Evidence[], group: string[]): Evidence[] | null {
  const wanted = [...group, ...narrowerTerms(group)];
  for (const { e, phrase } of sectorPhrases(evidence)) {
    const asFact: Evidence = { ...e, fact: { label: 'Sector', value: phrase, passage: e.text } };
    if (coverSectors([asFact], [wanted])) return [e];
  }
  return null;
}

/**
 * An article or listing headed by a sector ("Who's building what: fintech companies", "Ten logistics startups to
 * watch") names its entries as of that sector: an entry of its listing (not a widget's) is taken to be in it, unless a
 * sentence about it gives it another sector. The headline is the passage quoted; the verdict is inferred.
 */
function listedUnder(candidate: Candidate, evidence: readonly Evidence[], group: string[]): Evidence[] | null {
  const saysOther = sectorPhrases(evidence).some((s) => namesSector(s.phrase) && !groupMatches(wordsOf(s.e), [...group, ...narrowerTerms(group)]));
  if (saysOther) return null;
  for (const page of new Set(evidence.map((e) => e.page))) {
    const model = page.model;
    // Entries an article lists (a list's line, a series it announces), not names its prose links in passing; a table's
    // headline is its columns' business (a row states its sector in its own cell).
    const entry = entityOf(candidate, page);
    if (!model || model.subject || !entry || !LISTED_SOURCES.has(entry.source)) continue;
    const headline = page.passages.find((p) => p.length >= 8 && (page.title.startsWith(p) || p.startsWith(page.title)));
    if (!headline) continue;
    const shown: Evidence = { text: headline, url: pageUrl(page), page, named: false };
    // A headline's verbs are the writer's ("What we learned talking to …"), not its entries' sector: "learned" is no
    // "learning"; and another sector's phrase with a word of ours ("machine learning") is not ours.
    const own = new Set(group.map((t) => t.toLowerCase()));
    const nouns = headline.replace(/(?<!\p{L})\p{L}+ed(?!\p{L})/gu, (w) => (own.has(w.toLowerCase()) ? w : ' '));
    if (coverGroups([{ ...shown, text: nouns }], [group])) return [shown];
  }
  return null;
}

const LISTED_SOURCES: ReadonlySet<string> = new Set(['list', 'series']);

/** The sector descriptors of the sentences about the candidate, with the sentence each is said in. */
function sectorPhrases(evidence: readonly Evidence[]): { e: Evidence; phrase: string }[] {
  const out: { e: Evidence; phrase: string }[] = [];
  for (const e of evidence) {
    if (!e.named || e.fact) continue;
    for (const m of e.text.matchAll(SECTOR_DESCRIPTOR)) {
      const phrase = (m[1] ?? m[2] ?? '').trim().replace(/,$/, '');
      if (phrase) out.push({ e, phrase });
    }
  }
  return out;
}

/**
 * "Excluding fintech": ruled out when its sector facts (or, with none, a passage about it) name the excluded
 * sector or one of its sub-sectors; kept only when its own page states its sectors and none is excluded, since
 * a listing's row shows some columns, not all. Anything else is unclear.
 */
function verifyExcluded(filter: FunnelFilter, groups: string[][], candidate: Candidate, evidence: Evidence[]): Verdict {
  const topicFacts = evidence.filter((e) => e.fact && TOPIC_LABEL.test(e.fact.label));
  // Each group is ruled out on its own: "excluding fintech and crypto" drops either.
  for (const group of groups) {
    const named = topicFacts.length > 0 ? coverSectors(topicFacts, [[...group, ...narrowerTerms(group)]]) : coverGroups(evidence.filter((e) => e.named), [group]);
    if (named) return fail(filter, candidate, `its pages describe it as ${group[0]}.`, named);
  }
  const own = topicFacts.filter((e) => e.ownFact);
  if (own.length === 0) return unclear(filter, candidate, 'no page of its own states its sector.');
  return pass(filter, own.slice(0, 3), 'inferred', ` (inferred: its stated sectors name no ${groups.map((g) => g[0]).join(' or ')})`);
}

// ── place ───────────────────────────────────────────────────────────────────────────────────────

const BASED_KINDS: ReadonlySet<Candidate['entityType']> = new Set(['company', 'professional', 'researcher', 'clinician', 'lawyer', 'freelancer']);

const LOCATION_LABEL = /locat|headquarter|\bhq\b|based|\bcity\b|address|offices?\b|country|region|affiliat|institution|employer|organi[sz]ation\b(?! type)|university|works (?:for|at)|workplace/i;
/** Where someone was born or died is not where they are based ("Birth country", "Place of death"). */
const NOT_WHERE_BASED = /birth|born|death|died/i;

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A name of the place written in the passage as a word of its own (case as places are written). */
function literalName(text: string, names: readonly string[]): string | null {
  for (const n of names) if (new RegExp(`(^|[^\\p{L}])${escapeRe(n)}(?![\\p{L}])`, 'u').test(text)) return n;
  return null;
}

/**
 * In a sentence, a place says where the candidate is only as a locative ("based in Lagos", "in Berlin",
 * "a Berlin-based startup", "from Paris", "a San Francisco payments company"); "sends money to Africa"
 * does not.
 */
function locativeName(text: string, names: readonly string[], attributive = true): string | null {
  for (const n of names) {
    // "in Berlin", "from Paris", "a Berlin-based …", and (unless `attributive` is false) attributive "a San
    // Francisco payments company". The possessive before a name ("Houston's Shiftly") places it too.
    const before = attributive ? `|\\b(?:a|an|the)\\s+${escapeRe(n)}\\s+\\p{Ll}` : '';
    const re = new RegExp(`(?:\\b(?:in|from|at|of|near|outside|out of)\\s+(?:the\\s+)?(?:city of\\s+)?${escapeRe(n)}(?![\\p{L}])|\\(\\s*${escapeRe(n)}(?:,[^()]{0,60})?\\)|(^|[^\\p{L}])${escapeRe(n)}-(?:based|headquartered)\\b${before}|(^|[^\\p{L}])${escapeRe(n)}['’]s\\s+\\p{Lu})`, 'u');
    if (re.test(text)) return n;
  }
  return null;
}

/** Every occurrence of `place` in `text` lies inside an occurrence of `name`. */
function insideName(text: string, place: string, name: string): boolean {
  if (!name.includes(place)) return false;
  return text.split(name).join(' ').indexOf(place) < 0;
}

/** A label that gives only the country ("Country", "country", "HQ country", "Country/Region"). */
const COUNTRY_LABEL = /^(?:(?:hq |headquarters )?country(?:\/region)?)$/i;

/**
 * The places a location fact names. A city (or state) named alone is read in the country another fact of the same page gives
 * ("headquarters location: Durango" beside "country: United States of America" is Durango, Colorado, not the larger
 * Durango in Mexico).
 */
function placesOfFact(e: Evidence, evidence: readonly Evidence[]): Place[] {
  const value = e.fact!.value;
  const read = resolveLocation(value);
  if (/,/.test(value) || read.length !== 1 || (read[0]!.level !== 'city' && read[0]!.level !== 'state')) return read;
  const country = pageCountryOf(e, evidence);
  if (!country || country === read[0]!.country) return read;
  // The country as its ISO code, which resolveLocation reads as the last piece ("Durango, US").
  const inCountry = resolveLocation(`${value}, ${country}`);
  return inCountry.length === 1 && inCountry[0]!.level !== 'country' && inCountry[0]!.country === country ? inCountry : read;
}

/** The country another fact of the same page gives ("country: United States of America"), as an ISO code. */
function pageCountryOf(e: Evidence, evidence: readonly Evidence[]): string | undefined {
  for (const d of evidence) {
    if (d === e || !d.fact || d.page !== e.page || !COUNTRY_LABEL.test(d.fact.label.trim())) continue;
    const country = resolveLocation(d.fact.value);
    if (country.length === 1 && country[0]!.level === 'country') return country[0]!.country;
  }
  return undefined;
}

function verifyLocation(filter: FunnelFilter, spec: Extract<FilterSpec, { kind: 'location' }>, candidate: Candidate, evidence: Evidence[]): Verdict {
  const target: Place = spec.place;
  const names = [...new Set([...spec.names, ...placeNames(target)])];
  if (spec.relation === 'birth') return verifyBirthplace(filter, target, names, candidate, evidence);
  // "In Los Angeles or Chicago": any of the places will do; unclear for one is unclear for all unless another passes.
  if (spec.alternatives && spec.alternatives.length > 0 && !spec.outside) {
    const verdicts = [target, ...spec.alternatives].map((p) => verifyLocation(filter, { ...spec, place: p, names: placeNames(p), alternatives: [] }, candidate, evidence));
    return verdicts.find((v) => v.outcome === 'yes') ?? verdicts.find((v) => v.outcome === 'unclear') ?? verdicts[0]!;
  }
  const locationFacts = evidence.filter((e) => e.fact && LOCATION_LABEL.test(e.fact.label) && !NOT_WHERE_BASED.test(e.fact.label));
  if (spec.outside) return verifyOutside(filter, target, candidate, locationFacts, evidence);
  // Each location fact read once, for the three passes below.
  const readOf = new Map(locationFacts.map((e) => [e, placesOfFact(e, evidence)]));
  // A bare name whose namesakes are of like size ("Columbia") places it only where all of them lie.
  const guessed = new Set<Evidence>();
  for (const e of locationFacts) {
    const read = readOf.get(e)!;
    const readings = !/,/.test(e.fact!.value) && read.length === 1 && read[0]!.level === 'city' ? likeReadings(e.fact!.value.trim(), pageCountryOf(e, evidence)) : null;
    if (!readings || target.level === 'city') continue;
    const inside = readings.filter((p) => placeContains(target, p));
    if (inside.length === readings.length) return pass(filter, [e], 'inferred', ` (inferred: every ${readings[0]!.name} lies in ${target.name})`);
    if (inside.length > 0) guessed.add(e);
  }
  for (const e of locationFacts) {
    if (guessed.has(e)) continue;
    const resolved = readOf.get(e)!;
    const inside = resolved.find((p) => placeContains(target, p));
    // The name said, but of another place the gazetteer reads for certain ("Tbilisi, Georgia" for the US state):
    // no match. A value it cannot read keeps the literal name.
    const said = literalName(e.fact!.value, names);
    // So is a town of the same name the value places elsewhere ("Boston, Lincolnshire, United Kingdom" for Boston, MA).
    const sameNameElsewhere = (p: Place) => target.level === 'city' && target.country !== undefined && p.level === 'city' && /,/.test(e.fact!.value)
      && (p.country !== target.country || (p.state !== undefined && target.state !== undefined && p.state !== target.state));
    const readOtherwise = said !== null && !inside && resolved.some((p) => p.country !== undefined && (p.name.toLowerCase() !== said.toLowerCase() || sameNameElsewhere(p)));
    const literal = readOtherwise ? null : said;
    if (literal && (!inside || inside.name === literal || target.level !== 'city')) return pass(filter, [e], 'stated');
    if (inside) return pass(filter, [e], 'inferred', ` (inferred: ${inside.name} lies in ${target.name})`);
  }
  // Only a location the gazetteer reads can rule it out; "Uppsala University" alone says nothing either way, nor
  // does a wider place that holds the one asked for ("SF Bay Area" or "California" for San Francisco).
  const placed = locationFacts.find((e) => {
    if (guessed.has(e)) return false;
    const read = readOf.get(e)!;
    // (A country holds the regions drawn inside it: the East Coast lies in the United States.)
    return read.length > 0 && !read.some((p) => placeContains(p, target) || (p.level === 'country' && p.country !== undefined && p.country === target.country));
  });
  if (placed) return fail(filter, candidate, `its location is not in ${target.name}.`, [placed]);
  // Sentences, not facts: a birthplace or an award line says nothing about where it is based, nor does any
  // sentence that says where it was born or died ("He was born on 1967-02-24 in Missoula, MT").
  const named = evidence.filter((e) => e.named && !e.fact && !/^(?:Born|Died)\b/.test(e.text) && !/\b(?:born|died)\b/i.test(e.text));
  // Where a company or a person is based needs a locative; a news story, a paper or an event is about a place.
  const based = BASED_KINDS.has(candidate.entityType);
  const says = (text: string, ns: readonly string[]) => (based ? locativeName(text, ns) : literalName(text, ns));
  for (const e of named) if (says(e.text, names)) return pass(filter, [e], 'stated');
  for (const e of named) {
    // A town's name inside the candidate's own ("the chief executive of Verano Health") or a sector's name after "in"
    // ("works in Gaming", a town in Austria too) places nothing.
    const mentions = placesNamedIn(e.text).filter((m) => !namesSector(m.text.replace(/-based$/i, '')) && !insideName(e.text, m.text, candidate.name));
    // A place the sentence names for certain outside the target ("in Weston Creek (Australia)") rules out
    // guessing an ambiguous town of the same sentence ("Weston") into the target.
    const firmlyElsewhere = mentions.some((m) => !m.ambiguous && !placeContains(target, m.place) && !placeContains(m.place, target));
    for (const mention of mentions) {
      const bare = mention.text.replace(/-based$/i, '').replace(/['’]s$/, '');
      if (!says(e.text, [bare])) continue;
      // Said only before a noun ("in San Francisco, a Energy company": Energy is also a village in Illinois) while the
      // sentence names a place for certain elsewhere: that word says what it is, the other where it is.
      if (based && firmlyElsewhere && !locativeName(e.text, [bare], false)) continue;
      if (!mention.ambiguous && placeContains(target, mention.place)) {
        return pass(filter, [e], 'inferred', ` (inferred: “${mention.text}” is ${mention.place.name}, which lies in ${target.name})`);
      }
      // A city name several countries have ("Dallas-based") fits a state or country that holds one of them.
      // Not across countries for a country or a continent: "San Francisco-based" is no town of the Philippines for
      // "startups in Asia", nor "Oxford-based" one of the United States; only a name all of whose namesakes lie in
      // the country or continent asked for places it there.
      const readings = mention.ambiguous && target.level !== 'city' && !firmlyElsewhere ? cityReadings(bare) : [];
      const acrossCountries = (target.level === 'country' || target.level === 'region') && !readings.every((p) => placeContains(target, p));
      const reading = acrossCountries ? undefined : readings.find((p) => placeContains(target, p));
      if (reading) return pass(filter, [e], 'inferred', ` (inferred: “${mention.text}” taken as the ${reading.name} in ${target.name})`);
    }
  }
  // A listing's line puts where it is beside its name, before what it says of it ("Cognito (S14), San Francisco:
  // identity checks", "Ada Quist (Quist Institute, Norway) — Prize in Chemistry"): a place the gazetteer reads
  // for certain there is where it is.
  for (const e of named) {
    const entry = entityOf(candidate, e.page);
    if (!entry || entry.source !== 'list' || !e.text.startsWith(entry.name)) continue;
    const lead = e.text.slice(entry.name.length).split(/:\s|\s[—–]\s|[.!?]\s/)[0] ?? '';
    if (literalName(lead, names)) return pass(filter, [e], 'stated');
    const mention = placesNamedIn(lead).find((m) => !m.ambiguous && placeContains(target, m.place));
    if (mention) return pass(filter, [e], 'inferred', ` (inferred: the line places it in ${mention.place.name}, which lies in ${target.name})`);
  }
  return unclear(filter, candidate, `no passage about it names ${target.name} or a place in it.`);
}

const BIRTH_LABEL = /birth|born|native of|hometown/i;
const DEATH_LABEL = /death|died/i;

/**
 * The places a birth fact's value names, its dates left out ("1949-10-08 in Nagoya, Japan", "March 3, 1951,
 * Tokyo, Japan"); a historical name with today's in brackets ("Prussia (Germany)") is read both ways.
 */
function birthPlacesIn(value: string): Place[] {
  const undated = value
    .replace(/\b\d{4}-\d{2}-\d{2}\b/g, ' ')
    .replace(/\b(?:\d{1,2}\s+)?(?:January|February|March|April|May|June|July|August|September|October|November|December)(?:\s+\d{1,2})?,?\s+\d{4}\b/gi, ' ')
    .replace(/\b(?:c\.\s*)?\d{4}\b/g, ' ')
    .replace(/^[\s,;:]*(?:in\s+)?/i, '')
    .replace(/\s+in\s+/gi, ', ')
    .replace(/\s*,\s*,/g, ',')
    .replace(/^[\s,]+|[\s,]+$/g, '');
  if (!undated) return [];
  const bracketed = [...undated.matchAll(/\(([^)]+)\)/g)].map((m) => m[1]!);
  const outer = undated.replace(/\([^)]*\)/g, ' ').replace(/\s+/g, ' ').trim();
  return [outer, ...bracketed].flatMap((t) => (t ? resolveLocation(t) : []));
}

/**
 * "Born in X": a birth fact (Born, Birth place, Place of birth, schema.org birthPlace) decides; else a
 * sentence about the candidate that says it was born in a place. Where it works says nothing of it.
 */
function verifyBirthplace(filter: FunnelFilter, target: Place, names: readonly string[], candidate: Candidate, evidence: Evidence[]): Verdict {
  const facts = evidence.filter((e) => e.fact && BIRTH_LABEL.test(e.fact.label) && !DEATH_LABEL.test(e.fact.label));
  let placed: Evidence | null = null;
  for (const e of facts) {
    const literal = literalName(e.fact!.value, names);
    const places = birthPlacesIn(e.fact!.value);
    const inside = places.find((p) => placeContains(target, p));
    if (literal && (!inside || target.level !== 'city' || inside.name === literal)) return pass(filter, [e], 'stated');
    if (inside) return pass(filter, [e], 'inferred', ` (inferred: ${inside.name} lies in ${target.name})`);
    if (places.length > 0) placed ??= e;
  }
  if (placed) return fail(filter, candidate, `it was born outside ${target.name}.`, [placed]);
  for (const e of evidence) {
    if (!e.named || e.fact) continue;
    const at = e.text.search(/\bborn\b/i);
    if (at < 0) continue;
    const after = e.text.slice(at);
    // The first place after "born" is where; later ones are where it moved or works.
    const first = placesNamedIn(after)[0];
    const literal = literalName(after.slice(0, first ? after.indexOf(first.text) + first.text.length : 80), names);
    if (literal) return pass(filter, [e], 'stated');
    if (!first) continue;
    if (placeContains(target, first.place)) return pass(filter, [e], 'inferred', ` (inferred: ${first.text} lies in ${target.name})`);
    if (!first.ambiguous) return fail(filter, candidate, `it was born in ${first.text}.`, [e]);
  }
  return unclear(filter, candidate, `no passage says where it was born.`);
}

/** "Outside X": every place its location facts name resolves, and none lies in X. */
function verifyOutside(filter: FunnelFilter, target: Place, candidate: Candidate, locationFacts: Evidence[], evidence: Evidence[] = []): Verdict {
  for (const e of locationFacts) {
    const places = placesOfFact(e, evidence);
    if (places.some((p) => placeContains(target, p))) return fail(filter, candidate, `it is located in ${target.name}.`, [e]);
    // A region that holds the excluded place ("North America" for outside the US) says neither.
    if (places.some((p) => placeContains(p, target))) continue;
    if (places.length > 0) {
      const where = places.map((p) => (p.level === 'city' && p.country ? `${p.name} (${p.country})` : p.name)).join(', ');
      return pass(filter, [e], 'inferred', ` (inferred: ${where} lies outside ${target.name})`);
    }
  }
  // No location fact: a sentence about it that says where it is ("headquartered in Lagos, Nigeria"). Every
  // place it names as a locative must be placed unambiguously, and none may lie in the excluded place.
  if (BASED_KINDS.has(candidate.entityType)) {
    for (const e of evidence) {
      if (!e.named || e.fact || /^(?:Born|Died)\b/.test(e.text) || /\bborn\b/i.test(e.text)) continue;
      const located = placesNamedIn(e.text).filter((m) => locativeName(e.text, [m.text.replace(/-based$/i, '').replace(/['’]s$/, '')]));
      if (located.length === 0) continue;
      if (located.some((m) => placeContains(target, m.place))) return fail(filter, candidate, `it is located in ${target.name}.`, [e]);
      // "sends transfers from North America and Europe to Africa": a region that holds the excluded place says neither.
      if (located.some((m) => placeContains(m.place, target))) continue;
      if (located.every((m) => !m.ambiguous)) {
        return pass(filter, [e], 'inferred', ` (inferred: ${located.map((m) => m.place.name).join(', ')} lies outside ${target.name})`);
      }
    }
  }
  return unclear(filter, candidate, 'no passage gives a location the gazetteer knows.');
}

// ── organisation form ───────────────────────────────────────────────────────────────────────────

// "instance of" is how a knowledge base states what kind of organisation it is ("instance of: subsidiary").
const STATUS_LABEL = /status|stage|\btype\b|legal|\bform\b|exit|nonprofit|structure|tags?|categor|ownership|instance of/i;
const FORM_VALUE: Record<OrgForm, RegExp> = {
  // "Nonprofit", "Non-profit" and "Non profit", as people spell it.
  nonprofit: /\bnon[- ]?profit|not[- ]for[- ]profit|501\s?\(c\)|\bcharit|\bngo\b/i,
  public: /^public\b|publicly|\bipo\b|\blisted\b|nasdaq|nyse/i,
  // "M&A" is how business databases print an exit by acquisition (a funding or exit status).
  acquired: /\bacquired\b|\bacquisition\b|\bsubsidiary\b|\bM&A\b|\bmerged\b/i,
  // "Out of Business": a private-markets database's ownership status of a company that closed.
  inactive: /\binactive\b|defunct|shut ?down|\bclosed\b|\bdead\b|dissolved|out of business/i,
  active: /^(active|operating)\b/i,
};
/** Status values that answer "which form" and so can rule one out. */
const ANY_STATUS = /^(active|acquired|public|inactive|operating|defunct|closed|private|privately held|ipo|out of business)\b/i;
const FORM_SENTENCE: Record<OrgForm, RegExp | null> = {
  nonprofit: /\b(?:non[- ]?profit|not-for-profit|501\(c\)\(3\)|charitable organi[sz]ation|registered charity)\b/i,
  // "Its shares trade on a public stock exchange", "now a public company": said in plain words too.
  public: /\b(?:publicly (?:traded|listed)|went public|initial public offering|IPO|(?:listed|trade[sd]?|trading) on (?:the|a) (?:public )?(?:NYSE|NASDAQ|Nasdaq|New York Stock Exchange|stock exchange|stock market)|(?:is|now|became) a public company|(?:NYSE|NASDAQ|Nasdaq): ?[A-Z]{1,5})\b/,
  acquired: /\b(?:(?:was|were|been|got|is now|later|eventually|since) acquired|acquired by|acquisition by|sold to|(?:was|were|been|later) bought(?: out)? by)\b/i,
  inactive: /\b(?:shut down|shuttered|ceased operations|wound down|defunct|closed (?:its|their) doors|no longer operat\w*)\b/i,
  active: null,
};

/** The sentence says it of the candidate: named before the phrase, or opening with "It"/"The company". */
function saysOfCandidate(text: string, name: string, at: number): boolean {
  const nameAt = text.indexOf(name);
  return (nameAt >= 0 && nameAt < at) || /^(?:It|Its|The (?:company|startup|firm|organi[sz]ation|nonprofit)(?:'s)?|They|Their)\b/.test(text);
}

/**
 * Labels whose mere presence with a value shows a form: a ticker symbol ("Traded as: NYSE: DBX",
 * schema.org tickerSymbol) a listed company, a dissolution date (schema.org dissolutionDate, an infobox's
 * "Defunct: 2019") a closed one, a parent organisation (schema.org parentOrganization, "Parent: Autodesk")
 * an acquired one (inferred: a subsidiary may have been founded as one).
 */
const FORM_LABEL: Partial<Record<OrgForm, { label: RegExp; verification: 'stated' | 'inferred'; why: string }>> = {
  public: { label: /ticker|traded as|^stock(?: (?:symbol|exchange|listing))?$|^(?:exchange|listed on|listing)$/i, verification: 'stated', why: '' },
  inactive: { label: /dissolution|dissolved|^defunct$|^closed$|shut ?down/i, verification: 'stated', why: '' },
  acquired: { label: /^(?:parent(?: (?:organi[sz]ation|company))?|acquired by|acquirer|owner)$/i, verification: 'inferred', why: ' (a parent organisation is taken to mean it was acquired)' },
};

/** Forms that end a company's run as an independent one, as directories' status fields print them. */
const EXITED: readonly OrgForm[] = ['acquired', 'public', 'inactive'];
/** An operating status ("Operating status: Active") says whether it still runs, not who owns it or where it trades. */
const OPERATING_LABEL = /operat|activity/i;
/** A legal form that rules a nonprofit out ("Company type: For Profit", "Legal form: For-profit company"). */
const FOR_PROFIT = /^for[- ]?profit\b/i;
/** Labels that state an organisation's form (not its tags or categories: "Category: Business" is a topic). */
const FORM_OF_LABEL = /status|\btype\b|legal|\bform\b|structure|ownership|instance of/i;
/**
 * Forms of an organisation that has owners, which a nonprofit has not: a company with share capital as registers
 * print it ("Private limited company", "Public limited company", "limited by shares"), an ownership status
 * ("Privately Held (backing)", "Publicly Held"), a knowledge base's kind of thing ("business", "public company").
 * A company limited by guarantee is the form charities take, and says nothing either way.
 */
const OWNED_FORM = /^(?:(?:private|public) limited company|(?:private |public )?company limited by shares|plc|(?:privately|publicly) held|(?:public |startup |start-up )?company(?! limited by guarantee)|business|enterprise|corporation|subsidiary)\b/i;
/**
 * An ownership status of a going concern ("Ownership Status: Privately Held (backing)"): private-markets databases
 * print "Out of Business", "Acquired/Merged" or "Publicly Held" in the same field when it no longer runs on its own.
 */
const OWNERSHIP_LABEL = /ownership/i;
const HELD_PRIVATELY = /^privately held\b/i;

function verifyForm(filter: FunnelFilter, form: OrgForm, candidate: Candidate, evidence: Evidence[]): Verdict {
  const speaksTo = (e: Evidence) => !OPERATING_LABEL.test(e.fact!.label) || form === 'inactive' || form === 'active';
  const facts = evidence.filter((e) => e.fact && speaksTo(e));
  // "Operating status: Active" beside "Funding status: M&A" (or "IPO"): a business database's operating status
  // stays Active after an exit, where a directory's status reads Acquired or Public; the exit rules "still active" out.
  const exit = form === 'active'
    ? facts.find((e) => STATUS_LABEL.test(e.fact!.label) && !OPERATING_LABEL.test(e.fact!.label) && EXITED.some((f) => FORM_VALUE[f].test(e.fact!.value)))
    : undefined;
  if (exit) return fail(filter, candidate, `its page states an exit (“${exit.fact!.value}”).`, [exit]);
  // "It was acquired last year.", "It has since shut down.": an exit said in a sentence about it rules "still active" out.
  const exitSaid = form === 'active' ? evidence.find((e) => e.named && !e.fact && EXITED.some((f) => saidOf(FORM_SENTENCE[f], e.text, candidate.name))) : undefined;
  if (exitSaid) return fail(filter, candidate, 'its page says it no longer runs on its own.', [exitSaid]);
  const matching = facts.find((e) => FORM_VALUE[form].test(e.fact!.value) && (STATUS_LABEL.test(e.fact!.label) || form === 'nonprofit'));
  if (matching) return pass(filter, [matching], 'stated');
  const held = form === 'active' ? facts.find((e) => OWNERSHIP_LABEL.test(e.fact!.label) && HELD_PRIVATELY.test(e.fact!.value.trim())) : undefined;
  if (held) return pass(filter, [held], 'inferred', ' (inferred: an ownership status of privately held is that of a company still running on its own)');
  // A yes/no field named for the form ("Nonprofit: true", "Public: Yes", "Acquired: No").
  const flag = facts.find((e) => FORM_VALUE[form].test(e.fact!.label) && /^(?:yes|no|true|false|✓|✔|✗)$/i.test(e.fact!.value.trim()));
  if (flag) {
    return /^(?:yes|true|✓|✔)$/i.test(flag.fact!.value.trim())
      ? pass(filter, [flag], 'stated')
      : fail(filter, candidate, `its page says “${flag.fact!.label}: ${flag.fact!.value}”.`, [flag]);
  }
  const byLabel = FORM_LABEL[form];
  const labelled = byLabel ? facts.find((e) => byLabel.label.test(e.fact!.label.trim()) && /\p{L}|\d/u.test(e.fact!.value)) : undefined;
  if (labelled && byLabel) return pass(filter, [labelled], byLabel.verification, byLabel.why);
  const sentence = FORM_SENTENCE[form];
  if (sentence) {
    for (const e of evidence) {
      if (!e.named || e.fact) continue;
      const m = sentence.exec(e.text);
      if (m && (form === 'nonprofit' || saysOfCandidate(e.text, candidate.name, m.index))) return pass(filter, [e], 'stated');
    }
  }
  // "Status: Private" says who owns it, not whether it still runs.
  const status = facts.find((e) => /status|stage/i.test(e.fact!.label) && ANY_STATUS.test(e.fact!.value) && !(form === 'active' && /^private(?:ly)?\b/i.test(e.fact!.value.trim())));
  if (status && form !== 'nonprofit') return fail(filter, candidate, `its status is “${status.fact!.value}”.`, [status]);
  const forProfit = form === 'nonprofit' ? facts.find((e) => STATUS_LABEL.test(e.fact!.label) && FOR_PROFIT.test(e.fact!.value.trim())) : undefined;
  if (forProfit) return fail(filter, candidate, `its legal form is “${forProfit.fact!.value}”.`, [forProfit]);
  // Listed on an exchange or bought by another company: an organisation with shareholders, not a nonprofit.
  const owned = form === 'nonprofit' ? facts.find((e) => /status|stage|exit/i.test(e.fact!.label) && (FORM_VALUE.public.test(e.fact!.value.trim()) || FORM_VALUE.acquired.test(e.fact!.value))) : undefined;
  if (owned) return { ...fail(filter, candidate, `its status is “${owned.fact!.value}”, which a nonprofit's is not.`, [owned]), verification: 'inferred' };
  const shares = form === 'nonprofit' ? facts.find((e) => FORM_OF_LABEL.test(e.fact!.label) && OWNED_FORM.test(e.fact!.value.trim())) : undefined;
  if (shares) return { ...fail(filter, candidate, `its form is “${shares.fact!.value}”, an organisation with owners, which a nonprofit is not.`, [shares]), verification: 'inferred' };
  // A company hiring now is still operating; an exit would have been read above.
  const hiring = form === 'active' ? hiringStated(evidence) : null;
  if (hiring?.hiring) return pass(filter, [hiring.e], 'inferred', ' (inferred: a company that is hiring is still operating)');
  return unclear(filter, candidate, 'no passage states its status.');
}

/** The phrase is said in the sentence of the candidate (named before it, or the sentence opens with "It"). */
function saidOf(phrase: RegExp | null, text: string, name: string): boolean {
  const m = phrase?.exec(text);
  return m !== null && m !== undefined && saysOfCandidate(text, name, m.index);
}

// ── size ────────────────────────────────────────────────────────────────────────────────────────

// "Employee count", "Employees", "FTEs", "Number of staff", "Company size", "Headcount".
const SIZE_LABEL = /team|employ|headcount|staff|\bsize\b|people|workforce|\bftes?\b/i;
const SIZE_SENTENCE = /\b(?:team of|employs|staff of|workforce of)\s+(?:about |around |over |more than |nearly )?(\d[\d,]*)|\b(\d[\d,]*)\+?\s+(?:full-time\s+)?(?:employees|staff members|team members|staffers|workers)\b/i;
/** "The team counts 355 people", "headcount: about 1,200": a number a few words after a team word. */
const TEAM_NUMBER = /\b(?:team|staff|workforce|headcount)\b[^.;:!?]{0,25}?\b(\d[\d,]*)\s+(?:people|employees|persons|members|staff)\b/i;

function numbersIn(value: string): number[] {
  return [...value.matchAll(/\d[\d,]*(?:\.\d+)?\s*k?/gi)].map((m) => {
    const k = /k$/i.test(m[0].trim());
    return Number(m[0].replace(/[,\sk]/gi, '')) * (k ? 1000 : 1);
  }).filter((n) => Number.isFinite(n));
}

function sizeAnswer(n: number[], spec: Extract<FilterSpec, { kind: 'size' }>): 'yes' | 'no' | 'unclear' {
  const lo = Math.min(...n);
  const hi = Math.max(...n);
  const inside = (x: number) => (spec.min === null || x >= spec.min) && (spec.max === null || x <= spec.max);
  if (inside(lo) && inside(hi)) return 'yes';
  if ((spec.min !== null && hi < spec.min) || (spec.max !== null && lo > spec.max)) return 'no';
  return 'unclear';
}

function verifySize(filter: FunnelFilter, spec: Extract<FilterSpec, { kind: 'size' }>, candidate: Candidate, evidence: Evidence[]): Verdict {
  for (const e of evidence) {
    if (!e.fact || !SIZE_LABEL.test(e.fact.label)) continue;
    const n = numbersIn(e.fact.value);
    if (n.length === 0) continue;
    const answer = sizeAnswer(n, spec);
    if (answer === 'yes') return pass(filter, [e], 'stated');
    if (answer === 'no') return fail(filter, candidate, `its headcount is ${e.fact.value}.`, [e]);
  }
  // A fact's own line read as a sentence would see one end of a range ("1,001-5,000 employees") as the headcount.
  const factLines = new Set(evidence.flatMap((e) => (e.fact && SIZE_LABEL.test(e.fact.label) ? [e.fact.passage, e.text] : [])));
  for (const e of evidence) {
    if (!e.named || e.fact || factLines.has(e.text)) continue;
    const m = SIZE_SENTENCE.exec(e.text) ?? TEAM_NUMBER.exec(e.text);
    if (!m) continue;
    const n = Number((m[1] ?? m[2])!.replace(/,/g, ''));
    const answer = sizeAnswer([n], spec);
    if (answer === 'yes') return pass(filter, [e], 'stated');
    if (answer === 'no') return fail(filter, candidate, `the page gives a headcount of ${n}.`, [e]);
  }
  return unclear(filter, candidate, 'no passage gives its headcount.');
}

// ── hiring ──────────────────────────────────────────────────────────────────────────────────────

const HIRING_LABEL = /hiring|jobs|job posting|open roles|openings|careers|positions|vacancies|recruit/i;
/** A fact that lists a role it has open (schema.org JobPosting's title, "Open positions: Data engineer"): hiring. */
const POSTING_LABEL = /^(?:job postings?|job openings?|open (?:roles?|positions?)|vacanc(?:y|ies))$/i;
// "It is hiring", "now recruiting", and a listing's lead said of each name it lists: "companies hiring now: A, B and C",
// "startups that are hiring".
const HIRING_YES = /\b(?:is|are|we're|we are|now|currently|actively) (?:hiring|recruiting)\b|\b(?:hiring|recruiting) (?:now|right now|today)\b|\b(?:companies|startups|teams|firms|organi[sz]ations|nonprofits|employers)(?: that are| still)? (?:hiring|recruiting)\b|\bopen (?:roles|positions|jobs)\b|\bjoin (?:our|the) team\b|\bwe(?:'re| are) looking for\b/i;
const HIRING_NO = /\bnot (?:currently )?(?:hiring|recruiting)\b|\bno (?:open |current )?(?:roles|positions|jobs|openings|vacancies)\b/i;

/**
 * The lead an article or listing says of every entry it lists: its headline ("4 names to know among Y Combinator
 * companies hiring now") and the sentence that announces its series, up to the first name ("Among the companies
 * hiring now: A, B and C"). Read only for an entry of its list or series (not a name its prose or a widget mentions)
 * on a page about no one entity. A sentence about several names is otherwise read in each name's part alone, which
 * cuts the lead off.
 */
function listingLeads(candidate: Candidate, evidence: readonly Evidence[]): { lead: string; e: Evidence }[] {
  const out: { lead: string; e: Evidence }[] = [];
  for (const page of new Set(evidence.map((e) => e.page))) {
    const model = page.model;
    const entry = entityOf(candidate, page);
    if (!model || model.subject || !entry || !LISTED_SOURCES.has(entry.source)) continue;
    const url = pageUrl(page);
    const headline = page.passages.find((p) => p.length >= 8 && (page.title.startsWith(p) || p.startsWith(page.title)));
    if (headline) out.push({ lead: headline, e: { text: headline, url, page, named: false } });
    const names = model.items.filter((i) => LISTED_SOURCES.has(i.source)).map((i) => i.name);
    for (const text of page.passages) {
      if (!text.includes(candidate.name)) continue;
      const first = Math.min(...names.map((n) => text.indexOf(n)).filter((i) => i >= 0));
      // A series names at least two of the entries, after its lead.
      if (names.filter((n) => text.includes(n)).length < 2 || first <= 0) continue;
      out.push({ lead: text.slice(0, first), e: { text, url, page, named: false } });
    }
  }
  return out;
}

/** What a page says of the candidate itself about hiring (a jobs fact, a sentence naming it), the passage with it. */
function hiringStated(evidence: readonly Evidence[]): { hiring: boolean; e: Evidence } | null {
  for (const e of evidence) {
    if (!e.fact || !HIRING_LABEL.test(e.fact.label)) continue;
    const v = e.fact.value.trim();
    if (/^(?:no|false|not hiring|none|0|closed)\b/i.test(v) || HIRING_NO.test(v)) return { hiring: false, e };
    const n = numbersIn(v);
    if (/^(?:yes|true|hiring|open|(?:actively |now |currently )?(?:hiring|recruiting))\b/i.test(v) || HIRING_YES.test(v) || (n.length > 0 && n[0]! > 0)) return { hiring: true, e };
    if (POSTING_LABEL.test(e.fact.label.trim()) && /\p{L}/u.test(v)) return { hiring: true, e };
  }
  for (const e of evidence) {
    if (!e.named || e.fact) continue;
    if (HIRING_NO.test(e.text)) return { hiring: false, e };
    if (HIRING_YES.test(e.text)) return { hiring: true, e };
  }
  return null;
}

function verifyHiring(filter: FunnelFilter, candidate: Candidate, evidence: Evidence[]): Verdict {
  const stated = hiringStated(evidence);
  if (stated) return stated.hiring ? pass(filter, [stated.e], 'stated') : fail(filter, candidate, 'the page says it is not hiring.', [stated.e]);
  for (const { lead, e } of listingLeads(candidate, evidence)) {
    if (HIRING_NO.test(lead)) return { ...fail(filter, candidate, 'it is listed under a lead that says its entries are not hiring.', [e]), verification: 'inferred' };
    if (HIRING_YES.test(lead)) return pass(filter, [e], 'inferred', ' (inferred: it is listed under that lead)');
  }
  return unclear(filter, candidate, 'no passage says whether it is hiring.');
}

// ── remote work ─────────────────────────────────────────────────────────────────────────────────

const REMOTE_LABEL = /remote|work(?:place)?\s*(?:mode|policy|model|style|type|arrangement)|workplace|location type|telecommut/i;
const REMOTE_SENTENCE = /\b(?:fully remote|remote-first|100% remote|all-remote|distributed team|work from anywhere)\b/i;

/** A work-mode fact decides; else "Remote" among its locations; else a remote-first sentence. */
function verifyRemote(filter: FunnelFilter, fully: boolean, candidate: Candidate, evidence: Evidence[]): Verdict {
  for (const e of evidence) {
    if (!e.fact || !REMOTE_LABEL.test(e.fact.label)) continue;
    const v = e.fact.value;
    if (/\b(?:no|none|false|on-?site|in[- ]office)\b/i.test(v)) return fail(filter, candidate, 'it works on site.', [e]);
    if (fully && /\b(?:partly|partially|hybrid|some|optional)\b/i.test(v)) return fail(filter, candidate, `its work mode is “${v}”.`, [e]);
    // schema.org's jobLocationType says TELECOMMUTE; a yes/no field says true.
    if (/remote|yes|true|distributed|anywhere|telecommute/i.test(v)) return pass(filter, [e], 'stated');
  }
  const locations = evidence.filter((e) => e.fact && LOCATION_LABEL.test(e.fact.label));
  const remoteLocation = locations.find((e) => /(^|[;,]\s*)Remote\b/i.test(e.fact!.value));
  if (remoteLocation) return pass(filter, [remoteLocation], 'stated');
  const sentence = evidence.find((e) => e.named && !e.fact && REMOTE_SENTENCE.test(e.text));
  if (sentence) return pass(filter, [sentence], 'stated');
  if (locations.length > 0) return fail(filter, candidate, 'its locations list no remote work.', [locations[0]!]);
  return unclear(filter, candidate, 'no passage states how it works.');
}

// ── cohort ──────────────────────────────────────────────────────────────────────────────────────

const COHORT_LABEL = /batch|cohort|y ?combinator|\byc\b|accelerator|program/i;
const PROGRAMME_WORDS = /\bY ?Combinator\b|\bYC\b/;

function verifyCohort(filter: FunnelFilter, spec: Extract<FilterSpec, { kind: 'cohort' }>, candidate: Candidate, evidence: Evidence[]): Verdict {
  const wantBatch = spec.season !== null && spec.year !== null;
  // "YC's 2016 batches": either season of that year.
  const wantYear = spec.season === null && spec.year !== null;
  const judge = (e: Evidence, text: string, programmeKnown: boolean): Verdict | null => {
    const batch = readBatch(text);
    if (wantYear) {
      if (!batch) return null;
      if (batch.year === spec.year) return pass(filter, [e], 'stated');
      return fail(filter, candidate, `its batch is ${batch.season} ${batch.year}.`, [e]);
    }
    if (!wantBatch) return programmeKnown || PROGRAMME_WORDS.test(text) ? pass(filter, [e], 'stated') : null;
    if (!batch) return null;
    if (batch.season === spec.season && batch.year === spec.year) return pass(filter, [e], 'stated');
    return fail(filter, candidate, `its batch is ${batch.season} ${batch.year}.`, [e]);
  };
  for (const e of evidence) {
    if (!e.fact) continue;
    if (!COHORT_LABEL.test(e.fact.label) && !PROGRAMME_WORDS.test(e.fact.value)) continue;
    const v = judge(e, e.fact.value, COHORT_LABEL.test(e.fact.label) && /batch|cohort|y ?combinator|\byc\b/i.test(e.fact.label));
    if (v) return v;
  }
  for (const e of evidence) {
    if (!e.named || e.fact || !PROGRAMME_WORDS.test(e.text)) continue;
    const v = judge(e, e.text, true);
    if (v) return v;
  }
  return unclear(filter, candidate, `no passage names its ${wantBatch || wantYear ? 'batch' : 'programme'}.`);
}

/** Labels of facts whose value is a time: a year in them is a date ("Published in: Physical Review B, 1973"). */
// "Est." is how listings and signs abbreviate "established".
const DATE_LABEL = /\b(?:year|date|dated|when|founded|established|launched|since|published|publication|issued|released|awarded|prize|prizes|award|awards|honou?rs?|distinctions?|recognition|laureate|nobel|born|died|started|opened|incorporated)\b|^est\.?$/i;
const YEAR_TOKEN = /(?<![\d,.])((?:1[5-9]|20)\d{2})(?![\d,])/g;

const CUED_YEAR = /\b(?:founded|established|launched|started|incorporated|published|born)(?:\s+in)?\s+((?:1[5-9]|20)\d{2})\b/gi;
/** A year said of an acquisition, its buyer between ("was acquired by Autodesk in 2021", "bought in 2016"). */
const ACQUIRED_YEAR = /\b(?:acquired|bought)(?:\s+by\s+(?:\p{Lu}[\p{L}\d&.'-]*\s+){1,4}?)?(?:\s*in)?\s+((?:1[5-9]|20)\d{2})\b/gu;
/**
 * A year said of a prize in its sentence ("received the Nobel Memorial Prize in Economic Sciences in 2011", "the
 * Nobel Prize in Physics 2014"): the prize's date, so a roundup dated a year later does not stand in for it.
 */
const AWARD_YEAR: RegExp = /\b(?:[Pp]rize|[Aa]ward|[Mm]edal)\b(?:\s+(?:in|for)\s+\p{Lu}[\p{L}']*(?:\s+\p{Lu}[\p{L}']*){0,3})?(?:\s+(?:followed|came|arrived))?(?:\s+in|,)?\s+\(?((?:1[5-9]|20)\d{2})\b/gu;
/** The year before the prize's name: "shared the 2011 Nobel Memorial Prize in Economic Sciences". */
const YEAR_OF_AWARD: RegExp = /\b((?:1[5-9]|20)\d{2})\s+(?:\p{Lu}[\p{L}']*\s+){0,3}(?:[Pp]rize|[Aa]ward|[Mm]edal)\b/gu;

function dateCheck(e: Evidence, range: DateRange, yearCues: readonly RegExp[] = [CUED_YEAR]): 'in' | 'out' | 'none' {
  // A fact whose whole value is a year ("Established: 2019") states that year; so does a year in the value
  // of a fact labelled as a time or an award ("Nobel Prize: Physics (2012)"). In a sentence a bare number
  // is too loose to read as a date.
  const year = e.fact ? /^\s*((?:1[5-9]|20)\d{2})\s*$/.exec(e.fact.value)?.[1] : undefined;
  let dates: { from: string; to: string }[] = year ? [yearSpan(year)] : statedDates(e.text);
  // A year right after a founding or publishing verb ("Founded in 2013, Weave …", "established 2019") is a date,
  // not a loose number: without it the page's own date stood in for a sentence that says otherwise. A bare
  // "in 1995" is not ("… published X; the prize followed in 1995" dates the prize).
  if (dates.length === 0 && !e.fact) dates = yearCues.flatMap((cue) => [...e.text.matchAll(cue)]).map((m) => yearSpan(m[1]!));
  if (dates.length === 0 && e.fact && DATE_LABEL.test(e.fact.label) && e.fact.value.length <= 120) {
    dates = [...e.fact.value.matchAll(YEAR_TOKEN)].map((m) => yearSpan(m[1]!));
  }
  if (dates.length === 0) return 'none';
  return dates.some((d) => withinRange(d, range)) ? 'in' : 'out';
}

/** A label that gives only when ("Year", "Date", "Prize year"), so the fact beside it on the same profile dates it. */
const BARE_DATE_LABEL = /^(?:[\p{L} ]{0,20}\s)?(?:year|date)$/iu;

function pageDateIn(page: FetchedPage, range: DateRange): boolean {
  if (!page.publishedAt) return false;
  const day = page.publishedAt.slice(0, 10);
  return withinRange({ from: day, to: day }, range);
}

function describe(range: DateRange): string {
  return range.to ? `${range.from} to ${range.to}` : `${range.from} or later`;
}

/** Kinds that are launched and founded: a company, a product. */
const LAUNCHED_KINDS: ReadonlySet<Candidate['entityType']> = new Set(['company', 'product']);
const FOUNDED_LABEL = /\b(?:found(?:ed|ing)|established|incorporated|since)\b|^est\.?$/i;
const LAUNCH_LABEL = /\blaunch(?:ed|es|ing)?\b/i;
/** Other labels of a founding ("Year of foundation", "Inception", "Started", the abbreviation "Est."): they state it, as "Founded" does. */
const FOUNDING_ALIKE_LABEL = /\bfoundation\b|\binception\b|^(?:year )?started$|^(?:year )?(?:of )?(?:creation|formation)$|^formed$|^est(?:\.|d\.?)?$/i;

/** The words of an award said alone ("awarded", "honoured", "won"). */
const AWARDED_WORDS = /^(?:award(?:ed)?|honou?red|won|win|recogni[sz]ed)$/i;
/** A profile's funding fact ("Funding stage: Series A", "Last round: Seed"): the round it names was raised. */
const FUNDING_LABEL = /^(?:(?:last|latest|most recent|current)\s+)?(?:funding(?:\s+(?:stage|round|status))?|(?:investment\s+)?stage|round|series)$/i;
/** Labels under which a profile gives someone's awards. */
const AWARD_LABEL = /\b(?:awards?|prizes?|honou?rs?|laureate(?: of)?|recognition|distinctions?)\b/i;
/** A prize given, whatever the verb: "shared the 2014 Nobel Prize", "won the Nobel Prize in Physics in 2014". */
const PRIZE_GIVEN = /\b(?:shared|won|wins|received|receives|awarded|honou?red with|recipient of)\b[^.;]{0,40}?\b(?:[Pp]rize|[Aa]ward|[Mm]edal)\b/;
/** Words of an institution's name, which a sentence may put between a person and their prize ("a professor at Meijo University, who shared …"). */
const INSTITUTION_WORD = /\b(?:University|Institute|College|School|Laborator\w*|Cent(?:er|re)|Hospital|Academy|Society|Foundation)\b/;

/**
 * The sentence says a prize was given to `name`: named before the prize, with no other person named between them
 * ("Nakamura studied under Isamu Akasaki, who shared the 2014 Nobel Prize" gives it to Akasaki).
 */
function prizeGivenTo(text: string, name: string): boolean {
  const m = PRIZE_GIVEN.exec(text);
  const nameAt = text.indexOf(name);
  if (!m || nameAt < 0 || nameAt > m.index) return false;
  const between = text.slice(nameAt + name.length, m.index);
  return ![...between.matchAll(/\p{Lu}[\p{L}'’.-]+(?:\s+\p{Lu}[\p{L}'’.-]+)+/gu)].some((other) => !INSTITUTION_WORD.test(other[0]));
}

/** Nouns for a written work, as a sentence puts one before its title ("the 1998 paper …"). */
const WORK_NOUN = String.raw`(?:paper|article|study|preprint|publication|report|book|monograph|letter|essay)`;

/** The year a sentence writes before the kind of work that `name` is ("The 1998 paper <name>, by …"), or null. */
function yearOfWork(text: string, name: string): string | null {
  const re = new RegExp(String.raw`\b((?:1[5-9]|20)\d{2})\s+(?:\p{Ll}[\p{L}-]*\s+){0,2}${WORK_NOUN},?\s+[“"]?${escapeRe(name)}`, 'u');
  // A citation's year in brackets after the quoted title: "M. Smith, “<title>” (1982)".
  const cited = new RegExp(String.raw`[“"]${escapeRe(name)}[”"],?\s*\(((?:1[5-9]|20)\d{2})\)`, 'u');
  return re.exec(text)?.[1] ?? cited.exec(text)?.[1] ?? null;
}

/** The years sentences about the candidate write for it as a work ("The 1998 paper <name>"), each with its evidence. */
function workYearsOf(candidate: Candidate, evidence: readonly Evidence[]): { e: Evidence; year: string }[] {
  return evidence.flatMap((e) => {
    const year = e.named && !e.fact ? yearOfWork(e.text, candidate.name) : null;
    return year ? [{ e, year }] : [];
  });
}

/** A year as the range of its days. */
const yearSpan = (year: string) => ({ from: `${year}-01-01`, to: `${year}-12-31` });

function verifyEvent(filter: FunnelFilter, spec: Extract<FilterSpec, { kind: 'event' }>, candidate: Candidate, evidence: Evidence[]): Verdict {
  // A fact is read with its label: "Established: 2019" states the founding, "2019" alone does not.
  const matching = evidence.filter((e) => {
    const w = wordsOf(e);
    return spec.groups.every((g) => groupMatches(w, g));
  });
  // A paper's (a book's, an article's) own profile gives its publication date as "Year" or "Date".
  const publication = PAGE_DATED_KINDS.has(candidate.entityType) && spec.groups.some((g) => g.includes('published'))
    ? evidence.filter((e) => e.fact && e.ownFact && /^(?:year|date|pub(?:lication|\.)? ?(?:year|date)?|issued)$/i.test(e.fact.label.trim()))
    : [];
  // A company's (a product's) launch, when its own facts give only when it was founded ("Founded: 2021",
  // schema.org foundingDate): the founding year is taken for the launch, and the verdict says so.
  const launch = LAUNCHED_KINDS.has(candidate.entityType) && spec.groups.length === 1 && spec.groups[0]!.some((t) => /^launch(?:ed)?$/i.test(t))
    ? evidence.filter((e) => e.fact && e.ownFact && FOUNDED_LABEL.test(e.fact.label) && !matching.includes(e))
    : [];
  // The other way round: a company's founding ("founded after 2015", "started in 2021") when its own facts
  // give only its launch ("Launched: March 2016", "Launch year: 2016"): the launch is taken for the founding.
  const foundingQuery = LAUNCHED_KINDS.has(candidate.entityType) && spec.groups.length === 1 && spec.groups[0]!.some((t) => /^(?:founded|started)$/i.test(t));
  const founding = foundingQuery
    ? evidence.filter((e) => e.fact && e.ownFact && LAUNCH_LABEL.test(e.fact.label) && !matching.includes(e))
    : [];
  if (foundingQuery) matching.push(...evidence.filter((e) => e.fact && FOUNDING_ALIKE_LABEL.test(e.fact.label.trim()) && !matching.includes(e)));
  // "raised a Series A": a funding fact of its own states the round though it prints no "raised".
  const raisedGroup = spec.groups.find((g) => g.includes('raised'));
  if (raisedGroup && spec.groups.length > 1) {
    const round = spec.groups.filter((g) => g !== raisedGroup);
    matching.push(...evidence.filter((e) => e.fact && e.ownFact && FUNDING_LABEL.test(e.fact.label.trim()) && round.every((g) => groupMatches(wordsOf(e), g)) && !matching.includes(e)));
  }
  // "laureates awarded after 2012", "scientists honoured in 2014": the award said alone is what an award
  // fact of theirs states ("Prize: Nobel Prize in Physics 2014", "Honours: …"), though it prints no "awarded".
  const awardQuery = spec.groups.length === 1 && spec.groups[0]!.every((t) => AWARDED_WORDS.test(t));
  // A sentence's year is the event's when its cue is the event's: "won the Nobel prize in 2012" is dated by the year
  // said of a prize ("received the Nobel Memorial Prize … in 2011"), a publication by the year said of publishing
  // ("first published in 1964, … cited for the Nobel Prize in Chemistry 1998" was published in 1964).
  const yearCues = awardQuery || spec.groups.some((g) => g.some((t) => /\b(?:prize|award|medal)s?\b/i.test(t))) ? [AWARD_YEAR, YEAR_OF_AWARD] : [CUED_YEAR, ACQUIRED_YEAR];
  if (awardQuery) matching.push(...evidence.filter((e) => e.fact && e.ownFact && AWARD_LABEL.test(e.fact.label.trim()) && !matching.includes(e)));
  // … and what a sentence about them says of a prize they were given, with whatever verb ("who shared the 2014 Nobel Prize").
  if (awardQuery) matching.push(...evidence.filter((e) => !e.fact && e.named && prizeGivenTo(e.text, candidate.name) && !matching.includes(e)));
  // Only a line on someone else's page (a listing, a roundup) was read: its own page may well date it, so the
  // lead is worth following before ruling it out.
  const passingOnly = !evidence.some((e) => e.ownPage);
  // Every company is founded, every paper published and every person born: a page silent on when says nothing
  // against a date.
  const everyOneHasIt = spec.groups.length === 1 && spec.groups[0]!.some((t) => /^(?:founded|launched|launch|published|publish|established)$/i.test(t)
    || (PERSON_KINDS.has(candidate.entityType) && /^(?:born|birth)$/i.test(t)));
  // "The 1998 paper <title>", "her 2015 book <title>": the year a sentence writes before the kind of work it
  // names is when the work came out, said on whatever page.
  const workYears = spec.dateRange && PAGE_DATED_KINDS.has(candidate.entityType) && spec.groups.some((g) => g.some((t) => /^(?:publish|published)$/i.test(t)))
    ? workYearsOf(candidate, evidence)
    : [];
  if (workYears.length > 0 && spec.dateRange) {
    const inRange = workYears.find((w) => withinRange(yearSpan(w.year), spec.dateRange!));
    if (inRange) return pass(filter, [inRange.e], 'stated', ` (the ${inRange.year} work)`);
    if (!matching.some((e) => dateCheck(e, spec.dateRange!, yearCues) === 'in') && !publication.some((e) => dateCheck(e, spec.dateRange!, yearCues) === 'in')) {
      return fail(filter, candidate, `it came out in ${workYears[0]!.year}, not within ${describe(spec.dateRange)}.`, [workYears[0]!.e]);
    }
  }
  if (matching.length === 0 && publication.length === 0 && launch.length === 0 && founding.length === 0) {
    if (passingOnly) return unclear(filter, candidate, 'only a passing mention was read, not a page about it.');
    if (everyOneHasIt) return unclear(filter, candidate, 'no passage about it says when.');
    return fail(filter, candidate, 'no sentence about it mentions this event.');
  }
  if (!spec.dateRange) return pass(filter, [matching[0] ?? publication[0] ?? launch[0] ?? founding[0]!], matching.length + publication.length > 0 ? 'stated' : 'inferred');
  for (const e of [...matching, ...publication]) if (dateCheck(e, spec.dateRange, yearCues) === 'in') return pass(filter, [e], 'stated');
  for (const e of launch) {
    const check = dateCheck(e, spec.dateRange, yearCues);
    if (check === 'in') return pass(filter, [e], 'inferred', ' (inferred: the founding date taken as the launch)');
  }
  for (const e of founding) {
    const check = dateCheck(e, spec.dateRange, yearCues);
    if (check === 'in') return pass(filter, [e], 'inferred', ' (inferred: the launch date taken as the founding)');
  }
  // The event and its date as two facts of one profile ("Award: Nobel Prize in Physics", "Year: 2012").
  for (const e of matching) {
    if (!e.fact || !e.ownFact || dateCheck(e, spec.dateRange, yearCues) !== 'none') continue;
    const when = evidence.filter((d) => d.fact && d.ownFact && d.page === e.page && d !== e && BARE_DATE_LABEL.test(d.fact.label.trim()));
    if (when.length !== 1) continue;
    const check = dateCheck(when[0]!, spec.dateRange, yearCues);
    if (check === 'in') return pass(filter, [e, when[0]!], 'stated');
    if (check === 'out') return fail(filter, candidate, `the event is not dated within ${describe(spec.dateRange)}.`, [e, when[0]!]);
  }
  // A sentence with no date of its own reports news of the day: the page's date stands in for it (a sentence:
  // a fact such as "Tags: Commercial Space Launch" reports nothing of the day). Not for a
  // paper's (a book's, a video's) own publication told on another page: a roundup of 2006 about a 1977 paper
  // does not date the paper; only its own page's date does.
  const ownDating = PAGE_DATED_KINDS.has(candidate.entityType) && spec.groups.some((g) => g.some((t) => /^(?:publish|published|release|released|appeared)$/i.test(t)));
  // A birth or a death is no news of the day: a profile published with a prize ("Born in Mukawa, Japan, …") does not
  // date the birth by the day the prize was announced.
  const lifeEvent = spec.groups.some((g) => g.some((t) => /^(?:born|birth|died|death)$/i.test(t)));
  const factLines = new Set(evidence.flatMap((e) => (e.fact ? [e.fact.passage, e.fact.value, e.text] : [])));
  for (const e of matching) {
    if (lifeEvent || e.fact || factLines.has(e.text) || (ownDating && !e.ownPage)) continue;
    if (dateCheck(e, spec.dateRange, yearCues) === 'none' && pageDateIn(e.page, spec.dateRange)) {
      return pass(filter, [e], 'inferred', ` (no date in the sentence; the page is dated ${e.page.publishedAt!.slice(0, 10)}, within ${describe(spec.dateRange)})`);
    }
  }
  if (passingOnly) return unclear(filter, candidate, `only a passing mention was read, and it dates nothing within ${describe(spec.dateRange)}.`);
  return fail(filter, candidate, `the event is not dated within ${describe(spec.dateRange)}.`);
}

/**
 * The plan asks for prize winners ("physics laureates of 2009-2011", "Nobel winners"): a laureate's date is the
 * year of the prize, so a sentence dates one by the year it says of the prize ("was honoured with the Nobel Prize in
 * Physics in 2009", "shared the 2009 Nobel Prize").
 */
function honouredKind(plan: ResearchPlan): boolean {
  // The kind's own noun ("laureate") is no term group: the type filter's title says it.
  return plan.filters.some((f) => specOf(f)?.kind === 'type' && /\b(?:laureates?|nobelists?|(?:prize|award) winners?|winners)\b/i.test(f.title));
}

function verifyPeriod(filter: FunnelFilter, range: DateRange, candidate: Candidate, evidence: Evidence[], honoured = false): Verdict {
  for (const e of evidence) if (e.named && dateCheck(e, range) === 'in') return pass(filter, [e], 'stated');
  if (honoured) {
    // Only a sentence's year said of a prize: no other year of it (a birth, a founding) stands in.
    for (const e of evidence) if (e.named && !e.fact && dateCheck(e, range, [AWARD_YEAR, YEAR_OF_AWARD]) === 'in') return pass(filter, [e], 'stated', ' (the year of the prize)');
  }
  if (PAGE_DATED_KINDS.has(candidate.entityType)) {
    // "The 1972 paper <title>", "“<title>” (1972)": the year a sentence gives the work, on whatever page.
    const worked = workYearsOf(candidate, evidence);
    const inRange = worked.find((w) => withinRange(yearSpan(w.year), range));
    if (inRange) return pass(filter, [inRange.e], 'stated', ` (the ${inRange.year} work)`);
    if (worked.length > 0 && !evidence.some((e) => e.ownPage)) return fail(filter, candidate, `it came out in ${worked[0]!.year}, not within ${describe(range)}.`, [worked[0]!.e]);
    // Only its own page's date dates a paper (a book, an article): a list of 1950s papers put online in 1988
    // says nothing of when each was published.
    const first = evidence.find((e) => e.ownPage && pageDateIn(e.page, range));
    if (first) return pass(filter, [first], 'inferred', ` (the page is dated ${first.page.publishedAt!.slice(0, 10)}, within ${describe(range)})`);
  }
  if (!evidence.some((e) => e.ownPage)) return unclear(filter, candidate, `only a passing mention was read, and it states no date within ${describe(range)}.`);
  return fail(filter, candidate, `no date within ${describe(range)} is stated.`);
}

const PERSON_KINDS: ReadonlySet<string> = new Set(['professional', 'researcher', 'clinician', 'lawyer', 'freelancer']);
const KIND_WORDS: Partial<Record<string, string>> = { professional: 'person', music_video: 'music video' };

/** schema.org types are coarser than ours: a Person may be any kind of person, an Article may be a paper. */
function kindFits(kind: string, wanted: string): boolean {
  return kind === wanted || (kind === 'professional' && PERSON_KINDS.has(wanted)) || (kind === 'news' && wanted === 'paper');
}

function article(word: string): string {
  return /^[aeiou]/i.test(word) ? `an ${word}` : `a ${word}`;
}

/**
 * Facts only a person's profile states (an infobox's Born, a registry's Employment), and facts only an
 * organisation's or a work's does: a profile with one of the first and none of the others is a person's.
 */
const PERSON_FACT = /^(?:born|date of birth|place of birth|birth ?place|native of|nationality|citizenship|employment|employer|doctoral advis[eo]r|alma mater|spouse|died|date of death|pronouns)$/i;
const NOT_PERSON_FACT = /^(?:founded|founders?|year founded|incorporated(?: on)?|headquarters|hq|head office|registered office(?: address)?|industry|industries|employees|company (?:size|type|status)|team size|headcount|ownership(?: status)?|legal form|stock|ticker|batch|authors?|published|publication (?:year|date)|journal|doi|publisher)$/i;

/** The typed kind of the page about the candidate (its subject's schema.org type), if one says. */
function ownKind(candidate: Candidate, pages: readonly FetchedPage[]): string | null {
  const wanted = new Set(candidate.sourceUrls);
  let byFacts: string | null = null;
  for (const page of pages) {
    if (wanted.size > 0 && !wanted.has(pageUrl(page)) && !wanted.has(page.url)) continue;
    const subject = page.model?.subject;
    if (!subject || entityOf(candidate, page) !== subject) continue;
    // Only a structured-data type counts; an og:type of 'article' on a company's about page says little.
    if (subject.kind && (subject.source === 'jsonld' || subject.source === 'microdata' || subject.source === 'citation')) return subject.kind;
    const labels = subject.facts.map((f) => f.label.trim());
    if (labels.some((l) => PERSON_FACT.test(l)) && !labels.some((l) => NOT_PERSON_FACT.test(l))) byFacts ??= 'professional';
  }
  return byFacts;
}

/**
 * The verdict on a criterion said negated ("not hiring", "for-profit") from the verdict on the criterion itself: what
 * shows it rules the negation out and what rules it out shows the negation, on the same passages. Unclear stays
 * unclear, and so does a "no" that quotes nothing (no passage to rest a pass on).
 */
function negated(filter: FunnelFilter, candidate: Candidate, verdict: Verdict): Verdict {
  const said = verdict.passages.map((p) => `“${p.text}”`).join(' and ');
  if (verdict.outcome === 'yes') {
    return { ...verdict, pass: false, outcome: 'no', rationale: `Does not meet “${filter.title}”: the page says: ${said}` };
  }
  if (verdict.outcome === 'no' && verdict.passages.length > 0) {
    return { ...verdict, pass: true, outcome: 'yes', rationale: `Meets “${filter.title}” because the page says: ${said}` };
  }
  return unclear(filter, candidate, 'no passage states it either way.');
}

/** The verdict of one filter on one candidate. */
export function verifyCandidate(plan: ResearchPlan, filter: FunnelFilter, candidate: Candidate, pages: readonly FetchedPage[]): Verdict {
  const spec = specOf(filter);
  const evidence = evidenceFor(candidate, pages);
  if (evidence.length === 0) return unclear(filter, candidate, 'none of its pages mention it.');
  if (!spec) return unclear(filter, candidate, 'this filter has no rule-checkable criterion.');
  switch (spec.kind) {
    case 'type': {
      // Its own page says what kind of thing it is (schema.org type): a Person is no paper, a paper no company.
      const kind = ownKind(candidate, pages);
      if (kind && !kindFits(kind, spec.entityType)) {
        return fail(filter, candidate, `its own page describes ${article(KIND_WORDS[kind] ?? kind)}.`);
      }
      return verifyTopic(filter, spec.groups, candidate, evidence);
    }
    case 'terms':
      return verifyTopic(filter, spec.groups, candidate, evidence);
    case 'exclude':
      return verifyExcluded(filter, spec.terms, candidate, evidence);
    case 'location':
      return verifyLocation(filter, spec, candidate, evidence);
    case 'form': {
      // "exited": any of the forms will do; "for-profit", "not acquired": the form ruled out.
      const forms = [spec.form, ...(spec.alternatives ?? [])];
      const verdicts = forms.map((form) => verifyForm(filter, form, candidate, evidence));
      const verdict = verdicts.find((v) => v.outcome === 'yes') ?? (verdicts.every((v) => v.outcome === 'no') ? verdicts[0]! : verdicts.find((v) => v.outcome !== 'no')!);
      return spec.negated ? negated(filter, candidate, verdict) : verdict;
    }
    case 'size':
      return verifySize(filter, spec, candidate, evidence);
    case 'hiring': {
      const verdict = verifyHiring(filter, candidate, evidence);
      return spec.negated ? negated(filter, candidate, verdict) : verdict;
    }
    case 'cohort':
      return verifyCohort(filter, spec, candidate, evidence);
    case 'remote':
      return verifyRemote(filter, spec.fully, candidate, evidence);
    case 'event':
      return verifyEvent(filter, spec, candidate, evidence);
    case 'period':
      return verifyPeriod(filter, spec.dateRange, candidate, evidence, honouredKind(plan));
  }
}
