import { z } from 'zod';
import type { SearchHit, SearchRequest, SearchResponse } from '@leadfinder/wire';
import type { SearchProvider } from '@leadfinder/platform';
import { UpstreamError } from '@leadfinder/platform';
import { normaliseDate, passesDateFloor } from '../../domain/dates.js';
import { urlOnDomains, withSiteTerms } from '../../domain/sites.js';
import { normaliseSpace } from '../../domain/text.js';
import { getJson } from '../../adapters/undici/json-client.js';

export interface SearxngProviderOptions {
  /** Base URL of the SearXNG instance (LEADFINDER_SEARXNG_URL). */
  baseUrl: string;
  /** Per-call timeout in ms. */
  timeoutMs: number;
}

const SearxngAnswer = z.object({
  results: z
    .array(
      z.looseObject({
        url: z.string(),
        title: z.string().nullish(),
        content: z.string().nullish(),
        publishedDate: z.string().nullish(),
      }),
    )
    .default([]),
});

/**
 * SearXNG JSON API. Site restriction goes into `q` as `site:` terms and is re-checked on each result's
 * hostname; SearXNG has no date filter, so the publish-date floor is applied here (undated results stay).
 */
export function createSearxngProvider(options: SearxngProviderOptions): SearchProvider {
  const base = options.baseUrl.replace(/\/+$/, '');
  return {
    name: 'searxng',
    async search(req: SearchRequest, signal: AbortSignal): Promise<SearchResponse> {
      const url = new URL(`${base}/search`);
      url.searchParams.set('q', withSiteTerms(req.query, req.domains));
      url.searchParams.set('format', 'json');
      url.searchParams.set('pageno', String(req.page));
      const raw = await getJson(url, { upstream: 'searxng', signal, timeoutMs: options.timeoutMs });
      const parsed = SearxngAnswer.safeParse(raw);
      if (!parsed.success) throw new UpstreamError('searxng', 'searxng answer has no results list');
      const offset = (req.page - 1) * req.limit;
      const hits: SearchHit[] = [];
      const seen = new Set<string>();
      // "Full" is judged on what SearXNG returned, before our site and date checks: a dated or
      // site-limited search may keep few hits of a full page and still have pages behind it.
      const returned = new Set(parsed.data.results.map((r) => r.url).filter((u) => /^https?:\/\//i.test(u)));
      for (const r of parsed.data.results) {
        if (!/^https?:\/\//i.test(r.url) || seen.has(r.url)) continue;
        const publishedAt = normaliseDate(r.publishedDate);
        if (!urlOnDomains(r.url, req.domains) || !passesDateFloor(publishedAt, req.publishedAfter)) continue;
        seen.add(r.url);
        hits.push({
          url: r.url,
          title: normaliseSpace(r.title ?? ''),
          snippet: normaliseSpace(r.content ?? ''),
          publishedAt,
          provider: 'searxng',
          rank: offset + hits.length + 1,
        });
        if (hits.length >= req.limit) break;
      }
      return { hits, more: returned.size >= req.limit };
    },
  };
}
