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
      pageTypes.push(entry.replace(/\s+/g, ' '));
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
