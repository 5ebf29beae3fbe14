import type { FunnelFilter } from '@leadfinder/wire';
import { widenRange } from '../../domain/dates.js';
import { placeNames, theFor, widerPlace } from '../../domain/places.js';
import { specOf, specRecord, type FilterSpec } from '../../domain/spec.js';
import { broaderGroup } from '../../domain/synonyms.js';

/**
 * Loosens one filter by one small step, or returns null when it cannot be loosened further.
 *
 * When the coordinator relaxes (its rule, not ours): after a filter has run on a batch, if fewer than
 * max(1, ceil(10% of the candidates it received)) passed and fewer rows than `target` have passed the
 * whole funnel so far, that filter "keeps almost nobody"; with `relax` on, the coordinator asks for a
 * loosened filter once per filter per run, re-checks the candidates that filter rejected, and marks
 * the rows that needed it (`relaxed`).
 *
 * Steps: a city widens to its metropolitan area, an area or a state to its country (never to a continent); an event first gets its date range widened
 * by 50 % (not a window set by calendar years, which is the question itself), then a funding stage ("Series A", "seed") becomes any funding round, then a sector term
 * gains broader synonyms; a period widens by 50 %; a type filter broadens its sector terms.
 */
export function relaxFilter(filter: FunnelFilter, now: Date): FunnelFilter | null {
  const spec = specOf(filter);
  if (!spec) return null;
  const next = loosen(spec, now);
  if (!next) return null;
  return {
    ...filter,
    title: next.title ?? filter.title,
    criterion: `${filter.criterion} Loosened: ${next.note}.`,
    spec: specRecord(next.spec),
    relaxed: true,
  };
}

interface Step {
  spec: FilterSpec;
  note: string;
  title?: string;
}

const STAGE = /^(series [a-z]|seed|pre-seed|seed round|series)$/i;

/** The window names calendar years ("after 2015", "between 2010 and 2014", "the 1980s"), not a span back from now. */
function calendarWindow(range: { phrase?: string | null }): boolean {
  return /\b(?:1[5-9]|20)\d{2}s?\b/.test(range.phrase ?? '');
}

function broadenGroups(groups: string[][]): { groups: string[][]; note: string } | null {
  for (let i = 0; i < groups.length; i++) {
    const broader = broaderGroup(groups[i]!);
    if (broader) {
      const next = groups.map((g, j) => (j === i ? broader : g));
      return { groups: next, note: `“${groups[i]![0]}” also accepts ${broader.slice(groups[i]!.length).map((b) => `“${b}”`).join(', ')}` };
    }
  }
  return null;
}

function loosen(spec: FilterSpec, now: Date): Step | null {
  switch (spec.kind) {
    case 'location': {
      // "Outside the United States" has no looser version: widening its place would make it narrower, and
      // dropping "outside" would turn it into its opposite.
      if (spec.outside) return null;
      // "In Los Angeles or Chicago" names its places; a place wide enough for all of them is another question.
      if (spec.alternatives && spec.alternatives.length > 0) return null;
      const wider = widerPlace(spec.place);
      // A continent is no slight loosening of a country or a group of countries: "chemists who worked in the UK"
      // or "laureates in the Nordics" do not take France or Germany. A city or a state still widens to its country.
      if (!wider || (wider.level === 'region' && !wider.country)) return null;
      // A person is born somewhere, a conference held there, anything else based there.
      const verb = spec.relation === 'birth' ? 'Born' : spec.relation === 'held' ? 'Held' : 'Based';
      return {
        spec: { kind: 'location', place: wider, names: placeNames(wider), steps: spec.steps + 1, ...(spec.relation ? { relation: spec.relation } : {}) },
        note: `${spec.place.name} widened to ${wider.name}`,
        title: `${verb} in ${theFor(wider)}${wider.name}`,
      };
    }
    case 'event': {
      // A window the user set by the calendar ("after 2015", "in 2021", "the 1980s") is the question itself;
      // only a window relative to now ("in the last 6 months") is a guess worth widening.
      if (spec.dateRange && spec.steps === 0 && !calendarWindow(spec.dateRange)) {
        const widened = widenRange(spec.dateRange, now, 0.5);
        return { spec: { ...spec, dateRange: widened, steps: 1 }, note: `date range widened by 50% to start ${widened.from}` };
      }
      const stageAt = spec.groups.findIndex((g) => g.some((t) => STAGE.test(t)));
      if (stageAt >= 0) {
        const groups = spec.groups.filter((_g, i) => i !== stageAt);
        const round = ['round', 'funding', 'financing', 'investment'];
        const withRound = groups.some((g) => g.includes('round')) ? groups : [...groups, round];
        return { spec: { ...spec, groups: withRound, steps: spec.steps + 1 }, note: `any funding round instead of “${spec.groups[stageAt]![0]}”` };
      }
      const broader = broadenGroups(spec.groups);
      return broader ? { spec: { ...spec, groups: broader.groups, steps: spec.steps + 1 }, note: broader.note } : null;
    }
    case 'period': {
      if (spec.steps >= 2 || calendarWindow(spec.dateRange)) return null;
      const widened = widenRange(spec.dateRange, now, 0.5);
      return { spec: { ...spec, dateRange: widened, steps: spec.steps + 1 }, note: `date range widened by 50% to start ${widened.from}` };
    }
    case 'type':
    case 'terms': {
      const broader = broadenGroups(spec.groups);
      return broader ? { spec: { ...spec, groups: broader.groups, steps: spec.steps + 1 }, note: broader.note } : null;
    }
    case 'form':
    case 'size':
    case 'hiring':
    case 'cohort':
    case 'remote':
    case 'exclude':
      // A form, a headcount bound, hiring, a batch or remote work has no looser version that still answers the query;
      // nor has an exclusion (a broader one would rule out more, not less).
      return null;
  }
}
