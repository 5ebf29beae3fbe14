import { sleep, type CallOptions, type FetcherPort, type FilterPort } from '@leadfinder/platform';
import type {
  Candidate, FetchOutcome, FunnelFilter, ReasonerUsage, ResearchPlan, SearchHit, Verdict,
} from '@leadfinder/wire';

/**
 * Scripted fetcher and filter roles for coordinator tests: pages, hits, candidates and verdicts come
 * from a small "world"; every call can be slowed and honours the run signal like a real client.
 */
export interface World {
  plan: ResearchPlan;
  /** Queries filter.queries offers for round N ≥ 2 (missing: none, the run is exhausted). */
  laterQueries?: Record<number, string[]>;
  /** Hits per query. */
  hits: Record<string, { url: string; score: number }[]>;
  /** Pages the fetcher can open; others fail (not a run failure). */
  pages: Record<string, string>;
  /** Candidates extracted from each page. */
  candidates: Record<string, { key: string; name: string; domain?: string; lead?: string }[]>;
  /** Whether a candidate passes a filter (the filter may be a loosened one). */
  passes: (filter: FunnelFilter, candidate: Candidate) => boolean;
  /** Whether a failing verdict is `unclear` rather than `no` (default: never). */
  unclear?: (filter: FunnelFilter, candidate: Candidate) => boolean;
  /** What Relax returns for a filter (default: null, cannot loosen). */
  loosen?: (filter: FunnelFilter) => FunnelFilter | null;
  /** LLM usage reported by every filter call. @default zero */
  usage?: ReasonerUsage;
  /** Delay of every port call, honouring the signal. @default 0 */
  delayMs?: number;
  /**
   * Hits the provider returns but its adapter's site or date check drops: the search answers `more`
   * judged on the provider's page before the drop, as the SearXNG and Brave adapters do.
   */
  droppedByChecks?: string[];
  /** Makes a call throw this error (e.g. a non-retryable failure). */
  failures?: Partial<Record<'plan' | 'search' | 'screen' | 'extract' | 'verify' | 'fetch', Error>>;
}

export interface CallLog {
  /** Queries in the order their calls started (a query once per page read). */
  searched: string[];
  /** Domains each search was restricted to, in call order. */
  searchedDomains: string[][];
  /** The same calls with their result page. */
  searchedPages: { query: string; page: number }[];
  fetched: string[];
  relaxed: string[];
  verified: { filter: string; candidate: string; relaxed: boolean }[];
}

const ZERO: ReasonerUsage = { calls: 1, inputTokens: 0, outputTokens: 0 };

export function filterOf(index: number, title: string, criterion = `${title} holds`): FunnelFilter {
  return { index, title, criterion, spec: {}, relaxed: false };
}

export function planOf(queries: string[], filters: FunnelFilter[], extra: Partial<ResearchPlan> = {}): ResearchPlan {
  return {
    entityType: 'company', filters, queries, dateRange: null, sites: { domains: [], pageTypes: [] },
    summary: 'companies', ...extra,
  };
}

export function createFakeResearch(world: World): { fetcher: FetcherPort; filter: FilterPort; calls: CallLog } {
  const calls: CallLog = { searched: [], searchedDomains: [], searchedPages: [], fetched: [], relaxed: [], verified: [] };
  const usage = () => ({ ...(world.usage ?? ZERO) });
  const step = async (name: keyof NonNullable<World['failures']>, o: CallOptions) => {
    if (world.delayMs) await sleep(world.delayMs, o.signal);
    o.signal.throwIfAborted();
    const failure = world.failures?.[name];
    if (failure) throw failure;
  };
  const pageOf = (url: string) => ({
    url, finalUrl: url, status: 200, contentType: 'text/html', title: url, text: world.pages[url]!,
    publishedAt: null, passages: [world.pages[url]!], fetchedAt: new Date().toISOString(),
  });

  const fetcher: FetcherPort = {
    async search(request, o) {
      calls.searched.push(request.query);
      calls.searchedDomains.push([...request.domains]);
      calls.searchedPages.push({ query: request.query, page: request.page });
      await step('search', o);
      // Ranked like a real provider: page N holds ranks (N-1)·limit+1 … N·limit.
      const offset = (request.page - 1) * request.limit;
      const page = (world.hits[request.query] ?? []).slice(offset, offset + request.limit);
      const hits: SearchHit[] = page.map((h, i) => ({
        url: h.url, title: h.url, snippet: `about ${h.url}`, publishedAt: null, provider: 'fake', rank: offset + i + 1,
      }));
      const dropped = world.droppedByChecks;
      if (!dropped) return { hits };
      return { hits: hits.filter((h) => !dropped.includes(h.url)), more: page.length >= request.limit };
    },
    async fetch(request, o): Promise<FetchOutcome> {
      calls.fetched.push(request.url);
      await step('fetch', o);
      if (world.pages[request.url] === undefined) {
        return { ok: false, url: request.url, code: 'http_status', reason: '404' };
      }
      return { ok: true, page: pageOf(request.url) };
    },
  };

  const scoreOf = (url: string) => {
    for (const list of Object.values(world.hits)) for (const h of list) if (h.url === url) return h.score;
    return 0;
  };

  const filter: FilterPort = {
    async plan(_request, o) {
      await step('plan', o);
      return { plan: structuredClone(world.plan), usage: usage() };
    },
    async queries(request, o) {
      await step('plan', o);
      return { queries: world.laterQueries?.[request.round] ?? [], usage: usage() };
    },
    async screen(request, o) {
      await step('screen', o);
      const scores = request.hits.map((h) => ({ url: h.url, score: scoreOf(h.url), pass: scoreOf(h.url) >= 0.5 }));
      return { scores, usage: usage() };
    },
    async extract(request, o) {
      await step('extract', o);
      const url = request.page.url;
      const candidates: Candidate[] = (world.candidates[url] ?? []).map((c) => ({
        key: c.key, name: c.name, entityType: 'company', details: `${c.name} details`, intentSignal: 'hiring',
        discoveryRationale: `found on ${url}`, sourceUrls: [url],
        passages: [{ text: world.pages[url]!, url, score: 1, published: null }],
        domain: c.domain ?? null, round: request.round, ...(c.lead ? { lead: c.lead } : {}),
      }));
      return { candidates, usage: usage() };
    },
    async verify(request, o) {
      calls.verified.push({ filter: request.filter.title, candidate: request.candidate.key, relaxed: request.filter.relaxed });
      await step('verify', o);
      const pass = world.passes(request.filter, request.candidate);
      const page = request.pages[0];
      const verdict: Verdict = {
        pass,
        ...(!pass && world.unclear?.(request.filter, request.candidate) ? { outcome: 'unclear' as const } : {}),
        rationale: `${request.filter.title}: ${pass ? 'yes' : 'no'} for ${request.candidate.name}`,
        rationaleMode: 'rules',
        verification: 'stated',
        passages: page ? [{ text: page.text, url: page.url }] : [],
      };
      return { verdict, usage: usage() };
    },
    async relax(request, o) {
      calls.relaxed.push(request.filter.title);
      await step('plan', o);
      return { filter: world.loosen?.(request.filter) ?? null, usage: usage() };
    },
  };
  return { fetcher, filter, calls };
}
