/**
 * Issue 22: in one trace of a run an SRE sees where every millisecond went. For real `leadfinder serve`
 * processes exporting OTLP to a loopback collector, embedded (one process) and distributed (edge,
 * coordinator, fetcher and filter as separate processes over NATS JetStream and MongoDB/FerretDB), on a
 * loopback fake of the public web (SearXNG API and news pages):
 * - at least 95 % of the `leadfinder.run` span's time is covered by its descendant spans (store, event
 *   log, billing, stages, gRPC, fetches);
 * - spans per run grow with rounds and filters, not candidates: a run for 50 rows has at most twice the
 *   spans of a run for 5.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueName } from '@leadfinder/testkit';
import { apiClient, createAccount, distributedServers, dropTestDatabase, startFakeWeb, startNatsServer, startRole, waitTerminal, waitUntil } from '../e2e/distributed-harness.js';
import type { Proc, RoleProc } from '../e2e/distributed-harness.js';
import { startServerProcess } from '../support/server-process.js';
import type { ServerProcess } from '../support/server-process.js';
import { coverage, startCollector } from './otlp-collector.js';
import type { CollectedSpan } from './otlp-collector.js';

const SUITE = 'test/observability/run-coverage.test.ts';
const { mongoUrl, natsBin, ready: serversReady } = await distributedServers(SUITE);
const ADMIN = 'coverage-admin-token-0123456789abcdefghij';
const QUERY = 'AI startups in Berlin that raised a seed round in the last year';
const MIN_COVERAGE = 0.95;
/** The fake web's size: enough news per query that 50 rows take more rounds than 5, not many more. */
const WEB = { delayMs: 20, pagesPerQuery: 2, resultsPerPage: 6 };

/** The trace of one finished run, as the collector got it. */
interface RunTrace { runId: string; target: number; rows: number; run: CollectedSpan; spans: CollectedSpan[] }

type Collector = Awaited<ReturnType<typeof startCollector>>;

/** Starts a run, waits for it to end and for its run span to be exported; returns its trace. */
async function traceOf(collector: Collector, edgeUrl: string, apiKey: string, target: number): Promise<RunTrace> {
  const api = apiClient(edgeUrl, apiKey);
  const runId = await api.start(QUERY, target);
  const { run } = await waitTerminal(api, runId, 120_000);
  expect(run.status).toBe('done');
  const runSpan = await waitUntil('the run span to be exported', async () =>
    collector.spans.find((s) => s.name === 'leadfinder.run' && s.attributes['leadfinder.run_id'] === runId), 20_000);
  // Spans of other processes are exported on their own schedule (batch processor, 1 s): wait until the trace
  // has not grown for 1.5 s, looking every 250 ms.
  const inTrace = () => collector.spans.filter((s) => s.traceId === runSpan.traceId).length;
  let count = inTrace();
  let stableSince = Date.now();
  while (Date.now() - stableSince < 1500) {
    await new Promise((r) => setTimeout(r, 250));
    const now = inTrace();
    if (now !== count) [count, stableSince] = [now, Date.now()];
  }
  return { runId, target, rows: run.result?.table.length ?? 0, run: runSpan, spans: collector.spans.filter((s) => s.traceId === runSpan.traceId) };
}

function describeCoverage(trace: RunTrace): string {
  const c = coverage(trace.run, trace.spans);
  const gaps = c.gaps.slice(0, 8).map((g) => `${g.ms.toFixed(1)} ms at +${g.fromMs.toFixed(0)} ms between ${g.after} and ${g.before}`);
  return `target ${trace.target}: run ${c.durationMs.toFixed(0)} ms, covered ${(c.ratio * 100).toFixed(1)} %, ${trace.spans.length} spans in the trace; largest gaps: ${gaps.join('; ') || 'none'}`;
}

/** Both checks, on a pair of runs (target 5, target 50) of one deployment. */
function checks(label: string, runs: () => { small: RunTrace; large: RunTrace }): void {
  it(`${label}: at least 95 % of each run span's time is under child spans`, () => {
    const { small, large } = runs();
    for (const trace of [small, large]) {
      const c = coverage(trace.run, trace.spans);
      console.info(`${label} coverage, ${describeCoverage(trace)}`);
      expect(c.ratio, describeCoverage(trace)).toBeGreaterThanOrEqual(MIN_COVERAGE);
    }
  });

  it(`${label}: a run for 50 rows has at most twice the spans of a run for 5`, () => {
    const { small, large } = runs();
    const byName = (t: RunTrace) => {
      const counts = new Map<string, number>();
      for (const s of t.spans) counts.set(s.name, (counts.get(s.name) ?? 0) + 1);
      return [...counts].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([n, k]) => `${n}×${k}`).join(', ');
    };
    const rounds = (t: RunTrace) => Math.max(0, ...t.spans.map((s) => Number(s.attributes['leadfinder.round'] ?? 0)));
    const message = `target 5: ${small.rows} rows, ${rounds(small)} rounds, ${small.spans.length} spans (${byName(small)}); target 50: ${large.rows} rows, ${rounds(large)} rounds, ${large.spans.length} spans (${byName(large)})`;
    console.info(`${label} span counts, ${message}`);
    // The large run really did more work (else the bound says nothing): ten times the rows, more rounds.
    expect(large.rows, message).toBeGreaterThanOrEqual(4 * small.rows);
    expect(rounds(large), message).toBeGreaterThan(rounds(small));
    expect(large.spans.length, message).toBeLessThanOrEqual(2 * small.spans.length);
  });
}

/** A deployment's pair of finished runs, and how to stop what it started. */
interface Deployment { small: RunTrace; large: RunTrace }

/**
 * The embedded and the distributed deployment are set up and run at once (their start-ups, runs and
 * quiet windows overlap; they share no process, port or database), each checked by its describe block.
 * What a deployment started is stopped in the file's afterAll, the last started first.
 */
const teardowns: (() => Promise<unknown>)[][] = [];
let embedded: Promise<Deployment>;
let distributed: Promise<Deployment> | undefined;

/** A promise awaited later: its failure is reported by the block that awaits it, not as an unhandled rejection. */
function awaitedLater<T>(work: Promise<T>): Promise<T> {
  work.catch(() => undefined);
  return work;
}

async function runEmbedded(): Promise<Deployment> {
  const stops: (() => Promise<unknown>)[] = [];
  teardowns.push(stops);
  const collector = await startCollector();
  stops.unshift(() => collector.close());
  const web = await startFakeWeb(WEB);
  stops.unshift(() => web.close());
  const server: ServerProcess = await startServerProcess({
    env: {
      // Exported every 200 ms rather than 5 s (as the distributed processes below): the run span is then
      // at the collector soon after the run ends, and traceOf's quiet window settles sooner.
      LEADFINDER_ADMIN_TOKEN: ADMIN, OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_BSP_SCHEDULE_DELAY: '200',
      LEADFINDER_SEARCH: 'searxng', LEADFINDER_SEARXNG_URL: web.searxngUrl('embedded'),
      LEADFINDER_FETCH_ALLOW_PRIVATE: '1', LEADFINDER_FETCH_RESOLVE: web.resolveEntry,
    },
  });
  stops.unshift(() => server.stop());
  const { apiKey } = await createAccount(server.url, ADMIN, 100);
  const small = await traceOf(collector, server.url, apiKey, 5);
  const large = await traceOf(collector, server.url, apiKey, 50);
  return { small, large };
}

async function runDistributed(): Promise<Deployment> {
  const tmpRoot = mkdtempSync(join(tmpdir(), 'lf-coverage-'));
  const dbName = uniqueName('lf_coverage');
  const procs: Proc[] = [];
  const stops: (() => Promise<unknown>)[] = [];
  teardowns.push(stops);
  stops.unshift(async () => {
    await dropTestDatabase(mongoUrl, dbName);
    rmSync(tmpRoot, { recursive: true, force: true });
  });
  const collector = await startCollector();
  stops.unshift(() => collector.close());
  const web = await startFakeWeb(WEB);
  stops.unshift(() => web.close());
  stops.unshift(async () => {
    await Promise.allSettled(procs.slice(1).map((p) => p.stop(5000)));
    await procs[0]?.stop(5000);
  });
  // A nats-server of its own: no other suite's coordinator may take these runs.
  const nats = await startNatsServer(natsBin, join(tmpRoot, 'jetstream'));
  procs.push(nats);
  const common = {
    LEADFINDER_MONGODB_URL: mongoUrl!, LEADFINDER_MONGODB_DB: dbName, LEADFINDER_NATS_URL: nats.url,
    LEADFINDER_SESSION_SECRET: 'coverage-session-secret-0123456789abcdef', LEADFINDER_ADMIN_TOKEN: ADMIN,
    // Each process exports on its own timer (5 s by default): a short one lets the trace settle within
    // the stability window traceOf waits for.
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_BSP_SCHEDULE_DELAY: '200',
  };
  const start = async (role: 'edge' | 'coordinator' | 'fetcher' | 'filter', env: Record<string, string> = {}): Promise<RoleProc> => {
    const proc = await startRole(role, role, { ...common, LEADFINDER_DATA_DIR: mkdtempSync(join(tmpRoot, `${role}-`)), ...env });
    procs.push(proc);
    return proc;
  };
  const [fetcher, filter] = await Promise.all([
    start('fetcher', {
      LEADFINDER_SEARCH: 'searxng', LEADFINDER_SEARXNG_URL: web.searxngUrl('distributed'),
      LEADFINDER_FETCH_ALLOW_PRIVATE: '1', LEADFINDER_FETCH_RESOLVE: web.resolveEntry,
    }),
    start('filter'),
  ]);
  const [edge] = await Promise.all([
    start('edge'),
    start('coordinator', { LEADFINDER_LOG_LEVEL: 'info', LEADFINDER_FETCHER_ADDR: `127.0.0.1:${fetcher.grpcPort}`, LEADFINDER_FILTER_ADDR: `127.0.0.1:${filter.grpcPort}` }),
  ]);
  const { apiKey } = await createAccount(edge.url!, ADMIN, 100);
  const small = await traceOf(collector, edge.url!, apiKey, 5);
  const large = await traceOf(collector, edge.url!, apiKey, 50);
  return { small, large };
}

beforeAll(() => {
  embedded = awaitedLater(runEmbedded());
  distributed = serversReady ? awaitedLater(runDistributed()) : undefined;
});

afterAll(async () => {
  await Promise.all(teardowns.map(async (stops) => {
    for (const stop of stops) await stop();
  }));
}, 60_000);

describe('run trace coverage, embedded (one serve process)', () => {
  let small: RunTrace;
  let large: RunTrace;

  beforeAll(async () => {
    ({ small, large } = await embedded);
  }, 240_000);

  checks('embedded', () => ({ small, large }));
});

describe.skipIf(!serversReady)('run trace coverage, distributed (edge, coordinator, fetcher, filter over NATS and MongoDB)', () => {
  let small: RunTrace;
  let large: RunTrace;

  beforeAll(async () => {
    ({ small, large } = await distributed!);
  }, 240_000);

  checks('distributed', () => ({ small, large }));

  it('distributed: the run\'s trace holds spans of all four roles', () => {
    const services = new Set(large.spans.map((s) => s.service));
    for (const role of ['edge', 'coordinator', 'fetcher', 'filter']) expect(services, [...services].join(', ')).toContain(`leadfinder-${role}`);
  });
});
