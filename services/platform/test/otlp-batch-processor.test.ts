import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { ROOT_CONTEXT, SpanKind, context, propagation, trace } from '@opentelemetry/api';
import { ExportResultCode, isTracingSuppressed } from '@opentelemetry/core';
import type { ExportResult } from '@opentelemetry/core';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { InMemorySpanExporter, SamplingDecision, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { BufferConfig, ReadableSpan, Sampler } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { OtlpBatchSpanProcessor } from '../src/telemetry/otlp-batch-processor.js';
import type { EncodedSpanBatch, EncodedSpanExporter } from '../src/telemetry/otlp-batch-processor.js';
import { OtlpJsonSpanBatch } from '../src/telemetry/otlp-json.js';
import { OtlpProtoSpanBatch } from '../src/telemetry/otlp-proto.js';
import { createOtlpTraceTransport } from '../src/telemetry/otlp-transport.js';
import { withoutDefaults } from './otlp-json-testing.js';
import { decodeTraceRequest } from './otlp-proto-testing.js';

/**
 * The span processor `startTelemetry` exports OTLP with, protobuf (the default) and JSON: spans are encoded
 * as they end, and go out in batches as the SDK's BatchSpanProcessor sends them (size, delay, queue limit,
 * flush on shutdown). Requests are read as a collector reads them: protobuf decoded with the official
 * generated types, JSON parsed, each compared with what the official serializer makes of the same spans.
 */

interface SentSpan { name: string; spanId: string }
interface OtlpDoc { resourceSpans: { scopeSpans: { scope: { name: string }; spans: SentSpan[] }[] }[] }

const names = (doc: OtlpDoc) => doc.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans.map((span) => span.name)));

/** One OTLP/HTTP encoding: how the processor writes it, and how a collector reads it. */
interface Encoding {
  protocol: 'http/protobuf' | 'http/json';
  contentType: string;
  newBatch: () => EncodedSpanBatch;
  transport: (url: string) => EncodedSpanExporter;
  /** A request's body as a collector reads it. */
  read: (body: Buffer) => OtlpDoc;
  /** What the official serializer writes for the spans, read the same way. */
  official: (spans: ReadableSpan[]) => OtlpDoc;
}

const ENCODINGS: Encoding[] = [
  {
    protocol: 'http/protobuf', contentType: 'application/x-protobuf',
    newBatch: () => new OtlpProtoSpanBatch(), transport: (url) => createOtlpTraceTransport(url, 'protobuf'),
    read: (body) => decodeTraceRequest(body),
    official: (spans) => decodeTraceRequest(ProtobufTraceSerializer.serializeRequest(spans)!),
  },
  {
    protocol: 'http/json', contentType: 'application/json',
    newBatch: () => new OtlpJsonSpanBatch(), transport: (url) => createOtlpTraceTransport(url, 'json'),
    read: (body) => JSON.parse(body.toString('utf8')) as OtlpDoc,
    official: (spans) => withoutDefaults(JSON.parse(Buffer.from(JsonTraceSerializer.serializeRequest(spans)!).toString('utf8'))) as OtlpDoc,
  },
];

/** An exporter that records each request it is given; `hold` keeps answers back until `release()`. */
function recordingExporter(encoding: Encoding, options: { hold?: boolean } = {}) {
  const batches: OtlpDoc[] = [];
  const waiting: (() => void)[] = [];
  let suppressedEveryTime = true;
  let shutDown = false;
  const exporter: EncodedSpanExporter = {
    export(body: Buffer, done: (result: ExportResult) => void) {
      suppressedEveryTime &&= isTracingSuppressed(context.active());
      batches.push(encoding.read(body));
      const answer = () => done({ code: ExportResultCode.SUCCESS });
      if (options.hold) waiting.push(answer);
      else setImmediate(answer);
    },
    forceFlush: async () => undefined,
    shutdown: async () => {
      shutDown = true;
    },
  };
  return {
    exporter, batches,
    get suppressedEveryTime() { return suppressedEveryTime; },
    get shutDown() { return shutDown; },
    release() {
      for (const answer of waiting.splice(0)) answer();
    },
  };
}

const providers: NodeTracerProvider[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const p of providers.splice(0)) await p.shutdown();
  for (const close of closers.splice(0)) await close();
  trace.disable();
  context.disable();
  propagation.disable();
});

/**
 * A provider exporting through the processor, and recording the same spans in memory (for the official
 * encoding), registered as `startTelemetry` registers the SDK's: with the AsyncLocalStorage context manager.
 */
function provider(encoding: Encoding, exporter: EncodedSpanExporter, config: BufferConfig, sampler?: Sampler) {
  const processor = new OtlpBatchSpanProcessor(exporter, encoding.newBatch, config);
  const memory = new InMemorySpanExporter();
  const p = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'leadfinder-edge', 'leadfinder.role': 'edge' }),
    spanProcessors: [processor, new SimpleSpanProcessor(memory)],
    ...(sampler ? { sampler } : {}),
  });
  p.register();
  providers.push(p);
  return { processor, memory, tracer: p.getTracer('leadfinder.ports'), http: p.getTracer('leadfinder.http') };
}

/**
 * An OTLP/HTTP collector on loopback keeping the trace requests it receives in the encoding's content type,
 * decoded (protobuf with the official generated types); anything else is answered 415 and counted.
 */
async function startCollector(encoding: Encoding) {
  const requests: OtlpDoc[] = [];
  const refused: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url !== '/v1/traces' || req.headers['content-type'] !== encoding.contentType) {
        refused.push(`${req.url} ${req.headers['content-type']}`);
        res.writeHead(415).end();
        return;
      }
      requests.push(encoding.read(Buffer.concat(chunks)));
      // An empty ExportTraceServiceResponse: no body in protobuf, `{}` in JSON.
      res.writeHead(200, { 'content-type': encoding.contentType }).end(encoding.protocol === 'http/json' ? '{}' : '');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`, requests, refused };
}

const until = async (check: () => boolean, ms = 2000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe.each(ENCODINGS)('OtlpBatchSpanProcessor, $protocol', (encoding) => {
  test('every ended span goes out once, in order, a full batch at once and the rest on forceFlush, as the official encoding', async () => {
    const sink = recordingExporter(encoding);
    const { processor, memory, tracer, http } = provider(encoding, sink.exporter, { maxExportBatchSize: 3, scheduledDelayMillis: 60_000 });
    for (let i = 0; i < 7; i++) {
      // Two scopes interleaved and a parent/child pair: grouping must not reorder or lose spans across batches.
      const server = http.startSpan(`request ${i}`, { kind: SpanKind.SERVER, attributes: { 'http.route': '/v1/searches', i } }, ROOT_CONTEXT);
      if (i % 2 === 0) tracer.startSpan(`store ${i}`, { attributes: { 'leadfinder.run_id': `run_${i}` } }, trace.setSpan(ROOT_CONTEXT, server)).end();
      server.end();
    }
    const ended = memory.getFinishedSpans().map((s) => s.name);
    expect(ended).toHaveLength(11);
    // Three full batches of 3 go without waiting for the 60 s timer, one export at a time.
    await until(() => sink.batches.length === 3);
    // A request groups spans by scope, so within a batch the order is the document's, not the end order.
    const sorted = (list: string[]) => [...list].sort();
    expect(sink.batches.map((b) => sorted(names(b)))).toEqual([ended.slice(0, 3), ended.slice(3, 6), ended.slice(6, 9)].map(sorted));
    await processor.forceFlush();
    expect(sink.batches).toHaveLength(4);
    expect(sink.batches.flatMap(names).sort()).toEqual([...ended].sort());
    // Each request is what the official serializer writes for the same spans.
    const spans = memory.getFinishedSpans();
    sink.batches.forEach((doc, i) => expect(doc, `batch ${i}`).toEqual(encoding.official(spans.slice(i * 3, i * 3 + 3))));
    // Else the exporter's own HTTP request would be traced (the http instrumentation), and exported, and so on.
    expect(sink.suppressedEveryTime).toBe(true);
  });

  test('a batch smaller than the batch size goes out after the scheduled delay, without a flush', async () => {
    const sink = recordingExporter(encoding);
    const { tracer } = provider(encoding, sink.exporter, { maxExportBatchSize: 100, scheduledDelayMillis: 50 });
    tracer.startSpan('a').end();
    tracer.startSpan('b').end();
    expect(sink.batches).toHaveLength(0);
    await until(() => sink.batches.length === 1);
    expect(names(sink.batches[0]!)).toEqual(['a', 'b']);
    tracer.startSpan('c').end();
    await until(() => sink.batches.length === 2);
    expect(names(sink.batches[1]!)).toEqual(['c']);
  });

  test('spans beyond maxQueueSize while an export is in flight are dropped and counted; the queue takes spans again once it drains', async () => {
    const sink = recordingExporter(encoding, { hold: true });
    const { processor, tracer } = provider(encoding, sink.exporter, { maxExportBatchSize: 2, maxQueueSize: 4, scheduledDelayMillis: 60_000 });
    for (let i = 0; i < 8; i++) tracer.startSpan(`s${i}`).end();
    // s0 s1 are in flight (no longer queued), s2–s5 fill the queue, s6 s7 are dropped.
    expect(sink.batches.map(names)).toEqual([['s0', 's1']]);
    expect(processor.droppedSpans).toBe(2);
    sink.release();
    await until(() => sink.batches.length === 2);
    sink.release();
    await until(() => sink.batches.length === 3);
    sink.release();
    tracer.startSpan('s8').end();
    expect(processor.droppedSpans).toBe(2);
    const flushed = processor.forceFlush();
    await until(() => sink.batches.length === 4);
    sink.release();
    await flushed;
    expect(sink.batches.map(names)).toEqual([['s0', 's1'], ['s2', 's3'], ['s4', 's5'], ['s8']]);
  });

  test('only sampled spans are exported', async () => {
    const sink = recordingExporter(encoding);
    // Recorded but not sampled (RECORD): the span exists for the process (log lines, metrics) but is not sent.
    const recordOnlyReads: Sampler = {
      shouldSample: (_ctx, _traceId, name) => ({ decision: name.startsWith('GET') ? SamplingDecision.RECORD : SamplingDecision.RECORD_AND_SAMPLED }),
      toString: () => 'record-only reads',
    };
    const { processor, http } = provider(encoding, sink.exporter, { scheduledDelayMillis: 60_000 }, recordOnlyReads);
    http.startSpan('GET /v1/searches/:id').end();
    http.startSpan('POST /v1/searches').end();
    await processor.forceFlush();
    expect(sink.batches.map(names)).toEqual([['POST /v1/searches']]);
  });

  test('shutdown sends every span ended before it over OTLP/HTTP, once, and nothing ended after', async () => {
    const collector = await startCollector(encoding);
    const { processor, tracer } = provider(encoding, encoding.transport(collector.url), { maxExportBatchSize: 512, scheduledDelayMillis: 60_000 });
    for (let i = 0; i < 1200; i++) tracer.startSpan(`span ${i}`).end();
    await processor.shutdown();
    tracer.startSpan('after shutdown').end();
    await processor.forceFlush();
    const sent = collector.requests.flatMap(names);
    expect(collector.refused).toEqual([]);
    expect(sent).toHaveLength(1200);
    expect(new Set(sent).size).toBe(1200);
    expect(sent).not.toContain('after shutdown');
    // Batches of the SDK's default size; the last two went out together, so in either order.
    expect(collector.requests.map((r) => names(r).length).sort((a, b) => a - b)).toEqual([176, 512, 512]);
  });

  test('forceFlush also waits for a batch already on its way', async () => {
    const collector = await startCollector(encoding);
    const { processor, tracer } = provider(encoding, encoding.transport(collector.url), { maxExportBatchSize: 100, scheduledDelayMillis: 60_000 });
    // A full batch leaves at once: nothing is waiting when forceFlush is called, but the request is in flight.
    for (let i = 0; i < 100; i++) tracer.startSpan(`span ${i}`).end();
    await processor.forceFlush();
    expect(collector.requests.flatMap(names)).toHaveLength(100);
  });

  test('a collector on loopback receives, in the content type of the protocol, what the official serializer sends for the same spans', async () => {
    const collector = await startCollector(encoding);
    const { processor, memory, tracer, http } = provider(encoding, encoding.transport(collector.url), { scheduledDelayMillis: 60_000 });
    const server = http.startSpan('POST /v1/searches', { kind: SpanKind.SERVER, attributes: { 'http.request.method': 'POST', 'http.route': '/v1/searches', 'http.response.status_code': 202 } }, ROOT_CONTEXT);
    const inServer = trace.setSpan(ROOT_CONTEXT, server);
    const reserve = tracer.startSpan('billing.reserve', { attributes: { 'leadfinder.run_id': 'run_1', 'leadfinder.billing.hold_microusd': 5_000_000, 'leadfinder.ok': true, 'leadfinder.ratio': 0.5, 'leadfinder.types': ['status', 'cost'] } }, inServer);
    reserve.addEvent('held', { 'leadfinder.billing.balance_microusd': -1 });
    reserve.end();
    tracer.startSpan('publish work.runs', { kind: SpanKind.PRODUCER, links: [{ context: server.spanContext() }] }, inServer).end();
    server.end();
    await processor.forceFlush();
    expect(collector.refused).toEqual([]);
    expect(collector.requests).toEqual([encoding.official(memory.getFinishedSpans())]);
    expect(names(collector.requests[0]!).sort()).toEqual(['POST /v1/searches', 'billing.reserve', 'publish work.runs']);
  });

  test('a span that cannot be encoded is lost alone: span.end() does not throw, the batch stays a valid request', async () => {
    const sink = recordingExporter(encoding);
    const { processor, memory, tracer } = provider(encoding, sink.exporter, { scheduledDelayMillis: 60_000 });
    tracer.startSpan('before').end();
    const [before] = memory.getFinishedSpans();
    // Fails half-way through: the ids are written by then.
    const broken = Object.create(before!, { attributes: { get: () => { throw new Error('unreadable'); } } }) as ReadableSpan;
    expect(() => processor.onEnd(broken)).not.toThrow();
    tracer.startSpan('after').end();
    await processor.forceFlush();
    expect(sink.batches).toHaveLength(1);
    expect(sink.batches[0]).toEqual(encoding.official(memory.getFinishedSpans()));
  });

  test('shutdown also shuts the exporter down', async () => {
    const sink = recordingExporter(encoding);
    const { processor, tracer } = provider(encoding, sink.exporter, { scheduledDelayMillis: 60_000 });
    tracer.startSpan('last').end();
    await processor.shutdown();
    expect(sink.batches.map(names)).toEqual([['last']]);
    expect(sink.shutDown).toBe(true);
  });
});

