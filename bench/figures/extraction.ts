import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchContext, Figure, FigureRow } from '../support/figure.js';
import { errorRow, verdict } from '../support/figure.js';

const FIGURE = 'page extraction';
const GOAL = '≥ 200 pages/s per core';

/**
 * The fetcher's cheerio extraction (`extractHtml`: title, publish date, boilerplate removal, passages)
 * over every HTML page of the bundled sample corpus, looped on one thread. Pages per core is pages
 * divided by the CPU time the loop used, so other load on the machine does not lower it; the wall-clock
 * rate is reported beside it.
 */
export const extraction: Figure = {
  id: 'extract',
  title: FIGURE,
  async run(ctx: BenchContext): Promise<FigureRow[]> {
    const dir = await mkdtemp(join(tmpdir(), 'leadfinder-bench-corpus-'));
    try {
      const fetcher = await import('@leadfinder/fetcher');
      await fetcher.writeSampleCorpus(dir, new Date());
      const files = (await readdir(dir, { recursive: true })).filter((f) => /\.html?$/i.test(f)).sort();
      if (files.length === 0) throw new Error('the sample corpus has no HTML pages');
      const pages = await Promise.all(files.map((f) => readFile(join(dir, f), 'utf8')));
      const bytes = pages.reduce((n, p) => n + Buffer.byteLength(p), 0);

      const loop = (budgetMs: number) => {
        let count = 0;
        let passages = 0;
        const cpu = process.cpuUsage();
        const start = performance.now();
        while (performance.now() - start < budgetMs) {
          for (const html of pages) {
            passages += fetcher.extractHtml(html).passages.length;
            count++;
          }
        }
        const used = process.cpuUsage(cpu);
        return { count, passages, wallMs: performance.now() - start, cpuMs: (used.user + used.system) / 1000 };
      };
      loop(ctx.quick ? 300 : 1000);
      ctx.log(`${FIGURE}: ${pages.length} HTML pages (${Math.round(bytes / pages.length / 1024)} KB average)`);
      const measured = loop(ctx.quick ? 1500 : 4000);
      const perCore = measured.count / (measured.cpuMs / 1000);
      const wall = measured.count / (measured.wallMs / 1000);
      return [{
        figure: FIGURE,
        setup: `cheerio extractHtml, ${pages.length} sample pages, 1 thread`,
        result: `${Math.round(perCore)} pages/s per core (CPU time); ${Math.round(wall)} pages/s wall clock`,
        goal: GOAL,
        verdict: verdict(perCore >= 200),
        data: { pages: pages.length, averageBytes: Math.round(bytes / pages.length), ...measured, pagesPerCoreSecond: perCore, pagesPerWallSecond: wall },
      }];
    } catch (error) {
      return [errorRow(FIGURE, 'sample corpus', GOAL, error)];
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};
