import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '@leadfinder/platform';
import type { SearchRequest } from '@leadfinder/wire';
import { createCorpusIndex } from './corpus-index.js';
import { createSearchProvider } from '../create-search-provider.js';
import { createFetcher } from '../../fetcher.js';
import { writeSampleCorpus } from './sample/index.js';
import { never, testConfig } from '../../../test/support/loopback.js';

let dir: string;
const html = (o: { url?: string; title: string; date?: string; body: string }) => `<!doctype html><html><head>
<title>${o.title}</title>${o.url ? `<link rel="canonical" href="${o.url}">` : ''}
${o.date ? `<meta property="article:published_time" content="${o.date}">` : ''}</head>
<body><nav>Home News Jobs</nav><article><h1>${o.title}</h1>${o.body}</article><footer>© Site</footer></body></html>`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lf-corpus-'));
  await mkdir(join(dir, 'news'), { recursive: true });
  await writeFile(join(dir, 'news', 'acme.html'), html({
    url: 'https://alpha-news.test/acme-series-a', title: 'Acme raises Series A', date: '2025-03-14',
    body: '<p>Berlin, March 14. The weather was mild.</p><p>Acme, a Berlin fintech startup, raised a $20M Series A round led by Example Ventures. The money funds hiring.</p><p>Acme was founded in 2021.</p>',
  }));
  await writeFile(join(dir, 'news', 'zeta.html'), html({
    url: 'https://jobs.alpha-news.test/zeta', title: 'Zeta hiring engineers', date: '2024-06-01',
    body: '<p>Zeta, a fintech in Paris, is hiring engineers after its seed round.</p>',
  }));
  await writeFile(join(dir, 'beta.md'), `---\nurl: https://beta.test/posts/fintech\ntitle: Fintech roundup\npublished: 2025-05-02\n---\n# Fintech roundup\n\nSeveral fintech startups raised money this spring, including a Series A or two.\n`);
  await writeFile(join(dir, 'undated.html'), html({ url: 'https://gamma.test/about', title: 'Gamma about', body: '<p>Gamma builds fintech infrastructure for banks.</p>' }));
  await writeFile(join(dir, 'orphan.html'), html({ title: 'Orphan page', body: '<p>An orphan page about gardening tools.</p>' }));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const req = (over: Partial<SearchRequest>): SearchRequest => ({ query: '', domains: [], publishedAfter: null, page: 1, limit: 10, ...over });

describe('local corpus search', () => {
  it('ranks the page that best matches the query first', async () => {
    const index = createCorpusIndex({ dir });
    const hits = await index.search(req({ query: 'Berlin fintech raised Series A' }));
    expect(hits[0]).toMatchObject({ url: 'https://alpha-news.test/acme-series-a', title: 'Acme raises Series A', publishedAt: '2025-03-14', provider: 'corpus', rank: 1 });
    expect(hits.map((h) => h.url)).not.toContain('corpus://orphan.html');
    expect((await index.search(req({ query: 'gardening' })))[0]!.url).toBe('corpus://orphan.html');
  });

  it('snips the best-matching sentence, not the first one', async () => {
    const [hit] = await createCorpusIndex({ dir }).search(req({ query: 'Series A round led by' }));
    expect(hit!.snippet).toMatch(/^Acme, a Berlin fintech startup, raised a \$20M Series A round led by Example Ventures\./);
  });

  it('keeps only pages on the given domains, subdomains included', async () => {
    const hits = await createCorpusIndex({ dir }).search(req({ query: 'fintech', domains: ['alpha-news.test'] }));
    expect(hits.map((h) => h.url).sort()).toEqual(['https://alpha-news.test/acme-series-a', 'https://jobs.alpha-news.test/zeta']);
    const inline = await createCorpusIndex({ dir }).search(req({ query: 'fintech site:beta.test' }));
    expect(inline.map((h) => h.url)).toEqual(['https://beta.test/posts/fintech']);
  });

  it('drops pages published before the floor and keeps undated ones', async () => {
    const hits = await createCorpusIndex({ dir }).search(req({ query: 'fintech', publishedAfter: '2025-01-01' }));
    expect(hits.map((h) => h.url).sort()).toEqual(['https://alpha-news.test/acme-series-a', 'https://beta.test/posts/fintech', 'https://gamma.test/about']);
  });

  it('pages through results with consistent ranks', async () => {
    const index = createCorpusIndex({ dir });
    const all = await index.search(req({ query: 'fintech', limit: 10 }));
    const second = await index.search(req({ query: 'fintech', limit: 2, page: 2 }));
    expect(second.map((h) => h.url)).toEqual(all.slice(2, 4).map((h) => h.url));
    expect(second.map((h) => h.rank)).toEqual([3, 4]);
  });

  it('notices files added to the folder', async () => {
    const index = createCorpusIndex({ dir, recheckMs: 0 });
    expect(await index.search(req({ query: 'quantum' }))).toEqual([]);
    await writeFile(join(dir, 'news', 'quantum.md'), '---\nurl: https://delta.test/q\ntitle: Quantum\n---\nQuantum computing startup Delta opens a lab.\n');
    try {
      expect((await index.search(req({ query: 'quantum' })))[0]?.url).toBe('https://delta.test/q');
    } finally {
      await rm(join(dir, 'news', 'quantum.md'));
    }
  });
});

describe('fetching corpus pages', () => {
  it('serves a corpus URL from the corpus with text that contains the search snippet', async () => {
    const config = testConfig({ LEADFINDER_SEARCH: 'corpus', LEADFINDER_CORPUS_DIR: dir });
    const fetcher = createFetcher({ config, logger: silentLogger, provider: createSearchProvider(config) });
    try {
      const { hits } = await fetcher.search(req({ query: 'fintech startups raised' }), { signal: never });
      expect(hits.length).toBeGreaterThan(2);
      for (const hit of hits) {
        const outcome = await fetcher.fetch({ url: hit.url }, { signal: never });
        if (!outcome.ok) throw new Error(`${hit.url}: ${outcome.reason}`);
        expect(outcome.page.text).toContain(hit.snippet);
        expect(outcome.page.finalUrl).toBe(hit.url);
        expect(outcome.page.publishedAt).toBe(hit.publishedAt);
        expect(outcome.page.text).not.toMatch(/Home News Jobs|© Site/);
      }
    } finally {
      await fetcher.close();
    }
  });

  // Indexing speed is measured in bench/ (page extraction figure), not asserted here.
  it('indexes hundreds of pages and returns the best ten for a query', async () => {
    const big = await mkdtemp(join(tmpdir(), 'lf-corpus-big-'));
    try {
      const words = 'acme beta fintech robotics hiring raised series seed engineers berlin paris lisbon bank health data cloud'.split(' ');
      await Promise.all(
        Array.from({ length: 400 }, (_, i) => {
          const body = Array.from({ length: 12 }, (_, j) => `<p>${Array.from({ length: 25 }, (_, k) => words[(i * 7 + j * 3 + k) % words.length]).join(' ')}.</p>`).join('');
          return writeFile(join(big, `p${i}.html`), html({ url: `https://site${i % 20}.test/p${i}`, title: `Page ${i}`, date: '2025-01-01', body }));
        }),
      );
      const hits = await createCorpusIndex({ dir: big }).search(req({ query: 'fintech hiring berlin' }));
      expect(hits).toHaveLength(10);
      expect(hits[0]!.snippet.toLowerCase()).toMatch(/fintech|hiring|berlin/);
    } finally {
      await rm(big, { recursive: true, force: true });
    }
  });
});

describe('the bundled sample corpus', () => {
  it('is indexed under its declared URLs, and every snippet occurs in the page the fetcher opens', async () => {
    const sample = await mkdtemp(join(tmpdir(), 'lf-sample-'));
    const config = testConfig({ LEADFINDER_CORPUS_DIR: sample });
    const fetcher = createFetcher({ config, logger: silentLogger, provider: createSearchProvider(config) });
    try {
      const { pages } = await writeSampleCorpus(sample, new Date('2025-06-15T12:00:00Z'));
      const indexed = await createCorpusIndex({ dir: sample }).pages();
      expect(indexed).toHaveLength(pages);
      expect(indexed.filter((p) => p.url.startsWith('corpus://'))).toEqual([]);
      for (const query of ['fintech startup raised Series A', 'hiring engineers', 'CTO appointed']) {
        const { hits } = await fetcher.search(req({ query }), { signal: never });
        expect(hits.length).toBeGreaterThan(0);
        for (const hit of hits) {
          const outcome = await fetcher.fetch({ url: hit.url }, { signal: never });
          expect(outcome.ok && outcome.page.text.includes(hit.snippet)).toBe(true);
        }
      }
    } finally {
      await fetcher.close();
      await rm(sample, { recursive: true, force: true });
    }
  });
});
