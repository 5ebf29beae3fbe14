/**
 * Child process that hosts the system under test, so the load generator (the parent) does not share its
 * event loop. Started by host.ts with an IPC channel; announces `{type:'ready', url}` and answers
 * commands `{id, cmd, args}` with `{id, ok, result | error}` (`stop`, `memory`, `cpu`, `publish`, `storeStats`).
 *
 * Kinds: `edge` (edge alone, embedded or distributed, see edge-stack.ts) and `service` (the whole
 * service as `npm start` runs it, embedded, via startService).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, silentLogger } from '@leadfinder/platform';
import type { Config, EventLog } from '@leadfinder/platform';
import { startEdgeStack } from './edge-stack.js';

export interface HostSpec {
  kind: 'edge' | 'service';
  distributed: { natsUrl: string; mongoUrl: string } | null;
  adminToken: string;
  /** Extra environment for loadConfig (e.g. corpus settings). */
  env?: Record<string, string>;
  /** Edge only: share one database and one set of streams with other edge hosts (see edge-stack.ts). */
  shared?: { suffix: string; owner: boolean };
  /**
   * Edge only: `false` starts no OpenTelemetry SDK at all, a reference below what `serve` runs (it always
   * starts the SDK). Default: started as `serve --role edge` starts it, exporting only when an OTLP
   * endpoint is configured.
   */
  telemetry?: boolean;
}

type Command = { id: number; cmd: string; args?: Record<string, unknown> };

const send = (message: unknown) => process.send?.(message);

async function main(): Promise<void> {
  const spec = JSON.parse(process.env.LEADFINDER_BENCH_HOST ?? '{}') as HostSpec;
  const dataDir = await mkdtemp(join(tmpdir(), 'leadfinder-bench-'));
  const config = loadConfig({
    HOST: '127.0.0.1',
    PORT: '0',
    LEADFINDER_DATA_DIR: dataDir,
    LEADFINDER_ADMIN_TOKEN: spec.adminToken,
    // The per-credential limit (600/min) would turn a 200 req/s benchmark into 429s.
    LEADFINDER_RATE_LIMIT_PER_MIN: '100000000',
    // The fan-out benchmark holds thousands of streams of one account (20 by default).
    LEADFINDER_STREAMS_PER_ACCOUNT: '100000',
    LEADFINDER_LOG_LEVEL: 'silent',
    // `npm run bench -- --otlp`: spans and metrics exported to the bench's loopback OTLP sink.
    ...(process.env.LEADFINDER_BENCH_OTLP ? { OTEL_EXPORTER_OTLP_ENDPOINT: process.env.LEADFINDER_BENCH_OTLP } : {}),
    // OTEL_EXPORTER_OTLP_PROTOCOL=http/json npm run bench …: export JSON instead of the default protobuf.
    ...(process.env.OTEL_EXPORTER_OTLP_PROTOCOL ? { OTEL_EXPORTER_OTLP_PROTOCOL: process.env.OTEL_EXPORTER_OTLP_PROTOCOL } : {}),
    ...spec.env,
  });

  let system: System;
  try {
    system = await startSystem(spec, config, dataDir);
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  const { url, events, storeStats, close } = system;

  let stopping: Promise<void> | null = null;
  const shutdown = () => {
    stopping ??= (async () => {
      await close().catch((error: unknown) => console.error(`bench host: stop failed: ${String(error)}`));
      await rm(dataDir, { recursive: true, force: true });
    })();
    return stopping;
  };
  process.on('SIGTERM', () => void shutdown().then(() => process.exit(0)));
  process.on('disconnect', () => void shutdown().then(() => process.exit(0)));

  process.on('message', (message: Command) => {
    void (async () => {
      try {
        const result = message.cmd === 'storeStats' ? storeStats() : await handle(message, events);
        if (message.cmd === 'stop') {
          await shutdown();
          send({ id: message.id, ok: true, result });
          process.exit(0);
        }
        send({ id: message.id, ok: true, result });
      } catch (error) {
        send({ id: message.id, ok: false, error: error instanceof Error ? error.message : String(error) });
      }
    })();
  });
  send({ type: 'ready', url });
}

interface System {
  url: string;
  /** Direct event-log access (edge host only). */
  events: EventLog | null;
  /** Time per MongoDB command since the last call (distributed edge host only). */
  storeStats(): unknown;
  close(): Promise<void>;
}

async function startSystem(spec: HostSpec, config: Config, dataDir: string): Promise<System> {
  if (spec.kind === 'edge') {
    // The whole service starts telemetry itself (startService); the edge-only stack does it here, as
    // `serve --role edge` does: always, exporting only with an endpoint. So the figures without `--otlp`
    // are the product as it runs without a collector, and `--otlp` adds the export alone.
    const telemetry = spec.telemetry === false
      ? null
      : await (await import('@leadfinder/platform/telemetry')).startTelemetry({ role: 'edge', logger: silentLogger, config });
    const stack = await startEdgeStack({ config, dataDir, distributed: spec.distributed, ...(spec.shared ? { shared: spec.shared } : {}) });
    return {
      url: stack.url, events: stack.events, storeStats: stack.storeStats,
      close: async () => {
        await stack.close();
        await telemetry?.shutdown();
      },
    };
  }
  // The CLI package has no index yet; this is the composition `npm start` runs.
  const { startService } = await import('@leadfinder/cli');
  const service = await startService(config, 'all', silentLogger);
  return { url: service.url!, events: null, storeStats: () => [], close: service.stop };
}

async function handle(message: Command, events: EventLog | null): Promise<unknown> {
  switch (message.cmd) {
    case 'stop':
      return null;
    // CPU time this process has used (µs): per-request or per-run cost that other load on the machine does not inflate as it does wall time.
    case 'cpu':
      return process.cpuUsage();
    case 'memory': {
      const gc = (globalThis as { gc?: () => void }).gc;
      if (gc) {
        gc();
        gc();
      }
      return process.memoryUsage();
    }
    case 'publish': {
      if (!events) throw new Error('publish needs the edge host (direct event-log access)');
      const args = message.args as { runIds: string[]; perSecond: number; durationMs: number };
      return publishSteadily(events, args.runIds, args.perSecond, args.durationMs);
    }
    default:
      throw new Error(`unknown command ${message.cmd}`);
  }
}

/**
 * Appends `status` events round-robin over the runs at a steady rate (drift-corrected schedule). Each
 * message carries the wall-clock publish time, taken just before the append, so the client can measure
 * publish-to-client latency including the log's commit.
 */
async function publishSteadily(events: EventLog, runIds: string[], perSecond: number, durationMs: number) {
  const intervalMs = 1000 / perSecond;
  const total = Math.floor((durationMs / 1000) * perSecond);
  const start = performance.now();
  const appends: Promise<number>[] = [];
  let failures = 0;
  for (let i = 0; i < total; i++) {
    const due = start + i * intervalMs;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const runId = runIds[i % runIds.length]!;
    const t = performance.timeOrigin + performance.now();
    const event = { type: 'status' as const, at: new Date(t).toISOString(), runId, where: 'searching', message: JSON.stringify({ bench: true, t }) };
    appends.push(events.append(runId, event, `bench:${runId}:${i}`).catch(() => {
      failures++;
      return 0;
    }));
  }
  await Promise.all(appends);
  return { published: total - failures, failures, elapsedMs: performance.now() - start };
}

main().catch((error: unknown) => {
  send({ type: 'failed', error: error instanceof Error ? error.message : String(error) });
  console.error(error);
  process.exit(1);
});
