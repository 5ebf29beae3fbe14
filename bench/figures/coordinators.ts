import type { BenchContext, Figure, FigureRow } from '../support/figure.js';
import { errorRow, skippedRow, verdict } from '../support/figure.js';
import { startSearch } from '../support/api.js';
import { followRun, wallNow } from '../support/runs.js';
import { startFleet, type Fleet } from '../support/fleet.js';
import { summarize } from '../support/stats.js';
import { availableParallelism, loadavg } from 'node:os';

const FIGURE = 'coordinators under load';
/** LEADFINDER_BENCH_COORD_RUNS changes it for a quicker look (the goal is held at 50). */
const CONCURRENT = Number(process.env.LEADFINDER_BENCH_COORD_RUNS) || 50;
const GOAL_RATIO = 2;
const QUERY = 'startups based in Berlin';
const TARGET = 20;
/** Enough slots for every run at once on two coordinators (the default, 8 each, would queue them). */
const CONCURRENCY_PER_COORDINATOR = Math.ceil(CONCURRENT / 2);

/**
 * Two coordinators (plus one fetcher, one filter and one edge, each its own `serve --role` process,
 * over a dedicated nats-server and FerretDB) on the bundled sample corpus with the rule-based reasoner.
 * One run alone (the median of 3, one after another), then 50 started at once: each run is timed from
 * its POST to its `done` event, followed over the event stream. The figure is the ratio of the 50 runs'
 * median and slowest time to the lone run's time.
 */
export const coordinators: Figure = {
  id: 'coord',
  title: FIGURE,
  async run(ctx: BenchContext): Promise<FigureRow[]> {
    const setup = `distributed, 2 coordinators × ${CONCURRENCY_PER_COORDINATOR} slots, sample corpus, "${QUERY}" target ${TARGET}`;
    const goal = `${CONCURRENT} concurrent runs within ${GOAL_RATIO}× one run alone`;
    if (!ctx.mongoUrl) return [skippedRow(FIGURE, setup, goal)];
    let fleet: Fleet | null = null;
    try {
      fleet = await startFleet({
        mongoUrl: ctx.mongoUrl, coordinators: 2, log: ctx.log,
        // Each run is followed over its own event stream: 50 at once on one account (20 by default).
        env: { LEADFINDER_COORDINATOR_CONCURRENCY: String(CONCURRENCY_PER_COORDINATOR), LEADFINDER_STREAMS_PER_ACCOUNT: '1000' },
      });
      const apiKey = await createAccount(fleet, 100_000);
      // Followed over the event stream (as a client would), not by polling GET: 50 runs polled every
      // 50 ms would be 1,000 reads a second on the store, measuring the poll more than the runs.
      const timed = async () => {
        const startedAt = wallNow();
        const id = await startSearch(fleet!.edgeUrl, apiKey, { q: QUERY, target: TARGET });
        const run = await followRun(fleet!.edgeUrl, apiKey, id, startedAt, 120_000);
        const done = run.frames.find(({ frame }) => frame.event.type === 'done');
        const status = run.timedOut ? 'timeout' : run.error ? 'error' : !done ? 'unfinished' : run.final?.stopped ? 'stopped' : 'done';
        return { ms: done?.atMs ?? run.frames.at(-1)?.atMs ?? Number.NaN, status };
      };
      ctx.log(`${FIGURE}: warm-up run, then 3 runs alone`);
      await timed();
      const alone: number[] = [];
      const cpuBefore = await fleet.cpuSeconds();
      const commandsBefore = await fleet.databaseCommands();
      for (let i = 0; i < 3; i++) alone.push((await timed()).ms);
      const cpuAlone = cpuDelta(cpuBefore, await fleet.cpuSeconds(), 3);
      const commandsAlone = commandsBefore && countDelta(commandsBefore, (await fleet.databaseCommands())!, 3);
      const aloneMs = summarize(alone).p50;
      ctx.log(`${FIGURE}: ${CONCURRENT} runs at once`);
      const cpuStart = await fleet.cpuSeconds();
      const commandsStart = await fleet.databaseCommands();
      const t0 = performance.now();
      const many = await Promise.all(Array.from({ length: CONCURRENT }, () => timed()));
      const wallMs = performance.now() - t0;
      const cpuMany = cpuDelta(cpuStart, await fleet.cpuSeconds(), CONCURRENT);
      const commandsMany = commandsStart && countDelta(commandsStart, (await fleet.databaseCommands())!, CONCURRENT);
      // However well the runs overlap, the fleet cannot finish before the CPU they need is served.
      const cores = availableParallelism();
      // Every process of the fleet, the database included when the fleet started its own.
      const cpuPerRun = Object.values(cpuAlone).reduce((n, v) => n + v, 0);
      const cpuPerRunMany = Object.values(cpuMany).reduce((n, v) => n + v, 0);
      const floorMs = Math.max(aloneMs, (cpuPerRun * CONCURRENT * 1000) / cores);
      // The CPU per run (every process, the database's included) at which the goal would fit on these cores.
      const budgetCpu = (GOAL_RATIO * aloneMs * cores) / CONCURRENT / 1000;
      const times = summarize(many.map((m) => m.ms));
      const statuses: Record<string, number> = {};
      for (const m of many) statuses[m.status] = (statuses[m.status] ?? 0) + 1;
      const ratio = (v: number) => Math.round((v / aloneMs) * 100) / 100;
      const s = (v: number) => `${(v / 1000).toFixed(2)} s`;
      return [{
        figure: FIGURE,
        setup,
        result: `one run alone ${s(aloneMs)} (median of 3); ${CONCURRENT} at once: median ${s(times.p50)} (${ratio(times.p50)}×), `
          + `slowest ${s(times.max)} (${ratio(times.max)}×), all done after ${s(wallMs)}; end states ${JSON.stringify(statuses)}; `
          + `CPU per run alone ${cpuPerRun.toFixed(2)} s (${perRole(cpuAlone)}), at ${CONCURRENT}: ${cpuPerRunMany.toFixed(2)} s (${perRole(cpuMany)}); `
          + (commandsAlone ? `database commands per run alone ${perCommand(commandsAlone)}, at ${CONCURRENT}: ${perCommand(commandsMany!)}; ` : 'database CPU not counted (shared server); ')
          + `on ${cores} cores ${CONCURRENT} runs need ≥ ${s(floorMs)} (${ratio(floorMs)}×), and ${GOAL_RATIO}× would need ≤ ${budgetCpu.toFixed(3)} CPU s per run; `
          + `load average ${loadavg()[0]!.toFixed(1)} at end`,
        goal,
        verdict: verdict(times.max <= GOAL_RATIO * aloneMs && (statuses.done ?? 0) === CONCURRENT),
        data: {
          aloneMs: alone, concurrentMs: many.map((m) => m.ms), times, wallMs, statuses, concurrencyPerCoordinator: CONCURRENCY_PER_COORDINATOR,
          cpuSecondsPerRunAlone: cpuAlone, cpuSecondsPerRunAt50: cpuMany, cores, cpuFloorMs: floorMs, goalCpuSecondsPerRun: budgetCpu,
          database: fleet.database, databaseCommandsPerRunAlone: commandsAlone, databaseCommandsPerRunAt50: commandsMany,
        },
      }];
    } catch (error) {
      return [errorRow(FIGURE, setup, goal, error)];
    } finally {
      await fleet?.stop();
    }
  },
};

async function createAccount(fleet: Fleet, balanceUsd: number): Promise<string> {
  const res = await fetch(`${fleet.adminUrl}/admin/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${fleet.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ balanceUsd }),
  });
  if (res.status !== 201) throw new Error(`POST /admin/accounts answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { apiKey: string }).apiKey;
}

/** CPU seconds per run used by each process between two readings. */
function cpuDelta(before: Record<string, number>, after: Record<string, number>, runs: number): Record<string, number> {
  return Object.fromEntries(Object.entries(after).map(([name, v]) => [name, Math.round(((v - (before[name] ?? 0)) / runs) * 1000) / 1000]));
}

/** Commands per run between two readings of the database's counters. */
function countDelta(before: Record<string, number>, after: Record<string, number>, runs: number): Record<string, number> {
  return Object.fromEntries(Object.entries(after)
    .map(([name, v]) => [name, Math.round(((v - (before[name] ?? 0)) / runs) * 10) / 10] as const)
    .filter(([, v]) => v > 0));
}

function perCommand(counts: Record<string, number>): string {
  const total = Object.values(counts).reduce((n, v) => n + v, 0);
  return `${total.toFixed(0)} (${Object.entries(counts).sort((a, b) => b[1] - a[1]).map(([name, v]) => `${name} ${v}`).join(', ')})`;
}

function perRole(cpu: Record<string, number>): string {
  return Object.entries(cpu).filter(([, v]) => v >= 0.005).sort((a, b) => b[1] - a[1]).map(([name, v]) => `${name} ${v.toFixed(2)}`).join(', ');
}
