import { createServer } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { trace } from '@opentelemetry/api';
import type { DataPoint, Histogram } from '@opentelemetry/sdk-metrics';
import { loadConfig } from '../src/config.js';
import { silentLogger } from '../src/logger.js';
import { createInProcessWorkQueue } from '../src/adapters/embedded/work-queue.js';
import { countingLlmUsage, createLeadfinderMetrics } from '../src/telemetry/metrics.js';
import { startTelemetry } from '../src/telemetry/sdk.js';
import { createInMemoryTelemetry, type InMemoryTelemetry } from '../src/telemetry/testing.js';
import { ENQUEUED_AT_HEADER, instrumentWorkQueue } from '../src/telemetry/work-queue-metrics.js';

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function metric(telemetry: InMemoryTelemetry, name: string) {
  const all = (await telemetry.collectMetrics()).scopeMetrics.flatMap((s) => s.metrics);
  return all.find((m) => m.descriptor.name === name);
}

describe('work queue metrics (instrumentWorkQueue)', () => {
  test('queue wait on the injected clock, runs held and the oldest one\'s age, redeliveries', async () => {
    const telemetry = createInMemoryTelemetry();
    cleanups.push(() => telemetry.shutdown());
    let now = 1_000_000;
    const clock = { now: () => now };
    const raw = createInProcessWorkQueue({ logger: silentLogger });
    const queue = instrumentWorkQueue(raw, { clock });
    cleanups.push(() => queue.close());

    await queue.enqueue('run_a', { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' });
    now += 2_500; // the run waits 2.5 s for a coordinator
    const subscription = queue.consume({ ackWaitMs: 60_000, maxInFlight: 2 });
    cleanups.push(() => subscription.stop());
    const items = subscription[Symbol.asyncIterator]();
    const first = (await items.next()).value;
    expect(first.runId).toBe('run_a');
    // The caller's headers travel untouched, beside the stamp.
    expect(first.headers.traceparent).toBe('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
    expect(first.headers[ENQUEUED_AT_HEADER]).toBe('1000000');

    const wait = (await metric(telemetry, 'leadfinder.work.queue_wait'))!.dataPoints[0] as DataPoint<Histogram>;
    expect(wait.value).toMatchObject({ count: 1, sum: 2.5 });
    now += 60_000;
    expect((await metric(telemetry, 'leadfinder.runs.in_flight'))!.dataPoints[0]!.value).toBe(1);
    expect((await metric(telemetry, 'leadfinder.runs.oldest_in_flight_age'))!.dataPoints[0]!.value).toBe(60);

    // Given back: no longer held; delivered again: a redelivery, not a second queue wait.
    await first.nak(0);
    expect((await metric(telemetry, 'leadfinder.runs.in_flight'))!.dataPoints[0]!.value).toBe(0);
    expect((await metric(telemetry, 'leadfinder.runs.oldest_in_flight_age'))!.dataPoints[0]!.value).toBe(0);
    const again = (await items.next()).value;
    expect(again.deliveryCount).toBe(2);
    expect((await metric(telemetry, 'leadfinder.work.redeliveries'))!.dataPoints[0]!.value).toBe(1);
    expect(((await metric(telemetry, 'leadfinder.work.queue_wait'))!.dataPoints[0] as DataPoint<Histogram>).value.count).toBe(1);
    await again.ack();
    await again.ack(); // settling twice does not count twice
    expect((await metric(telemetry, 'leadfinder.runs.in_flight'))!.dataPoints[0]!.value).toBe(0);
  });
});

describe('LLM usage and run metrics', () => {
  test('counts LLM calls and tokens by model from each filter answer\'s usage, and nothing for rule answers', async () => {
    const telemetry = createInMemoryTelemetry();
    cleanups.push(() => telemetry.shutdown());
    const filter = {
      plan: async () => ({ plan: {}, usage: { calls: 1, inputTokens: 900, outputTokens: 120 } }),
      verify: async () => ({ verdict: {}, usage: { calls: 0, inputTokens: 0, outputTokens: 0 } }),
    };
    const counted = countingLlmUsage(filter, 'gpt-4o-mini', createLeadfinderMetrics());
    await counted.plan();
    await counted.plan();
    await counted.verify();
    const tokens = (await metric(telemetry, 'leadfinder.llm.tokens'))!.dataPoints.map((p) => [p.attributes, p.value]);
    expect(tokens).toEqual(expect.arrayContaining([
      [{ 'gen_ai.request.model': 'gpt-4o-mini', 'gen_ai.token.type': 'input' }, 1800],
      [{ 'gen_ai.request.model': 'gpt-4o-mini', 'gen_ai.token.type': 'output' }, 240],
    ]));
    expect((await metric(telemetry, 'leadfinder.llm.calls'))!.dataPoints.map((p) => p.value)).toEqual([2]);
  });

  test('stage and run durations have buckets up to twice the default run deadline; lost leases start at zero', async () => {
    const telemetry = createInMemoryTelemetry();
    cleanups.push(() => telemetry.shutdown());
    const m = createLeadfinderMetrics();
    m.stageDuration('funnel', 8_999_000);
    m.runDuration('done', 1_234);
    for (const name of ['leadfinder.stage.duration', 'leadfinder.run.duration']) {
      const point = (await metric(telemetry, name))!.dataPoints[0] as DataPoint<Histogram>;
      expect(Math.max(...point.value.buckets.boundaries), name).toBeGreaterThanOrEqual(9_000_000);
    }
    // 8,999 s lands in the (3,600 s, 9,000 s] bucket, not in an overflow bucket.
    const stage = (await metric(telemetry, 'leadfinder.stage.duration'))!.dataPoints[0] as DataPoint<Histogram>;
    const { boundaries, counts } = stage.value.buckets;
    expect(boundaries[counts.indexOf(1)]).toBe(9_000_000);
    expect((await metric(telemetry, 'leadfinder.leases.lost'))!.dataPoints[0]!.value).toBe(0);
    m.leaseLost();
    expect((await metric(telemetry, 'leadfinder.leases.lost'))!.dataPoints[0]!.value).toBe(1);
  });
});

describe('Prometheus endpoint (LEADFINDER_METRICS_PORT)', () => {
  test('serves GET /metrics in the text format on its own port, 404 elsewhere, and closes on shutdown', async () => {
    const handle = await startTelemetry({
      role: 'coordinator', logger: silentLogger, config: { OTEL_EXPORTER_OTLP_ENDPOINT: undefined, OTEL_SERVICE_NAME: undefined, HOST: '127.0.0.1' },
      metricsPort: 0,
    });
    cleanups.push(() => handle.shutdown());
    expect(handle.metricsPort).toBeGreaterThan(0);
    createLeadfinderMetrics().runEnded('stopped');
    const res = await fetch(`http://127.0.0.1:${handle.metricsPort}/metrics`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(/^leadfinder_runs_total\{status="stopped"\} 1$/m);
    expect(text).toMatch(/^# TYPE v8js_memory_heap_used gauge$/m);
    expect((await fetch(`http://127.0.0.1:${handle.metricsPort}/`)).status).toBe(404);
    await handle.shutdown();
    await expect(fetch(`http://127.0.0.1:${handle.metricsPort}/metrics`)).rejects.toThrow();
  });

  test('a taken port stops start-up with one line naming the variable, and leaves no provider installed', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise((r) => blocker.close(r)));
    const port = (blocker.address() as { port: number }).port;
    await expect(startTelemetry({
      role: 'edge', logger: silentLogger, config: { OTEL_EXPORTER_OTLP_ENDPOINT: undefined, OTEL_SERVICE_NAME: undefined, HOST: '127.0.0.1' },
      metricsPort: port,
    })).rejects.toThrow(expect.objectContaining({ name: 'MetricsListenError', message: `LEADFINDER_METRICS_PORT: cannot listen on 127.0.0.1:${port} (EADDRINUSE)` }));
    const span = trace.getTracer('after').startSpan('after a failed start');
    expect(span.isRecording()).toBe(false);
    span.end();
  });

  test('configuration: a port of its own, never the public PORT', () => {
    expect(loadConfig({ LEADFINDER_METRICS_PORT: '9464' }).LEADFINDER_METRICS_PORT).toBe(9464);
    expect(loadConfig({}).LEADFINDER_METRICS_PORT).toBeUndefined();
    expect(() => loadConfig({ LEADFINDER_METRICS_PORT: '8080', PORT: '8080' })).toThrow(/LEADFINDER_METRICS_PORT/);
    expect(() => loadConfig({ LEADFINDER_METRICS_PORT: '70000' })).toThrow(/LEADFINDER_METRICS_PORT/);
  });
});
