/**
 * `npm run quality`: runs the development set through the real service and prints, per split, precision,
 * recall, F1, grounded share and cost per correct row, with one line per query; writes the JSON report to
 * test-artifacts/devset-quality.json (or --out).
 *
 *   npm run quality                         # both splits
 *   npm run quality -- --split dev          # the tuning half only
 *   npm run quality -- --query c01,c07      # some queries (ids, or words of the query text)
 *   npm run quality -- --split dev --verbose  # also every row, its match and its plan
 *   npm run quality -- --split dev --shapes infobox,microdata   # a probe: only some of the split's shapes
 *   npm run quality -- --markdown "final"   # also the README "Quality" table rows, labelled "final"
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { runSplit, type QueryResult, type SplitSummary } from './harness.js';
import type { Shape, Split } from './pages.js';
import { allQueries, type DevQuery } from './queries.js';

const { values } = parseArgs({
  options: {
    split: { type: 'string', default: 'all' },
    query: { type: 'string' },
    out: { type: 'string', default: 'test-artifacts/devset-quality.json' },
    timeout: { type: 'string', default: '60' },
    verbose: { type: 'boolean', default: false },
    /** Comma-separated page shapes of the split to serve (a probe; the figures of record use all). */
    shapes: { type: 'string' },
    markdown: { type: 'string' },
  },
});

function selectQueries(split: Split, filter: string | undefined): DevQuery[] {
  const mine = allQueries().filter((q) => q.split === split);
  if (!filter) return mine;
  const wanted = filter.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  return mine.filter((q) => wanted.some((w) => q.id.toLowerCase() === w || q.q.toLowerCase().includes(w)));
}

const pct = (x: number) => x.toFixed(2);

function queryLine(r: QueryResult): string {
  const s = r.score;
  const grounded = r.rows.filter((row) => row.grounded).length;
  return [
    r.id.padEnd(4), r.status.padEnd(16), `rows ${String(r.rows.length).padStart(2)}/${String(r.target).padStart(2)}`,
    `gold ${String(r.gold.yes.length).padStart(2)}`, `P ${pct(s.precision)}`, `R ${pct(s.recall)}`,
    `grounded ${grounded}/${r.rows.length}`, `${r.seconds.toFixed(1).padStart(5)} s`, `$${r.chargedUsd.toFixed(4)}`,
    ` ${r.q}`,
  ].join('  ');
}

function details(r: QueryResult): string[] {
  const out: string[] = [];
  const wrong = r.score.wrong.map((w) => (w.entity ? `${w.name} (${w.why === 'duplicate' ? 'again' : 'not asked for'})` : `${w.name} (unknown)`));
  if (wrong.length) out.push(`      wrong: ${wrong.join('; ')}`);
  if (r.score.missed.length) out.push(`      missed: ${r.score.missed.join('; ')}`);
  if (r.score.maybe.length) out.push(`      maybe (not counted): ${r.score.maybe.join('; ')}`);
  if (r.error) out.push(`      error: ${r.error.split('\n')[0]}`);
  if (values.verbose) {
    if (r.plan) out.push(`      plan: ${r.plan.entity_type}; filters ${r.plan.filters.map((f) => `"${f.criterion}"`).join(', ')}; queries ${r.plan.queries.map((q) => `"${q}"`).join(', ')}`);
    for (const row of r.rows) {
      out.push(`      row: ${row.name} → ${row.matched ?? '?'}${row.grounded ? '' : ' [NOT GROUNDED]'} ${row.source_urls[0] ?? ''}`);
      // What a row that is not asked for passed on.
      if (!r.gold.yes.includes(row.matched ?? '')) for (const why of row.why) out.push(`        ${why.slice(0, 300)}`);
    }
    for (const p of r.groundingProblems) out.push(`      grounding: ${p}`);
    // Why a missed entity the run saw was dropped (near misses and unclear candidates of the run).
    for (const d of r.dropped ?? []) if (r.score.missed.some((m) => d.startsWith(`${m}:`))) out.push(`      dropped ${d.slice(0, 400)}`);
  }
  return out;
}

function summaryLines(s: SplitSummary): string[] {
  return [
    `${s.split}: ${s.queries} queries  precision ${s.meanPrecision.toFixed(3)}  recall ${s.meanRecall.toFixed(3)}  F1 ${s.f1.toFixed(3)}` +
      `  (micro P ${s.microPrecision.toFixed(3)} R ${s.microRecall.toFixed(3)})`,
    `${s.split}: grounded ${(100 * s.groundedShare).toFixed(1)} % of ${s.rows} rows  correct rows ${s.correctRows}` +
      `  cost per correct row ${s.costPerCorrectRow === null ? 'n/a' : `$${s.costPerCorrectRow.toFixed(4)}`} ($${s.chargedUsd.toFixed(4)} in all)` +
      `  seconds per query mean ${s.meanSeconds.toFixed(1)} max ${s.maxSeconds.toFixed(1)}  not done ${s.notDone}`,
  ];
}

/**
 * The service runs with the rule-based reasoner unless an OpenAI-compatible model is configured in this
 * shell (LEADFINDER_LLM_*), which is then handed on; nothing else of the caller's environment is.
 */
function passThroughEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[0].startsWith('LEADFINDER_LLM_') && e[1] !== undefined));
}

/** Means per entity kind, so a change that helps companies and hurts papers shows. */
function kindLines(split: Split, results: readonly QueryResult[]): string[] {
  const kinds = [...new Set(results.map((r) => r.kind))];
  if (kinds.length < 2) return [];
  return [`${split}: by kind  ${kinds.map((k) => {
    const mine = results.filter((r) => r.kind === k);
    const mean = (f: (r: QueryResult) => number) => mine.reduce((s, r) => s + f(r), 0) / mine.length;
    return `${k} (${mine.length}) P ${mean((r) => r.score.precision).toFixed(2)} R ${mean((r) => r.score.recall).toFixed(2)}`;
  }).join('  ')}`];
}

/** Rows of the README "Quality" table. */
function markdownRows(label: string, s: SplitSummary): string {
  const usd = s.costPerCorrectRow === null ? 'n/a' : `$${s.costPerCorrectRow.toFixed(4)}`;
  return `| ${label} | ${s.split} | ${s.queries} | ${s.meanPrecision.toFixed(3)} | ${s.meanRecall.toFixed(3)} | ${s.f1.toFixed(3)} | ` +
    `${(100 * s.groundedShare).toFixed(1)} % of ${s.rows} rows | ${usd} | ${s.meanSeconds.toFixed(1)} / ${s.maxSeconds.toFixed(1)} |`;
}

async function main(): Promise<void> {
  const splits: Split[] = values.split === 'all' ? ['dev', 'test'] : [values.split as Split];
  if (!splits.every((s) => s === 'dev' || s === 'test')) throw new Error(`--split must be dev, test or all, not ${values.split}`);
  const report: { startedAt: string; splits: { summary: SplitSummary; pages: number; results: QueryResult[] }[] } = {
    startedAt: new Date().toISOString(),
    splits: [],
  };
  for (const split of splits) {
    const queries = selectQueries(split, values.query);
    if (queries.length === 0) continue;
    const llm = passThroughEnv().LEADFINDER_LLM_BASE_URL;
    console.log(`\n▶ ${split} split: ${queries.length} queries, ${llm ? `model at ${llm}` : 'rule-based reasoner'}`);
    const { results, summary, pages } = await runSplit({
      split, queries, timeoutMs: Number(values.timeout) * 1000, env: passThroughEnv(),
      ...(values.shapes ? { shapes: values.shapes.split(',').map((s) => s.trim()) as Shape[] } : {}),
      dropped: values.verbose,
      onResult: (r) => {
        console.log(queryLine(r));
        for (const line of details(r)) console.log(line);
      },
    });
    console.log(`  (${pages} pages in the ${split} web)`);
    for (const line of [...summaryLines(summary), ...kindLines(split, results)]) console.log(line);
    report.splits.push({ summary, pages, results });
  }
  if (report.splits.length === 0) throw new Error('no query matched --split/--query');
  console.log('');
  for (const s of report.splits) for (const line of [...summaryLines(s.summary), ...kindLines(s.summary.split, s.results)]) console.log(line);
  const [dev, test] = [report.splits.find((s) => s.summary.split === 'dev'), report.splits.find((s) => s.summary.split === 'test')];
  // Tuning on dev should carry over to the held-out half; a widening gap says it is being fitted to dev.
  if (dev && test && !values.query) console.log(`held-out gap (dev − test): F1 ${(dev.summary.f1 - test.summary.f1).toFixed(3)}, precision ${(dev.summary.meanPrecision - test.summary.meanPrecision).toFixed(3)}, recall ${(dev.summary.meanRecall - test.summary.meanRecall).toFixed(3)}`);
  if (values.markdown) for (const s of report.splits) console.log(markdownRows(values.markdown, s.summary));
  mkdirSync(dirname(values.out!), { recursive: true });
  writeFileSync(values.out!, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`report: ${values.out}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
