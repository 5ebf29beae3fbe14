import type { BenchContext, Figure, FigureRow } from '../support/figure.js';
import { errorRow, verdict } from '../support/figure.js';
import { createAccount, startSearch } from '../support/api.js';
import { followRun, wallNow, withService } from '../support/runs.js';
import { hostCpuMicros } from '../support/host.js';

const FIGURE = 'end to end';
const TARGET = 20;
const GOAL = `≤ 10 s to target ${TARGET}`;
/** Broad enough that the sample corpus holds well over 20 matching companies (LEADFINDER_BENCH_E2E_QUERY overrides). */
const DEFAULT_QUERY = 'startups based in Berlin';

/**
 * Whole service, embedded, sample corpus, rule-based reasoner (no LLM configured). One search with
 * target 20, timed from sending `POST /v1/searches` (client side) to the first frame that shows a row
 * (`progress` with have ≥ 1, or a `final` with rows) and to the frame that shows 20 rows.
 */
export const endToEnd: Figure = {
  id: 'e2e',
  title: FIGURE,
  async run(ctx: BenchContext): Promise<FigureRow[]> {
    const timeoutMs = ctx.quick ? 30_000 : 60_000;
    const QUERY = process.env.LEADFINDER_BENCH_E2E_QUERY || DEFAULT_QUERY;
    try {
      return [await withService(async (host) => {
        const account = await createAccount(host, 100);
        ctx.log(`${FIGURE}: "${QUERY}", target ${TARGET}`);
        const cpuBefore = await hostCpuMicros(host);
        const startedAt = wallNow();
        const id = await startSearch(host.url, account.apiKey, { q: QUERY, target: TARGET });
        const run = await followRun(host.url, account.apiKey, id, startedAt, timeoutMs);
        // The service's CPU time for the run (the whole process: edge, coordinator, fetcher, filter), to the
        // end of its event stream; with --otlp the run's last spans may still be waiting for their batch.
        const cpuMs = Math.round((await hostCpuMicros(host) - cpuBefore) / 100) / 10;
        const rowsAt = (need: number) => run.frames.find(({ frame: { event: e } }) =>
          (e.type === 'progress' && Number(e.have) >= need) || (e.type === 'final' && Array.isArray(e.table) && e.table.length >= need))?.atMs ?? null;
        const firstRowMs = rowsAt(1);
        const targetMs = rowsAt(TARGET);
        const finalMs = run.frames.find(({ frame }) => frame.event.type === 'final')?.atMs ?? null;
        const rows = run.final?.table.length ?? 0;
        const s = (v: number | null) => (v === null ? 'never' : `${(v / 1000).toFixed(2)} s`);
        return {
          figure: FIGURE,
          setup: `embedded, sample corpus, "${QUERY}"`,
          result: `first row ${s(firstRowMs)}; ${TARGET} rows ${s(targetMs)}; final ${s(finalMs)} with ${rows} rows`
            + `${run.timedOut ? ` (stopped after ${timeoutMs / 1000} s)` : ''}${run.error ? `; error: ${run.error}` : ''}`
            + `; cost $${run.lastCost ?? '?'}; service CPU ${cpuMs} ms (a fresh process's first run)`,
          goal: GOAL,
          verdict: verdict(targetMs !== null && targetMs <= 10_000),
          data: { query: QUERY, target: TARGET, firstRowMs, targetMs, finalMs, rows, met: run.final?.met ?? false, usd: run.lastCost, cpuMs, timedOut: run.timedOut, error: run.error, events: run.frames.length },
        };
      })];
    } catch (error) {
      return [errorRow(FIGURE, 'embedded', GOAL, error)];
    }
  },
};
