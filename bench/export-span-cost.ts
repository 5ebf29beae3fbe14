/**
 * `npx tsx bench/export-span-cost.ts [exporters] [rounds]`: what exporting costs per `POST`-shaped trace (the
 * 7 spans an edge ends per accepted search, same names, kinds and attributes), in this process's CPU time,
 * with nothing else running: no HTTP server, no store, no context manager. Each exporter gets its own tracer
 * provider in the one process, and they take turns in windows of 400 traces (so noise from other load on
 * the machine falls on all of them alike); the figure is the median over the rounds of (exporter − none)
 * per trace. A window ends with 30 ms idle, so batches go out between traces as they do in a server.
 *
 * Exporters (comma-separated, `none` always included):
 * - `none`: the SDK's span lifecycle only (what `serve` runs without an endpoint);
 * - `batch`: + the SDK's batch span processor, its exporter doing nothing (holding the spans alone);
 * - `encode`: + the OTLP/JSON encoding (otlp-json.ts) of what that processor held, nothing sent;
 * - `encode-on-end`: the processor `startTelemetry` uses (otlp-batch-processor.ts: each span encoded as it
 *   ends, nothing held) with our OTLP/JSON writer, nothing sent; `encode-on-end-protobuf`: the same with our
 *   protobuf writer (otlp-proto.ts);
 * - `protobuf`: what `startTelemetry` exports with by default (that processor, our protobuf writer, the
 *   official OTLP/HTTP transport) to a loopback sink in another process, so the receiving side's CPU is not
 *   counted; `json`: the same with our JSON writer (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`);
 * - `json-held`: what it exported with before: the SDK's batch processor holding the spans, our encoder
 *   when a batch goes out, the same transport;
 * - `official-json`: the SDK's batch processor and the official serializer (`@opentelemetry/otlp-transformer`,
 *   what `@opentelemetry/exporter-trace-otlp-http` sends), the same transport;
 * - `official-protobuf`: `@opentelemetry/exporter-trace-otlp-proto` (what http/protobuf sent before).
 * `npx tsx bench/encode-span-cost.ts` times the two writers alone, per span.
 * `BATCH=<n>` sets the processors' `maxExportBatchSize` (default 512, the SDK's). `CHURN=<n>` allocates n
 * short-lived objects per trace, as a request does (1,500 is about what an edge `POST` costs in CPU): spans
 * a batch processor holds then live through young-generation collections, which is most of the gap
 * between this figure and the edge's (bench/README.md).
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { OTLPTraceExporter as OTLPProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { OTLPExporterBase } from '@opentelemetry/otlp-exporter-base';
import { convertLegacyHttpOptions, createOtlpHttpExportDelegate } from '@opentelemetry/otlp-exporter-base/node-http';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, NoopSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { ReadableSpan, SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { encodeSpansAsOtlpJson } from '../services/platform/src/telemetry/otlp-json.js';
import { OtlpJsonSpanBatch } from '../services/platform/src/telemetry/otlp-json.js';
import { OtlpBatchSpanProcessor } from '../services/platform/src/telemetry/otlp-batch-processor.js';
import type { EncodedSpanExporter } from '../services/platform/src/telemetry/otlp-batch-processor.js';
import { OtlpProtoSpanBatch } from '../services/platform/src/telemetry/otlp-proto.js';
import { createOtlpTraceTransport } from '../services/platform/src/telemetry/otlp-transport.js';
import { acceptedSearch } from './support/post-trace.js';

type Exporter = 'none' | 'batch' | 'encode' | 'encode-on-end' | 'encode-on-end-protobuf' | 'json' | 'json-held' | 'official-json' | 'protobuf' | 'official-protobuf';
const EXPORTERS: readonly Exporter[] = ['none', 'batch', 'encode', 'encode-on-end', 'encode-on-end-protobuf', 'json', 'json-held', 'official-json', 'protobuf', 'official-protobuf'];

/** Answers every export at once, sending nothing. */
const discard: EncodedSpanExporter = {
  export: (_body, done) => setImmediate(() => done({ code: 0 })), forceFlush: async () => undefined, shutdown: async () => undefined,
};

const WINDOW = 400;

/** An exporter that answers at once: `encode` runs the encoder first. */
function localExporter(encode: boolean): SpanExporter {
  return {
    export(spans, done) {
      if (encode) encodeSpansAsOtlpJson(spans);
      setImmediate(() => done({ code: 0 }));
    },
    shutdown: async () => undefined,
  };
}

/** The official OTLP/HTTP transport with a serializer of spans held by the SDK's batch processor. */
function heldSpansExporter(url: string, serializeRequest: (spans: ReadableSpan[]) => Uint8Array | undefined): SpanExporter {
  return new OTLPExporterBase<ReadableSpan[]>(createOtlpHttpExportDelegate(
    convertLegacyHttpOptions({ url: `${url}/v1/traces` }, 'TRACES', 'v1/traces', { 'Content-Type': 'application/json' }),
    { serializeRequest, deserializeResponse: JsonTraceSerializer.deserializeResponse }));
}

function processorOf(kind: Exporter, url: string, batch: number): SpanProcessor {
  const config = { maxExportBatchSize: batch, maxQueueSize: Math.max(2048, batch * 4) };
  const held = (exporter: SpanExporter) => new BatchSpanProcessor(exporter, config);
  switch (kind) {
    case 'none': return new NoopSpanProcessor();
    case 'batch': return held(localExporter(false));
    case 'encode': return held(localExporter(true));
    case 'encode-on-end': return new OtlpBatchSpanProcessor(discard, () => new OtlpJsonSpanBatch(), config);
    case 'encode-on-end-protobuf': return new OtlpBatchSpanProcessor(discard, () => new OtlpProtoSpanBatch(), config);
    case 'json': return new OtlpBatchSpanProcessor(createOtlpTraceTransport(`${url}/v1/traces`, 'json'), () => new OtlpJsonSpanBatch(), config);
    case 'protobuf': return new OtlpBatchSpanProcessor(createOtlpTraceTransport(`${url}/v1/traces`, 'protobuf'), () => new OtlpProtoSpanBatch(), config);
    case 'json-held': return held(heldSpansExporter(url, (spans) => encodeSpansAsOtlpJson(spans)));
    case 'official-json': return held(heldSpansExporter(url, (spans) => JsonTraceSerializer.serializeRequest(spans)));
    case 'official-protobuf': return held(new OTLPProtoTraceExporter({ url: `${url}/v1/traces` }));
  }
}

const churn = Number(process.env.CHURN) || 0;
/** Where CHURN's objects go, so the allocation is not optimised away. */
let garbage: unknown;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const kinds = [...new Set<Exporter>(['none', ...((process.argv[2] ?? 'encode-on-end,encode-on-end-protobuf,json,protobuf,official-json,official-protobuf').split(',') as Exporter[])])];
  const unknown = kinds.filter((k) => !EXPORTERS.includes(k));
  if (unknown.length) throw new Error(`unknown exporter(s) ${unknown.join(', ')}; known: ${EXPORTERS.join(', ')}`);
  const rounds = Number(process.argv[3]) || 30;
  const batch = Number(process.env.BATCH) || 512;
  const sink = fork(fileURLToPath(new URL('./support/otlp-sink.ts', import.meta.url)), ['--serve'], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      sink.once('message', (m: { url: string }) => resolve(m.url));
      sink.once('exit', () => reject(new Error('OTLP sink exited')));
    });
    const resource = resourceFromAttributes({ 'service.name': 'leadfinder-edge', 'leadfinder.role': 'edge' });
    const setups = kinds.map((kind) => {
      const provider = new BasicTracerProvider({ resource, spanProcessors: [processorOf(kind, url, batch)] });
      return { kind, provider, tracers: { http: provider.getTracer('leadfinder.http'), edge: provider.getTracer('leadfinder-edge'), ports: provider.getTracer('leadfinder.ports') } };
    });
    const perTrace = Object.fromEntries(kinds.map((k) => [k, [] as number[]])) as Record<Exporter, number[]>;
    // Three rounds of warm-up (V8 optimises the encoders), then the counted ones, in alternating order.
    for (let round = 0; round < rounds + 3; round++) {
      for (const setup of round % 2 ? [...setups].reverse() : setups) {
        const before = process.cpuUsage();
        for (let i = 0; i < WINDOW; i++) {
          acceptedSearch(setup.tracers);
          if (churn) garbage = Array.from({ length: churn }, (_, j) => ({ j, text: `x${j}`, list: [j] }));
          // Between requests a server returns to its event loop: batches are exported there.
          if (i % 8 === 7) await new Promise((resolve) => setImmediate(resolve));
        }
        await new Promise((resolve) => setTimeout(resolve, 30));
        const used = process.cpuUsage(before);
        if (round >= 3) perTrace[setup.kind].push((used.user + used.system) / WINDOW);
      }
    }
    for (const setup of setups) await setup.provider.shutdown();
    const exportCost = Object.fromEntries(kinds.filter((k) => k !== 'none').map((k) =>
      [k, Math.round(median(perTrace[k].map((x, i) => x - perTrace.none[i]!)) * 10) / 10]));
    console.log(JSON.stringify({
      spansPerTrace: 7, batch, rounds, churn, kept: garbage === undefined ? 0 : 1,
      sdkSpansUsPerTrace: Math.round(median(perTrace.none) * 10) / 10,
      exportUsPerTrace: exportCost,
    }));
  } finally {
    sink.kill('SIGTERM');
  }
}

main().then(() => process.exit(0), (error: unknown) => {
  console.error(error);
  process.exit(1);
});
