/**
 * `npx tsx bench/encode-in-edge.ts [posts]`: what encoding a span costs inside the edge, OTLP/JSON
 * (otlp-json.ts) against protobuf (otlp-proto.ts), on the spans a real `POST /v1/searches` makes, at the
 * moment they end, amid the request's own work, as `startTelemetry`'s processor encodes them.
 *
 * Why not `encode-span-cost.ts`: it encodes the same spans again and again in a tight loop, so its data
 * and code stay hot and its strings are flattened after the first round; a span in the edge ends between
 * other work, once. Why not two processes (`--only export`, `telemetry-cost.ts`): on a shared machine their
 * CPU swings by more than the difference. Here one edge app (embedded, `app.inject()`, no sockets) runs
 * under a tracer provider with one processor that encodes every ended span with both writers, in
 * alternating order (the second finds the span in cache), each timed with `performance.now()`, and
 * finishes each writer's request every 512 spans (timed too). Preemptions by other load land on either
 * writer alike; the figure is the mean over spans with the slowest 1 % of each left out, and the median.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { loadConfig } from '@leadfinder/platform';
import { OtlpJsonSpanBatch } from '../services/platform/src/telemetry/otlp-json.js';
import { OtlpProtoSpanBatch } from '../services/platform/src/telemetry/otlp-proto.js';
import { startEdgeStack } from './support/edge-stack.js';

const BATCH = 512;

class BothWriters implements SpanProcessor {
  readonly json = new OtlpJsonSpanBatch();
  readonly proto = new OtlpProtoSpanBatch();
  readonly times = { json: [] as number[], protobuf: [] as number[] };
  readonly finishUs = { json: 0, protobuf: 0 };
  readonly bytes = { json: 0, protobuf: 0 };
  counting = false;
  private flip = false;

  onStart(_span: Span): void {}

  onEnd(span: ReadableSpan): void {
    this.flip = !this.flip;
    if (this.flip) {
      this.encode('json', span);
      this.encode('protobuf', span);
    } else {
      this.encode('protobuf', span);
      this.encode('json', span);
    }
    if (this.json.size >= BATCH) {
      this.finish('json');
      this.finish('protobuf');
    }
  }

  private encode(kind: 'json' | 'protobuf', span: ReadableSpan): void {
    const t0 = performance.now();
    (kind === 'json' ? this.json : this.proto).add(span);
    const us = (performance.now() - t0) * 1000;
    if (this.counting) this.times[kind].push(us);
  }

  private finish(kind: 'json' | 'protobuf'): void {
    const t0 = performance.now();
    const body = (kind === 'json' ? this.json : this.proto).finish();
    const us = (performance.now() - t0) * 1000;
    if (this.counting) {
      this.finishUs[kind] += us;
      this.bytes[kind] += body.length;
    }
  }

  forceFlush = async () => undefined;
  shutdown = async () => undefined;
}

function summary(values: number[]): { meanUs: number; medianUs: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const kept = sorted.slice(0, Math.floor(sorted.length * 0.99));
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return { meanUs: round(kept.reduce((a, b) => a + b, 0) / kept.length), medianUs: round(sorted[Math.floor(sorted.length / 2)]!) };
}

async function main(): Promise<void> {
  const count = Number(process.argv[2]) || 6000;
  const writers = new BothWriters();
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'leadfinder-edge', 'leadfinder.role': 'edge' }),
    spanProcessors: [writers],
  });
  provider.register();
  const dataDir = await mkdtemp(join(tmpdir(), 'leadfinder-encode-in-edge-'));
  const config = loadConfig({
    HOST: '127.0.0.1', PORT: '0', LEADFINDER_DATA_DIR: dataDir, LEADFINDER_ADMIN_TOKEN: 'encode-in-edge-admin-token-0123456789',
    LEADFINDER_RATE_LIMIT_PER_MIN: '100000000', LEADFINDER_LOG_LEVEL: 'silent',
  });
  const stack = await startEdgeStack({ config, dataDir, distributed: null });
  try {
    const { app } = stack;
    const created = await app.inject({ method: 'POST', url: '/admin/accounts', headers: { authorization: `Bearer ${config.LEADFINDER_ADMIN_TOKEN}`, 'content-type': 'application/json' }, payload: { balanceUsd: 10_000_000 } });
    const { apiKey } = created.json<{ apiKey: string }>();
    const post = () => app.inject({ method: 'POST', url: '/v1/searches', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, payload: '{"q":"fintech startups in Berlin that raised a Series A in the last 6 months","target":20}' });
    const run = async (total: number) => {
      let left = total;
      await Promise.all(Array.from({ length: 16 }, async () => {
        while (left-- > 0) {
          const res = await post();
          if (res.statusCode !== 202) throw new Error(`POST answered ${res.statusCode}`);
        }
      }));
    };
    // Warm-up: V8 optimises both writers (and the edge) before anything is counted.
    await run(Math.round(count / 2));
    writers.counting = true;
    await run(count);
    writers.counting = false;
    const spans = writers.times.json.length;
    const result = Object.fromEntries((['json', 'protobuf'] as const).map((k) => [k, {
      ...summary(writers.times[k]),
      finishUsPerSpan: Math.round((writers.finishUs[k] / spans) * 1000) / 1000,
      bytesPerSpan: Math.round(writers.bytes[k] / spans),
    }]));
    console.log(JSON.stringify({ posts: count, spans, spansPerPost: Math.round((spans / count) * 100) / 100, load: loadavg().map((l) => Math.round(l * 10) / 10), ...result }));
  } finally {
    await stack.close();
    await provider.shutdown();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().then(() => process.exit(0), (error: unknown) => {
  console.error(error);
  process.exit(1);
});
