import { splitSites, type SiteScope } from '@leadfinder/wire';

/** Spec §8: at most 20 domains. */
export const MAX_SITE_DOMAINS = 20;

const ALIASES: Record<string, string[]> = {
  linkedin: ['linkedin.com'],
  x: ['x.com', 'twitter.com'],
  twitter: ['x.com', 'twitter.com'],
};

/**
 * The `sites` field as a scope: entries that look like domains (a dot, or an alias) keep searches on
 * those sites; any other phrase names page types to prefer ("job portals", "case studies").
 */
export function parseSites(sites: string): SiteScope {
  const domains: string[] = [];
  const pageTypes: string[] = [];
  for (const entry of splitSites(sites)) {
    const lower = entry.toLowerCase();
    const alias = ALIASES[lower];
    if (alias) {
      domains.push(...alias);
    } else if (/^[^\s]+\.[^\s]+$/.test(lower)) {
      const host = lower.replace(/^[a-z]+:\/\//, '').replace(/[/?#].*$/, '').replace(/^www\./, '').replace(/:\d+$/, '');
      if (host) domains.push(host);
    } else {
      // "job portals and case studies" names two page types, each searched with its own phrasing.
      for (const part of entry.split(/\s+(?:and|or)\s+|\s*[&/+]\s*/i)) {
        const pageType = part.replace(/\s+/g, ' ').trim();
        if (pageType) pageTypes.push(pageType);
      }
    }
  }
  return { domains: [...new Set(domains)].slice(0, MAX_SITE_DOMAINS), pageTypes: [...new Set(pageTypes)] };
}

/** Words added to search queries to steer them to a page type ("job portals" → "jobs"). */
export function pageTypeWords(pageType: string): string {
  const lower = pageType.toLowerCase();
  if (/\bjob/.test(lower)) return 'jobs careers';
  if (/case stud/.test(lower)) return 'case study';
  if (/press release/.test(lower)) return 'press release';
  if (/blog/.test(lower)) return 'blog';
  if (/director/.test(lower)) return 'directory';
  if (/review/.test(lower)) return 'review';
  // A plural page-type phrase searches better in the singular ("portfolios" → "portfolio").
  return lower.replace(/ies\b/g, 'y').replace(/(?<!s)s\b/g, '');
}

/**
 * Search strings steered to the preferred page types: each query once per page type, with that type's
 * own words ("q jobs careers", "q case study"), so every named type gets its own phrasing and no query
 * carries the words of all of them. Without page types the queries are returned as they are.
 */
export function steerByPageTypes(queries: readonly string[], pageTypes: readonly string[]): string[] {
  const phrasings = [...new Set(pageTypes.map(pageTypeWords).filter((w) => w.length > 0))];
  if (phrasings.length === 0) return [...queries];
  return queries.flatMap((q) => phrasings.map((words) => `${q} ${words}`.trim()));
}
