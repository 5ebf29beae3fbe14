import type { ScreenScore, SearchHit, Speed } from '@leadfinder/wire';

/** Hits of one round, first occurrence of each URL kept (several queries often find the same page). */
export function uniqueHits(hits: readonly SearchHit[]): SearchHit[] {
  const seen = new Set<string>();
  const out: SearchHit[] = [];
  for (const hit of hits) {
    if (seen.has(hit.url)) continue;
    seen.add(hit.url);
    out.push(hit);
  }
  return out;
}

/**
 * Which pages to open after the excerpt screen. `advanced` opens every hit that passed; `fast` opens
 * only the highest-scoring half (rounded up) of them. URLs already opened in this run are skipped
 * afterwards, so `fast` never widens its half to make up for repeats. Order: score high to low, then
 * the search order.
 */
export function selectPagesToOpen(
  hits: readonly SearchHit[],
  scores: readonly ScreenScore[],
  speed: Speed,
  alreadyOpened: ReadonlySet<string>,
): string[] {
  const byUrl = new Map(scores.map((s) => [s.url, s] as const));
  const passed = hits
    .map((hit, order) => ({ url: hit.url, order, score: byUrl.get(hit.url) }))
    .filter((h): h is { url: string; order: number; score: ScreenScore } => h.score?.pass === true)
    .sort((a, b) => b.score.score - a.score.score || a.order - b.order);
  const chosen = speed === 'fast' ? passed.slice(0, Math.ceil(passed.length / 2)) : passed;
  return chosen.map((h) => h.url).filter((url) => !alreadyOpened.has(url));
}
