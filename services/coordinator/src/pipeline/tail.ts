import { microsToUsdNumber, TAIL_STAGES, type FilterDescriptor, type FinalEvent, type ResultRow, type RunEventBody, type TerminalStatus } from '@leadfinder/wire';
import type { UsageTotals } from './pricing.js';

/** How a driven run ended (lease loss and shutdown write nothing, so they are not outcomes). */
export type RunOutcome =
  | { kind: 'done' }
  | { kind: 'stopped'; reason?: 'max_usd_per_row' }
  | { kind: 'budget_exhausted' }
  | { kind: 'deadline' }
  | { kind: 'error'; message: string };

export interface TailInput {
  outcome: RunOutcome;
  rows: readonly ResultRow[];
  target: number;
  filters: readonly FilterDescriptor[];
  /** `where` when the run ended. */
  where: string;
  chargeMicrousd: number;
  /** The tail `cost` event's per_row_usd and projected_usd (RowCostMeter.fields over the charge and rows). */
  costFields?: { per_row_usd: number | null; projected_usd: number | null };
  usage: UsageTotals;
  /** `final`'s additive fields for the request's `exclude`, `expected`, `near_misses`, `keep_unclear` (RunState.finalReport). */
  report?: Partial<Pick<FinalEvent, 'excluded' | 'expected_found' | 'expected_missed' | 'near_misses' | 'unclear'>>;
}

export interface TerminalDecision {
  status: TerminalStatus;
  stopReason: 'deadline' | null;
  /** The tail, in emission order (spec §6 "Emission by outcome"). */
  events: RunEventBody[];
}

/**
 * The terminal tail of a driven run, exactly:
 *   done             final(stopped:false) · cost 'Done' · usage · done
 *   error            error · cost 'Error' · usage · done
 *   stopped          final(stopped:true) · cost 'Stopped' · usage · done(stopped:true)
 *   budget_exhausted final(stopped:true) · cost 'Budget exhausted' · usage · done(stopped:true)
 *   deadline         final(stopped:true) · cost 'Interrupted' · usage · done(stopped:true); status interrupted
 */
export function terminalDecision(input: TailInput): TerminalDecision {
  const { outcome } = input;
  const usage: RunEventBody = {
    type: 'usage',
    search_calls: input.usage.searchCalls,
    pages_opened: input.usage.pagesOpened,
    llm_calls: input.usage.llmCalls,
    input_tokens: input.usage.inputTokens,
    output_tokens: input.usage.outputTokens,
    spend_microusd: input.chargeMicrousd,
  };
  const cost = (stage: string): RunEventBody => ({ type: 'cost', stage, usd: microsToUsdNumber(input.chargeMicrousd), ...input.costFields });
  if (outcome.kind === 'error') {
    return {
      status: 'error',
      stopReason: null,
      events: [{ type: 'error', message: outcome.message }, cost(TAIL_STAGES.error), usage, { type: 'done' }],
    };
  }
  const stopped = outcome.kind !== 'done';
  const table = input.rows.slice(0, input.target);
  const final: RunEventBody = {
    type: 'final',
    table: [...table],
    target: input.target,
    met: table.length === input.target,
    filters: input.filters.map((f) => ({ index: f.index, title: f.title, criterion: f.criterion })),
    stopped,
    stopped_at: stopped ? input.where : null,
    ...input.report,
    ...(outcome.kind === 'stopped' && outcome.reason ? { stop_reason: outcome.reason } : {}),
  };
  const status: TerminalStatus =
    outcome.kind === 'deadline' ? 'interrupted' : outcome.kind === 'done' ? 'done' : outcome.kind;
  const stage =
    outcome.kind === 'deadline' ? TAIL_STAGES.interrupted : TAIL_STAGES[outcome.kind];
  return {
    status,
    stopReason: outcome.kind === 'deadline' ? 'deadline' : null,
    events: [final, cost(stage), usage, stopped ? { type: 'done', stopped: true } : { type: 'done' }],
  };
}
