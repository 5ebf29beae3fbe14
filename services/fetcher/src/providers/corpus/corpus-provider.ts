import type { SearchRequest, SearchResponse } from '@leadfinder/wire';
import type { SearchProvider } from '@leadfinder/platform';
import { CancelledError } from '@leadfinder/platform';
import type { PageSource, SourcedPage } from '../../ports/page-source.js';
import type { CorpusIndex } from './corpus-index.js';

/** The local corpus as a search provider and, since it is the whole web offline, as a page source. */
export function createCorpusProvider(index: CorpusIndex): SearchProvider & PageSource {
  return {
    name: 'corpus',
    async search(request: SearchRequest, signal: AbortSignal): Promise<SearchResponse> {
      if (signal.aborted) throw new CancelledError('search cancelled', { cause: signal.reason });
      const hits = await index.search(request);
      return { hits };
    },
    async open(url: string, signal: AbortSignal): Promise<SourcedPage | null> {
      if (signal.aborted) throw new CancelledError('fetch cancelled', { cause: signal.reason });
      const page = await index.page(url);
      return page ? { url: page.url, contentType: page.contentType, body: page.source } : null;
    },
  };
}
