import { z } from 'zod';
import { DateRange } from './research.js';
import { EntityType, FilterDescriptor, QuotedPassage, ResultRow } from './rows.js';

/**
 * Run events (spec §6). The kind is the `type` field; every event also carries `at` (ISO time it was
 * written) and `runId`. The SSE `id` is the event-log sequence, so it is not part of the payload.
 */
const base = { at: z.string(), runId: z.string() };

export const PlanEvent = z.object({
  ...base,
  type: z.literal('plan'),
  entity_type: EntityType,
  filters: z.array(FilterDescriptor),
  queries: z.array(z.string()),
  date_range: DateRange.nullable(),
  sites: z.array(z.string()),
  page_types: z.array(z.string()),
  target: z.number().int(),
  speed: z.enum(['fast', 'advanced']),
  relax: z.boolean(),
});
export const StatusEvent = z.object({
  ...base,
  type: z.literal('status'),
  /** The run's `where` as `formatWhere` spells it (`progress.ts`). */
  where: z.string(),
  message: z.string(),
});
export const ProgressEvent = z.object({
  ...base,
  type: z.literal('progress'),
  have: z.number().int(),
  target: z.number().int(),
  round: z.number().int(),
  leads: z.array(ResultRow),
});
export const FunnelOpenEvent = z.object({
  ...base,
  type: z.literal('funnel_open'),
  round: z.number().int(),
  candidates: z.number().int(),
  filters: z.array(FilterDescriptor),
});
export const FunnelFilterStartEvent = z.object({
  ...base,
  type: z.literal('funnel_filter_start'),
  round: z.number().int(),
  index: z.number().int(),
  title: z.string(),
  candidates: z.number().int(),
});
export const FunnelFilterDoneEvent = z.object({
  ...base,
  type: z.literal('funnel_filter_done'),
  round: z.number().int(),
  index: z.number().int(),
  title: z.string(),
  passed: z.number().int(),
  dropped: z.number().int(),
  /**
   * This filter's counts over the whole run so far (every round), each candidate once by its latest verdict
   * there: candidates in, passed, dropped, and how many of the dropped were `unclear` (neither shown nor
   * ruled out), so a client draws the funnel from the latest event of each filter. Absent from events
   * written before it existed.
   */
  run_counts: z.object({
    in: z.number().int(),
    passed: z.number().int(),
    dropped: z.number().int(),
    unclear: z.number().int(),
  }).optional().describe("This filter's totals over the run so far (every round), each candidate once by its latest verdict there: in, passed, dropped, and the dropped ones left unclear."),
});
export const FilterRelaxedEvent = z.object({
  ...base,
  type: z.literal('filter_relaxed'),
  round: z.number().int(),
  index: z.number().int(),
  title: z.string(),
  original_criterion: z.string(),
  criterion: z.string(),
  rechecked: z.number().int(),
  recovered: z.number().int(),
});
/** Why an `expected` entry is not in `table`. */
export const ExpectedMiss = z.object({
  expected: z.string(),
  /**
   * `never_found`: no page the run read named it; `dropped`: found, and filter `filter` dropped it (its
   * rationale and passages); `excluded`: found, and `exclude` named it; `not_judged`: found, but the run
   * ended (target met, stopped) before the funnel passed it into the table.
   */
  reason: z.enum(['never_found', 'dropped', 'excluded', 'not_judged']),
  /** The candidate it was found as (absent for never_found). */
  name: z.string().optional(),
  filter: FilterDescriptor.pick({ index: true, title: true }).optional(),
  rationale: z.string().optional(),
  passages: z.array(QuotedPassage).optional(),
});
export type ExpectedMiss = z.infer<typeof ExpectedMiss>;

/**
 * With `near_misses`: a candidate the funnel rejected, with the filter whose verdict dropped it (its last
 * judgement: a candidate judged again after its own page was opened is reported as that judgement left it).
 */
export const NearMiss = z.object({
  name: z.string(),
  entity_type: EntityType,
  /** The entity's own domain, when a page named it. */
  domain: z.string().optional(),
  source_urls: z.array(z.string()),
  filter: FilterDescriptor.pick({ index: true, title: true }),
  /** `no`: the pages rule it out; `unclear`: they neither show nor rule it out. */
  outcome: z.enum(['no', 'unclear']),
  rationale: z.string(),
  passages: z.array(QuotedPassage),
  /**
   * Whether the run's loosened form of that filter lets it through. `false`: the filter was loosened
   * (relax) when this candidate was judged, and the loosened criterion also drops it. `null`: unknown, the
   * filter was not loosened when it was judged (never, or only later in the run), so no loosened verdict
   * exists. Never `true`: a candidate the loosened filter passes goes on through the funnel (its row says
   * `relaxed`).
   */
  recovered_if_loosened: z.boolean().nullable()
    .describe('false: the run had loosened that filter (relax) when it judged this candidate, and the loosened filter dropped it too; null: unknown (the filter was not loosened then). A candidate the loosened filter passes is a row, so this is never true.'),
});
export type NearMiss = z.infer<typeof NearMiss>;

/** With `keep_unclear`: a candidate left out of `table` because a filter's verdict on it was `unclear`. */
export const UnclearCandidate = z.object({
  name: z.string(),
  entity_type: EntityType,
  domain: z.string().optional(),
  source_urls: z.array(z.string()),
  filter: FilterDescriptor.pick({ index: true, title: true }),
  rationale: z.string(),
  passages: z.array(QuotedPassage),
});
export type UnclearCandidate = z.infer<typeof UnclearCandidate>;

export const FinalEvent = z.object({
  ...base,
  type: z.literal('final'),
  table: z.array(ResultRow),
  target: z.number().int(),
  met: z.boolean(),
  filters: z.array(FilterDescriptor),
  stopped: z.boolean(),
  /** Names the stage the run ended early in; null when it was not stopped. */
  stopped_at: z.string().nullable(),
  /** With `exclude`: how many distinct candidates it dropped before the funnel. */
  excluded: z.number().int().optional(),
  /** With `expected`: the entries found in `table`, as given. */
  expected_found: z.array(z.string()).optional(),
  /** With `expected`: the entries not in `table`, each with why. */
  expected_missed: z.array(ExpectedMiss).optional(),
  /** With `near_misses`: up to `target` rejected candidates, those that passed the most filters first. */
  near_misses: z.array(NearMiss).optional()
    .describe('With `near_misses: true`: up to `target` rejected candidates, those dropped by a later filter first, each with the filter that dropped it, that verdict (`outcome`, `rationale`, `passages`) and `recovered_if_loosened`.'),
  /** With `keep_unclear`: every candidate left out because a filter's verdict was `unclear` (never in `table`). */
  unclear: z.array(UnclearCandidate).optional()
    .describe('With `keep_unclear: true`: the candidates left out because a filter\'s verdict on them was unclear, with that verdict\'s rationale and passages. Never in `table`.'),
  /** Why the run stopped when no stop request did it: `max_usd_per_row` (the request's marginal-cost stop). */
  stop_reason: z.enum(['max_usd_per_row']).optional()
    .describe('Present when the run stopped for the request\'s `max_usd_per_row` (the marginal cost of its last 3 rows passed it), not for a stop request.'),
});
export const CostEvent = z.object({
  ...base,
  type: z.literal('cost'),
  stage: z.string(),
  /** Running total in USD (not a delta), up to 6 decimals. */
  usd: z.number(),
  /** `usd` ÷ rows so far (6 decimals); null while the run has no row. */
  per_row_usd: z.number().nullable().optional()
    .describe('`usd` divided by the rows accepted so far, 6 decimals; null while the run has no row.'),
  /** Estimated spend at `target`: `usd` × target ÷ rows while short of it, `usd` once met; null with no row. */
  projected_usd: z.number().nullable().optional()
    .describe('Estimated spend at `target` from the run\'s own yield: `usd` × target ÷ rows while short of target, `usd` once met; null while the run has no row. An estimate, not a quote.'),
});
export const UsageEvent = z.object({
  ...base,
  type: z.literal('usage'),
  search_calls: z.number().int(),
  pages_opened: z.number().int(),
  llm_calls: z.number().int(),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  spend_microusd: z.number().int(),
});
export const ErrorEvent = z.object({ ...base, type: z.literal('error'), message: z.string() });
export const DoneEvent = z.object({ ...base, type: z.literal('done'), stopped: z.literal(true).optional() });

export const RunEvent = z.discriminatedUnion('type', [
  PlanEvent, StatusEvent, ProgressEvent, FunnelOpenEvent, FunnelFilterStartEvent, FunnelFilterDoneEvent,
  FilterRelaxedEvent, FinalEvent, CostEvent, UsageEvent, ErrorEvent, DoneEvent,
]);
export type RunEvent = z.infer<typeof RunEvent>;
export type RunEventType = RunEvent['type'];
export type FinalEvent = z.infer<typeof FinalEvent>;
export type CostEvent = z.infer<typeof CostEvent>;
export type PlanEvent = z.infer<typeof PlanEvent>;
export type ProgressEvent = z.infer<typeof ProgressEvent>;

/** An event body before the log stamps it (the coordinator fills `at` and `runId`). */
export type RunEventBody = RunEvent extends infer E ? (E extends RunEvent ? Omit<E, 'at' | 'runId'> : never) : never;

/** An event as stored in and read from the event log. */
export interface SequencedEvent {
  seq: number;
  event: RunEvent;
}
