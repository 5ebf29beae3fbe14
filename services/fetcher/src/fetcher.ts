import type { Agent } from 'undici';
import type { Clock, Config, FetcherPort, Logger, SearchProvider } from '@leadfinder/platform';
import { CancelledError, systemClock } from '@leadfinder/platform';
import type { FetchOutcome, FetchRequest, SearchRequest, SearchResponse } from '@leadfinder/wire';
import { extractByKind, pageKind } from './domain/page-kind.js';
import { resolveModelLinks } from './domain/page-links.js';
import { createGuardedAgent } from './adapters/undici/guarded-agent.js';
import { refusedAddressReason } from './domain/ip-address.js';
import { createHttpPageFetcher } from './adapters/undici/http-page-fetcher.js';
import { isPageSource, type PageSource } from './ports/page-source.js';
import { tracePageFetch, traceSearch } from './adapters/otel/spans.js';

export interface FetcherOptions {
  config: Config;
  logger: Logger;
  /** Where searches go (from `createSearchProvider`). */
  provider: SearchProvider;
  /**
   * Pages served without the network, asked before HTTP. @default the provider itself when it is a
   * page source (the local corpus), else none
   */
  pageSource?: PageSource;
  /** @default systemClock */
  clock?: Clock;
  /** Check robots.txt before fetching. @default true */
  respectRobots?: boolean;
}

/** The in-process fetcher: FetcherPort plus `close()` to release pooled connections. */
export interface Fetcher extends FetcherPort {
  close(): Promise<void>;
}

/**
 * Pins send a host's traffic to a fixed address, so the operator sees every one at start-up, and a
 * warning for a pin the SSRF guard will refuse (unless LEADFINDER_FETCH_ALLOW_PRIVATE is set).
 */
function logPins(config: Config, logger: Logger): void {
  const pins = config.LEADFINDER_FETCH_RESOLVE;
  if (pins.length === 0) return;
  logger.info('fetch pins (LEADFINDER_FETCH_RESOLVE)', { pins: pins.map((p) => `${p.host}:${p.port} -> ${p.address}`) });
  if (config.LEADFINDER_FETCH_ALLOW_PRIVATE) return;
  for (const pin of pins) {
    const why = refusedAddressReason(pin.address);
    if (why) logger.warn('fetch pin to a refused address: its pages will not be fetched', { pin: `${pin.host}:${pin.port} -> ${pin.address}`, why });
  }
}

export function createFetcher(options: FetcherOptions): Fetcher {
  const { config, provider } = options;
  const logger = options.logger.child({ component: 'fetcher' });
  const clock = options.clock ?? systemClock;
  const pageSource = options.pageSource ?? (isPageSource(provider) ? provider : undefined);
  logPins(config, logger);
  const agent: Agent = createGuardedAgent({
    allowPrivate: config.LEADFINDER_FETCH_ALLOW_PRIVATE,
    resolve: config.LEADFINDER_FETCH_RESOLVE,
    connectTimeoutMs: Math.min(config.LEADFINDER_FETCH_TIMEOUT_MS, 10_000),
  });
  const http = createHttpPageFetcher({
    dispatcher: agent,
    logger,
    timeoutMs: config.LEADFINDER_FETCH_TIMEOUT_MS,
    maxBytes: config.LEADFINDER_FETCH_MAX_BYTES,
    perHost: config.LEADFINDER_FETCH_PER_HOST,
    allowPrivate: config.LEADFINDER_FETCH_ALLOW_PRIVATE,
    resolve: config.LEADFINDER_FETCH_RESOLVE,
    respectRobots: options.respectRobots ?? true,
  });

  /** One extraction path for every page, wherever its bytes came from. */
  function toOutcome(requested: string, finalUrl: string, status: number, contentType: string, body: string): FetchOutcome {
    const kind = pageKind(contentType, body.slice(0, 64), new URL(finalUrl).pathname);
    if (!kind) return { ok: false, url: requested, code: 'unsupported_type', reason: `content type ${contentType} is not a page` };
    const page = extractByKind(kind, body);
    return {
      ok: true,
      page: {
        url: requested,
        finalUrl,
        status,
        contentType,
        title: page.title,
        text: page.text,
        publishedAt: page.publishedAt,
        passages: page.passages,
        fetchedAt: new Date(clock.now()).toISOString(),
        ...(page.model ? { model: resolveModelLinks(page.model, finalUrl) } : {}),
      },
    };
  }

  return {
    async search(request: SearchRequest, { signal }): Promise<SearchResponse> {
      if (signal.aborted) throw new CancelledError('search cancelled', { cause: signal.reason });
      const started = clock.now();
      const response = await traceSearch(provider.name, () => provider.search(request, signal));
      logger.debug('search', { provider: provider.name, hits: response.hits.length, ms: clock.now() - started });
      return response;
    },

    async fetch(request: FetchRequest, { signal }): Promise<FetchOutcome> {
      if (signal.aborted) throw new CancelledError('fetch cancelled', { cause: signal.reason });
      return tracePageFetch(request.url, async () => {
        const local = pageSource ? await pageSource.open(request.url, signal) : null;
        if (local) return { source: 'corpus', status: 200, outcome: toOutcome(request.url, local.url, 200, local.contentType, local.body) };
        const download = await http.download(request.url, signal);
        if (!download.ok) {
          logger.debug('fetch refused or failed', { url: request.url, code: download.code, reason: download.reason });
          return { source: 'http', status: download.status, outcome: { ok: false, url: request.url, code: download.code, reason: download.reason } };
        }
        return { source: 'http', status: download.status, outcome: toOutcome(request.url, download.finalUrl, download.status, download.contentType, download.body) };
      });
    },

    async close() {
      await agent.close();
    },
  };
}
