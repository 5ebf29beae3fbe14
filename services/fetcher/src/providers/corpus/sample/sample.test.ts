import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EntityType } from '@leadfinder/wire';
import { sampleEntities, samplePages, writeSampleCorpus } from './index.js';
import { seedFor } from './random.js';

const NOW = new Date('2026-03-15T09:00:00Z');
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function write(now: Date): Promise<{ dir: string; pages: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'lf-sample-'));
  dirs.push(dir);
  return { dir, ...(await writeSampleCorpus(dir, now)) };
}

async function snapshot(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (e.isFile()) out.set(join(e.parentPath, e.name).slice(dir.length), await readFile(join(e.parentPath, e.name), 'utf8'));
  }
  return out;
}

describe('the bundled sample corpus', () => {
  it('writes the same pages for the same start time', async () => {
    const a = await write(NOW);
    const b = await write(NOW);
    expect(a.pages).toBe(b.pages);
    expect(await snapshot(a.dir)).toEqual(await snapshot(b.dir));
    expect(a.pages).toBeGreaterThanOrEqual(150);
    expect(a.pages).toBeLessThanOrEqual(400);
  });

  it('covers every one of the 13 entity kinds', () => {
    const kinds = new Set(sampleEntities(NOW).map((e) => e.type));
    expect([...kinds].sort()).toEqual([...EntityType.options].sort());
  });

  it('gives every page a fictional .example address and dates no page after now', async () => {
    const pages = samplePages(sampleEntities(NOW), NOW, seedFor(NOW));
    for (const p of pages) {
      expect(new URL(p.url).hostname.endsWith('.example')).toBe(true);
      if (p.published) expect(p.published <= '2026-03-15').toBe(true);
    }
    expect(new Set(pages.map((p) => p.url)).size).toBe(pages.length);
  });

  it('writes canonical links and published dates in HTML and front matter in Markdown', async () => {
    const { dir } = await write(NOW);
    const files = await snapshot(dir);
    const html = [...files.entries()].find(([f]) => f.endsWith('.html'))![1];
    expect(html).toMatch(/<link rel="canonical" href="https:\/\/[^"]+\.example\/[^"]*">/);
    expect(html).toMatch(/<meta property="article:published_time" content="\d{4}-\d{2}-\d{2}">/);
    const md = [...files.entries()].find(([f]) => f.endsWith('.md'))![1];
    expect(md).toMatch(/^---\nurl: https:\/\/\S+\.example\S*\ntitle: .+\n(published: \d{4}-\d{2}-\d{2}\n)?---\n/);
  });

  it('holds enough Berlin AI seed rounds from the last year for the demo query, plus near misses', () => {
    const entities = sampleEntities(NOW);
    const berlinAiSeed = entities.filter((e) => e.type === 'company' && e.topic === 'AI' && e.city === 'Berlin' && e.label === 'seed');
    const recent = berlinAiSeed.filter((e) => e.date! >= '2025-03-15');
    expect(recent.length).toBeGreaterThanOrEqual(8);
    expect(berlinAiSeed.length - recent.length).toBeGreaterThan(0);
    expect(entities.some((e) => e.type === 'company' && e.topic === 'AI' && e.city !== 'Berlin' && e.label === 'seed')).toBe(true);
  });

  it('moves its dates with the start time so relative periods always have matches', () => {
    const later = new Date('2027-07-01T00:00:00Z');
    const recent = sampleEntities(later).filter((e) => e.type === 'company' && e.topic === 'AI' && e.city === 'Berlin' && e.label === 'seed' && e.date! >= '2026-07-01');
    expect(recent.length).toBeGreaterThanOrEqual(8);
  });
});

describe('the sample corpus on any run date', () => {
  // Run dates at the edges of the calendar: new year's day, a leap day, the last day of a year, years ahead.
  const RUN_DATES = ['2026-01-01', '2026-11-26', '2027-01-01', '2028-02-29', '2030-12-31'].map((d) => new Date(`${d}T08:00:00Z`));
  const rounds = (now: Date, city: string, topic: string, label: string) =>
    sampleEntities(now).filter((e) => e.type === 'company' && e.city === city && e.topic === topic && e.label === label).map((e) => e.date!);
  const day = (d: Date) => d.toISOString().slice(0, 10);

  it.each(RUN_DATES)('keeps rounds inside the windows the README examples name, on %s', (now) => {
    const sixMonthsBack = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 6, now.getUTCDate()));
    const fintechA = rounds(now, 'Berlin', 'fintech', 'Series A');
    // "… raised a Series A in the last 6 months"
    expect(fintechA.filter((d) => d >= day(sixMonthsBack) && d <= day(now)).length).toBeGreaterThanOrEqual(2);
    // "… this year", "… this month", "… this week": rounds dated on the run's own day
    expect(fintechA.filter((d) => d === day(now)).length).toBeGreaterThanOrEqual(1);
    // "AI startups in Berlin that raised a seed round in Q3 2025": a closed range in the past of every run date
    const aiSeed = rounds(now, 'Berlin', 'AI', 'seed');
    expect(aiSeed.filter((d) => d >= '2025-07-01' && d <= '2025-09-30').length).toBeGreaterThanOrEqual(1);
    // "… in the last year"
    const yearBack = new Date(Date.UTC(now.getUTCFullYear() - 1, now.getUTCMonth(), now.getUTCDate()));
    expect(aiSeed.filter((d) => d >= day(yearBack) && d <= day(now)).length).toBeGreaterThanOrEqual(3);
  });

  it('never dates a round after the run date', () => {
    for (const now of RUN_DATES) {
      const future = sampleEntities(now).filter((e) => e.type === 'company' && e.date! > day(now));
      expect(future).toEqual([]);
    }
  });
});
