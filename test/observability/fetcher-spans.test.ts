/**
 * Issue 22 item 3: the fetcher's spans say what they worked on. A page fetch is one `fetch.page` span
 * with the URL's host and how it ended (ok, robots, timeout, http_status with the status class,
 * cancelled …); a search-provider call is one `search` span with the provider and its result count. The
 * HTTP client spans below them (robots.txt, redirect hops) are not recorded: with the undici
 * instrumentation on, as in production, a page fetch adds exactly one span.
 */
import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger, tracer, type SearchProvider } from '@leadfinder/platform';
import { createInMemoryTelemetry, type InMemoryTelemetry } from '@leadfinder/platform/telemetry';
import { createFetcher, type Fetcher } from '@leadfinder/fetcher';
import { never, startLoopback, testConfig, type LoopbackServer } from '../../services/fetcher/test/support/loopback.js';

let telemetry: InMemoryTelemetry;
let site: LoopbackServer;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  telemetry = createInMemoryTelemetry({ instrumentations: true });
  site = await startLoopback((req, res) => {
    if (req.url === '/robots.txt') return res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/');
    if (req.url === '/missing') return res.writeHead(404).end();
    if (req.url === '/broken') return res.writeHead(503).end();
    if (req.url === '/moved') return res.writeHead(301, { location: '/story' }).end();
    if (req.url === '/slow') return; // never answers
    res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Story</title><p>A story.</p>');
  });
});
afterAll(async () => {
  await site.close();
  await telemetry.shutdown();
});
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
  telemetry.reset();
});

const HOST = 'news.example';
const hits = [1, 2, 3].map((n) => ({ url: `https://${HOST}/${n}`, title: `Hit ${n}`, snippet: 'x' }));
const provider: SearchProvider = { name: 'stub-provider', search: async () => ({ hits }) as never };

function fetcher(env: Record<string, string> = {}): Fetcher {
  const f = createFetcher({
    config: testConfig({ LEADFINDER_FETCH_ALLOW_PRIVATE: '1', LEADFINDER_FETCH_RESOLVE: `${HOST}:${site.port}:127.0.0.1`, ...env }),
    logger: silentLogger, provider,
  });
  cleanups.push(() => f.close());
  return f;
}

/** Runs `fn` under a parent span (as a Fetch call's server span is), returning the spans under it. */
async function underParent(fn: () => Promise<unknown>): Promise<ReadableSpan[]> {
  const parent = tracer('test').startSpan('parent');
  await context.with(trace.setSpan(context.active(), parent), fn).catch(() => undefined);
  parent.end();
  return telemetry.spans().filter((s) => s.name !== 'parent');
}

async function fetchSpan(path: string, env: Record<string, string> = {}, signal = never): Promise<ReadableSpan> {
  const spans = await underParent(() => fetcher(env).fetch({ url: `http://${HOST}:${site.port}${path}` }, { signal }));
  // One span per page fetch: the HTTP client spans of robots.txt, redirects and the page are not recorded.
  expect(spans.map((s) => s.name)).toEqual(['fetch.page']);
  expect(spans[0]!.kind).toBe(SpanKind.CLIENT);
  expect(spans[0]!.attributes['server.address']).toBe(HOST);
  return spans[0]!;
}

describe('fetch.page spans', () => {
  it('an opened page: outcome ok, HTTP 200 (2xx), one span even with robots.txt and a redirect under it', async () => {
    const span = await fetchSpan('/moved');
    expect(span.attributes).toMatchObject({ 'leadfinder.fetch.outcome': 'ok', 'http.response.status_code': 200, 'leadfinder.fetch.status_class': '2xx', 'leadfinder.fetch.source': 'http' });
    expect(span.status.code).not.toBe(SpanStatusCode.ERROR);
  });

  it('a page robots.txt disallows: outcome robots, no HTTP status', async () => {
    const span = await fetchSpan('/private/page');
    expect(span.attributes['leadfinder.fetch.outcome']).toBe('robots');
    expect(span.attributes['http.response.status_code']).toBeUndefined();
  });

  it('HTTP errors: outcome http_status with the status and its class', async () => {
    expect((await fetchSpan('/missing')).attributes).toMatchObject({ 'leadfinder.fetch.outcome': 'http_status', 'http.response.status_code': 404, 'leadfinder.fetch.status_class': '4xx' });
    telemetry.reset();
    expect((await fetchSpan('/broken')).attributes).toMatchObject({ 'leadfinder.fetch.outcome': 'http_status', 'http.response.status_code': 503, 'leadfinder.fetch.status_class': '5xx' });
  });

  it('a page that never answers: outcome timeout', async () => {
    expect((await fetchSpan('/slow', { LEADFINDER_FETCH_TIMEOUT_MS: '200' })).attributes['leadfinder.fetch.outcome']).toBe('timeout');
  });

  it('a fetch the run stopped: outcome cancelled, not a span error', async () => {
    const stop = new AbortController();
    setTimeout(() => stop.abort(new Error('run stopped')), 100);
    const span = await fetchSpan('/slow', {}, stop.signal);
    expect(span.attributes['leadfinder.fetch.outcome']).toBe('cancelled');
    expect(span.status.code).not.toBe(SpanStatusCode.ERROR);
  });

  it('outside any trace a fetch starts no trace of its own', async () => {
    await fetcher().fetch({ url: `http://${HOST}:${site.port}/story` }, { signal: never });
    expect(telemetry.spans().filter((s) => s.name === 'fetch.page')).toEqual([]);
  });
});

describe('search spans', () => {
  it('one span per provider call with the provider and how many results it gave', async () => {
    const spans = await underParent(() => fetcher().search({ query: 'berlin startups' } as never, { signal: never }));
    expect(spans.map((s) => s.name)).toEqual(['search']);
    expect(spans[0]!.attributes).toMatchObject({ 'leadfinder.search.provider': 'stub-provider', 'leadfinder.search.result_count': 3 });
  });
});
