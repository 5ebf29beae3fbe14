import { expect, test } from 'vitest';
import { silentLogger } from '@leadfinder/platform';
import { createGrpcFetcherClient } from '@leadfinder/platform/grpc';
import type { FetcherPort } from '@leadfinder/platform';
import { serveFetcher } from './fetcher-rpc.js';

test('the fetcher role serves its port over gRPC on the configured port', async () => {
  const fetcher: FetcherPort = {
    search: async (request) => ({ hits: [{ url: `https://a.test/?q=${request.query}`, title: 't', snippet: 's', publishedAt: null, provider: 'corpus', rank: 1 }] }),
    fetch: async (request) => ({ ok: false, url: request.url, code: 'robots', reason: 'disallowed by robots.txt' }),
  };
  const server = await serveFetcher({ fetcher, port: 0, logger: silentLogger, host: '127.0.0.1' });
  const client = createGrpcFetcherClient({ address: `127.0.0.1:${server.port}`, logger: silentLogger });
  try {
    const signal = new AbortController().signal;
    const { hits } = await client.search({ query: 'x', domains: [], publishedAfter: null, page: 1, limit: 5 }, { signal });
    expect(hits[0]?.url).toBe('https://a.test/?q=x');
    expect(await client.fetch({ url: 'https://b.test/' }, { signal })).toEqual({ ok: false, url: 'https://b.test/', code: 'robots', reason: 'disallowed by robots.txt' });
  } finally {
    client.close();
    await server.stop();
  }
});
