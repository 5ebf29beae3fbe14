import type { FetcherPort, FilterPort, Logger } from '@leadfinder/platform';
import type {
  Candidate, ExtractRequest, FetchedPage, FunnelFilter, PlanRequest, QueriesRequest, ReasonerUsage, RelaxRequest,
  ResearchPlan, ScreenRequest, ScreenScore, SearchHit, SearchRequest, Verdict, VerifyRequest,
} from '@leadfinder/wire';
import type { SpendMeter } from '../pipeline/pricing.js';
import { BudgetExhaustedError } from '../run-end.js';
import { callWithRetry, type CallPolicy } from './retry.js';

export interface ResearchTimeouts {
  /** Per search call. @default 30000 */
  searchMs: number;
  /** Per page fetch. @default 30000 */
  fetchMs: number;
  /** Per filter (reasoner) call; LLM calls can be slow. @default 120000 */
  filterMs: number;
}

export interface ResearchActivitiesOptions {
  runId: string;
  fetcher: FetcherPort;
  filter: FilterPort;
  meter: SpendMeter;
  signal: AbortSignal;
  logger: Logger;
  retries: number;
  backoffMs: number;
  timeouts: ResearchTimeouts;
}

/**
 * The run's side effects on the fetcher and filter roles, each metered: a priced step is refused with
 * BudgetExhaustedError before it starts when it would cross the cap, and its spend is recorded when
 * it is attempted (search, page) or answered (LLM usage).
 */
export class ResearchActivities {
  constructor(private readonly o: ResearchActivitiesOptions) {}

  private policy(timeoutMs: number): CallPolicy {
    return { retries: this.o.retries, backoffMs: this.o.backoffMs, timeoutMs };
  }

  private budgetExhausted(): BudgetExhaustedError {
    return new BudgetExhaustedError(this.o.runId, this.o.meter.spendMicrousd, this.o.meter.capMicrousd);
  }

  private async reason<T extends { usage: ReasonerUsage }>(
    name: string,
    call: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    if (!this.o.meter.canAffordLlmCall()) throw this.budgetExhausted();
    const response = await callWithRetry(`filter.${name}`, this.o.signal, this.policy(this.o.timeouts.filterMs), call);
    if (!this.o.meter.recordLlm(response.usage)) throw this.budgetExhausted();
    return response;
  }

  async plan(request: PlanRequest): Promise<ResearchPlan> {
    return (await this.reason('plan', (signal) => this.o.filter.plan(request, { signal }))).plan;
  }
  async queries(request: QueriesRequest): Promise<string[]> {
    return (await this.reason('queries', (signal) => this.o.filter.queries(request, { signal }))).queries;
  }
  async screen(request: ScreenRequest): Promise<ScreenScore[]> {
    return (await this.reason('screen', (signal) => this.o.filter.screen(request, { signal }))).scores;
  }
  async extract(request: ExtractRequest): Promise<Candidate[]> {
    return (await this.reason('extract', (signal) => this.o.filter.extract(request, { signal }))).candidates;
  }
  async verify(request: VerifyRequest): Promise<Verdict> {
    return (await this.reason('verify', (signal) => this.o.filter.verify(request, { signal }))).verdict;
  }
  async relax(request: RelaxRequest): Promise<FunnelFilter | null> {
    return (await this.reason('relax', (signal) => this.o.filter.relax(request, { signal }))).filter;
  }

  /** One web search, charged per call. */
  async search(request: SearchRequest): Promise<SearchHit[]> {
    if (!this.o.meter.canAffordSearch()) throw this.budgetExhausted();
    this.o.meter.recordSearch();
    const policy = this.policy(this.o.timeouts.searchMs);
    return (await callWithRetry('fetcher.search', this.o.signal, policy, (signal) => this.o.fetcher.search(request, { signal }))).hits;
  }

  /**
   * Opens one page, charged when attempted. A page that cannot be opened is skipped (null), never a
   * run failure; only the run's own signal ending the call propagates.
   */
  async fetchPage(url: string): Promise<FetchedPage | null> {
    if (!this.o.meter.canAffordPage()) throw this.budgetExhausted();
    this.o.meter.recordPage();
    try {
      const policy = this.policy(this.o.timeouts.fetchMs);
      const outcome = await callWithRetry('fetcher.fetch', this.o.signal, policy, (signal) => this.o.fetcher.fetch({ url }, { signal }));
      if (outcome.ok) return outcome.page;
      this.o.logger.debug('page skipped', { url, code: outcome.code, reason: outcome.reason });
      return null;
    } catch (error) {
      if (this.o.signal.aborted) throw this.o.signal.reason;
      this.o.logger.warn('page fetch failed, skipped', { url, error: error instanceof Error ? error.message : String(error) });
      return null;
    }
  }
}
