import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { sampleEntities } from './entities.js';
import { renderPage } from './format.js';
import type { SamplePage } from './format.js';
import { samplePages } from './pages.js';
import { seedFor } from './random.js';

/**
 * The bundled sample corpus: pages about fictional companies, people, works and events on `.example`
 * domains, dated relative to `now` so relative periods ("in the last year") always have matches.
 *
 * @example
 * const { pages } = await writeSampleCorpus('/tmp/corpus', new Date());
 */
export async function writeSampleCorpus(dir: string, now: Date): Promise<{ pages: number }> {
  const pages = sampleCorpusPages(now);
  for (const page of pages) {
    const path = join(dir, page.file);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, renderPage(page), 'utf8');
  }
  return { pages: pages.length };
}

/** Every page of the sample corpus for a run start `now`: what `writeSampleCorpus` writes. */
export function sampleCorpusPages(now: Date): SamplePage[] {
  return samplePages(sampleEntities(now), now, seedFor(now));
}

export { sampleEntities, headline } from './entities.js';
export { samplePages } from './pages.js';
export { renderPage } from './format.js';
export type { SampleEntity } from './entities.js';
export type { SamplePage } from './format.js';
