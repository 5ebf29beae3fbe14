import type { Counter, Histogram, Meter } from '@opentelemetry/api';
import type { FetchFailureCode, RunStatus } from '@leadfinder/wire';
import { meter as globalMeter } from './context.js';

/** Outcome of one page fetch, as counted: `ok` or the failure code. */
export type FetchOutcomeLabel = 'ok' | FetchFailureCode;

/**
 * The service's business metrics (design "Observability"). Each method records one fact; instrument
 * names and attribute keys live here only, so dashboards have one source of truth.
 */
export interface LeadfinderMetrics {
  /** A run reached a terminal status. */
  runEnded(status: RunStatus): void;
  /** Money counted against a run, integer micro-USD. */
  spend(microusd: number, attributes?: { stage?: string }): void;
  /** Rows returned by runs. */
  rows(count: number): void;
  /** Wall time of one pipeline stage (plan, discover, screen, open, extract, funnel, …). */
  stageDuration(stage: string, ms: number): void;
  /** One fetch ended with this outcome. */
  fetchOutcome(outcome: FetchOutcomeLabel): void;
  /** A coordinator found its lease on a run taken over (it stops driving the run). */
  leaseLost(): void;
  /** LLM calls and the tokens they used, by requested model (attribute names from the gen_ai conventions). */
  llmUsage(model: string, usage: { calls: number; inputTokens: number; outputTokens: number }): void;
  /** Wall time of one run from accept to its terminal status. */
  runDuration(status: RunStatus, ms: number): void;
}

/**
 * Bucket bounds in milliseconds for durations that can last a whole run: a run may last its deadline
 * (9,000 s by default), so the buckets reach 18,000 s rather than stopping at 10 s.
 */
export const RUN_LENGTH_BUCKETS_MS = [
  10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000, 60_000, 300_000, 900_000, 1_800_000, 3_600_000, 9_000_000, 18_000_000,
];

/** Creates the instruments on `meter` (default: the global meter `leadfinder`). */
export function createLeadfinderMetrics(meter: Meter = globalMeter('leadfinder')): LeadfinderMetrics {
  const runs: Counter = meter.createCounter('leadfinder.runs', { description: 'Runs that reached a terminal status' });
  const spend: Counter = meter.createCounter('leadfinder.spend_microusd', {
    description: 'Money counted against runs', unit: 'uUSD',
  });
  const rows: Counter = meter.createCounter('leadfinder.rows', { description: 'Rows returned by runs' });
  const stage: Histogram = meter.createHistogram('leadfinder.stage.duration', {
    description: 'Wall time of one pipeline stage', unit: 'ms',
    advice: { explicitBucketBoundaries: RUN_LENGTH_BUCKETS_MS },
  });
  const runDuration: Histogram = meter.createHistogram('leadfinder.run.duration', {
    description: 'Wall time of one run from accept to its terminal status', unit: 'ms',
    advice: { explicitBucketBoundaries: RUN_LENGTH_BUCKETS_MS },
  });
  const fetches: Counter = meter.createCounter('leadfinder.fetch.outcomes', { description: 'Page fetches by outcome' });
  const leases: Counter = meter.createCounter('leadfinder.leases.lost', { description: 'Run leases a coordinator found taken over' });
  const llmCalls: Counter = meter.createCounter('leadfinder.llm.calls', { description: 'LLM calls made by the filter' });
  const tokens: Counter = meter.createCounter('leadfinder.llm.tokens', { description: 'LLM tokens used, by model and direction', unit: '{token}' });
  // Exported at zero from the start, so rate() and alerts work before the first occurrence.
  leases.add(0);
  return {
    runEnded: (status) => runs.add(1, { status }),
    spend: (microusd, attributes = {}) => spend.add(microusd, attributes.stage === undefined ? {} : { stage: attributes.stage }),
    rows: (count) => rows.add(count),
    stageDuration: (name, ms) => stage.record(ms, { stage: name }),
    fetchOutcome: (outcome) => fetches.add(1, { outcome }),
    leaseLost: () => leases.add(1),
    llmUsage: (model, usage) => {
      if (usage.calls <= 0) return;
      llmCalls.add(usage.calls, { 'gen_ai.request.model': model });
      tokens.add(usage.inputTokens, { 'gen_ai.request.model': model, 'gen_ai.token.type': 'input' });
      tokens.add(usage.outputTokens, { 'gen_ai.request.model': model, 'gen_ai.token.type': 'output' });
    },
    runDuration: (status, ms) => runDuration.record(ms, { status }),
  };
}

/**
 * `filter` with the LLM usage of every call counted by model (`leadfinder.llm.calls`, `leadfinder.llm.tokens`).
 * Wraps whichever port methods there are: each answer that carries a `usage` (`calls`, `inputTokens`,
 * `outputTokens`) is counted once, where the model is known (the filter role, or the all-in-one process).
 */
export function countingLlmUsage<P extends object>(filter: P, model: string, metrics: LeadfinderMetrics): P {
  return new Proxy(filter, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        const answer = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        const usage = (answer as { usage?: unknown } | null)?.usage;
        if (isUsage(usage)) metrics.llmUsage(model, usage);
        return answer;
      };
    },
  });
}

function isUsage(value: unknown): value is { calls: number; inputTokens: number; outputTokens: number } {
  if (typeof value !== 'object' || value === null) return false;
  const u = value as Record<string, unknown>;
  return typeof u.calls === 'number' && typeof u.inputTokens === 'number' && typeof u.outputTokens === 'number';
}
