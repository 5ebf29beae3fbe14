import type { DateRange, EntityType, FunnelFilter } from '@leadfinder/wire';
import type { OrgForm } from './constraints.js';
import type { Place } from './places.js';

/**
 * The structured criterion carried in `FunnelFilter.spec`. Opaque to the coordinator; only the filter
 * role reads it. Each kind is checked against passages about the candidate:
 * - `type`: every term group (sector, specialty, the kind's noun) occurs.
 * - `location`: one of the place names (or places inside it) occurs.
 * - `event`: every term group occurs in one sentence, and when a date range is attached, a date in that
 *   sentence — or the page's date when the sentence states none — lies in the range.
 * - `period`: a date stated about the candidate (or the page date for dated kinds) lies in the range.
 * - `terms`: every group occurs (any other clause of the query).
 * - `form`: the organisation form (nonprofit, public, acquired, shut down, active), from a status fact or a sentence.
 * - `size`: a headcount (a "Team size" fact or "N employees") within [min, max].
 * - `hiring`: a hiring fact or sentence.
 * - `cohort`: a batch/programme fact or sentence naming the programme (and the batch, when given).
 */
export type FilterSpec =
  | { kind: 'type'; entityType: EntityType; groups: string[][]; steps: number }
  | { kind: 'location'; place: Place; names: string[]; steps: number; outside?: boolean }
  | { kind: 'event'; groups: string[][]; dateRange: DateRange | null; steps: number; asOf?: string }
  | { kind: 'period'; dateRange: DateRange; steps: number; asOf?: string }
  | { kind: 'terms'; groups: string[][]; steps: number }
  | { kind: 'form'; form: OrgForm; steps: number }
  | { kind: 'size'; min: number | null; max: number | null; steps: number }
  | { kind: 'hiring'; steps: number }
  | { kind: 'remote'; fully: boolean; steps: number }
  | { kind: 'cohort'; programme: string; season: string | null; year: number | null; steps: number };

export function specOf(filter: FunnelFilter): FilterSpec | null {
  const spec = filter.spec as Partial<FilterSpec>;
  switch (spec.kind) {
    case 'type': case 'location': case 'event': case 'period': case 'terms': case 'form': case 'size': case 'hiring': case 'cohort': case 'remote':
      return spec as FilterSpec;
    default:
      return null;
  }
}

/** Kinds whose page date is the date of the thing itself (a news article, a paper, a book, a video). */
export const PAGE_DATED_KINDS: ReadonlySet<EntityType> = new Set(['news', 'paper', 'book', 'music_video']);
