import type { CallOptions, Clock, FilterPort, Logger } from '@leadfinder/platform';
import { groundCandidates, groundVerdict } from './domain/grounding.js';
import type { Reasoner } from './ports/reasoner.js';

export interface FilterOptions {
  /** The reasoning adapter: `createRuleReasoner()` (embedded) or `createOpenAiReasoner(...)`. */
  reasoner: Reasoner;
  logger: Logger;
  /** Times each call for the debug log. */
  clock: Clock;
}

/**
 * The filter role behind `FilterPort`. Each method delegates to the reasoner; extract and verify
 * results are then checked against the pages, so no reasoner can put an invented name or quote into a row.
 */
export function createFilter(options: FilterOptions): FilterPort {
  const { reasoner, clock } = options;
  const logger = options.logger.child({ component: 'filter', reasoner: reasoner.mode });

  async function timed<T>(op: string, run: () => Promise<T>): Promise<T> {
    const started = clock.now();
    try {
      return await run();
    } finally {
      logger.debug('filter call finished', { op, ms: clock.now() - started });
    }
  }

  return {
    plan: (request, opts: CallOptions) => timed('plan', () => reasoner.plan(request, opts)),
    queries: (request, opts) => timed('queries', () => reasoner.queries(request, opts)),
    screen: (request, opts) => timed('screen', () => reasoner.screen(request, opts)),
    extract: (request, opts) =>
      timed('extract', async () => {
        const response = await reasoner.extract(request, opts);
        const { kept, dropped } = groundCandidates(response.candidates, request.page);
        if (dropped.length > 0) logger.warn('dropped candidates not named in the page', { url: request.page.url, count: dropped.length });
        return { candidates: kept, usage: response.usage };
      }),
    verify: (request, opts) =>
      timed('verify', async () => {
        const response = await reasoner.verify(request, opts);
        return { verdict: groundVerdict(response.verdict, request.pages), usage: response.usage };
      }),
    relax: (request, opts) => timed('relax', () => reasoner.relax(request, opts)),
  };
}
