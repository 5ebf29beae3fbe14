import {
  TAIL_STAGES, describeWhere as describeWhereOf, filterWhere as filterWhereOf, formatWhere, parseWhere,
  roundWhere as roundWhereOf, WHERE_DONE as DONE, WHERE_PLANNING as PLANNING, WHERE_QUEUED as QUEUED,
  type RoundStep,
} from '@leadfinder/wire';

/**
 * The `where` vocabulary as wire strings, for callers that still pass strings. The structure, its one
 * formatter and the stage table live in `@leadfinder/wire` (`progress.ts`); these names only adapt.
 */
export type { RoundStep };
export const WHERE_QUEUED = formatWhere(QUEUED);
export const WHERE_PLANNING = formatWhere(PLANNING);
export const WHERE_DONE = formatWhere(DONE);

export function roundWhere(round: number, step: RoundStep): string {
  return formatWhere(roundWhereOf(round, step));
}

export function filterWhere(round: number, filterPosition: number, filterCount: number): string {
  return formatWhere(filterWhereOf(round, filterPosition, filterCount));
}

/** A short human sentence for the `status` event that accompanies each new `where`. */
export function describeWhere(where: string): string {
  const structured = parseWhere(where);
  return structured ? describeWhereOf(structured) : where;
}

/** Cost-event stages of the terminal tails (operator contract "Events"). */
export const TAIL_STAGE = TAIL_STAGES;
