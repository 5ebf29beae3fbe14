/**
 * The search side of the development set's fake web: a plain lexical engine (Okapi BM25 over title,
 * description, visible text and JSON-LD values, with light stemming), written here on purpose rather than
 * taken from the service, so the web does not rank pages the way the service's own code expects.
 * It answers `site:` terms like a web search engine and pages results `limit` at a time.
 *
 * It has the shape of the service's `CorpusIndex`, so test/support/fake-web.ts serves it through SearXNG's
 * JSON API unchanged.
 */
import { corpusUrlKey, extractHtml } from '@leadfinder/fetcher';
import type { CorpusIndex, CorpusPage, CorpusQuery } from '@leadfinder/fetcher';
import type { SearchHit } from '@leadfinder/wire';
import { jsonLdStrings, visibleText } from './html.js';
import type { WebPage } from './pages.js';

const K1 = 1.2;
const B = 0.75;
const TITLE_WEIGHT = 3;
const SNIPPET_CHARS = 220;

const STOPWORDS = new Set(
  'a an and are as at be by for from has have in is it its of on or our that the their this to was were which who with we you your all any'.split(' '),
);

function stem(token: string): string {
  if (token.length > 4 && token.endsWith('ies')) return `${token.slice(0, -3)}y`;
  if (token.length > 5 && token.endsWith('ing')) return token.slice(0, -3);
  if (token.length > 4 && token.endsWith('es') && /(sh|ch|x|ss)es$/.test(token)) return token.slice(0, -2);
  if (token.length > 3 && token.endsWith('s') && !token.endsWith('ss') && !token.endsWith('us')) return token.slice(0, -1);
  return token;
}

export function searchTokens(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((t) => t && !STOPWORDS.has(t))
    .map(stem);
}

interface IndexedPage {
  page: WebPage;
  host: string;
  text: string;
  blocks: string[];
  length: number;
  tf: Map<string, number>;
}

/** `site:` terms of a query, and the rest. */
export function splitSite(query: string): { text: string; sites: string[] } {
  const sites: string[] = [];
  const text = query.replace(/(^|\s)-?site:(\S+)/gi, (_m, lead: string, site: string) => {
    sites.push(site.toLowerCase().replace(/^https?:\/\//, '').replace(/\/.*$/, '').replace(/:\d+$/, '').replace(/^www\./, ''));
    return lead;
  });
  return { text: text.trim(), sites };
}

function onSites(host: string, sites: readonly string[]): boolean {
  if (sites.length === 0) return true;
  const h = host.replace(/^www\./, '');
  return sites.some((s) => h === s || h.endsWith(`.${s}`));
}

function snippetOf(p: IndexedPage, terms: Set<string>): string {
  let best = p.page.description;
  let bestScore = 0;
  for (const block of p.blocks) {
    const score = new Set(searchTokens(block).filter((t) => terms.has(t))).size;
    if (score > bestScore) {
      best = block;
      bestScore = score;
    }
  }
  if (best.length <= SNIPPET_CHARS) return best;
  const cut = best.slice(0, SNIPPET_CHARS);
  return `${cut.slice(0, cut.lastIndexOf(' ') > 80 ? cut.lastIndexOf(' ') : SNIPPET_CHARS)} …`;
}

export interface DevSearchIndex extends CorpusIndex {
  /** How many pages the web holds. */
  readonly size: number;
}

export function createDevSearchIndex(pages: readonly WebPage[]): DevSearchIndex {
  const indexed: IndexedPage[] = pages.map((page) => {
    const visible = visibleText(page.html);
    const ld = [...page.html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)]
      .flatMap((m) => jsonLdStrings(JSON.parse(m[1]!.replace(/\\u003c/g, '<'))));
    const tf = new Map<string, number>();
    let length = 0;
    const count = (text: string, weight: number) => {
      for (const t of searchTokens(text)) {
        tf.set(t, (tf.get(t) ?? 0) + weight);
        length += weight;
      }
    };
    count(page.title, TITLE_WEIGHT);
    count(`${page.description}\n${visible}\n${ld.join('\n')}`, 1);
    return { page, host: new URL(page.url).hostname, text: visible, blocks: visible.split('\n'), length, tf };
  });
  const df = new Map<string, number>();
  for (const p of indexed) for (const t of p.tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const n = indexed.length;
  const avg = indexed.reduce((s, p) => s + p.length, 0) / Math.max(1, n);
  const byUrl = new Map(indexed.map((p) => [corpusUrlKey(p.page.url), p]));
  const extracted = new Map<string, CorpusPage>();

  const corpusPage = (p: IndexedPage): CorpusPage => {
    let page = extracted.get(p.page.url);
    if (!page) {
      page = { ...extractHtml(p.page.html), url: p.page.url, path: new URL(p.page.url).pathname, contentType: 'text/html', source: p.page.html };
      extracted.set(p.page.url, page);
    }
    return page;
  };

  return {
    dir: '(devset web)',
    size: n,
    async search(q: CorpusQuery): Promise<SearchHit[]> {
      const { text, sites } = splitSite(q.query);
      const terms = [...new Set(searchTokens(text))];
      const scored: { p: IndexedPage; score: number; order: number }[] = [];
      indexed.forEach((p, order) => {
        if (!onSites(p.host, [...sites, ...q.domains])) return;
        let score = 0;
        for (const t of terms) {
          const tf = p.tf.get(t);
          if (!tf) continue;
          const idf = Math.log(1 + (n - df.get(t)! + 0.5) / (df.get(t)! + 0.5));
          score += (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * p.length) / avg));
        }
        // A bare `site:` search lists the site's pages, as web search engines do.
        if (score > 0 || (terms.length === 0 && sites.length > 0)) scored.push({ p, score, order });
      });
      scored.sort((a, b) => b.score - a.score || a.order - b.order);
      const offset = (Math.max(1, q.page) - 1) * q.limit;
      const termSet = new Set(terms);
      return scored.slice(offset, offset + q.limit).map(({ p }, i) => ({
        url: p.page.url,
        title: p.page.title,
        snippet: snippetOf(p, termSet),
        publishedAt: p.page.published,
        provider: 'devset',
        rank: offset + i + 1,
      }));
    },
    async page(url: string): Promise<CorpusPage | null> {
      const p = byUrl.get(corpusUrlKey(url));
      return p ? corpusPage(p) : null;
    },
    async pages(): Promise<readonly CorpusPage[]> {
      return indexed.map(corpusPage);
    },
  };
}
