import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { ROOT_CONTEXT, SpanKind, context, trace } from '@opentelemetry/api';
import { silentLogger } from '../src/logger.js';
import { tracer } from '../src/telemetry/context.js';
import { startTelemetry } from '../src/telemetry/sdk.js';
import type { TelemetryOptions } from '../src/telemetry/sdk.js';
import { decodeTraceRequest, spanNames } from './otlp-proto-testing.js';

/** How `startTelemetry` exports (encoding) and which traces it keeps (sampler), as a collector sees them. */

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function collector() {
  const received: { path: string; contentType: string; bytes: number; body: Buffer }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      received.push({ path: req.url ?? '', contentType: req.headers['content-type'] ?? '', bytes: body.length, body });
      res.writeHead(200, { 'content-type': req.headers['content-type'] ?? 'application/json' }).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(() => new Promise((r) => server.close(() => r())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

async function started(config: Partial<TelemetryOptions['config']> = {}) {
  const handle = await startTelemetry({
    role: 'edge', logger: silentLogger, metricExportIntervalMs: 60_000,
    config: { OTEL_EXPORTER_OTLP_ENDPOINT: undefined, OTEL_SERVICE_NAME: undefined, ...config },
  });
  cleanups.push(() => handle.shutdown());
  return handle;
}

/** A request's SERVER span as the edge starts it (see services/edge/src/http/tracing.ts). */
function serverSpan(method: string, route: string) {
  return tracer('leadfinder.http').startSpan(`${method} ${route}`, {
    kind: SpanKind.SERVER, attributes: { 'http.request.method': method, 'http.route': route, 'url.path': route },
  }, ROOT_CONTEXT);
}

describe('OTLP encoding', () => {
  test('spans and metrics go out as protobuf (the OpenTelemetry default) unless http/json is asked for', async () => {
    for (const [protocol, contentType] of [[undefined, 'application/x-protobuf'], ['http/json', 'application/json']] as const) {
      const sink = await collector();
      const handle = await started({ OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, ...(protocol ? { OTEL_EXPORTER_OTLP_PROTOCOL: protocol } : {}) });
      tracer('test').startSpan('exported').end();
      await handle.shutdown();
      const traces = sink.received.filter((r) => r.path === '/v1/traces' && r.bytes > 0);
      const metrics = sink.received.filter((r) => r.path === '/v1/metrics' && r.bytes > 0);
      expect(traces.length, `traces over ${protocol ?? 'the default'}`).toBeGreaterThan(0);
      expect(metrics.length, `metrics over ${protocol ?? 'the default'}`).toBeGreaterThan(0);
      for (const r of [...traces, ...metrics]) expect(r.contentType).toBe(contentType);
      // What a collector reads: the official types decode the protobuf request, JSON parses.
      const sent = traces.flatMap((r) => (protocol === 'http/json' ? spanNames(JSON.parse(r.body.toString('utf8')) as Parameters<typeof spanNames>[0]) : spanNames(decodeTraceRequest(r.body))));
      expect(sent).toEqual(['exported']);
    }
  });
});

describe('default sampler', () => {
  test('a read request\'s own trace is kept at the read ratio, every other trace whole', async () => {
    await started({ LEADFINDER_TRACES_READ_RATIO: 0 });
    const poll = serverSpan('GET', '/v1/searches/:id');
    const accept = serverSpan('POST', '/v1/searches');
    const signIn = serverSpan('GET', '/auth/callback');
    const run = tracer('test').startSpan('leadfinder.run', { kind: SpanKind.INTERNAL }, ROOT_CONTEXT);
    expect(poll.isRecording()).toBe(false);
    // An unsampled poll still has real ids, so its log line names a trace (the run's traceparent header does not depend on it).
    expect(poll.spanContext().traceId).toMatch(/^(?!0{32})[0-9a-f]{32}$/);
    expect(accept.isRecording()).toBe(true);
    expect(signIn.isRecording()).toBe(true);
    expect(run.isRecording()).toBe(true);
    // Parent-based: what happens under a kept trace is kept, under a dropped one dropped, so no trace is cut.
    const underAccept = context.with(trace.setSpan(ROOT_CONTEXT, accept), () => tracer('test').startSpan('billing.reserve'));
    const underPoll = context.with(trace.setSpan(ROOT_CONTEXT, poll), () => tracer('test').startSpan('store.runs.get'));
    expect(underAccept.isRecording()).toBe(true);
    expect(underPoll.isRecording()).toBe(false);
    for (const s of [poll, accept, signIn, run, underAccept, underPoll]) s.end();
  });

  test('a read ratio of 1 keeps every read; about the ratio in between', async () => {
    const all = await started({ LEADFINDER_TRACES_READ_RATIO: 1 });
    expect(serverSpan('GET', '/v1/searches/:id').isRecording()).toBe(true);
    await all.shutdown();
    await started({ LEADFINDER_TRACES_READ_RATIO: 0.1 });
    let kept = 0;
    for (let i = 0; i < 2000; i++) {
      const span = serverSpan('GET', '/v1/searches/:id');
      if (span.isRecording()) kept++;
      span.end();
    }
    expect(kept).toBeGreaterThan(120);
    expect(kept).toBeLessThan(280);
  });

  test('OTEL_TRACES_SAMPLER replaces it with the standard sampler it names', async () => {
    const before = process.env.OTEL_TRACES_SAMPLER;
    process.env.OTEL_TRACES_SAMPLER = 'always_off';
    cleanups.push(async () => {
      if (before === undefined) delete process.env.OTEL_TRACES_SAMPLER;
      else process.env.OTEL_TRACES_SAMPLER = before;
    });
    await started({ OTEL_TRACES_SAMPLER: 'always_off', LEADFINDER_TRACES_READ_RATIO: 1 });
    expect(serverSpan('POST', '/v1/searches').isRecording()).toBe(false);
  });
});
