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
 * - `batch`: + the batch span processor, its exporter doing nothing (the buffering alone);
 * - `encode`: + the OTLP/JSON encoding (otlp-json.ts), nothing sent;
 * - `json`: what `startTelemetry` exports with (our encoder, the official OTLP/HTTP transport) to a loopback
 *   sink in another process, so the receiving side's CPU is not counted;
 * - `official-json`: the same transport with the official serializer (`@opentelemetry/otlp-transformer`,
 *   what `@opentelemetry/exporter-trace-otlp-http` sends);
 * - `protobuf`: `@opentelemetry/exporter-trace-otlp-proto` (`OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf`).
 * `BATCH=<n>` sets the batch processor's `maxExportBatchSize` (default 512, the SDK's). `CHURN=<n>` allocates n
 * short-lived objects per trace, as a request does (1,500 is about what an edge `POST` costs in CPU): spans
 * the batch processor holds then live through young-generation collections, which is most of the gap
 * between this figure and the edge's (bench/README.md).
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import type { Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter as OTLPProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { OTLPExporterBase } from '@opentelemetry/otlp-exporter-base';
import { convertLegacyHttpOptions, createOtlpHttpExportDelegate } from '@opentelemetry/otlp-exporter-base/node-http';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, NoopSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { createOtlpJsonTraceExporter, encodeSpansAsOtlpJson } from '../services/platform/src/telemetry/otlp-json.js';

type Exporter = 'none' | 'batch' | 'encode' | 'json' | 'official-json' | 'protobuf';
const EXPORTERS: readonly Exporter[] = ['none', 'batch', 'encode', 'json', 'official-json', 'protobuf'];

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

function exporterOf(kind: Exporter, url: string): SpanExporter | null {
  switch (kind) {
    case 'none': return null;
    case 'batch': return localExporter(false);
    case 'encode': return localExporter(true);
    case 'json': return createOtlpJsonTraceExporter(`${url}/v1/traces`);
    case 'official-json':
      return new OTLPExporterBase<ReadableSpan[]>(createOtlpHttpExportDelegate(
        convertLegacyHttpOptions({ url: `${url}/v1/traces` }, 'TRACES', 'v1/traces', { 'Content-Type': 'application/json' }), JsonTraceSerializer));
    case 'protobuf': return new OTLPProtoTraceExporter({ url: `${url}/v1/traces` });
  }
}

interface Tracers { http: Tracer; edge: Tracer; ports: Tracer }

let sequence = 0;
/** The spans of one accepted `POST /v1/searches`, as the edge makes them (services/edge, port-tracing.ts). */
function acceptedSearch(t: Tracers): void {
  const runId = `run_${(sequence++).toString(36).padStart(8, '0')}k3j5h7g9`;
  const server = t.http.startSpan('POST /v1/searches', {
    kind: SpanKind.SERVER,
    attributes: { 'http.request.method': 'POST', 'url.path': '/v1/searches', 'url.scheme': 'http', 'http.route': '/v1/searches', 'user_agent.original': 'undici' },
  }, ROOT_CONTEXT);
  const inServer = trace.setSpan(ROOT_CONTEXT, server);
  const accept = t.edge.startSpan('search.accept', {}, inServer);
  const inAccept = trace.setSpan(inServer, accept);
  const reserve = t.ports.startSpan('billing.reserve', { attributes: { 'leadfinder.run_id': runId, 'leadfinder.billing.hold_microusd': 5_000_000 } }, inAccept);
  const inReserve = trace.setSpan(inAccept, reserve);
  t.ports.startSpan('store.accounts.reserve', { attributes: { 'leadfinder.run_id': runId } }, inReserve).end();
  t.ports.startSpan('store.ledger.append', { attributes: { 'leadfinder.run_id': runId, 'leadfinder.ledger.kind': 'hold' } }, inReserve).end();
  reserve.setAttribute('leadfinder.billing.outcome', 'held');
  reserve.end();
  t.ports.startSpan('store.runs.insert', { attributes: { 'leadfinder.run_id': runId } }, inAccept).end();
  t.ports.startSpan('publish work.runs', {
    kind: SpanKind.PRODUCER,
    attributes: { 'messaging.system': 'inprocess', 'messaging.destination.name': 'work.runs', 'messaging.operation.type': 'send', 'messaging.operation.name': 'publish', 'leadfinder.run_id': runId },
  }, inAccept).end();
  accept.setAttribute('leadfinder.run_id', runId);
  accept.end();
  server.setAttribute('http.response.status_code', 202);
  server.end();
}

const churn = Number(process.env.CHURN) || 0;
/** Where CHURN's objects go, so the allocation is not optimised away. */
let garbage: unknown;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const kinds = [...new Set<Exporter>(['none', ...((process.argv[2] ?? 'batch,encode,json,official-json,protobuf').split(',') as Exporter[])])];
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
      const exporter = exporterOf(kind, url);
      const provider = new BasicTracerProvider({
        resource,
        spanProcessors: [exporter ? new BatchSpanProcessor(exporter, { maxExportBatchSize: batch, maxQueueSize: Math.max(2048, batch * 4) }) : new NoopSpanProcessor()],
      });
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
