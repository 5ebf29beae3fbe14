import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger, systemClock } from '@leadfinder/platform';
import type { FetchedPage } from '@leadfinder/wire';
import { createFilter, createRuleReasoner } from '@leadfinder/filter';
import { sampleEntities, writeSampleCorpus } from '../../services/fetcher/src/providers/corpus/sample/index.js';
import { QUALITY_CASES, expectedNames } from './cases.js';
import { runFunnel } from './funnel.js';
import { loadCorpus } from './load-corpus.js';
import { scoreRows, type Score } from './score.js';

/** Floors documented in test/quality/README.md. */
const MEAN_PRECISION_FLOOR = 0.9;
const MEAN_RECALL_FLOOR = 0.85;
const NOW = new Date('2026-03-15T09:00:00Z');

describe('quality of the rule reasoner over the sample corpus', () => {
  let dir: string;
  let pages: FetchedPage[];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lf-quality-'));
    await writeSampleCorpus(dir, NOW);
    pages = await loadCorpus(dir);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps mean precision and recall above the documented floors across the quality set', async () => {
    const filter = createFilter({ reasoner: createRuleReasoner(), logger: silentLogger, clock: systemClock });
    const entities = sampleEntities(NOW);
    const results: { query: string; expected: number; rows: number; score: Score }[] = [];
    for (const c of QUALITY_CASES) {
      const expected = expectedNames(c, entities, NOW);
      const rows = await runFunnel(filter, c.query, NOW, pages);
      results.push({ query: c.query, expected: expected.length, rows: rows.length, score: scoreRows(expected, rows) });
    }
    const table = results.map((r) => ({
      query: r.query.slice(0, 62),
      expected: r.expected,
      rows: r.rows,
      precision: r.score.precision.toFixed(2),
      recall: r.score.recall.toFixed(2),
      wrong: r.score.falsePositives.slice(0, 3).join('; '),
      missed: r.score.missed.slice(0, 3).join('; '),
    }));
    console.table(table);
    const meanPrecision = results.reduce((s, r) => s + r.score.precision, 0) / results.length;
    const meanRecall = results.reduce((s, r) => s + r.score.recall, 0) / results.length;
    console.log(`mean precision ${meanPrecision.toFixed(3)}, mean recall ${meanRecall.toFixed(3)} over ${results.length} queries`);
    expect(results.every((r) => r.expected > 0)).toBe(true);
    expect(meanPrecision).toBeGreaterThanOrEqual(MEAN_PRECISION_FLOOR);
    expect(meanRecall).toBeGreaterThanOrEqual(MEAN_RECALL_FLOOR);
  });
});
