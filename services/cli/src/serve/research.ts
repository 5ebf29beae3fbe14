import { join, resolve } from 'node:path';
import { createFetcher, createSearchProvider, writeSampleCorpus } from '@leadfinder/fetcher';
import { createLeadfinderMetrics, systemClock } from '@leadfinder/platform';
import { countingLlmUsage } from '@leadfinder/platform/telemetry';
import { createGrpcFetcherClient, createGrpcFilterClient } from '@leadfinder/platform/grpc';
import type { Config, FetcherPort, FilterPort, Logger } from '@leadfinder/platform';

/**
 * The research ports the coordinator drives: in-process implementations in embedded mode, gRPC clients
 * when LEADFINDER_FETCHER_ADDR / LEADFINDER_FILTER_ADDR point at separate services.
 */
export interface ResearchPorts {
  fetcher: FetcherPort;
  filter: FilterPort;
  close(): Promise<void>;
}

/** Where the bundled sample corpus is written when no LEADFINDER_CORPUS_DIR is configured. */
export function sampleCorpusDir(config: Config): string {
  return join(resolve(config.LEADFINDER_DATA_DIR), 'sample-corpus');
}

export async function localFetcher(config: Config, logger: Logger): Promise<FetcherPort> {
  let corpusDir = config.LEADFINDER_CORPUS_DIR;
  if (!corpusDir && (config.LEADFINDER_SEARCH ?? 'corpus') === 'corpus') {
    // Written fresh at start-up so its dates stay relative to the present.
    corpusDir = sampleCorpusDir(config);
    const { pages } = await writeSampleCorpus(corpusDir, new Date(systemClock.now()));
    logger.info('sample corpus written', { dir: corpusDir, pages });
  }
  const provider = createSearchProvider(config, { corpusDir, logger: logger.child({ component: 'search' }) });
  return createFetcher({ config, logger: logger.child({ component: 'fetcher' }), provider });
}

export async function localFilter(config: Config, logger: Logger): Promise<FilterPort> {
  // Imported here, not at the top: the filter's language and place data take about a second to load, and
  // only the processes that run the filter need them (not an edge, a fetcher or a coordinator given
  // LEADFINDER_FILTER_ADDR). The image build keeps them out of its start-up too (deploy/build.mjs).
  const { createFilter, createOpenAiReasoner, createRuleReasoner } = await import('@leadfinder/filter');
  const reasoner = config.LEADFINDER_LLM_BASE_URL
    ? createOpenAiReasoner({
        baseUrl: config.LEADFINDER_LLM_BASE_URL,
        apiKey: config.LEADFINDER_LLM_API_KEY,
        model: config.LEADFINDER_LLM_MODEL,
        concurrency: config.LEADFINDER_LLM_CONCURRENCY,
        logger: logger.child({ component: 'llm' }),
      })
    : createRuleReasoner();
  const filter = createFilter({ reasoner, logger: logger.child({ component: 'filter' }), clock: systemClock });
  // Counted here, where the model is known (the filter role or the all-in-one process), not by callers.
  return config.LEADFINDER_LLM_BASE_URL ? countingLlmUsage(filter, config.LEADFINDER_LLM_MODEL, createLeadfinderMetrics()) : filter;
}

export async function openResearchPorts(config: Config, logger: Logger): Promise<ResearchPorts> {
  const closers: (() => Promise<void> | void)[] = [];
  let fetcher: FetcherPort;
  if (config.LEADFINDER_FETCHER_ADDR) {
    const client = createGrpcFetcherClient({ address: config.LEADFINDER_FETCHER_ADDR, logger });
    closers.push(() => client.close());
    fetcher = client;
  } else {
    fetcher = await localFetcher(config, logger);
  }
  let filter: FilterPort;
  if (config.LEADFINDER_FILTER_ADDR) {
    const client = createGrpcFilterClient({ address: config.LEADFINDER_FILTER_ADDR, logger });
    closers.push(() => client.close());
    filter = client;
  } else {
    filter = await localFilter(config, logger);
  }
  return {
    fetcher, filter,
    async close() {
      for (const close of closers) await close();
    },
  };
}
