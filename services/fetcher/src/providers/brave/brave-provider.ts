import { z } from 'zod';
import type { Clock } from '@leadfinder/platform';
import type { SearchHit, SearchRequest, SearchResponse } from '@leadfinder/wire';
import type { SearchProvider } from '@leadfinder/platform';
import { UpstreamError } from '@leadfinder/platform';
import { normaliseDate, passesDateFloor } from '../../domain/dates.js';
import { urlOnDomains, withSiteTerms } from '../../domain/sites.js';
import { normaliseSpace } from '../../domain/text.js';
import { getJson } from '../../adapters/undici/json-client.js';

export interface BraveProviderOptions {
  /** LEADFINDER_BRAVE_URL, the web search endpoint. */
  url: string;
  apiKey: string;
  timeoutMs: number;
  clock: Clock;
}

const BraveAnswer = z.object({
  query: z.looseObject({ more_results_available: z.boolean().nullish() }).optional(),
  web: z
    .object({
      results: z
        .array(
          z.looseObject({
            url: z.string(),
            title: z.string().nullish(),
            description: z.string().nullish(),
            page_age: z.string().nullish(),
            age: z.string().nullish(),
          }),
        )
        .default([]),
    })
    .optional(),
});

/** Brave highlights matches with <strong>; snippets are plain text. */
function stripTags(text: string): string {
  return normaliseSpace(
    text
      .replace(/<[^>]+>/g, '')
      .replace(/&quot;/g, '"')
      .replace(/&#39;|&#x27;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&'),
  );
}

/** Brave caps `count` at 20 and `offset` (a page index) at 9. */
const MAX_COUNT = 20;
const MAX_OFFSET = 9;
const NO_FLOOR_BEFORE = '1990-01-01';

/**
 * Brave Search API. `offset` is a 0-based page index of `count` results. The date floor goes to Brave
 * as `freshness=FROMtoTO` and is re-checked on `page_age`/`age`; domains go into `q` and are re-checked.
 */
export function createBraveProvider(options: BraveProviderOptions): SearchProvider {
  return {
    name: 'brave',
    async search(req: SearchRequest, signal: AbortSignal): Promise<SearchResponse> {
      const count = Math.min(req.limit, MAX_COUNT);
      const offset = req.page - 1;
      if (offset > MAX_OFFSET) return { hits: [] };
      const url = new URL(options.url);
      url.searchParams.set('q', withSiteTerms(req.query, req.domains));
      url.searchParams.set('count', String(count));
      url.searchParams.set('offset', String(offset));
      const floor = normaliseDate(req.publishedAfter);
      // A floor before the web existed ("before 2025" has none) is no floor.
      if (floor && floor >= NO_FLOOR_BEFORE) {
        const today = new Date(options.clock.now()).toISOString().slice(0, 10);
        if (floor <= today) url.searchParams.set('freshness', `${floor}to${today}`);
      }
      const raw = await getJson(url, {
        upstream: 'brave',
        signal,
        timeoutMs: options.timeoutMs,
        headers: { 'x-subscription-token': options.apiKey },
      });
      const parsed = BraveAnswer.safeParse(raw);
      if (!parsed.success) throw new UpstreamError('brave', 'brave answer is not a web search result');
      const hits: SearchHit[] = [];
      const results = parsed.data.web?.results ?? [];
      // "Full" is Brave's own answer (or a page of `count` results), before our site and date checks.
      const more = offset < MAX_OFFSET && (parsed.data.query?.more_results_available ?? results.length >= count);
      for (const r of results) {
        if (!/^https?:\/\//i.test(r.url)) continue;
        const publishedAt = normaliseDate(r.page_age) ?? normaliseDate(r.age);
        if (!urlOnDomains(r.url, req.domains) || !passesDateFloor(publishedAt, req.publishedAfter)) continue;
        hits.push({
          url: r.url,
          title: stripTags(r.title ?? ''),
          snippet: stripTags(r.description ?? ''),
          publishedAt,
          provider: 'brave',
          rank: offset * count + hits.length + 1,
        });
        if (hits.length >= req.limit) break;
      }
      return { hits, more };
    },
  };
}
