import { describe, expect, test } from 'vitest';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, context, trace } from '@opentelemetry/api';
import type { Attributes } from '@opentelemetry/api';
import { TraceState } from '@opentelemetry/core';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { ReadableSpan, SpanLimits } from '@opentelemetry/sdk-trace-base';
import { encodeSpansAsOtlpProto } from '../src/telemetry/otlp-proto.js';
import { ExportTraceServiceRequest, decodeTraceRequest } from './otlp-proto-testing.js';
import type { DecodedRequest } from './otlp-proto-testing.js';

/**
 * Our OTLP/protobuf writer against the official one (`@opentelemetry/otlp-transformer`'s
 * ProtobufTraceSerializer, what `@opentelemetry/exporter-trace-otlp-proto` sends): both requests decoded with
 * the official generated types read the same, field by field. Ours is also canonical protobuf: re-encoding
 * its decoded message gives back the same bytes (fields in number order, shortest lengths, no field twice).
 */

const resource = resourceFromAttributes({ 'service.name': 'leadfinder-edge', 'leadfinder.role': 'edge', 'host.arch': 'x64', 'process.pid': 4242 });

function recorded(build: (provider: BasicTracerProvider) => void, spanLimits: SpanLimits = {}): ReadableSpan[] {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ resource, spanProcessors: [new SimpleSpanProcessor(exporter)], spanLimits });
  build(provider);
  return exporter.getFinishedSpans();
}

function official(spans: readonly ReadableSpan[]): DecodedRequest {
  return decodeTraceRequest(ProtobufTraceSerializer.serializeRequest([...spans])!);
}

function ours(spans: readonly ReadableSpan[]): DecodedRequest {
  const bytes = encodeSpansAsOtlpProto(spans);
  expect(Buffer.from(ExportTraceServiceRequest.encode(ExportTraceServiceRequest.decode(bytes)).finish()).equals(bytes), 'canonical encoding').toBe(true);
  return decodeTraceRequest(bytes);
}

/** A recorded span with other attributes: what the SDK's own checks would not let through (bytes, maps). */
function withAttributes(span: ReadableSpan, attributes: Record<string, unknown>): ReadableSpan {
  return Object.create(span, { attributes: { value: attributes as Attributes } }) as ReadableSpan;
}

describe('OTLP/protobuf span encoding', () => {
  test('a POST-shaped trace (nested spans of several scopes, every attribute value type) reads as the official request', () => {
    const spans = recorded((provider) => {
      const http = provider.getTracer('leadfinder.http');
      const ports = provider.getTracer('leadfinder.ports', '1.2.3', { schemaUrl: 'https://opentelemetry.io/schemas/1.30.0' });
      const server = http.startSpan('POST /v1/searches', {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': 'POST', 'url.path': '/v1/searches', 'http.route': '/v1/searches', 'user_agent.original': 'curl/8 "quoted" \\ back\nslash ünïcødé 🚀 中文' },
      }, ROOT_CONTEXT);
      const inServer = trace.setSpan(ROOT_CONTEXT, server);
      const reserve = ports.startSpan('billing.reserve', { attributes: { 'leadfinder.billing.hold_microusd': 5_000_000, 'leadfinder.run_id': 'run_1' } }, inServer);
      reserve.setAttributes({ 'leadfinder.ratio': 0.25, 'leadfinder.ok': true, 'leadfinder.no': false, 'leadfinder.zero': 0, 'leadfinder.negative': -3, 'leadfinder.empty': '' });
      reserve.setAttributes({ 'leadfinder.big': Number.MAX_SAFE_INTEGER, 'leadfinder.big_negative': -(2 ** 40) - 7, 'leadfinder.u32': 2 ** 32 + 1, 'leadfinder.i31': 2 ** 31, 'leadfinder.nan': Number.NaN, 'leadfinder.inf': Number.NEGATIVE_INFINITY, 'leadfinder.tiny': 5e-324 });
      reserve.setAttribute('leadfinder.event.types', ['status', 'cost', '']);
      reserve.setAttribute('leadfinder.counts', [1, 2.5, -3, 0]);
      reserve.setAttribute('leadfinder.flags', [true, false]);
      reserve.setAttribute('leadfinder.with_gaps', ['a', null, 'b'] as string[]);
      reserve.setAttribute('leadfinder.none', []);
      reserve.setAttribute('leadfinder.ключ', 'non-ASCII key');
      reserve.end();
      ports.startSpan('publish work.runs', { kind: SpanKind.PRODUCER }, inServer).end();
      ports.startSpan('receive work.runs', { kind: SpanKind.CLIENT }, inServer).end();
      ports.startSpan('process', { kind: SpanKind.CONSUMER }, inServer).end();
      server.setAttribute('http.response.status_code', 202);
      server.end();
    });
    expect(spans).toHaveLength(5);
    const decoded = ours(spans);
    expect(decoded).toEqual(official(spans));
    // The comparison is not vacuous: values arrive typed.
    const reserve = decoded.resourceSpans[0]!.scopeSpans.flatMap((s) => s.spans).find((s) => s.name === 'billing.reserve')!;
    const value = (key: string) => reserve.attributes.find((a) => a.key === key)?.value;
    expect(value('leadfinder.no')).toEqual({ boolValue: false });
    expect(value('leadfinder.zero')).toEqual({ intValue: '0' });
    expect(value('leadfinder.big_negative')).toEqual({ intValue: String(-(2 ** 40) - 7) });
    expect(value('leadfinder.ratio')).toEqual({ doubleValue: 0.25 });
    expect(value('leadfinder.empty')).toEqual({ stringValue: '' });
    expect(reserve.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(reserve.traceId).toBe(spans[0]!.spanContext().traceId);
  });

  test('bytes and map values, and nested arrays, as the official encoder maps them', () => {
    const [base] = recorded((provider) => provider.getTracer('t').startSpan('values').end());
    const span = withAttributes(base!, {
      raw: new Uint8Array([0, 1, 254, 255]),
      map: { a: 1, b: ['x', 'y'], c: { deep: true }, d: null },
      nested: [[1, 2], ['a']],
      nothing: null,
      missing: undefined,
    });
    expect(ours([span])).toEqual(official([span]));
  });

  test('status, events, links, dropped counts, a remote parent with trace state', () => {
    const spans = recorded((provider) => {
      const t = provider.getTracer('leadfinder.coordinator');
      const remote = trace.setSpanContext(ROOT_CONTEXT, {
        traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: TraceFlags.SAMPLED,
        isRemote: true, traceState: new TraceState('vendor=abc,other=1'),
      });
      const links = [
        { context: { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: TraceFlags.NONE }, attributes: { why: 'retry', n: 2 }, droppedAttributesCount: 1 },
        { context: { traceId: '4bf92f3577b34da6a3ce929d0e0e4737', spanId: '00f067aa0ba902b8', traceFlags: TraceFlags.SAMPLED, isRemote: true, traceState: new TraceState('k=v') } },
        { context: { traceId: '4bf92f3577b34da6a3ce929d0e0e4738', spanId: '00f067aa0ba902b9', traceFlags: TraceFlags.SAMPLED } },
      ];
      const run = t.startSpan('leadfinder.run', { kind: SpanKind.INTERNAL, links }, remote);
      run.addEvent('bare');
      run.recordException(new Error('boom: "quoted" ü'));
      for (let i = 0; i < 5; i++) run.addEvent(`tick ${i}`, [1_764_000_000, i]);
      // The last events are kept (eventCountLimit): this one is sent.
      run.addEvent('stage started', { stage: 'search', round: 1, a: 'x', b: 'y', c: 'z' });
      run.setStatus({ code: SpanStatusCode.ERROR, message: 'failed at verify' });
      for (let i = 0; i < 5; i++) run.setAttribute(`leadfinder.a${i}`, i);
      run.end();
      const ok = t.startSpan('ok', {}, trace.setSpan(context.active(), run));
      ok.setStatus({ code: SpanStatusCode.OK });
      ok.end();
      const unset = t.startSpan('unset message', {}, trace.setSpan(context.active(), run));
      unset.setStatus({ code: SpanStatusCode.ERROR });
      unset.end();
    }, { attributeCountLimit: 3, eventCountLimit: 4 });
    // The SDK (2.2) counts no dropped links, nor attributes dropped from an event; a span that says it dropped some must say so too.
    const recordedRun = spans[0]!;
    spans[0] = Object.create(recordedRun, {
      droppedLinksCount: { value: 1 },
      events: { value: recordedRun.events.map((e, i) => (i === recordedRun.events.length - 1 ? { ...e, droppedAttributesCount: 2 } : e)) },
    }) as ReadableSpan;
    const [run] = spans;
    expect(run!.droppedAttributesCount).toBeGreaterThan(0);
    expect(run!.droppedEventsCount).toBeGreaterThan(0);
    expect(run!.events.some((e) => (e.droppedAttributesCount ?? 0) > 0)).toBe(true);
    const decoded = ours(spans);
    expect(decoded).toEqual(official(spans));
    const sent = decoded.resourceSpans[0]!.scopeSpans[0]!.spans[0]!;
    expect(sent).toMatchObject({ parentSpanId: 'b7ad6b7169203331', traceState: 'vendor=abc,other=1', status: { code: 2, message: 'failed at verify' } });
    // Sampled, parent remoteness known and remote.
    expect(sent.flags).toBe(0x301);
    expect(sent.droppedLinksCount).toBe(1);
  });

  test('timestamps keep nanosecond precision past 2^53, carry into the high word, and reach years past 2116', () => {
    const times: [number, number][] = [
      [1_764_000_000, 7], [1_764_000_001, 999_999_999], [0, 5], [0, 0],
      // low word of s × 10^9 close to 2^32, so adding the nanoseconds carries.
      [4_294_967_295, 999_999_999], [4, 294_967_296], [4_294_967, 296_000_000],
      // 2200-01-01: beyond seconds × 1953125 < 2^53.
      [7_258_118_400, 123],
    ];
    for (let i = 0; i < 200; i++) times.push([Math.floor(Math.random() * 2 ** 32), Math.floor(Math.random() * 1e9)]);
    const spans = recorded((provider) => {
      const t = provider.getTracer('t');
      for (const [i, time] of times.entries()) t.startSpan(`t${i}`, { startTime: time }).end(time);
    });
    const decoded = ours(spans);
    expect(decoded).toEqual(official(spans));
    const sent = decoded.resourceSpans[0]!.scopeSpans[0]!.spans;
    expect(sent.map((s) => s.startTimeUnixNano)).toEqual(times.map(([s, ns]) => String(BigInt(s) * 1_000_000_000n + BigInt(ns))));
    expect(sent[0]!.startTimeUnixNano).toBe('1764000000000000007');
  });

  test('resources and scopes: grouped as the official encoder groups them, versions and schema URLs kept', () => {
    const second = resourceFromAttributes({ 'service.name': 'leadfinder-coordinator' }, { schemaUrl: 'https://opentelemetry.io/schemas/1.37.0' });
    const memory = new InMemorySpanExporter();
    const a = new BasicTracerProvider({ resource, spanProcessors: [new SimpleSpanProcessor(memory)] });
    const b = new BasicTracerProvider({ resource: second, spanProcessors: [new SimpleSpanProcessor(memory)] });
    a.getTracer('leadfinder.http').startSpan('a1').end();
    b.getTracer('leadfinder.ports', '2.0.0', { schemaUrl: 'https://example.test/schema' }).startSpan('b1').end();
    a.getTracer('leadfinder.ports').startSpan('a2').end();
    // Another tracer object of the same scope: one ScopeSpans with the other's spans.
    a.getTracer('leadfinder.http').startSpan('a3').end();
    b.getTracer('leadfinder.ports', '2.0.0', { schemaUrl: 'https://example.test/schema' }).startSpan('b2').end();
    const spans = memory.getFinishedSpans();
    const decoded = ours(spans);
    expect(decoded).toEqual(official(spans));
    expect(decoded.resourceSpans.map((r) => r.scopeSpans.map((s) => [s.scope.name, s.scope.version, s.schemaUrl, s.spans.map((x) => x.name)]))).toEqual([
      [['leadfinder.http', '', '', ['a1', 'a3']], ['leadfinder.ports', '', '', ['a2']]],
      [['leadfinder.ports', '2.0.0', 'https://example.test/schema', ['b1', 'b2']]],
    ]);
    expect(decoded.resourceSpans[1]!.schemaUrl).toBe('https://opentelemetry.io/schemas/1.37.0');
  });

  test('lengths of every size: a span under 128 bytes, attributes over 127, a span over 16 KB, a string over 2 MB', () => {
    const spans = recorded((provider) => {
      const t = provider.getTracer('t');
      t.startSpan('x').end();
      t.startSpan('long value', { attributes: { ua: 'Mozilla/5.0 '.repeat(20), key: 'é'.repeat(100) } }).end();
      t.startSpan('large', { attributes: { body: 'ab'.repeat(10_000) } }).end();
      t.startSpan('huge', { attributes: { body: 'z'.repeat(2_200_000) } }).end();
    });
    expect(ours(spans)).toEqual(official(spans));
  });

  test('a lone surrogate is sent as U+FFFD, so the request stays valid UTF-8 for a collector', () => {
    const spans = recorded((provider) => provider.getTracer('t').startSpan('half \ud83d pair').end());
    const name = ours(spans).resourceSpans[0]!.scopeSpans[0]!.spans[0]!.name;
    expect(name).toBe('half \ufffd pair');
  });

  test('one batch after another reuses its buffers without carrying spans over', () => {
    const spans = recorded((provider) => {
      for (let i = 0; i < 40; i++) provider.getTracer(`scope ${i % 3}`).startSpan(`s${i}`, { attributes: { i } }).end();
    });
    expect(ours(spans.slice(0, 30))).toEqual(official(spans.slice(0, 30)));
    expect(ours(spans.slice(30))).toEqual(official(spans.slice(30)));
    expect(ours([])).toEqual(official([]));
  });
});
