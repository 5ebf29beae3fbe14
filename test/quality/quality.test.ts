import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleEntities } from '@leadfinder/fetcher';
import { createAccount, startServerProcess, type ServerProcess } from '../support/server-process.js';
import { resolveCases } from './cases.js';
import { formatQualityReport, scoreQualitySet } from './report.js';
import { runQueries, type QueryOutcome } from './run-queries.js';

/** Floors documented (with the measurements behind them) in test/quality/README.md. */
const MEAN_PRECISION_FLOOR = 0.93;
const MEAN_RECALL_FLOOR = 0.93;
/** Rows asked of every query: above every case's expected count (at most 11 on any day of 2026-2029), so recall is never capped by it. */
const TARGET = 15;
const ADMIN_TOKEN = 'quality-admin-token-0123456789abcdefghij';

function utcDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

describe('quality of the service (npm start: embedded mode, bundled sample corpus, rule reasoner)', () => {
  let server: ServerProcess;
  let startedAt: Date;

  beforeAll(async () => {
    startedAt = new Date();
    // Exactly `npm start` without outside configuration: the bundled sample corpus, written at
    // start-up for today's date, searched by the corpus provider and read by the rule reasoner.
    server = await startServerProcess({ env: { LEADFINDER_ADMIN_TOKEN: ADMIN_TOKEN } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('keeps mean precision and recall over the quality set above the documented floors', async () => {
    const cases = resolveCases(sampleEntities(startedAt), startedAt);
    // 22 runs hold 5.00 USD each at once.
    const account = await createAccount(server.url, ADMIN_TOKEN, 200);
    let outcomes: QueryOutcome[];
    try {
      outcomes = await runQueries({
        url: server.url, apiKey: account.apiKey, timeoutMs: 45_000,
        queries: cases.map((c) => ({ q: c.query, target: TARGET })),
      });
    } catch (error) {
      throw new Error(`${String(error)}\nserver output:\n${server.output().slice(-4000)}`);
    }
    // The corpus is seeded by the UTC day it was written on; a run straddling midnight has no ground truth.
    expect(utcDay(new Date()), 'the quality run crossed UTC midnight; run it again').toBe(utcDay(startedAt));

    const summary = scoreQualitySet(cases, outcomes);
    console.log(`quality set on the sample corpus of ${utcDay(startedAt)}, target ${TARGET}\n${formatQualityReport(summary, TARGET)}`);

    // A relative period can hold no record on a rare day (5 case-days in three years); such a case then
    // checks that nothing is returned. The set still has at least 20 queries with rows to find.
    expect(cases.filter((c) => c.expected.length > 0).length).toBeGreaterThanOrEqual(20);
    expect(cases.every((c) => c.expected.length <= TARGET)).toBe(true);
    expect(outcomes.filter((o) => o.status !== 'done').map((o) => `${o.query}: ${o.status}`)).toEqual([]);
    expect(summary.meanPrecision).toBeGreaterThanOrEqual(MEAN_PRECISION_FLOOR);
    expect(summary.meanRecall).toBeGreaterThanOrEqual(MEAN_RECALL_FLOOR);
  }, 60_000);
});
