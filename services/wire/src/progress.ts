import { z } from 'zod';
import type { CostEvent } from './events.js';
import type { TerminalStatus } from './run.js';

/**
 * How far a run got, as a structure. On the wire (the run record's `where`, `status.where`, mid-run
 * `cost.stage`, `final.stopped_at`) it travels as the string `formatWhere` makes, which is the one place
 * that spells it:
 *
 *   queued                       accepted, no coordinator has started it
 *   planning                     filter.plan is building the research plan
 *   round N · searching          web searches of round N (fetcher.search)
 *   round N · screening          excerpts of round N scored (filter.screen)
 *   round N · opening pages      pages of round N fetched (fetcher.fetch)
 *   round N · extracting         candidates pulled from the pages (filter.extract)
 *   round N · filter K of M      funnel filter K of M verifying candidates (filter.verify / relax)
 *   done                         finished normally (other terminal states keep the last step's value)
 */
export const RoundStep = z.enum(['searching', 'screening', 'opening pages', 'extracting']);
export type RoundStep = z.infer<typeof RoundStep>;

const Round = z.number().int().min(1);

export const Where = z.discriminatedUnion('stage', [
  z.object({ stage: z.literal('queued') }),
  z.object({ stage: z.literal('planning') }),
  z.object({ stage: z.literal('round'), round: Round, step: RoundStep }),
  /** Funnel filter `position` (1-based) of `count`, in round `round`. */
  z.object({ stage: z.literal('filter'), round: Round, position: z.number().int().min(1), count: z.number().int().min(1) }),
  z.object({ stage: z.literal('done') }),
]);
export type Where = z.infer<typeof Where>;
export type WhereStage = Where['stage'];

export const WHERE_QUEUED: Where = { stage: 'queued' };
export const WHERE_PLANNING: Where = { stage: 'planning' };
export const WHERE_DONE: Where = { stage: 'done' };

export function roundWhere(round: number, step: RoundStep): Where {
  return { stage: 'round', round, step };
}

export function filterWhere(round: number, position: number, count: number): Where {
  return { stage: 'filter', round, position, count };
}

/** The wire string of a `where`; the only formatter of it. */
export function formatWhere(where: Where): string {
  switch (where.stage) {
    case 'queued': case 'planning': case 'done':
      return where.stage;
    case 'round':
      return `round ${where.round} · ${where.step}`;
    case 'filter':
      return `round ${where.round} · filter ${where.position} of ${where.count}`;
  }
}

const ROUND_STEP = new RegExp(`^round ([1-9]\\d*) · (${RoundStep.options.join('|')})$`);
const ROUND_FILTER = /^round ([1-9]\d*) · filter ([1-9]\d*) of ([1-9]\d*)$/;

/**
 * The structure of a wire `where` string (a stored run record, an event read back); null for a string
 * `formatWhere` does not make. `parseWhere(formatWhere(w))` equals `w`.
 */
export function parseWhere(text: string): Where | null {
  if (text === 'queued' || text === 'planning' || text === 'done') return { stage: text };
  const step = ROUND_STEP.exec(text);
  if (step) return roundWhere(Number(step[1]), step[2] as RoundStep);
  const filter = ROUND_FILTER.exec(text);
  if (filter) return filterWhere(Number(filter[1]), Number(filter[2]), Number(filter[3]));
  return null;
}

/** A short human sentence for the `status` event that accompanies each new `where`. */
export function describeWhere(where: Where): string {
  switch (where.stage) {
    case 'planning':
      return 'Planning the research';
    case 'round':
      return `Round ${where.round}: ${where.step}`;
    case 'filter':
      return `Round ${where.round}: checking candidates against filter ${where.position} of ${where.count}`;
    case 'queued': case 'done':
      return formatWhere(where);
  }
}

/** `cost.stage` of each terminal state's event tail (operator contract "Events"). */
export const TAIL_STAGES = {
  done: 'Done',
  stopped: 'Stopped',
  budget_exhausted: 'Budget exhausted',
  error: 'Error',
  interrupted: 'Interrupted',
} as const satisfies Record<TerminalStatus, string>;
export type TailStage = (typeof TAIL_STAGES)[TerminalStatus];

const TAIL_STAGE_SET: ReadonlySet<string> = new Set(Object.values(TAIL_STAGES));

/** True for a `cost` event of a run's terminal tail (the charge), false for a mid-run figure and other events. */
export function isTailCost(event: { type: string; stage?: unknown }): event is CostEvent & { stage: TailStage } {
  return event.type === 'cost' && typeof event.stage === 'string' && TAIL_STAGE_SET.has(event.stage);
}
