import type { Candidate, FilterVerdictEntry, ResultRow, Verdict } from '@leadfinder/wire';

/** One filter's verdict on a candidate, in the `by_filter` shape. */
export function verdictEntry(
  filter: { index: number; title: string },
  verdict: Verdict,
  relaxed: boolean,
): FilterVerdictEntry {
  return {
    index: filter.index,
    title: filter.title,
    rationale: verdict.rationale,
    rationale_mode: verdict.rationaleMode,
    verification: verdict.verification,
    relaxed,
    passages: verdict.passages.map((p) => ({ text: p.text, url: p.url })),
  };
}

/**
 * A result row from a candidate that passed every filter. `rationale` is the latest filter's; `relaxed`
 * lists the titles of filters that had to be loosened for it and is left out when there are none.
 */
export function buildRow(candidate: Candidate, byFilter: readonly FilterVerdictEntry[], round: number): ResultRow {
  const relaxed = byFilter.filter((v) => v.relaxed).map((v) => v.title);
  const row: ResultRow = {
    name: candidate.name,
    entity_type: candidate.entityType,
    details: candidate.details,
    intent_signal: candidate.intentSignal,
    discovery_rationale: candidate.discoveryRationale,
    rationale: byFilter.at(-1)?.rationale ?? candidate.discoveryRationale,
    source_urls: [...candidate.sourceUrls],
    supporting_passages: candidate.passages.map((p) => ({ ...p })),
    by_filter: byFilter.map((v) => ({ ...v, passages: v.passages.map((p) => ({ ...p })) })),
    status: 'passed',
    round,
  };
  if (relaxed.length > 0) row.relaxed = relaxed;
  // The entity's own domain is its identity for a later run's `exclude.runs`.
  if (candidate.domain) row.domain = candidate.domain.toLowerCase();
  return row;
}

/** A run returns at most `target` rows; `met` is true exactly when it returns `target` rows. */
export function truncateRows<T>(rows: readonly T[], target: number): T[] {
  return rows.slice(0, Math.max(0, target));
}
