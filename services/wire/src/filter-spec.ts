import { z } from 'zod';
import { EntityType } from './rows.js';
import { DateRange } from './research.js';

/**
 * The structured criterion a reasoner keeps in `FunnelFilter.spec`. The coordinator carries it as an
 * opaque JSON object (over gRPC a `google.protobuf.Struct`); every reasoner reads it through
 * `readFilterSpec`, so a spec that lost its shape on the way is a typed answer, never a crash. Kinds:
 * - `type`: every term group (sector, specialty, the kind's noun) occurs.
 * - `location`: one of the place names (or places inside it) occurs, or one of its `alternatives`; `outside` inverts it; `relation`
 *   'birth' asks where a person was born instead of where the entity is based (the default); 'held' is where an
 *   event takes place, checked as 'based' is.
 * - `event`: every term group occurs in one sentence, and when a date range is attached, a date in that
 *   sentence (or the page's date when the sentence states none) lies in the range.
 * - `period`: a date stated about the candidate (or the page date for dated kinds) lies in the range.
 * - `terms`: every group occurs (any other clause of the query).
 * - `exclude`: what the query rules out ("excluding fintech"): its sector facts name none of `terms`' groups.
 * - `form`: the organisation form (nonprofit, public, acquired, shut down, active), or any of `alternatives` besides it
 *   ("exited": acquired or public); `negated` asks that it is not so ("for-profit", "not acquired").
 * - `size`: a headcount within [min, max].
 * - `hiring`: a hiring fact or sentence (`negated`: "not hiring"). `remote`: remote work (`fully`: remote-only).
 * - `cohort`: a batch/programme fact or sentence naming the programme (and the batch, when given).
 * - `llm`: a criterion the LLM reasoner planned; only its date range is rule-checkable.
 * `steps` counts how often Relax loosened the filter.
 */
const Steps = z.number().int().min(0);
const TermGroups = z.array(z.array(z.string()));

export const PlaceLevel = z.enum(['city', 'state', 'country', 'region']);
export type PlaceLevel = z.infer<typeof PlaceLevel>;

/** A gazetteer place: ISO 3166-1 alpha-2 `country`, the state's code within it, countries-list continent code. */
export const PlaceSpec = z.object({
  name: z.string(),
  level: PlaceLevel,
  country: z.string().optional(),
  state: z.string().optional(),
  continent: z.string().optional(),
});
export type PlaceSpec = z.infer<typeof PlaceSpec>;

export const OrgFormSpec = z.enum(['nonprofit', 'public', 'acquired', 'inactive', 'active']);
export type OrgFormSpec = z.infer<typeof OrgFormSpec>;

export const TypeSpec = z.object({ kind: z.literal('type'), entityType: EntityType, groups: TermGroups, steps: Steps });
export const LocationSpec = z.object({
  kind: z.literal('location'), place: PlaceSpec, names: z.array(z.string()), steps: Steps, outside: z.boolean().optional(),
  relation: z.enum(['based', 'birth', 'held']).optional(),
  /** Other places any of which will do ("in Los Angeles or Chicago"), each checked as `place` is. */
  alternatives: z.array(PlaceSpec).optional(),
});
export const EventSpec = z.object({
  kind: z.literal('event'), groups: TermGroups, dateRange: DateRange.nullable(), steps: Steps, asOf: z.string().optional(),
});
export const PeriodSpec = z.object({ kind: z.literal('period'), dateRange: DateRange, steps: Steps, asOf: z.string().optional() });
export const TermsSpec = z.object({ kind: z.literal('terms'), groups: TermGroups, steps: Steps });
/** Kept apart from `groups` so no search, screen or relevance score looks for the words it rules out. */
export const ExcludeSpec = z.object({ kind: z.literal('exclude'), terms: TermGroups, steps: Steps });
export const FormSpec = z.object({
  kind: z.literal('form'), form: OrgFormSpec, steps: Steps, negated: z.boolean().optional(), alternatives: z.array(OrgFormSpec).optional(),
});
export const SizeSpec = z.object({ kind: z.literal('size'), min: z.number().nullable(), max: z.number().nullable(), steps: Steps });
export const HiringSpec = z.object({ kind: z.literal('hiring'), steps: Steps, negated: z.boolean().optional() });
export const RemoteSpec = z.object({ kind: z.literal('remote'), fully: z.boolean(), steps: Steps });
export const CohortSpec = z.object({
  kind: z.literal('cohort'), programme: z.string(), season: z.string().nullable(), year: z.number().int().nullable(), steps: Steps,
});
export const LlmSpec = z.object({
  kind: z.literal('llm'),
  /** The kind the model gave the filter (type, location, event, other) or `period` for the added date filter. */
  filterKind: z.string(),
  dateRange: DateRange.nullable().optional(),
  asOf: z.string().optional(),
});

export const FilterSpec = z.discriminatedUnion('kind', [
  TypeSpec, LocationSpec, EventSpec, PeriodSpec, TermsSpec, ExcludeSpec, FormSpec, SizeSpec, HiringSpec, RemoteSpec, CohortSpec, LlmSpec,
]);
export type FilterSpec = z.infer<typeof FilterSpec>;
export type FilterSpecKind = FilterSpec['kind'];
/** The spec of one kind, e.g. `SpecOf<'location'>`. */
export type SpecOf<K extends FilterSpecKind> = Extract<FilterSpec, { kind: K }>;

/** What `readFilterSpec` answers: the spec, or why the object is not one (a path and a short message). */
export type FilterSpecReading =
  | { ok: true; spec: FilterSpec }
  | { ok: false; problem: string };

/** Reads a `FunnelFilter.spec` as it arrived (in-process or decoded from a gRPC Struct). */
export function readFilterSpec(spec: unknown): FilterSpecReading {
  const parsed = FilterSpec.safeParse(spec);
  if (parsed.success) return { ok: true, spec: parsed.data };
  const issue = parsed.error.issues[0];
  const path = issue && issue.path.length > 0 ? `spec.${issue.path.map(String).join('.')}` : 'spec';
  return { ok: false, problem: `${path}: ${issue?.message ?? 'not a filter spec'}` };
}

/** The JSON object form `FunnelFilter.spec` carries. */
export function filterSpecRecord(spec: FilterSpec): Record<string, unknown> {
  return spec;
}
