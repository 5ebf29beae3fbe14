/**
 * `npx tsx bench/encode-span-cost.ts [rounds]`: CPU µs per span of encoding alone, our OTLP/JSON writer
 * (otlp-json.ts) against our protobuf writer (otlp-proto.ts), with the official serializers beside them, on
 * the spans of `POST`-shaped traces (bench/support/post-trace.ts: the 7 spans an edge ends per accepted
 * search). Spans are recorded once; each encoder then encodes them as `startTelemetry`'s processor does
 * (each span added to the pending batch, the request finished every 512 spans), in windows that take turns
 * in alternating order, so other load on the machine falls on all of them alike. The figure is the median
 * over the rounds of the window's CPU time (process.cpuUsage) per span; bytes per span beside it.
 */
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { OtlpJsonSpanBatch } from '../services/platform/src/telemetry/otlp-json.js';
import { OtlpProtoSpanBatch } from '../services/platform/src/telemetry/otlp-proto.js';
import { acceptedSearch } from './support/post-trace.js';

const BATCH = 512;
const TRACES = 2_048;
const rounds = Number(process.argv[2]) || 20;

const memory = new InMemorySpanExporter();
const provider = new BasicTracerProvider({
  resource: resourceFromAttributes({ 'service.name': 'leadfinder-edge', 'leadfinder.role': 'edge' }),
  spanProcessors: [new SimpleSpanProcessor(memory)],
});
const tracers = { http: provider.getTracer('leadfinder.http'), edge: provider.getTracer('leadfinder-edge'), ports: provider.getTracer('leadfinder.ports') };
for (let i = 0; i < TRACES; i++) acceptedSearch(tracers);
const spans: ReadableSpan[] = memory.getFinishedSpans();

/** Encodes every span in batches of BATCH, returns the bytes written. */
type Encoder = (all: ReadableSpan[]) => number;

function byBatch(batch: { add(span: ReadableSpan): void; finish(): Buffer }): Encoder {
  return (all) => {
    let bytes = 0;
    for (let i = 0; i < all.length; i++) {
      batch.add(all[i]!);
      if ((i + 1) % BATCH === 0 || i === all.length - 1) bytes += batch.finish().length;
    }
    return bytes;
  };
}

function official(serialize: (s: ReadableSpan[]) => Uint8Array | undefined): Encoder {
  return (all) => {
    let bytes = 0;
    for (let i = 0; i < all.length; i += BATCH) bytes += serialize(all.slice(i, i + BATCH))!.length;
    return bytes;
  };
}

const encoders: Record<string, Encoder> = {
  json: byBatch(new OtlpJsonSpanBatch()),
  protobuf: byBatch(new OtlpProtoSpanBatch()),
  'official-json': official((s) => JsonTraceSerializer.serializeRequest(s)),
  'official-protobuf': official((s) => ProtobufTraceSerializer.serializeRequest(s)),
};
const names = Object.keys(encoders);
const perSpan: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
const bytesPerSpan: Record<string, number> = {};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

// Three warm-up rounds (V8 optimises the encoders), then the counted ones, in alternating order.
for (let round = 0; round < rounds + 3; round++) {
  for (const name of round % 2 ? [...names].reverse() : names) {
    const before = process.cpuUsage();
    const bytes = encoders[name]!(spans);
    const used = process.cpuUsage(before);
    bytesPerSpan[name] = bytes / spans.length;
    if (round >= 3) perSpan[name]!.push((used.user + used.system) / spans.length);
  }
}
console.log(JSON.stringify({
  spans: spans.length, spansPerTrace: 7, batch: BATCH, rounds, load: (await import('node:os')).loadavg().map((l) => Math.round(l * 10) / 10),
  cpuUsPerSpan: Object.fromEntries(names.map((n) => [n, Math.round(median(perSpan[n]!) * 1000) / 1000])),
  cpuUsPerSpanIqr: Object.fromEntries(names.map((n) => {
    const sorted = [...perSpan[n]!].sort((a, b) => a - b);
    return [n, [sorted[Math.floor(sorted.length / 4)]!, sorted[Math.floor((sorted.length * 3) / 4)]!].map((x) => Math.round(x * 1000) / 1000)];
  })),
  bytesPerSpan: Object.fromEntries(names.map((n) => [n, Math.round(bytesPerSpan[n]!)])),
}));
