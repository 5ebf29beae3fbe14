import type { BenchContext, Figure, FigureRow } from '../support/figure.js';
import { errorRow } from '../support/figure.js';
import { createAccount, inPool, startSearch } from '../support/api.js';
import { hostCpuMicros, startHost, type Host } from '../support/host.js';
import { startOtlpSink } from '../support/otlp-sink.js';
import { pacedLoad, settle, type PacedRequest } from '../support/paced.js';
import { followRun, wallNow } from '../support/runs.js';

const FIGURE = 'OTLP export cost';
const GOAL = 'exporting ≤ 1.05× the SDK without an endpoint (CPU per request, median of paired rounds)';

/**
 * What exporting traces and metrics over OTLP costs, in the edge's (or the service's) own CPU time, with
 * the product's own set-up as the baseline: `serve` always starts the OpenTelemetry SDK, so "off" is the SDK
 * with no endpoint and "on" the same with an endpoint (a loopback OTLP/HTTP sink that answers at once).
 * A process with no SDK at all is measured beside them as a reference.
 *
 * On a shared machine wall-clock rates swing by more than the export costs, so the hosts run side by side
 * and take turns: each round gives every host the same paced window (same rate, same requests), and a
 * host's CPU is read from the start of its window to the start of its next one, so the spans of a window
 * that are exported after it (the batch processor's 5 s schedule) still count. Result: the median CPU µs
 * per request over the rounds, per host, and the ratios. `LEADFINDER_BENCH_EXPORT_TOGETHER=1` runs the
 * windows of a round at the same time instead (the SDK hosts only), so both meet the same load from
 * other processes; the CPU is read the same way.
 *
 * POST and GET run on edge-only hosts (embedded, no coordinator, as the POST and GET figures); end to end
 * runs the whole service on the sample corpus, one search of target 20 per host per round.
 */

type Variant = 'none' | 'sdk' | 'export';
const VARIANTS: readonly Variant[] = ['none', 'sdk', 'export'];
const LABEL: Record<Variant, string> = { none: 'no SDK', sdk: 'SDK, no endpoint', export: 'SDK, exporting' };

/** Median of numbers (NaN for none). */
function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

interface Cycles {
  /** CPU µs per request (or per run) of each round, per host. */
  perUnit: Record<Variant, number[]>;
}

/**
 * Rounds of one window per host (host order rotating every round, or all hosts at once when `together`);
 * `window(variant)` returns the requests (or runs) it made. CPU of a host is read before each of its
 * windows and once more after the last, after `tailMs` of idle time.
 */
async function alternate(hosts: Partial<Record<Variant, Host>>, rounds: number, tailMs: number, together: boolean, window: (variant: Variant) => Promise<number>): Promise<Cycles> {
  const variants = VARIANTS.filter((v) => hosts[v]);
  const perUnit = { none: [], sdk: [], export: [] } as Record<Variant, number[]>;
  const last = {} as Record<Variant, { cpu: number; units: number } | null>;
  for (const v of variants) last[v] = null;
  const close = async (v: Variant) => {
    const now = await hostCpuMicros(hosts[v]!);
    const open = last[v];
    if (open && open.units > 0) perUnit[v].push((now - open.cpu) / open.units);
    return now;
  };
  for (let round = 0; round < rounds; round++) {
    if (together) {
      const cpus = await Promise.all(variants.map((v) => close(v)));
      const units = await Promise.all(variants.map((v) => window(v)));
      variants.forEach((v, i) => (last[v] = { cpu: cpus[i]!, units: units[i]! }));
      continue;
    }
    const order = variants.map((_, i) => variants[(i + round) % variants.length]!);
    for (const v of order) {
      const cpu = await close(v);
      const units = await window(v);
      last[v] = { cpu, units };
    }
  }
  await new Promise((resolve) => setTimeout(resolve, tailMs));
  for (const v of variants) await close(v);
  return { perUnit };
}

/** Quartiles of numbers: [p25, median, p75]. */
function quartiles(values: readonly number[]): [number, number, number] {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => {
    if (sorted.length === 0) return Number.NaN;
    const i = (sorted.length - 1) * q;
    const lo = Math.floor(i);
    return sorted[lo]! + (sorted[Math.min(lo + 1, sorted.length - 1)]! - sorted[lo]!) * (i - lo);
  };
  return [at(0.25), at(0.5), at(0.75)];
}

/**
 * Medians per host, and the ratios that matter as medians of per-round ratios: the hosts of one round ran
 * back to back (same load on the machine, same number of runs in their stores), so a round's ratio is
 * spared the drift that moves every host's CPU per request from one round to the next.
 */
function describe(cycles: Cycles, unit: string, scale = 1) {
  const variants = VARIANTS.filter((v) => cycles.perUnit[v].length > 0);
  const m = Object.fromEntries(VARIANTS.map((v) => [v, median(cycles.perUnit[v])])) as Record<Variant, number>;
  const n = (x: number) => (scale === 1 ? String(Math.round(x)) : (x / scale).toFixed(1));
  const paired = (a: Variant, b: Variant) => {
    const ratios = cycles.perUnit[a].map((x, i) => x / cycles.perUnit[b][i]!).filter(Number.isFinite);
    return quartiles(ratios).map((r) => Math.round(r * 1000) / 1000) as [number, number, number];
  };
  const exportRatio = paired('export', 'sdk');
  const sdkRatio = variants.includes('none') ? paired('sdk', 'none') : null;
  const x = ([lo, mid, hi]: [number, number, number]) => `×${mid.toFixed(3)} (IQR ${lo.toFixed(3)}–${hi.toFixed(3)})`;
  const text = `CPU ${unit}, median of ${cycles.perUnit.sdk.length} rounds: ${variants.map((v) => `${LABEL[v]} ${n(m[v])}`).join(', ')}; `
    + `exporting ${x(exportRatio)} the SDK without endpoint, paired by round`
    + `${sdkRatio ? `; SDK ${x(sdkRatio)} no SDK` : ''}`;
  return { text, medians: m, exportRatio: exportRatio[1], exportRatioIqr: [exportRatio[0], exportRatio[2]], sdkRatio: sdkRatio?.[1] ?? null, cycles: cycles.perUnit };
}

async function startEdges(sinkUrl: string, variants: readonly Variant[]): Promise<Partial<Record<Variant, Host>>> {
  const hosts: Partial<Record<Variant, Host>> = {};
  try {
    for (const v of variants) {
      hosts[v] = await startHost({
        kind: 'edge', distributed: null, telemetry: v !== 'none',
        // The bench's own LEADFINDER_BENCH_OTLP (`--otlp`) must not leak into the "no endpoint" hosts.
        // Empty is unset; it also keeps the bench's own `--otlp` endpoint from the hosts that must not export.
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: v === 'export' ? sinkUrl : '' },
      });
    }
  } catch (error) {
    await Promise.all(Object.values(hosts).map((h) => h?.stop()));
    throw error;
  }
  return hosts;
}

export const exportCost: Figure = {
  id: 'export',
  title: FIGURE,
  async run(ctx: BenchContext): Promise<FigureRow[]> {
    const rounds = Number(process.env.LEADFINDER_BENCH_EXPORT_ROUNDS) || (ctx.quick ? 3 : 12);
    const windowS = ctx.quick ? 1 : 2;
    const postRate = Number(process.env.LEADFINDER_BENCH_EXPORT_POST_RATE) || 400;
    const getRate = Number(process.env.LEADFINDER_BENCH_EXPORT_GET_RATE) || 1500;
    const e2eRounds = Number(process.env.LEADFINDER_BENCH_EXPORT_E2E_ROUNDS) || (ctx.quick ? 2 : 5);
    const only = (process.env.LEADFINDER_BENCH_EXPORT_ONLY ?? 'post,get,e2e').split(',');
    // Windows of the hosts at once instead of in turns: the load other processes put on the machine then
    // falls on both alike within a round, where turns of 2 s each met different load (paired ratios of the
    // same code spread over ×0.91–1.35 at load 8–11). The "no SDK" reference host is left out then.
    const together = process.env.LEADFINDER_BENCH_EXPORT_TOGETHER === '1';
    const edgeVariants: readonly Variant[] = together ? ['sdk', 'export'] : VARIANTS;
    const sink = await startOtlpSink();
    const rows: FigureRow[] = [];
    try {
      if (only.includes('post') || only.includes('get')) {
        const hosts = await startEdges(sink.url, edgeVariants);
        try {
          const plan: Record<Variant, { post: PacedRequest; gets: PacedRequest[] }> = {} as never;
          for (const v of edgeVariants) {
            const host = hosts[v]!;
            const account = await createAccount(host, 10_000_000);
            const headers = { authorization: `Bearer ${account.apiKey}` };
            const post: PacedRequest = {
              method: 'POST', path: '/v1/searches', headers: { ...headers, 'content-type': 'application/json' },
              body: JSON.stringify({ q: 'fintech startups in Berlin that raised a Series A in the last 6 months', target: 20 }),
            };
            const ids = await inPool(Array.from({ length: 50 }, (_, i) => i), 8, (i) =>
              startSearch(host.url, account.apiKey, { q: `benchmark run number ${i} about robotics companies`, target: 10 }));
            plan[v] = { post, gets: ids.map((id) => ({ method: 'GET', path: `/v1/searches/${id}`, headers })) };
            // Warm-up: V8 optimises the request path (and the exporter's encoder) before anything counts.
            await pacedLoad(host.url, [post], 200, 2);
            await pacedLoad(host.url, plan[v].gets, 500, 2);
            await settle(host.url, post);
          }
          for (const [kind, rate] of [['post', postRate], ['get', getRate]] as const) {
            if (!only.includes(kind)) continue;
            ctx.log(`${FIGURE}: ${kind.toUpperCase()} ${rounds} rounds of ${windowS} s at ${rate} req/s per host${together ? ', hosts at once' : ''}`);
            const cycles = await alternate(hosts, rounds, 6_000, together, async (v) => {
              const requests = kind === 'post' ? [plan[v].post] : plan[v].gets;
              const load = await pacedLoad(hosts[v]!.url, requests, rate, windowS);
              const answered = load.statuses[kind === 'post' ? 202 : 200] ?? 0;
              await settle(hosts[v]!.url, requests[0]!);
              return answered;
            });
            const d = describe(cycles, 'µs/req');
            rows.push({
              figure: FIGURE, setup: `${kind === 'post' ? 'POST /v1/searches' : 'GET /v1/searches/{id}'} at ${rate} req/s, embedded edge`,
              result: d.text, goal: GOAL, verdict: d.exportRatio <= 1.05 ? 'pass' : 'FAIL',
              // The hosts inherit the environment: OTEL_EXPORTER_OTLP_PROTOCOL=http/json picks JSON (default protobuf).
              data: { rate, windowS, rounds, together, protocol: process.env.OTEL_EXPORTER_OTLP_PROTOCOL || 'http/protobuf', ...d },
            });
          }
        } finally {
          await Promise.all(edgeVariants.map((v) => hosts[v]?.stop()));
        }
      }
      if (only.includes('e2e')) {
        // The whole service always starts the SDK (startService): no "no SDK" host here.
        const variants = ['sdk', 'export'] as const;
        const hosts: Partial<Record<Variant, Host>> = {};
        try {
          for (const v of variants) {
            hosts[v] = await startHost({ kind: 'service', distributed: null, env: { OTEL_EXPORTER_OTLP_ENDPOINT: v === 'export' ? sink.url : '' } });
          }
          const keys = {} as Record<Variant, string>;
          for (const v of variants) keys[v] = (await createAccount(hosts[v]!, 100_000)).apiKey;
          const runOnce = async (v: Variant) => {
            const url = hosts[v]!.url;
            const id = await startSearch(url, keys[v], { q: 'startups based in Berlin', target: 20 });
            const run = await followRun(url, keys[v], id, wallNow(), 60_000);
            return run.final ? 1 : 0;
          };
          // One run each first: corpus, index and code paths warm.
          for (const v of variants) await runOnce(v);
          ctx.log(`${FIGURE}: end to end, ${e2eRounds} rounds of one run per host${together ? ', hosts at once' : ''}`);
          const d = describe(await alternate(hosts, e2eRounds, 6_000, together, runOnce), 'ms/run', 1000);
          rows.push({
            figure: FIGURE, setup: 'end to end (whole service, embedded, sample corpus, target 20)',
            result: d.text, goal: GOAL, verdict: d.exportRatio <= 1.05 ? 'pass' : 'FAIL', data: { rounds: e2eRounds, together, ...d },
          });
        } finally {
          await Promise.all(variants.map((v) => hosts[v]?.stop()));
        }
      }
    } catch (error) {
      rows.push(errorRow(FIGURE, 'embedded', GOAL, error));
    } finally {
      const exported = await sink.close();
      ctx.log(`${FIGURE}: the sink received ${exported.requests} exports (${(exported.bytes / 1024).toFixed(0)} KiB)`);
    }
    return rows;
  },
};
