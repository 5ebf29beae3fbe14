import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, test } from 'vitest';
import { trace } from '@opentelemetry/api';
import { createLogger, silentLogger } from '../src/logger.js';
import { injectTraceContext, tracer, withExtractedContext } from '../src/telemetry/context.js';
import { createLeadfinderMetrics } from '../src/telemetry/metrics.js';
import { messagingAttributes, rpcAttributes } from '../src/telemetry/semconv.js';
import { startTelemetry } from '../src/telemetry/sdk.js';
import type { TelemetryHandle } from '../src/telemetry/sdk.js';
import { createInMemoryTelemetry } from '../src/telemetry/testing.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function started(endpoint?: string): Promise<TelemetryHandle> {
  const handle = await startTelemetry({
    role: 'fetcher', logger: silentLogger, config: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SERVICE_NAME: undefined },
    metricExportIntervalMs: 60_000,
  });
  cleanups.push(() => handle.shutdown());
  return handle;
}

describe('startTelemetry', () => {
  test('without an OTLP endpoint, spans still get trace ids and log lines carry them', async () => {
    await started();
    const lines = new PassThrough();
    const chunks: string[] = [];
    lines.on('data', (c: Buffer) => chunks.push(c.toString()));
    const logger = createLogger({ destination: lines });
    const traceId = tracer('test').startActiveSpan('step', (span) => {
      logger.info('inside a span');
      span.end();
      return span.spanContext().traceId;
    });
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(traceId).not.toBe('0'.repeat(32));
    await new Promise((r) => setImmediate(r));
    expect(JSON.parse(chunks.join('').trim())).toMatchObject({ msg: 'inside a span', trace_id: traceId });
  });

  test('with an OTLP endpoint, spans and metrics are posted to it on shutdown', async () => {
    const received: { path: string; bytes: number }[] = [];
    const collector = createServer((req, res) => {
      let bytes = 0;
      req.on('data', (c: Buffer) => (bytes += c.length));
      req.on('end', () => {
        received.push({ path: req.url ?? '', bytes });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => collector.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise((r) => collector.close(() => r())));
    const handle = await started(`http://127.0.0.1:${(collector.address() as AddressInfo).port}/`);
    tracer('test').startActiveSpan('exported', (span) => span.end());
    createLeadfinderMetrics().runEnded('done');
    await handle.shutdown();
    const paths = received.filter((r) => r.bytes > 0).map((r) => r.path);
    expect(paths).toContain('/v1/traces');
    expect(paths).toContain('/v1/metrics');
  });

  test('shutdown uninstalls the providers, so a second start in the same process works', async () => {
    const first = await started();
    await first.shutdown();
    await started();
    const span = tracer('test').startSpan('again');
    expect(span.isRecording()).toBe(true);
    span.end();
  });
});

describe('trace context helpers', () => {
  test('context injected on one side and extracted on the other continues the same trace', async () => {
    const telemetry = createInMemoryTelemetry();
    cleanups.push(() => telemetry.shutdown());
    const { headers, traceId } = tracer('test').startActiveSpan('publisher', (span) => {
      const out = { headers: injectTraceContext(), traceId: span.spanContext().traceId };
      span.end();
      return out;
    });
    expect(headers.traceparent).toContain(traceId);
    const consumerTrace = withExtractedContext(headers, () =>
      tracer('test').startActiveSpan('consumer', (span) => {
        span.end();
        return span.spanContext().traceId;
      }));
    expect(consumerTrace).toBe(traceId);
    expect(injectTraceContext()).toEqual({});
    expect(withExtractedContext({}, () => trace.getActiveSpan())).toBeUndefined();
  });

  test('an in-memory installation replaces one an earlier test file left installed', async () => {
    const left = createInMemoryTelemetry();
    cleanups.push(() => left.shutdown());
    const telemetry = createInMemoryTelemetry();
    cleanups.push(() => telemetry.shutdown());
    tracer('test').startSpan('recorded').end();
    expect(telemetry.spans().map((s) => s.name)).toEqual(['recorded']);
    expect(left.spans()).toEqual([]);
    const headers = tracer('test').startActiveSpan('publisher', (span) => {
      span.end();
      return injectTraceContext();
    });
    expect(headers.traceparent).toMatch(/^00-[0-9a-f]{32}-/);
  });
});

describe('leadfinder metrics', () => {
  test('each instrument records under its documented name and attributes', async () => {
    const telemetry = createInMemoryTelemetry();
    cleanups.push(() => telemetry.shutdown());
    const m = createLeadfinderMetrics();
    m.runEnded('done');
    m.runEnded('done');
    m.runEnded('budget_exhausted');
    m.spend(5000, { stage: 'Searching' });
    m.rows(7);
    m.stageDuration('screen', 120);
    m.fetchOutcome('ok');
    m.fetchOutcome('robots');
    const metrics = (await telemetry.collectMetrics()).scopeMetrics.flatMap((s) => s.metrics);
    const points = (name: string) => metrics.find((x) => x.descriptor.name === name)?.dataPoints.map((p) => [p.attributes, p.value]);
    expect(points('leadfinder.runs')).toEqual(expect.arrayContaining([[{ status: 'done' }, 2], [{ status: 'budget_exhausted' }, 1]]));
    expect(points('leadfinder.spend_microusd')).toEqual([[{ stage: 'Searching' }, 5000]]);
    expect(points('leadfinder.rows')).toEqual([[{}, 7]]);
    expect(points('leadfinder.fetch.outcomes')).toEqual(expect.arrayContaining([[{ outcome: 'ok' }, 1], [{ outcome: 'robots' }, 1]]));
    const stage = metrics.find((x) => x.descriptor.name === 'leadfinder.stage.duration');
    expect(stage?.descriptor.unit).toBe('ms');
    expect(stage?.dataPoints[0]).toMatchObject({ attributes: { stage: 'screen' }, value: { count: 1, sum: 120 } });
  });
});

describe('semantic-convention attributes', () => {
  test('RPC and messaging attribute sets use the OpenTelemetry keys', () => {
    expect(rpcAttributes({ service: 'leadfinder.filter.v1.FilterService', method: 'Verify', statusCode: 14 })).toEqual({
      'rpc.system': 'grpc', 'rpc.service': 'leadfinder.filter.v1.FilterService', 'rpc.method': 'Verify', 'rpc.grpc.status_code': 14,
    });
    expect(messagingAttributes({ destination: 'runs.abc.events', operation: 'publish' })).toEqual({
      'messaging.system': 'nats', 'messaging.destination.name': 'runs.abc.events', 'messaging.operation': 'publish',
    });
  });
});
