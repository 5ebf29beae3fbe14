/** Site restriction helpers shared by every search provider. */

/** `https://www.Example.com/x` → `example.com`; empty when nothing usable is left. */
export function normaliseDomain(domain: string): string {
  return domain
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/[/?#].*$/, '')
    .replace(/:\d+$/, '')
    .replace(/^www\./, '')
    .replace(/\.$/, '');
}

/** True when `url`'s hostname is one of `domains` or a subdomain of one. Empty list: any host. */
export function urlOnDomains(url: string, domains: readonly string[]): boolean {
  const wanted = domains.map(normaliseDomain).filter(Boolean);
  if (wanted.length === 0) return true;
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return false;
  }
  return wanted.some((d) => host === d || host.endsWith(`.${d}`));
}

/** The query with `site:` terms appended (OR-joined for several domains), as web search engines read it. */
export function withSiteTerms(query: string, domains: readonly string[]): string {
  const sites = [...new Set(domains.map(normaliseDomain).filter(Boolean))].map((d) => `site:${d}`);
  if (sites.length === 0) return query.trim();
  return `${query.trim()} ${sites.join(' OR ')}`.trim();
}

/** Split `site:` terms out of a free-text query (for providers that filter themselves). */
export function splitSiteTerms(query: string): { text: string; domains: string[] } {
  const domains: string[] = [];
  const text = query.replace(/(?:^|\s)site:(\S+)/gi, (_, d: string) => {
    domains.push(normaliseDomain(d));
    return ' ';
  });
  return { text: text.replace(/\s+OR\s+(?=\s|$)/g, ' ').trim(), domains: domains.filter(Boolean) };
}
