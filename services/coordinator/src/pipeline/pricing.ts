import type { ReasonerUsage } from '@leadfinder/wire';

/** Prices in micro-USD, from config (LEADFINDER_PRICE_*). */
export interface Prices {
  searchMicrousd: number;
  pageMicrousd: number;
  llmInputMicrousdPerMtok: number;
  llmOutputMicrousdPerMtok: number;
}

/** Price of one filter call's LLM usage: each token kind rounded up separately, per call. */
export function llmCallPriceMicrousd(usage: ReasonerUsage, prices: Prices): number {
  const input = Math.ceil((usage.inputTokens * prices.llmInputMicrousdPerMtok) / 1_000_000);
  const output = Math.ceil((usage.outputTokens * prices.llmOutputMicrousdPerMtok) / 1_000_000);
  return input + output;
}

/** The most a run may spend: the spend ceiling, and never more than its hold (what the account can cover). */
export function spendCapMicrousd(ceilingMicrousd: number, holdMicrousd: number): number {
  return Math.min(ceilingMicrousd, holdMicrousd);
}

export interface UsageTotals {
  searchCalls: number;
  pagesOpened: number;
  llmCalls: number;
  inputTokens: number;
  outputTokens: number;
}

/**
 * Spend of one run, in memory. Pure bookkeeping: the coordinator asks `canAfford` before each priced
 * step and records what it spent. A step whose known price would cross the cap is never started. An
 * LLM call's price is only known afterwards, so it is predicted by the dearest call seen so far; should
 * a call still overshoot, the recorded spend is clamped to the cap (the ceiling is never crossed) and
 * the caller ends the run `budget_exhausted`.
 */
export class SpendMeter {
  spendMicrousd: number;
  readonly usage: UsageTotals = { searchCalls: 0, pagesOpened: 0, llmCalls: 0, inputTokens: 0, outputTokens: 0 };
  private dearestLlmCall = 0;

  constructor(readonly capMicrousd: number, readonly prices: Prices, startMicrousd = 0) {
    this.spendMicrousd = startMicrousd;
  }

  canAfford(priceMicrousd: number): boolean {
    return this.spendMicrousd + priceMicrousd <= this.capMicrousd;
  }
  canAffordSearch(): boolean {
    return this.canAfford(this.prices.searchMicrousd);
  }
  canAffordPage(): boolean {
    return this.canAfford(this.prices.pageMicrousd);
  }
  /** Predicted by the dearest LLM call so far (0 for the rule-based reasoner). */
  canAffordLlmCall(): boolean {
    return this.canAfford(this.dearestLlmCall);
  }

  recordSearch(): void {
    this.usage.searchCalls += 1;
    this.spendMicrousd += this.prices.searchMicrousd;
  }
  /** Takes back a search that never reached the provider (it could not connect): that is no spend. */
  refundSearch(): void {
    this.usage.searchCalls -= 1;
    this.spendMicrousd -= this.prices.searchMicrousd;
  }
  recordPage(): void {
    this.usage.pagesOpened += 1;
    this.spendMicrousd += this.prices.pageMicrousd;
  }
  /** Records one filter call's usage; returns false when its price had to be clamped at the cap. */
  recordLlm(usage: ReasonerUsage): boolean {
    const price = llmCallPriceMicrousd(usage, this.prices);
    this.usage.llmCalls += usage.calls;
    this.usage.inputTokens += usage.inputTokens;
    this.usage.outputTokens += usage.outputTokens;
    this.dearestLlmCall = Math.max(this.dearestLlmCall, price);
    if (this.spendMicrousd + price > this.capMicrousd) {
      this.spendMicrousd = this.capMicrousd;
      return false;
    }
    this.spendMicrousd += price;
    return true;
  }
}
