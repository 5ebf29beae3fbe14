import type { BenchContext, Figure, FigureRow } from '../support/figure.js';
import { errorRow, skippedRow, verdict } from '../support/figure.js';
import { createAccount } from '../support/api.js';
import { cannon, clean, describeLoad, problems, setups, withEdgeHost } from '../support/load.js';
import { hostCpuMicros } from '../support/host.js';
import { allAnswered, pacedLoad, pacedProblems, settle } from '../support/paced.js';
import { ms } from '../support/stats.js';

const FIGURE = 'POST /v1/searches';
const RATE = 200;
const GOAL_P99_MS = { embedded: 10, distributed: 30 } as const;

/**
 * Latency of accepting a search (auth, validation, 5 USD reservation, run insert, enqueue) at an even
 * 200 req/s (open loop, support/paced.ts), then the highest rate autocannon sustains with 16 connections
 * and no cap. Edge only: nothing consumes the work queue, so no research competes for the CPU.
 */
export const postLatency: Figure = {
  id: 'post',
  title: FIGURE,
  async run(ctx: BenchContext): Promise<FigureRow[]> {
    const rows: FigureRow[] = [];
    const steadyS = ctx.quick ? 4 : 10;
    const maxS = ctx.quick ? 3 : 6;
    for (const setup of setups(ctx)) {
      const goal = `p99 ≤ ${GOAL_P99_MS[setup.name]} ms at ${RATE} req/s`;
      if (!setup.available) {
        rows.push(skippedRow(FIGURE, setup.label, goal));
        continue;
      }
      try {
        rows.push(await withEdgeHost(setup, async (host) => {
          const account = await createAccount(host, 10_000_000);
          const headers = { authorization: `Bearer ${account.apiKey}`, 'content-type': 'application/json' };
          const body = JSON.stringify({ q: 'fintech startups in Berlin that raised a Series A in the last 6 months', target: 20 });
          const request = { method: 'POST' as const, path: '/v1/searches', headers, body };
          ctx.log(`${FIGURE} ${setup.name}: warm-up, then ${steadyS}s at ${RATE} req/s`);
          await pacedLoad(host.url, [request], 100, 1);
          await settle(host.url, request);
          const steady = await pacedLoad(host.url, [request], RATE, steadyS);
          await settle(host.url, request);
          ctx.log(`${FIGURE} ${setup.name}: ${maxS}s unthrottled (autocannon, 16 connections)`);
          const cpuBefore = await hostCpuMicros(host);
          const max = describeLoad(await cannon({ url: `${host.url}/v1/searches`, ...request, connections: 16, duration: maxS }));
          // The edge's own CPU per answered request: comparable across runs where other load moves the rates.
          const edgeCpuUsPerRequest = max.requests > 0 ? Math.round((await hostCpuMicros(host) - cpuBefore) / max.requests) : null;
          const ok = allAnswered(steady, 202) && steady.latencyMs.p99 <= GOAL_P99_MS[setup.name];
          return {
            figure: FIGURE,
            setup: setup.label,
            result: `p50 ${ms(steady.latencyMs.p50)}, p99 ${ms(steady.latencyMs.p99)} at ${RATE} req/s${pacedProblems(steady, 202)}; `
              + `max sustained ${max.ratePerSecond} req/s (p99 ${ms(max.p99Ms)}, edge CPU ${edgeCpuUsPerRequest ?? '?'} µs/req)${problems(max)}`,
            goal,
            verdict: verdict(ok),
            data: { steady, max, edgeCpuUsPerRequest, maxSustainedClean: clean(max), maxSeconds: maxS, coordinator: false },
          };
        }));
      } catch (error) {
        rows.push(errorRow(FIGURE, setup.label, goal, error));
      }
    }
    return rows;
  },
};
