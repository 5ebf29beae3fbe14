import type { Clock, Config, Logger, SearchProvider } from '@leadfinder/platform';
import { InvalidArgumentError, searchProvider, systemClock } from '@leadfinder/platform';
import type { PageSource } from '../ports/page-source.js';
import { createBraveProvider } from './brave/brave-provider.js';
import { createCorpusIndex } from './corpus/corpus-index.js';
import { createCorpusProvider } from './corpus/corpus-provider.js';
import { createSearxngProvider } from './searxng/searxng-provider.js';

export interface SearchProviderDeps {
  logger?: Logger;
  clock?: Clock;
  /**
   * Corpus folder to use when LEADFINDER_CORPUS_DIR is unset: the bundled sample corpus the entry point
   * writes into the data dir.
   */
  corpusDir?: string;
  /** How often the corpus folder is re-checked for changes (ms). @default 1000 */
  corpusRecheckMs?: number;
}

/**
 * The search provider the configuration selects (`searchProvider(config)`): SearXNG, Brave, or the
 * local corpus. The corpus provider is also a `PageSource`; hand it to `createFetcher` as `provider`
 * and it serves fetches of its own pages.
 */
export function createSearchProvider(config: Config, deps: SearchProviderDeps = {}): SearchProvider | (SearchProvider & PageSource) {
  const timeoutMs = config.LEADFINDER_FETCH_TIMEOUT_MS;
  const kind = searchProvider(config);
  switch (kind) {
    case 'searxng':
      if (!config.LEADFINDER_SEARXNG_URL) throw new InvalidArgumentError('LEADFINDER_SEARXNG_URL is required for searxng', 'LEADFINDER_SEARXNG_URL');
      return createSearxngProvider({ baseUrl: config.LEADFINDER_SEARXNG_URL, timeoutMs });
    case 'brave':
      if (!config.LEADFINDER_BRAVE_API_KEY) throw new InvalidArgumentError('LEADFINDER_BRAVE_API_KEY is required for brave', 'LEADFINDER_BRAVE_API_KEY');
      return createBraveProvider({
        url: config.LEADFINDER_BRAVE_URL,
        apiKey: config.LEADFINDER_BRAVE_API_KEY,
        timeoutMs,
        clock: deps.clock ?? systemClock,
      });
    case 'corpus': {
      const dir = config.LEADFINDER_CORPUS_DIR ?? deps.corpusDir;
      if (!dir) throw new InvalidArgumentError('no corpus folder: set LEADFINDER_CORPUS_DIR or pass deps.corpusDir', 'LEADFINDER_CORPUS_DIR');
      deps.logger?.info('search provider: local corpus', { dir });
      return createCorpusProvider(
        createCorpusIndex({ dir, clock: deps.clock ?? systemClock, ...(deps.corpusRecheckMs !== undefined ? { recheckMs: deps.corpusRecheckMs } : {}) }),
      );
    }
  }
}
