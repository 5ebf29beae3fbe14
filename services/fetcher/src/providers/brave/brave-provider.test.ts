import { afterEach, describe, expect, it } from 'vitest';
import type { SearchRequest } from '@leadfinder/wire';
import { createBraveProvider } from './brave-provider.js';
import { never, startLoopback, type LoopbackServer } from '../../../test/support/loopback.js';

let stub: LoopbackServer | null = null;
afterEach(async () => {
  await stub?.close();
  stub = null;
});

const base: SearchRequest = { query: 'robotics startup', domains: [], publishedAfter: null, page: 1, limit: 5 };
const clock = { now: () => Date.parse('2025-07-01T12:00:00Z') };

async function stubBrave(results: unknown[], query: Record<string, unknown> = {}) {
  const seen: { params: URLSearchParams; token: string | undefined }[] = [];
  stub = await startLoopback((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const token = req.headers['x-subscription-token'] as string | undefined;
    seen.push({ params: url.searchParams, token });
    if (token !== 'secret-key') return res.writeHead(401).end('{}');
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'search', query, web: { results } }));
  });
  const provider = createBraveProvider({ url: `${stub.url}/res/v1/web/search`, apiKey: 'secret-key', timeoutMs: 2000, clock });
  return { provider, seen };
}

describe('Brave provider', () => {
  it('sends q, count, offset and the subscription token, and maps web.results', async () => {
    const { provider, seen } = await stubBrave([
      { url: 'https://gamma.test/news', title: 'Gamma <strong>robotics</strong>', description: 'Gamma &amp; co build <strong>robots</strong>.', page_age: '2025-05-04T00:00:00' },
      { url: 'https://delta.test/', title: 'Delta', description: 'Delta.', age: 'March 2, 2025' },
    ]);
    const { hits } = await provider.search({ ...base, page: 2 }, never);
    expect(seen[0]!.token).toBe('secret-key');
    expect(seen[0]!.params.get('q')).toBe('robotics startup');
    expect(seen[0]!.params.get('count')).toBe('5');
    expect(seen[0]!.params.get('offset')).toBe('1');
    expect(hits).toEqual([
      { url: 'https://gamma.test/news', title: 'Gamma robotics', snippet: 'Gamma & co build robots.', publishedAt: '2025-05-04', provider: 'brave', rank: 6 },
      { url: 'https://delta.test/', title: 'Delta', snippet: 'Delta.', publishedAt: '2025-03-02', provider: 'brave', rank: 7 },
    ]);
  });

  it('restricts to domains in q and by hostname, and applies the date floor (also as freshness)', async () => {
    const { provider, seen } = await stubBrave([
      { url: 'https://www.gamma.test/new', title: 'new', description: '', page_age: '2025-06-01T00:00:00' },
      { url: 'https://gamma.test/old', title: 'old', description: '', page_age: '2024-01-01T00:00:00' },
      { url: 'https://other.test/x', title: 'other', description: '', page_age: '2025-06-01T00:00:00' },
      { url: 'https://gamma.test/undated', title: 'undated', description: '' },
    ]);
    const { hits } = await provider.search({ ...base, domains: ['gamma.test'], publishedAfter: '2025-01-01' }, never);
    expect(seen[0]!.params.get('q')).toBe('robotics startup site:gamma.test');
    expect(seen[0]!.params.get('freshness')).toBe('2025-01-01to2025-07-01');
    expect(hits.map((h) => h.title)).toEqual(['new', 'undated']);
  });

  it('calls a page full by what Brave returned, before the site and date checks', async () => {
    const page = Array.from({ length: 5 }, (_, i) => ({ url: i === 0 ? 'https://gamma.test/0' : `https://other.test/${i}`, title: `${i}`, description: '' }));
    const { provider } = await stubBrave(page);
    const answer = await provider.search({ ...base, domains: ['gamma.test'] }, never);
    expect(answer.hits).toHaveLength(1);
    expect(answer.more).toBe(true);
  });

  it("takes Brave's own word on whether more results exist", async () => {
    const page = Array.from({ length: 5 }, (_, i) => ({ url: `https://gamma.test/${i}`, title: `${i}`, description: '' }));
    expect((await (await stubBrave(page, { more_results_available: false })).provider.search(base, never)).more).toBe(false);
    await stub?.close();
    expect((await (await stubBrave(page.slice(0, 2), { more_results_available: true })).provider.search(base, never)).more).toBe(true);
  });

  it('sends no freshness for a range with no lower bound', async () => {
    const { provider, seen } = await stubBrave([]);
    await provider.search({ ...base, publishedAfter: '0001-01-01' }, never);
    expect(seen[0]!.params.get('freshness')).toBeNull();
  });
});
