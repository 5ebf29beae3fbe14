/**
 * `npx tsx bench/telemetry-cost.ts <mode> [post|get] [requests]`: the edge's own CPU time per request
 * for one telemetry set-up, in one process and without sockets (`app.inject()`), so neither a load
 * generator nor HTTP sits in the figure and other load on the machine moves it little. Modes:
 * `none` (no OpenTelemetry SDK), `sdk` (the SDK as `serve` starts it, no endpoint), `json` and `protobuf`
 * (the same, exporting to a loopback OTLP/HTTP sink that runs in a child process, so its CPU is not counted).
 * Prints one JSON line: CPU µs per request, over the requests and the final flush.
 */
import { fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, silentLogger } from '@leadfinder/platform';
import { startEdgeStack } from './support/edge-stack.js';

type Mode = 'none' | 'sdk' | 'json' | 'protobuf';

async function startSinkProcess(): Promise<{ url: string; stop(): void }> {
  const child = fork(fileURLToPath(new URL('./support/otlp-sink.ts', import.meta.url)), ['--serve'], {
    execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (m: { url: string }) => resolve(m.url));
    child.once('exit', () => reject(new Error('OTLP sink exited')));
  });
  return { url, stop: () => child.kill('SIGTERM') };
}

async function main(): Promise<void> {
  const mode = (process.argv[2] ?? 'sdk') as Mode;
  const kind = process.argv[3] === 'get' ? 'get' : 'post';
  const count = Number(process.argv[4]) || (kind === 'post' ? 4000 : 20000);
  const dataDir = await mkdtemp(join(tmpdir(), 'leadfinder-telemetry-cost-'));
  const sink = mode === 'json' || mode === 'protobuf' ? await startSinkProcess() : null;
  const config = loadConfig({
    HOST: '127.0.0.1', PORT: '0', LEADFINDER_DATA_DIR: dataDir, LEADFINDER_ADMIN_TOKEN: 'telemetry-cost-admin-token-0123456789',
    LEADFINDER_RATE_LIMIT_PER_MIN: '100000000', LEADFINDER_LOG_LEVEL: 'silent',
    OTEL_EXPORTER_OTLP_ENDPOINT: sink?.url ?? '', OTEL_EXPORTER_OTLP_PROTOCOL: mode === 'protobuf' ? 'http/protobuf' : 'http/json',
  });
  const telemetry = mode === 'none' ? null : await (await import('@leadfinder/platform/telemetry')).startTelemetry({ role: 'edge', logger: silentLogger, config });
  const stack = await startEdgeStack({ config, dataDir, distributed: null });
  try {
    const { app } = stack;
    const created = await app.inject({ method: 'POST', url: '/admin/accounts', headers: { authorization: `Bearer ${config.LEADFINDER_ADMIN_TOKEN}`, 'content-type': 'application/json' }, payload: { balanceUsd: 10_000_000 } });
    const { apiKey } = created.json<{ apiKey: string }>();
    const auth = { authorization: `Bearer ${apiKey}` };
    const post = () => app.inject({ method: 'POST', url: '/v1/searches', headers: { ...auth, 'content-type': 'application/json' }, payload: '{"q":"fintech startups in Berlin that raised a Series A in the last 6 months","target":20}' });
    const ids: string[] = [];
    for (let i = 0; i < 50; i++) ids.push((await post()).json<{ id: string }>().id);
    let n = 0;
    const one = kind === 'post' ? post : () => app.inject({ method: 'GET', url: `/v1/searches/${ids[n++ % ids.length]}`, headers: auth });
    const CONCURRENCY = 16;
    const batch = async (total: number) => {
      let left = total;
      await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
        while (left-- > 0) {
          const res = await one();
          if (res.statusCode !== (kind === 'post' ? 202 : 200)) throw new Error(`${kind} answered ${res.statusCode}`);
        }
      }));
    };
    await batch(Math.round(count / 2));
    // For a CPU profile of the measured phase only (--cpu-prof: its sample times are on this clock, in µs).
    if (process.env.LEADFINDER_BENCH_MARK) console.error(`mark start ${process.hrtime.bigint() / 1000n}`);
    const before = process.cpuUsage();
    const started = performance.now();
    await batch(count);
    // The batch processor's last spans go out at shutdown: counted.
    await telemetry?.shutdown();
    const used = process.cpuUsage(before);
    if (process.env.LEADFINDER_BENCH_MARK) console.error(`mark end ${process.hrtime.bigint() / 1000n}`);
    const cpuUs = used.user + used.system;
    console.log(JSON.stringify({ mode, kind, requests: count, cpuUsPerRequest: Math.round((cpuUs / count) * 10) / 10, wallMs: Math.round(performance.now() - started) }));
  } finally {
    await stack.close();
    await telemetry?.shutdown();
    sink?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().then(() => process.exit(0), (error: unknown) => {
  console.error(error);
  process.exit(1);
});
