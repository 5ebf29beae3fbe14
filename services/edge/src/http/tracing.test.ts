import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createInMemoryTelemetry, type InMemoryTelemetry } from '@leadfinder/platform/telemetry';
import { bearer, startHarness, type Harness } from '../../test/harness.js';

let telemetry: InMemoryTelemetry;
let h: Harness;

beforeAll(async () => {
  telemetry = createInMemoryTelemetry();
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
  await telemetry.shutdown();
});
beforeEach(() => telemetry.reset());

const serverSpans = () => telemetry.spans().filter((s) => s.kind === SpanKind.SERVER);

describe('edge request tracing', () => {
  it('records a SERVER span named by method and route, with the HTTP attributes and no query string', async () => {
    const { apiKey } = await h.createAccount(25);
    telemetry.reset();
    const res = await h.app.inject({ method: 'GET', url: '/v1/searches/does-not-exist?token=secret', headers: bearer(apiKey) });
    expect(res.statusCode).toBe(404);
    const [span] = serverSpans();
    expect(span?.name).toBe('GET /v1/searches/:id');
    expect(span?.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.route': '/v1/searches/:id',
      'url.path': '/v1/searches/does-not-exist',
      'http.response.status_code': 404,
    });
    // A 4xx is answered correctly: not a server error.
    expect(span?.status.code).not.toBe(SpanStatusCode.ERROR);
  });

  it('traces refused requests too, and continues a trace the client started', async () => {
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const res = await h.app.inject({
      method: 'POST', url: '/v1/searches', payload: { q: 'x' },
      headers: { traceparent: `00-${traceId}-b7ad6b7169203331-01` },
    });
    expect(res.statusCode).toBe(401);
    const [span] = serverSpans();
    expect(span?.name).toBe('POST /v1/searches');
    expect(span?.spanContext().traceId).toBe(traceId);
    expect(span?.parentSpanContext?.spanId).toBe('b7ad6b7169203331');
    expect(span?.attributes['http.response.status_code']).toBe(401);
  });

  it('makes the request span the parent of the run trace the accepted search carries', async () => {
    const { apiKey } = await h.createAccount(25);
    telemetry.reset();
    const res = await h.app.inject({ method: 'POST', url: '/v1/searches', payload: { q: 'AI startups in Berlin', target: 1 }, headers: bearer(apiKey) });
    expect(res.statusCode).toBe(202);
    const post = serverSpans().find((s) => s.name === 'POST /v1/searches')!;
    const carried = h.enqueued.at(-1)!.headers['traceparent'];
    expect(carried?.split('-')[1]).toBe(post.spanContext().traceId);
  });

  it('records the accept span under telemetry installed after the first search (the edge looks its tracer up per request)', async () => {
    const { apiKey } = await h.createAccount(25);
    const accept = async () => {
      const res = await h.app.inject({ method: 'POST', url: '/v1/searches', payload: { q: 'AI startups in Berlin', target: 1 }, headers: bearer(apiKey) });
      expect(res.statusCode).toBe(202);
      const post = serverSpans().find((s) => s.name === 'POST /v1/searches')!;
      return telemetry.spans().find((s) => s.name === 'search.accept' && s.parentSpanContext?.spanId === post.spanContext().spanId);
    };
    expect(await accept()).toBeDefined();
    await telemetry.shutdown();
    telemetry = createInMemoryTelemetry();
    expect(await accept()).toBeDefined();
  });
});
