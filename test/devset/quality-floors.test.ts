/**
 * Floors on a fast subset of the development set, run through the real service exactly as `npm run quality`
 * does (spawned `leadfinder serve`, SearXNG path, loopback fake web of real records, rule-based reasoner).
 * The floors are what the engine achieved when they were set (README "Quality"); raise them as it improves,
 * never lower them to make a change pass.
 */
import { describe, expect, it } from 'vitest';
import { runSplit, type QueryResult, type SplitSummary } from './harness.js';
import type { Split } from './pages.js';
import { allQueries } from './queries.js';

/**
 * A fixed subset per split, not the easy ones: topic + place, topic + hiring, topic only, place only, a
 * researcher query (institution) and a paper query (topic) on dev; form + topic, country, topic, topic, a
 * researcher query (gender) and a paper query (topic) on test.
 */
const SUBSET: Record<Split, string[]> = {
  dev: ['c01', 'c07', 'c17', 'c21', 'r05', 'p01'],
  test: ['c02', 'c06', 'c26', 'c34', 'r02', 'p06'],
};

interface Floors {
  precision: number;
  recall: number;
  f1: number;
  groundedShare: number;
  /** Ceiling on USD per correct row. */
  costPerCorrectRow: number;
}

/**
 * Set a little below what the engine achieved on 2026-11-26 at 02:53 UTC (README "Quality"): subset means
 * dev P 1.000 R 0.983 F1 0.992, $0.015 per correct row; test P 0.817 R 0.682 F1 0.743, $0.020 per correct
 * row. One query of six moving by half moves a mean by about 0.08.
 */
const FLOORS: Record<Split, Floors> = {
  // Raised 03:28 UTC (issue 14 engine, subset P 1.000 R 0.967 F1 0.983, $0.016 per correct row) less a margin.
  dev: { precision: 0.95, recall: 0.92, f1: 0.93, groundedShare: 1, costPerCorrectRow: 0.022 },
  // Raised 06:30 UTC (structure and label generalisation, subset P 0.983 R 0.825 F1 0.897, $0.015 per correct row) less a margin;
  // raised again 09:55 UTC (e258d5f: own domains are sites of their own, typed constraints; subset P 0.983 R 0.848 F1 0.911,
  // $0.015 per correct row) less the same margin.
  test: { precision: 0.9, recall: 0.76, f1: 0.82, groundedShare: 1, costPerCorrectRow: 0.025 },
};
/**
 * Seconds one query may take. The goal is 10 s on a quiet machine (`npm run quality` reports it);
 * here it only guards against runs that hang, since CI shares two cores with other suites.
 */
const MAX_SECONDS = 30;

function line(r: QueryResult): string {
  return `${r.id} ${r.status} rows ${r.rows.length} P ${r.score.precision.toFixed(2)} R ${r.score.recall.toFixed(2)} ${r.seconds.toFixed(1)} s "${r.q}"`;
}

describe.each(['dev', 'test'] as const)('development set, %s split, fast subset (real service, rule reasoner)', (split) => {
  it('holds the precision, recall, F1, grounding and cost floors', async () => {
    const queries = allQueries().filter((q) => SUBSET[split].includes(q.id));
    expect(queries).toHaveLength(SUBSET[split].length);
    const { results, summary } = await runSplit({ split, queries, timeoutMs: 30_000 });
    const s: SplitSummary = summary;
    console.log(`${split} subset:\n${results.map(line).join('\n')}\n` +
      `P ${s.meanPrecision.toFixed(3)} R ${s.meanRecall.toFixed(3)} F1 ${s.f1.toFixed(3)} grounded ${s.groundedShare.toFixed(3)} ` +
      `cost/correct ${s.costPerCorrectRow?.toFixed(4) ?? 'n/a'} max ${s.maxSeconds.toFixed(1)} s`);

    expect(results.filter((r) => r.status !== 'done').map((r) => `${r.id}: ${r.status} ${r.error ?? ''}`)).toEqual([]);
    expect(results.flatMap((r) => r.groundingProblems)).toEqual([]);
    expect(s.groundedShare).toBeGreaterThanOrEqual(FLOORS[split].groundedShare);
    expect(s.meanPrecision).toBeGreaterThanOrEqual(FLOORS[split].precision);
    expect(s.meanRecall).toBeGreaterThanOrEqual(FLOORS[split].recall);
    expect(s.f1).toBeGreaterThanOrEqual(FLOORS[split].f1);
    expect(s.costPerCorrectRow).not.toBeNull();
    expect(s.costPerCorrectRow!).toBeLessThanOrEqual(FLOORS[split].costPerCorrectRow);
    expect(s.maxSeconds).toBeLessThanOrEqual(MAX_SECONDS);
  }, 120_000);
});
