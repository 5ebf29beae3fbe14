/**
 * The `where` vocabulary: how far a run got. Written to the run record at every step and used as the
 * `stage` of mid-run `cost` events and as `final.stopped_at`.
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
export const WHERE_QUEUED = 'queued';
export const WHERE_PLANNING = 'planning';
export const WHERE_DONE = 'done';

export type RoundStep = 'searching' | 'screening' | 'opening pages' | 'extracting';

export function roundWhere(round: number, step: RoundStep): string {
  return `round ${round} · ${step}`;
}

export function filterWhere(round: number, filterPosition: number, filterCount: number): string {
  return `round ${round} · filter ${filterPosition} of ${filterCount}`;
}

/** A short human sentence for the `status` event that accompanies each new `where`. */
export function describeWhere(where: string): string {
  if (where === WHERE_PLANNING) return 'Planning the research';
  const m = /^round (\d+) · (.+)$/.exec(where);
  if (!m) return where;
  const step = m[2]!;
  if (step.startsWith('filter ')) return `Round ${m[1]}: checking candidates against ${step}`;
  return `Round ${m[1]}: ${step}`;
}

/** Cost-event stages of the terminal tails (operator contract "Events"). */
export const TAIL_STAGE = {
  done: 'Done',
  stopped: 'Stopped',
  budget_exhausted: 'Budget exhausted',
  error: 'Error',
  interrupted: 'Interrupted',
} as const;
