import type { Candidate, EntityType, FetchedPage, ResearchPlan, SupportingPassage } from '@leadfinder/wire';
import { typeCues } from '../../domain/entity-types.js';
import type { FilterSpec } from '../../domain/spec.js';
import { matchesGroup, normaliseKey, pageSentences, stems } from '../../domain/text.js';

/**
 * Lexical and structural extraction: a candidate is a name that a sentence introduces with a
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
    const spec = f.spec as unknown as FilterSpec;
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
  for (const mention of mentionsOf(page, plan.entityType)) {
    const key = normaliseKey(mention.name);
    if (!key || byKey.has(key)) continue;
    const about = plan.entityType === 'news' ? all : all.filter((s) => s.includes(mention.name));
    const passages: SupportingPassage[] = about.slice(0, 6).map((text) => ({
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
      domain: domainNear(page, mention.name),
      round,
    });
  }
  return [...byKey.values()];
}
