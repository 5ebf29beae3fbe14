/**
 * @leadfinder/fetcher: the fetcher role. Web search behind one `SearchProvider` port (SearXNG, Brave,
 * local corpus) and page opening (undici with SSRF guard, redirects, size/time caps, robots.txt,
 * per-host limits) with cheerio extraction of title, publish date, text and passages.
 *
 * @example
 * import { loadConfig, createLogger } from '@leadfinder/platform';
 * import { createFetcher, createSearchProvider } from '@leadfinder/fetcher';
 * const config = loadConfig();
 * const logger = createLogger();
 * const provider = createSearchProvider(config, { logger, corpusDir: sampleCorpusDir });
 * const fetcher = createFetcher({ config, logger, provider });
 * const { hits } = await fetcher.search({ query: 'series A fintech', domains: [], publishedAfter: null, page: 1, limit: 10 }, { signal });
 * const outcome = await fetcher.fetch({ url: hits[0].url }, { signal });
 * await fetcher.close();
 */
export { createFetcher } from './fetcher.js';
export { createSearchProvider } from './providers/create-search-provider.js';
export { createCorpusIndex, corpusUrlKey } from './providers/corpus/corpus-index.js';
export { createCorpusProvider } from './providers/corpus/corpus-provider.js';
export { writeSampleCorpus, sampleEntities, sampleCorpusPages } from './providers/corpus/sample/index.js';
export { createSearxngProvider } from './providers/searxng/searxng-provider.js';
export { createBraveProvider } from './providers/brave/brave-provider.js';
export { isPageSource } from './ports/page-source.js';
export { extractHtml } from './domain/extract.js';
export { extractMarkdown, extractPlainText, parseFrontMatter } from './domain/markdown.js';
export { normaliseDate } from './domain/dates.js';
export { refusedAddressReason } from './domain/ip-address.js';
// The SSRF guard, also used by the edge for webhook targets.
export { createGuardedAgent, PrivateAddressError } from './adapters/undici/guarded-agent.js';
export { urlOnDomains, withSiteTerms, normaliseDomain } from './domain/sites.js';

export type { Fetcher, FetcherOptions } from './fetcher.js';
export type { SearchProviderDeps } from './providers/create-search-provider.js';
export type { CorpusIndex, CorpusIndexOptions, CorpusPage, CorpusQuery } from './providers/corpus/corpus-index.js';
export type { SearxngProviderOptions } from './providers/searxng/searxng-provider.js';
export type { BraveProviderOptions } from './providers/brave/brave-provider.js';
export type { PageSource, SourcedPage } from './ports/page-source.js';
export type { SampleEntity } from './providers/corpus/sample/index.js';
export type { ExtractedPage } from './domain/extracted-page.js';
