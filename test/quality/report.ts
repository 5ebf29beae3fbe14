import type { ResolvedCase } from './cases.js';
import type { QueryOutcome } from './run-queries.js';
import { scoreRows, type Score } from './score.js';

/** One scored query of the quality set. */
export interface CaseResult {
  c: ResolvedCase;
  outcome: QueryOutcome;
  score: Score;
}

export interface QualitySummary {
  results: CaseResult[];
  meanPrecision: number;
  meanRecall: number;
  chargedUsd: number;
  rows: number;
  correctRows: number;
}

/** Scores each outcome against its case (same order). */
export function scoreQualitySet(cases: readonly ResolvedCase[], outcomes: readonly QueryOutcome[]): QualitySummary {
  const results = cases.map((c, i) => {
    const outcome = outcomes[i]!;
    return { c, outcome, score: scoreRows(c.expected, outcome.rows) };
  });
  const n = results.length;
  return {
    results,
    meanPrecision: results.reduce((s, r) => s + r.score.precision, 0) / n,
    meanRecall: results.reduce((s, r) => s + r.score.recall, 0) / n,
    chargedUsd: results.reduce((s, r) => s + r.outcome.chargedUsd, 0),
    rows: results.reduce((s, r) => s + r.outcome.rows.length, 0),
    correctRows: results.reduce((s, r) => s + r.score.truePositives.length, 0),
  };
}

/** The per-query table, the wrong and missed names, the means and the cost per row, as printed lines. */
export function formatQualityReport(summary: QualitySummary, target: number): string {
  const header = ['query', 'status', 'expected', 'returned', 'precision', 'recall', 'charged USD', 'rows/target'];
  const body = summary.results.map(({ c, outcome, score }) => [
    c.query, outcome.status, String(c.expected.length), String(outcome.rows.length), score.precision.toFixed(2),
    score.recall.toFixed(2), outcome.chargedUsd.toFixed(4), `${outcome.rows.length}/${target}`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 || i === 1 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  const out = [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)];
  for (const { c, score, outcome } of summary.results) {
    if (score.falsePositives.length + score.missed.length === 0) continue;
    const relaxed = new Map(outcome.rows.map((r) => [r.name, r.relaxed] as const));
    const wrong = score.falsePositives.map((n) => (relaxed.get(n)?.length ? `${n} (relaxed: ${relaxed.get(n)!.join(', ')})` : n));
    out.push(`  ${c.query}: wrong [${wrong.join('; ')}] missed [${score.missed.join('; ')}]`);
  }
  const n = summary.results.length;
  out.push(
    `mean precision ${summary.meanPrecision.toFixed(3)}, mean recall ${summary.meanRecall.toFixed(3)} over ${n} queries`,
    `charged ${summary.chargedUsd.toFixed(4)} USD in all, ${(summary.chargedUsd / n).toFixed(4)} USD per query; ` +
      `per returned row ${(summary.chargedUsd / Math.max(1, summary.rows)).toFixed(4)} USD (${summary.rows} rows), ` +
      `per correct row ${(summary.chargedUsd / Math.max(1, summary.correctRows)).toFixed(4)} USD (${summary.correctRows} rows)`,
  );
  return out.join('\n');
}
