import type { BenchContext, Figure, FigureRow } from '../support/figure.js';
import { errorRow, skippedRow, verdict } from '../support/figure.js';
import { createAccount, inPool, startSearch } from '../support/api.js';
import { cannon, clean, describeLoad, problems, setups, withEdgeHost } from '../support/load.js';
import { hostCpuMicros } from '../support/host.js';
import { allAnswered, pacedLoad, pacedProblems, settle } from '../support/paced.js';
import { ms } from '../support/stats.js';

const FIGURE = 'GET /v1/searches/{id}';
const RATE = 200;
const RUNS = 50;

/**
 * Latency of reading a run record at an even 200 req/s, rotating over 50 runs of the caller, then the
 * highest rate autocannon sustains (16 connections, no cap). Edge only (no coordinator), as for POST.
 */
export const getLatency: Figure = {
  id: 'get',
  title: FIGURE,
  async run(ctx: BenchContext): Promise<FigureRow[]> {
    const rows: FigureRow[] = [];
    const steadyS = ctx.quick ? 4 : 10;
    const maxS = ctx.quick ? 3 : 6;
    for (const setup of setups(ctx)) {
      const goal = setup.name === 'embedded' ? `p99 ≤ 5 ms at ${RATE} req/s` : 'report';
      if (!setup.available) {
        rows.push(skippedRow(FIGURE, setup.label, goal));
        continue;
      }
      try {
        rows.push(await withEdgeHost(setup, async (host) => {
          const account = await createAccount(host, 10_000);
          const ids = await inPool(Array.from({ length: RUNS }, (_, i) => i), 8, (i) =>
            startSearch(host.url, account.apiKey, { q: `benchmark run number ${i} about robotics companies`, target: 10 }));
          const headers = { authorization: `Bearer ${account.apiKey}` };
          const requests = ids.map((id) => ({ method: 'GET' as const, path: `/v1/searches/${id}`, headers }));
          ctx.log(`${FIGURE} ${setup.name}: warm-up, then ${steadyS}s at ${RATE} req/s`);
          await pacedLoad(host.url, requests, 100, 1);
          await settle(host.url, requests[0]!);
          const steady = await pacedLoad(host.url, requests, RATE, steadyS);
          await settle(host.url, requests[0]!);
          ctx.log(`${FIGURE} ${setup.name}: ${maxS}s unthrottled (autocannon, 16 connections)`);
          const cpuBefore = await hostCpuMicros(host);
          const max = describeLoad(await cannon({ url: host.url, headers, requests, connections: 16, duration: maxS }));
          // The edge's own CPU per answered request: comparable across runs where other load moves the rates.
          const edgeCpuUsPerRequest = max.requests > 0 ? Math.round((await hostCpuMicros(host) - cpuBefore) / max.requests) : null;
          const answered = allAnswered(steady, 200);
          return {
            figure: FIGURE,
            setup: setup.label,
            result: `p50 ${ms(steady.latencyMs.p50)}, p99 ${ms(steady.latencyMs.p99)} at ${RATE} req/s${pacedProblems(steady, 200)}; `
              + `max sustained ${max.ratePerSecond} req/s (p99 ${ms(max.p99Ms)}, edge CPU ${edgeCpuUsPerRequest ?? '?'} µs/req)${problems(max)}`,
            goal,
            verdict: setup.name === 'embedded' ? verdict(answered && steady.latencyMs.p99 <= 5) : answered ? 'report' : 'FAIL',
            data: { steady, max, edgeCpuUsPerRequest, maxSustainedClean: clean(max), runs: RUNS, maxSeconds: maxS, coordinator: false },
          };
        }));
      } catch (error) {
        rows.push(errorRow(FIGURE, setup.label, goal, error));
      }
    }
    return rows;
  },
};
