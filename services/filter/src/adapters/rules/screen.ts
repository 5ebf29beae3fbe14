import type { ResearchPlan, ScreenScore, SearchHit } from '@leadfinder/wire';
import { TYPE_NOUNS } from '../../domain/entity-types.js';
import { placeNames, placesWithin } from '../../domain/places.js';
import { specOf } from '../../domain/spec.js';
import { matchesGroup, stems } from '../../domain/text.js';

/** Words search excerpts use for each organisation form (an excerpt rarely says "active"). */
const FORM_WORDS: Record<string, string[]> = {
  nonprofit: ['nonprofit', 'non-profit', 'not-for-profit', 'charity', 'charitable'],
  public: ['publicly traded', 'public company', 'public', 'IPO', 'listed'],
  acquired: ['acquired', 'acquisition', 'subsidiary'],
  inactive: ['shut down', 'inactive', 'defunct', 'closed', 'dissolved'],
  active: [],
};

/** A hit passes the excerpt screen at this score: one of three groups (a profile's title is often just the name and one term). */
export const SCREEN_THRESHOLD = 0.33;

/**
 * A hit the search engine ranked this high for a query passes whatever its excerpt shows: the engine matched
 * it on text the excerpt leaves out (an entity's own page whose facts sit in structured data and whose
 * description is a tagline). Bounded: at most this many pages a query beyond what the excerpts earn.
 */
export const SCREEN_TRUSTED_RANKS = 3;

/**
 * An entity's own home or about page ("https://acme.com/", "https://acme.com/about-us") among the first page of
 * results passes too: it is the page that states the entity's facts (often only in structured data), its excerpt
 * is a tagline that shows none of them, and a site has one such page, so a query opens a few at most.
 */
export const SCREEN_OWN_PAGE_RANKS = 10;
const OWN_PAGE_PATH = /^\/(?:(?:about|about-us|company|who-we-are)\/?)?$/i;

function ownPage(url: string): boolean {
  try {
    const u = new URL(url);
    return OWN_PAGE_PATH.test(u.pathname) && !u.search;
  } catch {
    return false;
  }
}

/**
 * Scores a search hit from its title and snippet: the share of the plan's term groups it contains,
 * with the kind's nouns as one group. A hit published before the date floor keeps half its score,
 * since an old page rarely reports a recent event. The score orders what is opened first.
 */
export function screenHits(plan: ResearchPlan, hits: readonly SearchHit[]): ScreenScore[] {
  const groups: string[][] = [[...TYPE_NOUNS[plan.entityType]]];
  for (const f of plan.filters) {
    const spec = specOf(f);
    if (!spec) continue;
    // A place to exclude is nothing an excerpt should show.
    if (spec.kind === 'location') {
      if (!spec.outside) groups.push([...spec.names, ...[spec.place, ...(spec.alternatives ?? [])].flatMap((p) => [...placeNames(p), ...placesWithin(p)])]);
    }
    else if ('groups' in spec) groups.push(...spec.groups);
    // "Not acquired", "not hiring": an excerpt that says the word speaks of the opposite, so a negated form or
    // hiring filter is nothing an excerpt should show either.
    else if (spec.kind === 'form' && !spec.negated && (FORM_WORDS[spec.form] ?? []).length > 0) groups.push(FORM_WORDS[spec.form]!);
    else if (spec.kind === 'cohort') groups.push(['Y Combinator', 'YC', ...(spec.season && spec.year ? [`${spec.season} ${spec.year}`] : [])]);
    else if (spec.kind === 'hiring' && !spec.negated) groups.push(['hiring', 'jobs', 'careers', 'open roles']);
  }
  const floor = plan.dateRange?.from ?? null;
  return hits.map((hit) => {
    const words = stems(`${hit.title} ${hit.snippet}`);
    // The kind's noun counts when the excerpt has it; a profile's excerpt rarely says "company" or "paper"
    // ("Stripe | Startup Index — Economic infrastructure for the internet"), so its absence costs nothing.
    const kindShown = groups[0]!.length > 0 && matchesGroup(words, groups[0]!) !== null;
    const others = groups.slice(1);
    const matched = others.filter((g) => matchesGroup(words, g)).length + (kindShown ? 1 : 0);
    let score = groups.length === 1 || others.length === 0 ? matched / groups.length : matched / (others.length + (kindShown ? 1 : 0));
    if (floor && hit.publishedAt && hit.publishedAt.slice(0, 10) < floor) score *= 0.5;
    score = Math.round(score * 1000) / 1000;
    const trusted = hit.rank <= SCREEN_TRUSTED_RANKS || (hit.rank <= SCREEN_OWN_PAGE_RANKS && ownPage(hit.url));
    return { url: hit.url, score, pass: score >= SCREEN_THRESHOLD || trusted };
  });
}
