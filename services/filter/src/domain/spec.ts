import { readFilterSpec, type EntityType, type FilterSpec as WireFilterSpec, type FunnelFilter } from '@leadfinder/wire';

/**
 * The structured criterion carried in `FunnelFilter.spec` that the rules can check: the wire
 * `FilterSpec` union (`@leadfinder/wire`, where each kind is described) without the LLM reasoner's
 * own `llm` kind. Opaque to the coordinator; only the filter role reads it, through `specOf`.
 */
export type FilterSpec = Exclude<WireFilterSpec, { kind: 'llm' }>;

/** Plans reach every reasoner call again (screen, extract, verify per candidate): read each spec object once. */
const readings = new WeakMap<object, FilterSpec | null>();

/**
 * The rule-checkable spec of `filter`, or null when it has none: an LLM-planned filter, or an object
 * that is no spec (it lost its shape on the way); the callers then treat the filter as unclear.
 */
export function specOf(filter: FunnelFilter): FilterSpec | null {
  const cached = readings.get(filter.spec);
  if (cached !== undefined) return cached;
  const reading = readFilterSpec(filter.spec);
  const spec = reading.ok && reading.spec.kind !== 'llm' ? reading.spec : null;
  readings.set(filter.spec, spec);
  return spec;
}

/** The JSON object `FunnelFilter.spec` carries for `spec`. */
export function specRecord(spec: FilterSpec): FunnelFilter['spec'] {
  return spec;
}

/** Kinds whose page date is the date of the thing itself (a news article, a paper, a book, a video). */
export const PAGE_DATED_KINDS: ReadonlySet<EntityType> = new Set(['news', 'paper', 'book', 'music_video']);
