import { describe, expect, test } from 'vitest';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, context, trace } from '@opentelemetry/api';
import { TraceState } from '@opentelemetry/core';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { encodeSpansAsOtlpJson } from '../src/telemetry/otlp-json.js';
import { withoutDefaults } from './otlp-json-testing.js';

/**
 * Our OTLP/JSON encoder against the official one (`@opentelemetry/otlp-transformer`'s JsonTraceSerializer,
 * what `@opentelemetry/exporter-trace-otlp-http` sends): the same document once the fields proto3's JSON
 * mapping may leave out at their default (empty lists, zero dropped counts, empty strings) are dropped from
 * the official one.
 */

function recorded(build: (provider: BasicTracerProvider) => void, limits: { attributeCountLimit?: number } = {}): ReadableSpan[] {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'leadfinder-edge', 'leadfinder.role': 'edge', 'host.arch': 'x64' }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
    spanLimits: limits,
  });
  build(provider);
  return exporter.getFinishedSpans();
}

function official(spans: ReadableSpan[]): unknown {
  return withoutDefaults(JSON.parse(Buffer.from(JsonTraceSerializer.serializeRequest(spans)!).toString('utf8')));
}

function ours(spans: ReadableSpan[]): unknown {
  return JSON.parse(encodeSpansAsOtlpJson(spans).toString('utf8'));
}

describe('OTLP/JSON span encoding', () => {
  test('a POST-shaped trace (nested spans of several scopes, typed attributes) encodes as the official serializer does', () => {
    const spans = recorded((provider) => {
      const http = provider.getTracer('leadfinder.http');
      const ports = provider.getTracer('leadfinder.ports', '1.2.3', { schemaUrl: 'https://opentelemetry.io/schemas/1.30.0' });
      const server = http.startSpan('POST /v1/searches', {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': 'POST', 'url.path': '/v1/searches', 'http.route': '/v1/searches', 'user_agent.original': 'curl/8 "quoted" \\ back\nslash ünïcødé 🚀' },
      }, ROOT_CONTEXT);
      const inServer = trace.setSpan(ROOT_CONTEXT, server);
      const reserve = ports.startSpan('billing.reserve', { attributes: { 'leadfinder.billing.hold_microusd': 5_000_000, 'leadfinder.run_id': 'run_1' } }, inServer);
      reserve.setAttributes({ 'leadfinder.ratio': 0.25, 'leadfinder.ok': true, 'leadfinder.no': false, 'leadfinder.zero': 0, 'leadfinder.negative': -3 });
      reserve.setAttribute('leadfinder.event.types', ['status', 'cost']);
      reserve.setAttribute('leadfinder.counts', [1, 2.5, 3]);
      reserve.setAttribute('leadfinder.flags', [true, false]);
      reserve.end();
      ports.startSpan('publish work.runs', { kind: SpanKind.PRODUCER }, inServer).end();
      ports.startSpan('receive work.runs', { kind: SpanKind.CLIENT }, inServer).end();
      ports.startSpan('process', { kind: SpanKind.CONSUMER }, inServer).end();
      server.setAttribute('http.response.status_code', 202);
      server.end();
    });
    expect(spans).toHaveLength(5);
    expect(ours(spans)).toEqual(official(spans));
  });

  test('status, events with and without attributes, links, dropped attributes, a remote parent with trace state', () => {
    const spans = recorded((provider) => {
      const t = provider.getTracer('leadfinder.coordinator');
      const remote = trace.setSpanContext(ROOT_CONTEXT, {
        traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: TraceFlags.SAMPLED,
        isRemote: true, traceState: new TraceState('vendor=abc,other=1'),
      });
      const run = t.startSpan('leadfinder.run', { links: [{ context: { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: TraceFlags.NONE }, attributes: { why: 'retry' } }] }, remote);
      run.addEvent('stage started', { stage: 'search' });
      run.addEvent('bare');
      run.recordException(new Error('boom: "quoted"'));
      run.setStatus({ code: SpanStatusCode.ERROR, message: 'failed at verify' });
      for (let i = 0; i < 5; i++) run.setAttribute(`leadfinder.a${i}`, i);
      run.end();
      const ok = t.startSpan('ok', {}, trace.setSpan(context.active(), run));
      ok.setStatus({ code: SpanStatusCode.OK });
      ok.end();
    }, { attributeCountLimit: 3 });
    expect(spans[0]!.droppedAttributesCount).toBeGreaterThan(0);
    expect(ours(spans)).toEqual(official(spans));
  });

  test('timestamps keep nanosecond precision past 2^53 and zero-pad the fraction', () => {
    const spans = recorded((provider) => {
      const t = provider.getTracer('t');
      t.startSpan('early fraction', { startTime: [1_764_000_000, 7] }).end([1_764_000_001, 999_999_999]);
      t.startSpan('epoch', { startTime: [0, 5] }).end([0, 6]);
    });
    const doc = ours(spans) as { resourceSpans: { scopeSpans: { spans: { startTimeUnixNano: string; endTimeUnixNano: string }[] }[] }[] };
    const [early, epoch] = doc.resourceSpans[0]!.scopeSpans[0]!.spans;
    expect(early!.startTimeUnixNano).toBe('1764000000000000007');
    expect(early!.endTimeUnixNano).toBe('1764000001999999999');
    expect(epoch!.startTimeUnixNano).toBe('5');
    expect(ours(spans)).toEqual(official(spans));
  });
});
