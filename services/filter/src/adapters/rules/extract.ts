import nlp from 'compromise';
import type { Candidate, EntityType, FetchedPage, PageEntity, ResearchPlan, SupportingPassage } from '@leadfinder/wire';
import { typeCues } from '../../domain/entity-types.js';
import { specOf } from '../../domain/spec.js';
import { matchesGroup, normaliseKey, pageSentences, stems } from '../../domain/text.js';

/**
 * Structure first: the page model's subject (a profile or about page) and the items of its listings
 * (directory lines, table rows, cards) are candidates, each with its line as passage and its link as the
 * lead to its own page. Then lexical extraction: a candidate is a name that a sentence introduces with a
 * descriptor naming the plan's kind — "Lumora, a Berlin-based AI startup, raised …",
 * "Dr. Anna Berg is a cardiologist at …", "“Quiet Light” is a photography exhibition …", or a
 * profile line `Name: …` on a page of that kind. Every name and passage is cut from the page text.
 */

const WORD = String.raw`[\p{Lu}\d][\p{L}\d&'’.+-]*`;
const JOIN = String.raw`(?:\s+(?:${WORD}|de|van|von|der|den|da|di|du|la|le|&))`;
const NAME = String.raw`(“[^”]{2,120}”|"[^"]{2,120}"|(?:(?:Dr\.|Prof\.|Professor)\s+)?${WORD}${JOIN}{0,5})`;
const APPOSITION = new RegExp(String.raw`^${NAME},\s+(?:an?|the|one of the)\s+([^,;]{3,100}?)(?:,|\s+(?:is|has|that|which)\b)`, 'u');
const COPULA = new RegExp(String.raw`^${NAME}\s+(?:is|was|are|has been|remains)\s+(?:an?|the|one of the)\s+([^.;]{3,140})`, 'u');
const PROFILE_LINE = /(?:^|\s)(?:Name|Company|Title|Product|Event)\s*:\s*([\p{Lu}\d“"][^\n:]{1,80}?)(?=\s+\p{Lu}[\p{L} ]{1,20}:|\s*$|\.\s)/gu;
const JSON_NAME = /"name"\s*:\s*"([^"]{2,120})"/g;
const NOT_NAMES = new Set([
  'the', 'it', 'this', 'that', 'she', 'he', 'they', 'its', 'our', 'their', 'in', 'on', 'at', 'after', 'before',
  'founded', 'according', 'today', 'yesterday', 'last', 'next', 'both', 'each', 'while', 'with', 'for', 'as', 'but',
  'and', 'his', 'her', 'we', 'there', 'here', 'one', 'two', 'three', 'also', 'meanwhile', 'since', 'when',
]);
const MAY_START_NAME = new Set(['the', 'last', 'next', 'one', 'two', 'three']);
const DOMAIN = /\b((?:[a-z0-9-]+\.)+(?:example|com|io|ai|de|co\.uk|org|net|eu|fr|dev|app))\b/g;
const EVENT_WORDS = /\b(raised|raises|secured|closed|launched|launches|released|releases|published|opened|opens|hiring|won|announced|premiered|unveiled|takes place|will take place|runs)\b/i;

function cleanName(raw: string): string {
  return raw.replace(/^[“"]|[”"]$/g, '').replace(/[.,;:]+$/, '').trim();
}

function isPlausibleName(name: string, quoted = false): boolean {
  const words = name.split(/\s+/);
  const first = words[0]!.toLowerCase();
  // "Last year, …" is no name, but "Last AI Summit 2026" and "The Broken Gardens" are.
  const blocked = NOT_NAMES.has(first) && (words.length === 1 || !MAY_START_NAME.has(first));
  return name.length >= 2 && name.length <= 120 && (quoted || !blocked) && /\p{L}/u.test(name);
}

interface Mention {
  name: string;
  sentence: string;
  /** Its own page to open before judging it (a listing's link). */
  lead?: string | null;
  domain?: string | null;
  /** Passages of its page-model entry (its line, its facts). */
  passages?: string[];
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return null;
  }
}

/** A URL or bare domain naming a whole site ("stripe.com", "https://acme.org/", "https://acme.org/en/"), not a page on one. */
function isSiteRoot(value: string): boolean {
  try {
    const url = new URL(/^https?:/i.test(value.trim()) ? value.trim() : `https://${value.trim()}`);
    return /^\/(?:(?:index\.html?|home|[a-z]{2}(?:-[a-z]{2})?)\/?)?$/i.test(url.pathname);
  } catch {
    return false;
  }
}

/** The entity's own domain: a Website fact, or a link off the page's site whose host carries its name. */
function entityDomain(entity: PageEntity, pageHost: string | null): string | null {
  const website = entity.facts.find((f) => /^(website|url|homepage|web|site|domain)$/i.test(f.label));
  // Only a site of its own: a page under a path of a shared host ("researcherpages.example/angus-deaton/")
  // is a page about it, and taking that host as its domain would make every entity on the host one row.
  const fromFact = website && isSiteRoot(website.value) ? hostOf(/^https?:/i.test(website.value) ? website.value : `https://${website.value}`) : null;
  if (fromFact) return fromFact;
  const linkHost = entity.link ? hostOf(entity.link) : null;
  const key = normaliseKey(entity.name).replace(/\s+/g, '');
  if (linkHost && linkHost !== pageHost && key.length >= 3 && linkHost.replace(/[^a-z0-9]/g, '').includes(key.slice(0, Math.min(key.length, 8)))) return linkHost;
  if (pageHost && key.length >= 3 && pageHost.split('.')[0]!.replace(/[^a-z0-9]/g, '') === key) return pageHost;
  return null;
}

const PERSON_KINDS: ReadonlySet<EntityType> = new Set(['professional', 'researcher', 'clinician', 'lawyer', 'freelancer']);

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A sentence whose grammatical subject is `name`, however the prose opens: the name first, or after an
 * introductory phrase ("Founded in 2019, X builds …", "Born in Kyoto, Japan, X shared …", "Published in
 * 1972, “X” by …") or a "<Place>-based" attribute ("San Francisco-based X …"), then an aside in brackets
 * ("X (YC W21) …") or a which/who clause ("X, which is headquartered in Austin, Texas, makes …"), then a
 * word in lower case (its verb).
 */
function subjectSentence(sentences: readonly string[], name: string): string | undefined {
  const re = new RegExp(String.raw`^(?:\p{Lu}\p{Ll}+\s+(?:in|on|at|by|from|as|with|after|since|for|out of)\s+[^,.;]{1,60},\s+(?:[^,.;]{1,40},\s+)?|[\p{Lu}][\p{L}.'’ -]{0,40}-based\s+)?[“"]?${escapeRe(name)}[”"]?(?:\s*\([^)]{1,80}\))?(?:,\s*(?:which|who)\b.{1,160}?,)?\s+\p{Ll}`, 'u');
  return sentences.find((t) => re.test(t));
}

/** Prose that speaks of a person: "He was born …", "She shared …", "Born in Kyoto, …". */
const PERSON_PROSE = /(?:^|[.!?]\s+|\n)(?:(?:He|She)\s+\p{Ll}|Born\s+(?:in|on)\b)/u;

/** Kinds that are works with authors: a reference list names them by title, after the authors. */
const WRITTEN_KINDS: ReadonlySet<EntityType> = new Set(['paper', 'book']);
/** What follows an author's surname in a reference: initials ("Grubbs, R. (1992)", "Laughlin, R. B.", "Glauber RJ."). */
const AUTHOR_INITIALS = /^(?:,\s*(?:\p{Lu}\.\s*){1,3}(?:[,(“"]|and\b|$)|\s+(?![IVXL]+\.)\p{Lu}{1,3}\.\s)/u;

/** Candidates the page model names: its subject, and the items of its listings. */
function modelMentions(page: FetchedPage, kind: EntityType): Mention[] {
  const model = page.model;
  if (!model || kind === 'news') return [];
  const out: Mention[] = [];
  const url = page.finalUrl || page.url;
  const pageHost = hostOf(url);
  // schema.org has one Person type: a Person the page model calls 'professional' may be any kind of person.
  const otherKind = (k: EntityType | null) => k !== null && k !== kind && !(k === 'professional' && PERSON_KINDS.has(kind));
  const subject = model.subject;
  if (subject && !otherKind(subject.kind) && page.text.includes(subject.name) && !classPhrase(subject)) {
    // An untyped subject (an h1) is a candidate when the page states facts about it or a sentence opens with it.
    const opening = pageSentences(page).find((t) => t.startsWith(`${subject.name} `) && /^\s*\p{Ll}/u.test(t.slice(subject.name.length)));
    // "Aziz Sancar is a chemist …" describes a researcher, whatever else the page mentions.
    // Only a description says what it is: "X is a chemist", not "X builds people infrastructure" (its object).
    const rest = opening?.slice(subject.name.length) ?? '';
    const described = /^\s*(?:\([^)]{0,80}\)\s*)?(?:(?:is|was|are|were|has been)\s+|,\s*)(?:an?|the|one of the)\b/i.test(rest) ? descriptorKind(rest) : null;
    // A birth date among the facts says the subject is a person.
    const person = subject.facts.some((f) => /^(born|died|birth ?date|date of birth|birth ?place|place of birth|birth country|country of birth|nationality|gender|pronouns)$/i.test(f.label));
    const untypedFits = (described === null || described === kind) && (!person || PERSON_KINDS.has(kind));
    const personFits = subject.kind === 'professional' && PERSON_KINDS.has(kind) && (described === null || described === kind);
    // Prose about the subject that does not open with its name ("San Francisco-based Stripe (YC S09) makes …")
    // still makes it the page's candidate when what the prose says fits the kind asked for: a person's page
    // speaks of "he" or "she", a work's title is quoted, an organisation's page does neither.
    const told = !opening && subject.facts.length === 0 ? subjectSentence(pageSentences(page), subject.name) : undefined;
    const proseFits = told !== undefined && proseKindFits(page, subject.name, kind);
    if (subject.kind === kind || personFits || (subject.kind === null && untypedFits && (subject.facts.length > 0 || opening || proseFits))) {
      out.push({
        name: subject.name, sentence: subject.passage, lead: null, domain: entityDomain(subject, pageHost),
        passages: [subject.passage, ...subject.facts.map((f) => f.passage)],
      });
    }
  }
  // A listing titled for another kind ("Top 10 CEOs") lists that kind; a title naming ours anywhere ("Four
  // physicists whose papers won the prize") may list ours.
  const titleCues = typeCues(page.title).map((c) => c.type);
  if (titleCues.length === 0 || titleCues.includes(kind) || (PERSON_KINDS.has(kind) && titleCues.some((t) => PERSON_KINDS.has(t)))) {
    for (const item of model.items) {
      // A widget's entries ("Similar", "Sponsored", "Read next") are what the site links to, not what the page
      // is about or lists: not candidates here (their own pages are found like any other), and they would
      // spend the round's leads on pages chosen by the site rather than by the query.
      if (item.source === 'related') continue;
      if (otherKind(item.kind) || !page.text.includes(item.name) || !/\p{L}/u.test(item.name) || item.name.length > 250) continue;
      // A reference whose line opens with its author ("Grubbs, R. (1992). Ring opening …", "Glauber RJ. Coherent …"):
      // the name before the initials is who wrote the work, not the work.
      if (WRITTEN_KINDS.has(kind) && item.passage.startsWith(item.name) && AUTHOR_INITIALS.test(item.passage.slice(item.name.length))) continue;
      out.push({
        name: item.name, sentence: item.passage, lead: item.link, domain: entityDomain(item, pageHost),
        passages: [item.passage, ...item.facts.map((f) => f.passage)],
      });
    }
  }
  return out.filter((m) => page.text.includes(m.name) && page.text.includes(m.sentence));
}

/**
 * A headline's words that name a class of things, not one ("Y Combinator companies", "Nobel Prize in Physics
 * laureates"): they end in a plural noun (compromise reads the number) written in lower case that names an entity
 * kind. A name may end in a plural ("Gladstone Institutes", "Evidence for oscillation of atmospheric neutrinos"),
 * but not in a lower-case kind noun.
 */
function classPhrase(subject: PageEntity): boolean {
  if (subject.source !== 'headline') return false;
  const last = subject.name.split(/\s+/).at(-1) ?? '';
  if (!/^\p{Ll}/u.test(last) || typeCues(last).length === 0) return false;
  return nlp(last).nouns().isPlural().found;
}

/** Whether a prose page about `name` speaks of the kind asked for (its pronouns, its quotes, its kind words). */
function proseKindFits(page: FetchedPage, name: string, kind: EntityType): boolean {
  const person = PERSON_PROSE.test(page.text);
  const quoted = page.text.includes(`“${name}”`) || page.text.includes(`"${name}"`);
  const cue = typeCues(`${page.title} ${pageSentences(page).filter((t) => t.includes(name)).slice(0, 3).join(' ')}`)[0]?.type ?? null;
  if (PERSON_KINDS.has(kind)) return person || (cue !== null && PERSON_KINDS.has(cue));
  if (person) return false;
  if (quoted) return kind === 'paper' || kind === 'book' || kind === 'news' || cue === kind;
  return cue === null || cue === kind;
}

/** The first entity kind a descriptor names, by its earliest cue. */
function descriptorKind(descriptor: string): EntityType | null {
  return typeCues(descriptor)[0]?.type ?? null;
}

function mentionsOf(page: FetchedPage, kind: EntityType): Mention[] {
  const out: Mention[] = [];
  const all = pageSentences(page);
  if (kind === 'news') {
    // A news article is itself the row: its headline, as printed at the top of the page text.
    const headline = page.title && page.text.includes(page.title) ? page.title : null;
    if (headline && all.length > 1) out.push({ name: headline, sentence: all.find((s) => !s.startsWith(headline)) ?? all[0]! });
    return out;
  }
  for (const sentence of all) {
    // Headings like "# Title" run into the first sentence in extracted text; drop a leading marker.
    const body = sentence.replace(/^#+\s*/, '');
    for (const re of [APPOSITION, COPULA]) {
      const m = re.exec(body);
      if (!m) continue;
      const name = cleanName(m[1]!);
      if (isPlausibleName(name, /^[“"]/.test(m[1]!)) && descriptorKind(m[2]!) === kind) out.push({ name, sentence });
      break;
    }
  }
  const pageKindIs = descriptorKind(`${page.title} ${all.slice(0, 2).join(' ')}`) === kind;
  if (pageKindIs) {
    for (const re of [PROFILE_LINE, JSON_NAME]) {
      for (const m of page.text.matchAll(re)) {
        const name = cleanName(m[1]!);
        const sentence = all.find((s) => s.includes(name));
        if (sentence && isPlausibleName(name)) out.push({ name, sentence });
      }
    }
  }
  return out.filter((m) => page.text.includes(m.name));
}

function planGroups(plan: ResearchPlan): string[][] {
  return plan.filters.flatMap((f) => {
    const spec = specOf(f);
    if (!spec) return [];
    if (spec.kind === 'location') return [spec.names];
    if ('groups' in spec) return spec.groups;
    return [];
  });
}

/** Share of the plan's term groups a passage contains. */
export function relevance(text: string, groups: string[][]): number {
  if (groups.length === 0) return 0.5;
  const words = stems(text);
  return groups.filter((g) => matchesGroup(words, g)).length / groups.length;
}

function domainNear(page: FetchedPage, name: string): string | null {
  const key = normaliseKey(name).replace(/\s+/g, '');
  for (const sentence of pageSentences(page)) {
    if (!sentence.includes(name)) continue;
    for (const m of sentence.matchAll(DOMAIN)) {
      const host = m[1]!.toLowerCase();
      // Only the entity's own site: the host must carry its name, so a publisher's domain is never taken.
      if (key.length >= 3 && host.replace(/[^a-z0-9]/g, '').includes(key.slice(0, Math.min(key.length, 8)))) return host;
    }
  }
  return null;
}

function quote(text: string): string {
  return `“${text}”`;
}

/** Candidates of the plan's kind named on one page, with the page sentences that mention them. */
export function extractCandidates(plan: ResearchPlan, page: FetchedPage, round: number): Candidate[] {
  const url = page.finalUrl || page.url;
  const groups = planGroups(plan);
  const byKey = new Map<string, Candidate>();
  const all = pageSentences(page);
  // Names the page gives in full (its subject, its title's parts): a surname in a sentence means them.
  const fullNames = [page.model?.subject?.name ?? '', ...page.title.split(/\s+[|–—·:-]\s+/)]
    .map((n) => n.replace(/^(about|about us|meet)\s+/i, '').trim())
    // A full name is a few capitalised words ("Thomas C. Südhof"), never a headline ("Pelbolt raises …").
    .filter((n) => n.includes(' ') && page.text.includes(n) && /^(?:\p{Lu}[\p{L}'’.-]*\s+){1,4}\p{Lu}[\p{L}'’.-]*$/u.test(n));
  for (const mention of [...modelMentions(page, plan.entityType), ...mentionsOf(page, plan.entityType)]) {
    let key = normaliseKey(mention.name);
    if (!key || byKey.has(key)) continue;
    // "Südhof" after "Thomas C. Südhof" on the same page is the same person, not a second row.
    if ([...byKey.values()].some((c) => c.name.endsWith(` ${mention.name}`) || c.name.startsWith(`${mention.name} `))) continue;
    // The page model's subject is named as the page reads it ("Stripe" in the headline "Inside Stripe"): not widened.
    const isSubject = page.model?.subject?.source === 'headline' && mention.name === page.model.subject.name;
    const fuller = isSubject ? undefined : fullNames.find((n) => n !== mention.name && (n.endsWith(` ${mention.name}`) || n.startsWith(`${mention.name} `)));
    if (fuller) {
      key = normaliseKey(fuller);
      if (byKey.has(key)) continue;
      mention.name = fuller;
    }
    const named = plan.entityType === 'news' ? all : all.filter((s) => s.includes(mention.name));
    const about = [...new Set([...(mention.passages ?? []).filter((t) => page.text.includes(t)), ...named])];
    const passages: SupportingPassage[] = about.slice(0, 8).map((text) => ({
      text,
      url,
      score: Math.round(relevance(text, groups) * 1000) / 1000,
      published: page.publishedAt,
    }));
    const signal = about.find((s) => EVENT_WORDS.test(s));
    byKey.set(key, {
      key,
      name: mention.name,
      entityType: plan.entityType,
      details: mention.sentence,
      intentSignal: signal ? `The page says: ${quote(signal)}` : '',
      discoveryRationale: `Named on ${url}: ${quote(mention.sentence)}`,
      sourceUrls: [url],
      passages: passages.sort((a, b) => b.score - a.score),
      domain: mention.domain ?? domainNear(page, mention.name),
      round,
      ...(mention.lead ? { lead: mention.lead } : {}),
    });
  }
  return [...byKey.values()];
}
