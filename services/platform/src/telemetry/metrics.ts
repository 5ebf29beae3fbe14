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
}

/** Creates the instruments on `meter` (default: the global meter `leadfinder`). */
export function createLeadfinderMetrics(meter: Meter = globalMeter('leadfinder')): LeadfinderMetrics {
  const runs: Counter = meter.createCounter('leadfinder.runs', { description: 'Runs that reached a terminal status' });
  const spend: Counter = meter.createCounter('leadfinder.spend_microusd', {
    description: 'Money counted against runs', unit: 'uUSD',
  });
  const rows: Counter = meter.createCounter('leadfinder.rows', { description: 'Rows returned by runs' });
  const stage: Histogram = meter.createHistogram('leadfinder.stage.duration', {
    description: 'Wall time of one pipeline stage', unit: 'ms',
  });
  const fetches: Counter = meter.createCounter('leadfinder.fetch.outcomes', { description: 'Page fetches by outcome' });
  return {
    runEnded: (status) => runs.add(1, { status }),
    spend: (microusd, attributes = {}) => spend.add(microusd, attributes.stage === undefined ? {} : { stage: attributes.stage }),
    rows: (count) => rows.add(count),
    stageDuration: (name, ms) => stage.record(ms, { stage: name }),
    fetchOutcome: (outcome) => fetches.add(1, { outcome }),
  };
}
