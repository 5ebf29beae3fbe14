import { PassThrough } from 'node:stream';
import { SpanKind } from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@leadfinder/platform';
import { createInMemoryTelemetry, type InMemoryTelemetry } from '@leadfinder/platform/telemetry';
import { buildEdgeApp } from '../app.js';
import { bearer, startHarness, type Harness } from '../../test/harness.js';

let telemetry: InMemoryTelemetry;
let h: Harness;
let app: FastifyInstance;
const output: string[] = [];

beforeAll(async () => {
  telemetry = createInMemoryTelemetry();
  h = await startHarness();
  // The harness's own app logs nowhere; this one logs through the platform logger into `output`.
  const destination = new PassThrough();
  destination.on('data', (chunk: Buffer) => output.push(...chunk.toString().split('\n').filter(Boolean)));
  app = await buildEdgeApp({ ...h.deps, logger: createLogger({ destination, level: 'info' }) });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await h.close();
  await telemetry.shutdown();
});

interface RequestLine { msg: string; method: string; route: string | null; path: string; status: number; duration_ms: number; trace_id: string; span_id: string }
const requestLines = (): RequestLine[] => output.map((l) => JSON.parse(l) as RequestLine & { component?: string }).filter((l) => l.msg === 'request');
const flushed = () => new Promise((r) => setImmediate(r));
const TRACEPARENT = /^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/;

describe('edge request log and run trace header', () => {
  it('logs one line per request with method, route, status, duration and the request span\'s trace and span ids, and no secrets', async () => {
    const { apiKey } = await h.createAccount(25);
    telemetry.reset();
    output.length = 0;
    const res = await app.inject({
      method: 'GET', url: '/v1/searches/does-not-exist?token=query-secret-123',
      headers: { ...bearer(apiKey), cookie: 'lf_session=cookie-secret-456' },
    });
    expect(res.statusCode).toBe(404);
    await flushed();
    const lines = requestLines();
    expect(lines).toHaveLength(1);
    const span = telemetry.spans().find((s) => s.kind === SpanKind.SERVER)!;
    expect(lines[0]).toMatchObject({
      method: 'GET', route: '/v1/searches/:id', path: '/v1/searches/does-not-exist', status: 404,
      trace_id: span.spanContext().traceId, span_id: span.spanContext().spanId,
    });
    expect(lines[0]!.duration_ms).toBeGreaterThanOrEqual(0);
    const all = output.join('\n');
    for (const secret of [apiKey, 'query-secret-123', 'cookie-secret-456']) expect(all).not.toContain(secret);
  });

  it('answers the 202 and GET /v1/searches/{id} with the run\'s traceparent, the trace a client-sent traceparent started', async () => {
    const { apiKey } = await h.createAccount(25);
    telemetry.reset();
    output.length = 0;
    const clientTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
    const accepted = await app.inject({
      method: 'POST', url: '/v1/searches', payload: { q: 'AI startups in Berlin', target: 1 },
      headers: { ...bearer(apiKey), traceparent: `00-${clientTrace}-00f067aa0ba902b7-01` },
    });
    expect(accepted.statusCode).toBe(202);
    const header = accepted.headers['traceparent'];
    expect(header).toMatch(TRACEPARENT);
    const { id } = accepted.json<{ id: string }>();
    // The run's trace: the one its record and its work message carry, continuing the client's.
    const run = await h.deps.store.runs.get(id);
    expect(header).toBe(run!.trace.traceparent);
    expect(String(header).split('-')[1]).toBe(clientTrace);
    expect(h.enqueued.at(-1)!.headers['traceparent']?.split('-')[1]).toBe(clientTrace);

    const read = await app.inject({ method: 'GET', url: `/v1/searches/${id}`, headers: bearer(apiKey) });
    expect(read.statusCode).toBe(200);
    expect(read.headers['traceparent']).toBe(header);

    // Each request's log line names its own request span; the POST's is in the run's trace.
    await flushed();
    const post = requestLines().find((l) => l.method === 'POST')!;
    expect(post).toMatchObject({ route: '/v1/searches', status: 202, trace_id: clientTrace });
    const postSpan = telemetry.spans().find((s) => s.kind === SpanKind.SERVER && s.name === 'POST /v1/searches')!;
    expect(post.span_id).toBe(postSpan.spanContext().spanId);
  });

  it('answers a replayed Idempotency-Key request with the first request\'s run trace, not the retry\'s own', async () => {
    const { apiKey } = await h.createAccount(25);
    const post = (trace: string) => app.inject({
      method: 'POST', url: '/v1/searches', payload: { q: 'AI startups in Berlin', target: 1 },
      headers: { ...bearer(apiKey), 'idempotency-key': 'trace-replay-1', traceparent: `00-${trace}-00f067aa0ba902b7-01` },
    });
    const first = await post('11111111111111111111111111111111');
    const retry = await post('22222222222222222222222222222222');
    expect([first.statusCode, retry.statusCode]).toEqual([202, 202]);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json<{ id: string }>().id).toBe(first.json<{ id: string }>().id);
    expect(String(retry.headers['traceparent']).split('-')[1]).toBe('11111111111111111111111111111111');
    expect(retry.headers['traceparent']).toBe(first.headers['traceparent']);
  });

  it('sends no traceparent for a run record without one (created before tracing ran)', async () => {
    const { apiKey } = await h.createAccount(25);
    const accepted = await app.inject({ method: 'POST', url: '/v1/searches', payload: { q: 'AI startups in Berlin', target: 1 }, headers: bearer(apiKey) });
    const { id } = accepted.json<{ id: string }>();
    await telemetry.shutdown();
    try {
      const fresh = await app.inject({ method: 'POST', url: '/v1/searches', payload: { q: 'AI startups in Berlin', target: 1 }, headers: bearer(apiKey) });
      expect(fresh.statusCode).toBe(202);
      expect(fresh.headers['traceparent']).toBeUndefined();
    } finally {
      telemetry = createInMemoryTelemetry();
    }
    const read = await app.inject({ method: 'GET', url: `/v1/searches/${id}`, headers: bearer(apiKey) });
    expect(read.headers['traceparent']).toMatch(TRACEPARENT);
  });

  it('times every request into http.server.request.duration by route and status', async () => {
    const { apiKey } = await h.createAccount(25);
    await app.inject({ method: 'GET', url: '/v1/searches', headers: bearer(apiKey) });
    await app.inject({ method: 'GET', url: '/v1/searches' });
    const metrics = await telemetry.collectMetrics();
    const histogram = metrics.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === 'http.server.request.duration')!;
    expect(histogram.descriptor.unit).toBe('s');
    const points = histogram.dataPoints.filter((p) => p.attributes['http.route'] === '/v1/searches' && p.attributes['http.request.method'] === 'GET');
    expect(points.map((p) => p.attributes['http.response.status_code']).sort()).toEqual([200, 401]);
    const buckets = (points[0]!.value as { buckets: { boundaries: number[] } }).buckets.boundaries;
    // Sized to the run deadline: an event stream lasts as long as its run (9,000 s by default).
    expect(Math.max(...buckets)).toBeGreaterThanOrEqual(9000);
  });
});
