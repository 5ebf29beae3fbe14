import { afterEach, describe, expect, it } from 'vitest';
import type { SearchRequest } from '@leadfinder/wire';
import { createSearxngProvider } from './searxng-provider.js';
import { createServer } from 'node:net';
import { never, startLoopback, type LoopbackServer } from '../../../test/support/loopback.js';

/** A loopback port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let stub: LoopbackServer | null = null;
afterEach(async () => {
  await stub?.close();
  stub = null;
});

const base: SearchRequest = { query: 'fintech series a', domains: [], publishedAfter: null, page: 1, limit: 10 };

async function stubSearxng(results: unknown[], status = 200) {
  const seen: URLSearchParams[] = [];
  stub = await startLoopback((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== '/search') return res.writeHead(404).end();
    seen.push(url.searchParams);
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ query: url.searchParams.get('q'), results }));
  });
  return { provider: createSearxngProvider({ baseUrl: `${stub.url}/`, timeoutMs: 2000 }), seen };
}

describe('SearXNG provider', () => {
  it('asks /search with format=json and pageno, and maps results to hits in order', async () => {
    const { provider, seen } = await stubSearxng([
      { url: 'http://alpha-news.test:18099/a', title: ' Acme  raises ', content: 'Acme raised $20M.', publishedDate: '2025-03-01T10:00:00', engine: 'bing' },
      { url: 'https://beta.test/b', title: 'Beta', content: 'Beta hires.', publishedDate: null },
    ]);
    const { hits } = await provider.search({ ...base, page: 3 }, never);
    expect(seen[0]!.get('format')).toBe('json');
    expect(seen[0]!.get('pageno')).toBe('3');
    expect(seen[0]!.get('q')).toBe('fintech series a');
    expect(hits).toEqual([
      { url: 'http://alpha-news.test:18099/a', title: 'Acme raises', snippet: 'Acme raised $20M.', publishedAt: '2025-03-01', provider: 'searxng', rank: 21 },
      { url: 'https://beta.test/b', title: 'Beta', snippet: 'Beta hires.', publishedAt: null, provider: 'searxng', rank: 22 },
    ]);
  });

  it('writes site: terms into q (OR-joined) and drops results on other hosts, keeping subdomains', async () => {
    const { provider, seen } = await stubSearxng([
      { url: 'http://alpha-news.test:18099/a', title: 'A', content: '' },
      { url: 'https://jobs.beta.test/b', title: 'B', content: '' },
      { url: 'https://elsewhere.test/c', title: 'C', content: '' },
      { url: 'https://notbeta.test/d', title: 'D', content: '' },
    ]);
    const { hits } = await provider.search({ ...base, domains: ['alpha-news.test', 'https://www.beta.test/'] }, never);
    expect(seen[0]!.get('q')).toBe('fintech series a site:alpha-news.test OR site:beta.test');
    expect(hits.map((h) => h.url)).toEqual(['http://alpha-news.test:18099/a', 'https://jobs.beta.test/b']);
  });

  it('drops results published before the date floor and keeps undated ones', async () => {
    const { provider } = await stubSearxng([
      { url: 'https://a.test/old', title: 'old', content: '', publishedDate: '2024-12-31T23:00:00Z' },
      { url: 'https://a.test/floor', title: 'floor', content: '', publishedDate: '2025-01-01' },
      { url: 'https://a.test/undated', title: 'undated', content: '', publishedDate: null },
      { url: 'https://a.test/new', title: 'new', content: '', publishedDate: '2025-06-01T00:00:00+02:00' },
    ]);
    const { hits } = await provider.search({ ...base, publishedAfter: '2025-01-01' }, never);
    expect(hits.map((h) => h.title)).toEqual(['floor', 'undated', 'new']);
  });

  it('returns at most `limit` hits', async () => {
    const { provider } = await stubSearxng([1, 2, 3, 4].map((i) => ({ url: `https://a.test/${i}`, title: `${i}`, content: '' })));
    expect((await provider.search({ ...base, limit: 2 }, never)).hits).toHaveLength(2);
  });

  it('calls a page full by what SearXNG returned, not by what survived the site and date checks', async () => {
    const page = Array.from({ length: 10 }, (_, i) => ({
      url: i < 2 ? `https://alpha-news.test/${i}` : `https://elsewhere.test/${i}`, title: `${i}`, content: '',
      publishedDate: i === 1 ? '2020-01-01' : '2025-06-01',
    }));
    const { provider } = await stubSearxng(page);
    const answer = await provider.search({ ...base, domains: ['alpha-news.test'], publishedAfter: '2025-01-01' }, never);
    expect(answer.hits.map((h) => h.url)).toEqual(['https://alpha-news.test/0']);
    expect(answer.more).toBe(true);
  });

  it('calls a short page the last one', async () => {
    const { provider } = await stubSearxng([1, 2, 3].map((i) => ({ url: `https://a.test/${i}`, title: `${i}`, content: '' })));
    expect((await provider.search(base, never)).more).toBe(false);
  });

  it('fails with a retryable "unavailable" error, naming no spend, when nothing listens', async () => {
    const provider = createSearxngProvider({ baseUrl: `http://127.0.0.1:${await closedPort()}`, timeoutMs: 2000 });
    await expect(provider.search(base, never)).rejects.toMatchObject({ code: 'LF_ERR_UNAVAILABLE', retryable: true });
  });

  it('fails with a retryable upstream error when SearXNG answers 503', async () => {
    const { provider } = await stubSearxng([], 503);
    await expect(provider.search(base, never)).rejects.toMatchObject({ code: 'LF_ERR_UPSTREAM', retryable: true });
  });
});
