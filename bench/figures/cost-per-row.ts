import type { BenchContext, Figure, FigureRow } from '../support/figure.js';
import { errorRow } from '../support/figure.js';
import { createAccount, startSearch } from '../support/api.js';
import { followRun, wallNow, withService } from '../support/runs.js';

const FIGURE = 'cost per row';
const TARGET = 10;

interface QualityCase {
  name: string;
  q: string;
}

/**
 * The queries of the quality set (test/quality/cases.ts), whatever the exact export: every exported
 * array of objects carrying a query string (`q` or `query`).
 */
async function qualityQueries(): Promise<QualityCase[]> {
  const mod = (await import('../../test/quality/cases.js')) as Record<string, unknown>;
  const out: QualityCase[] = [];
  for (const value of Object.values(mod)) {
    if (!Array.isArray(value)) continue;
    for (const item of value as Record<string, unknown>[]) {
      const q = typeof item?.q === 'string' ? item.q : typeof item?.query === 'string' ? item.query : null;
      if (!q) continue;
      const name = typeof item.name === 'string' ? item.name : typeof item.id === 'string' ? item.id : q.slice(0, 40);
      out.push({ name, q });
    }
  }
  if (out.length === 0) throw new Error('test/quality/cases.ts exports no queries');
  return out;
}

/**
 * Whole service, embedded, sample corpus, default prices. Each quality-set query runs with target 10,
 * one after another, followed over its event stream: cost per row = last `cost` event (USD, what the
 * caller is charged) / rows in `final.table`. Bounded by a time budget; queries past it are not run.
 */
export const costPerRow: Figure = {
  id: 'cost',
  title: FIGURE,
  async run(ctx: BenchContext): Promise<FigureRow[]> {
    const budgetMs = ctx.quick ? 45_000 : 120_000;
    const perRunMs = ctx.quick ? 20_000 : 40_000;
    try {
      const cases = await qualityQueries();
      return [await withService(async (host) => {
        const account = await createAccount(host, cases.length * 5 + 100);
        const started = performance.now();
        const perQuery: Record<string, unknown>[] = [];
        for (const c of cases) {
          if (performance.now() - started > budgetMs - perRunMs) break;
          ctx.log(`${FIGURE}: ${c.name}`);
          const t0 = wallNow();
          const id = await startSearch(host.url, account.apiKey, { q: c.q, target: TARGET });
          const run = await followRun(host.url, account.apiKey, id, t0, perRunMs);
          const rows = run.final?.table.length ?? 0;
          perQuery.push({
            name: c.name, q: c.q, usd: run.lastCost, rows, usdPerRow: rows > 0 && run.lastCost !== null ? run.lastCost / rows : null,
            seconds: (wallNow() - t0) / 1000, timedOut: run.timedOut, error: run.error,
          });
        }
        const withRows = perQuery.filter((p) => typeof p.usdPerRow === 'number');
        const totalUsd = perQuery.reduce((n, p) => n + (typeof p.usd === 'number' ? p.usd : 0), 0);
        const totalRows = perQuery.reduce((n, p) => n + (p.rows as number), 0);
        const perRow = withRows.map((p) => p.usdPerRow as number).sort((a, b) => a - b);
        const usd = (v: number) => `$${v.toFixed(4)}`;
        return {
          figure: FIGURE,
          setup: `embedded, sample corpus, target ${TARGET}, ${perQuery.length}/${cases.length} quality queries`,
          result: totalRows > 0
            ? `${usd(totalUsd / totalRows)} per row overall (${usd(totalUsd)} / ${totalRows} rows); per query ${usd(perRow[0]!)}–${usd(perRow.at(-1)!)}`
              + `${perQuery.length - withRows.length ? `; ${perQuery.length - withRows.length} queries returned no rows` : ''}`
            : `no rows returned (${usd(totalUsd)} spent)`,
          goal: 'report',
          verdict: 'report',
          data: { target: TARGET, totalUsd, totalRows, usdPerRow: totalRows > 0 ? totalUsd / totalRows : null, queries: perQuery, casesInSet: cases.length },
        };
      })];
    } catch (error) {
      return [errorRow(FIGURE, 'embedded', 'report', error)];
    }
  },
};
