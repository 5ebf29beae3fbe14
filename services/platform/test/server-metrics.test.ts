import { afterEach, expect, test } from 'vitest';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import type { HistogramMetricData } from '@opentelemetry/sdk-metrics';
import { HTTP_SERVER_DURATION_BUCKETS_S, recordHttpServerRequest } from '../src/telemetry/server-metrics.js';
import { createInMemoryTelemetry, type InMemoryTelemetry } from '../src/telemetry/testing.js';

/**
 * Server durations are kept outside the metrics SDK (a record through it hashes the attribute set per
 * request) and handed to the readers by a producer: what a dashboard reads must be what the SDK's own
 * histogram would have exported for the same requests.
 */

class ManualReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

let telemetry: InMemoryTelemetry | undefined;
afterEach(async () => {
  await telemetry?.shutdown();
  telemetry = undefined;
});

/** Requests with durations on and around the bucket bounds, past the last one, zero; 2xx, 4xx and 5xx. */
function requests(routes: number) {
  const out: { method: string; route: string | undefined; statusCode: number; scheme: string; durationS: number }[] = [];
  const durations = [0, 0.0049, 0.005, 0.0051, 0.3, 1, 9000, 18000, 18000.5, 40000];
  for (let i = 0; i < routes; i++) {
    const route = i === 0 ? undefined : `/r/${i}`;
    for (const [k, durationS] of durations.entries()) {
      out.push({ method: k % 3 ? 'GET' : 'POST', route, statusCode: [200, 404, 503][k % 3]!, scheme: 'http', durationS });
    }
  }
  return out;
}

async function viaSdk(input: ReturnType<typeof requests>): Promise<HistogramMetricData> {
  const reader = new ManualReader();
  const provider = new MeterProvider({ readers: [reader] });
  const histogram = provider.getMeter('leadfinder.server').createHistogram('http.server.request.duration', {
    description: 'Duration of HTTP server requests', unit: 's', advice: { explicitBucketBoundaries: HTTP_SERVER_DURATION_BUCKETS_S },
  });
  for (const r of input) {
    histogram.record(r.durationS, {
      'http.request.method': r.method, 'http.response.status_code': r.statusCode, 'url.scheme': r.scheme,
      ...(r.route ? { 'http.route': r.route } : {}), ...(r.statusCode >= 500 ? { 'error.type': String(r.statusCode) } : {}),
    });
  }
  const { resourceMetrics } = await reader.collect();
  await provider.shutdown();
  return resourceMetrics.scopeMetrics[0]!.metrics[0] as HistogramMetricData;
}

async function viaProducer(input: ReturnType<typeof requests>): Promise<{ metric: HistogramMetricData; scope: string }> {
  telemetry = createInMemoryTelemetry();
  for (const r of input) recordHttpServerRequest(r);
  const metrics = await telemetry.collectMetrics();
  const scope = metrics.scopeMetrics.find((s) => s.metrics.some((m) => m.descriptor.name === 'http.server.request.duration'))!;
  return { metric: scope.metrics.find((m) => m.descriptor.name === 'http.server.request.duration') as HistogramMetricData, scope: scope.scope.name };
}

const comparable = (m: HistogramMetricData) => ({
  descriptor: { name: m.descriptor.name, unit: m.descriptor.unit, description: m.descriptor.description, valueType: m.descriptor.valueType },
  aggregationTemporality: m.aggregationTemporality,
  dataPointType: m.dataPointType,
  points: m.dataPoints
    .map((p) => ({ attributes: p.attributes, value: { buckets: p.value.buckets, sum: p.value.sum, count: p.value.count, min: p.value.min, max: p.value.max } }))
    .sort((a, b) => JSON.stringify(a.attributes).localeCompare(JSON.stringify(b.attributes))),
});

test('http.server.request.duration reads as the SDK histogram would: buckets, sum, count, min, max, attributes, scope', async () => {
  const input = requests(4);
  const { metric, scope } = await viaProducer(input);
  expect(scope).toBe('leadfinder.server');
  const expected = comparable(await viaSdk(input));
  expect(comparable(metric)).toEqual(expected);
  // Not vacuous: 12 series (4 routes × 3 method/status pairs), every bucket bound exercised.
  expect(expected.points).toHaveLength(12);
  expect(expected.points.some((p) => p.attributes['error.type'] === '503')).toBe(true);
  const point = metric.dataPoints[0]!;
  expect(point.endTime[0]).toBeGreaterThanOrEqual(point.startTime[0]);
});

test('past 2,000 attribute sets, new ones fold into one overflow series, as the SDK\'s cardinality limit does', async () => {
  const input = requests(700);
  const { metric } = await viaProducer(input);
  const expected = comparable(await viaSdk(input));
  expect(comparable(metric)).toEqual(expected);
  expect(metric.dataPoints).toHaveLength(2000);
  expect(metric.dataPoints.some((p) => p.attributes['otel.metric.overflow'] === true)).toBe(true);
});

test('a reading is a snapshot: requests recorded after it do not change what it returned', async () => {
  telemetry = createInMemoryTelemetry();
  recordHttpServerRequest({ method: 'GET', route: '/v1/searches/:id', statusCode: 200, scheme: 'http', durationS: 0.002 });
  const first = await telemetry.collectMetrics();
  recordHttpServerRequest({ method: 'GET', route: '/v1/searches/:id', statusCode: 200, scheme: 'http', durationS: 0.002 });
  const second = await telemetry.collectMetrics();
  const count = (m: typeof first) => (m.scopeMetrics.flatMap((s) => s.metrics)[0] as HistogramMetricData).dataPoints[0]!.value;
  expect(count(first).count).toBe(1);
  expect(count(first).buckets.counts[0]).toBe(1);
  expect(count(second).count).toBe(2);
});

test('with no telemetry installed nothing is kept, and a new installation starts from zero', async () => {
  recordHttpServerRequest({ method: 'GET', route: '/healthz', statusCode: 200, scheme: 'http', durationS: 0.001 });
  telemetry = createInMemoryTelemetry();
  const empty = await telemetry.collectMetrics();
  expect(empty.scopeMetrics.flatMap((s) => s.metrics).filter((m) => m.descriptor.name === 'http.server.request.duration')).toEqual([]);
  recordHttpServerRequest({ method: 'GET', route: '/healthz', statusCode: 200, scheme: 'http', durationS: 0.001 });
  await telemetry.shutdown();
  telemetry = createInMemoryTelemetry();
  recordHttpServerRequest({ method: 'GET', route: '/healthz', statusCode: 200, scheme: 'http', durationS: 0.001 });
  const metric = (await telemetry.collectMetrics()).scopeMetrics.flatMap((s) => s.metrics)[0] as HistogramMetricData;
  expect(metric.dataPoints.map((p) => p.value.count)).toEqual([1]);
});
