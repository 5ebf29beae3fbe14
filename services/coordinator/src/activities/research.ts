import { LeadfinderError, type Logger } from '@leadfinder/platform';
import type {
  Candidate, ExtractRequest, FetchedPage, FunnelFilter, PlanRequest, QueriesRequest, ReasonerUsage, RelaxRequest,
  ResearchPlan, ScreenRequest, ScreenScore, SearchRequest, SearchResponse, Verdict, VerifyRequest,
} from '@leadfinder/wire';
import type { SpendMeter } from '../pipeline/pricing.js';
import { BudgetExhaustedError } from '../run/run-end.js';
import type { ResearchPort } from './research-port.js';
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
  /** The fetcher and filter, with the run's interceptors composed on. */
  port: ResearchPort;
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
    return (await this.reason('plan', (signal) => this.o.port.call('filter.plan', request, signal))).plan;
  }
  async queries(request: QueriesRequest): Promise<string[]> {
    return (await this.reason('queries', (signal) => this.o.port.call('filter.queries', request, signal))).queries;
  }
  async screen(request: ScreenRequest): Promise<ScreenScore[]> {
    return (await this.reason('screen', (signal) => this.o.port.call('filter.screen', request, signal))).scores;
  }
  async extract(request: ExtractRequest): Promise<Candidate[]> {
    return (await this.reason('extract', (signal) => this.o.port.call('filter.extract', request, signal))).candidates;
  }
  async verify(request: VerifyRequest): Promise<Verdict> {
    return (await this.reason('verify', (signal) => this.o.port.call('filter.verify', request, signal))).verdict;
  }
  async relax(request: RelaxRequest): Promise<FunnelFilter | null> {
    return (await this.reason('relax', (signal) => this.o.port.call('filter.relax', request, signal))).filter;
  }

  /**
   * One web search, charged once per call however often it is retried. It is paid for up front, so
   * parallel searches cannot overrun the cap together, and taken back when no attempt reached the
   * provider (every attempt failed to connect: `LF_ERR_UNAVAILABLE`). A call that timed out may have
   * been served, so it stays paid.
   */
  async search(request: SearchRequest): Promise<SearchResponse> {
    if (!this.o.meter.canAffordSearch()) throw this.budgetExhausted();
    this.o.meter.recordSearch();
    const policy = this.policy(this.o.timeouts.searchMs);
    let reached = false;
    try {
      return await callWithRetry('fetcher.search', this.o.signal, policy, async (signal) => {
        try {
          const answer = await this.o.port.call('fetcher.search', request, signal);
          reached = true;
          return answer;
        } catch (error) {
          if (!neverReachedProvider(error)) reached = true;
          throw error;
        }
      });
    } catch (error) {
      if (!reached) this.o.meter.refundSearch();
      throw error;
    }
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
      const outcome = await callWithRetry('fetcher.fetch', this.o.signal, policy, (signal) => this.o.port.call('fetcher.fetch', { url }, signal));
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

/** The provider (or the fetcher in front of it) could not be connected to: the request never left. */
function neverReachedProvider(error: unknown): boolean {
  return LeadfinderError.is(error) && error.code === 'LF_ERR_UNAVAILABLE';
}
