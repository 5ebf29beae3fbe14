import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import type { BenchContext, Figure, FigureRow } from '../support/figure.js';
import { errorRow, skippedRow, verdict } from '../support/figure.js';
import { createAccount, type Account } from '../support/api.js';
import type { StoreCommandStats } from '../support/edge-stack.js';
import { startHost, type Host } from '../support/host.js';
import { describeLoad, problems } from '../support/load.js';
import { allAnswered, pacedLoad, pacedProblems, type PacedRequest } from '../support/paced.js';
import { ms } from '../support/stats.js';

const FIGURE = 'POST /v1/searches, busy account';
const RATE = 200;
const OPEN_RUNS = 500;
const GOAL_P99_MS = 50;

/**
 * What a high-volume integrator sees: POST /v1/searches at an even 200 req/s on an account that already
 * has 500 runs open (500 open holds), through two edges on one FerretDB and one NATS (each edge in its
 * own process, sharing database and streams), then the highest rate both edges sustain together
 * (autocannon on each, 8 connections each, no cap). The same with the 500 open runs and the load spread
 * over 20 accounts, and on one embedded edge (the embedded store is one process's). For the distributed
 * set-ups, the time per MongoDB command during the steady phase is listed (the per-write breakdown).
 * Edge only: nothing consumes the work queue, so runs stay open and no research competes for the CPU.
 */
export const oneAccount: Figure = {
  id: 'account',
  title: FIGURE,
  async run(ctx: BenchContext): Promise<FigureRow[]> {
    const rows: FigureRow[] = [];
    const steadyS = ctx.quick ? 4 : 10;
    const maxS = ctx.quick ? 3 : 6;
    const distributed = ctx.natsUrl && ctx.mongoUrl ? { natsUrl: ctx.natsUrl, mongoUrl: ctx.mongoUrl } : null;
    const variants = [
      { accounts: 1, edges: 2, distributed: true },
      { accounts: 20, edges: 2, distributed: true },
      { accounts: 1, edges: 1, distributed: false },
    ];
    for (const v of variants) {
      const label = v.distributed
        ? `distributed, ${v.edges} edges (FerretDB + NATS), ${v.accounts === 1 ? '1 account' : `${v.accounts} accounts`}, ${OPEN_RUNS} open runs`
        : `embedded, 1 edge, ${v.accounts} account, ${OPEN_RUNS} open runs`;
      const goal = `p99 ≤ ${GOAL_P99_MS} ms at ${RATE} req/s, no timeouts`;
      if (v.distributed && !distributed) {
        rows.push(skippedRow(FIGURE, label, goal));
        continue;
      }
      try {
        rows.push(...await withEdges(v.edges, v.distributed ? distributed : null, async (hosts) => {
          const urls = hosts.map((h) => h.url);
          const accounts: Account[] = [];
          for (let i = 0; i < v.accounts; i++) accounts.push(await createAccount(hosts[0]!, 10_000_000));
          const requests = accounts.map((a) => searchRequest(a));
          ctx.log(`${FIGURE} ${label}: opening ${OPEN_RUNS} runs`);
          const opening = await pacedLoad(urls, requests, 50, OPEN_RUNS / 50, { maxBacklogS: 30, timeoutMs: 60_000 });
          if (!allAnswered(opening, 202)) throw new Error(`could not open ${OPEN_RUNS} runs:${pacedProblems(opening, 202)}`);
          ctx.log(`${FIGURE} ${label}: ${steadyS}s at ${RATE} req/s`);
          await pacedLoad(urls, requests, 50, 1);
          await Promise.all(hosts.map((h) => h.call('storeStats')));
          const steady = await pacedLoad(urls, requests, RATE, steadyS);
          const perCommand = v.distributed ? mergeStats(await Promise.all(hosts.map((h) => h.call<StoreCommandStats[]>('storeStats')))) : [];
          ctx.log(`${FIGURE} ${label}: ${maxS}s unthrottled (autocannon, 8 connections per edge)`);
          const perEdge = await Promise.all(urls.map((url) => autocannon({
            url: `${url}/v1/searches`, connections: 8, duration: maxS, timeout: 10,
            requests: requests.map((r) => ({ method: r.method, path: r.path, headers: r.headers, body: r.body! })),
          })));
          const max = perEdge.map(describeLoad);
          const maxRate = max.reduce((n, m) => n + m.ratePerSecond, 0);
          const maxP99 = Math.max(...max.map((m) => m.p99Ms));
          const timeouts = steady.statuses.timeout ?? 0;
          const ok = allAnswered(steady, 202) && steady.latencyMs.p99 <= GOAL_P99_MS && timeouts === 0;
          const out: FigureRow[] = [{
            figure: FIGURE,
            setup: label,
            result: `p50 ${ms(steady.latencyMs.p50)}, p99 ${ms(steady.latencyMs.p99)}, ${timeouts} timeouts at ${RATE} req/s${pacedProblems(steady, 202)}; `
              + `max sustained ${maxRate} req/s (p99 ${ms(maxP99)})${max.map(problems).join('')}`,
            goal,
            verdict: verdict(ok),
            data: { steady, max, maxRate, accounts: v.accounts, edges: v.edges, openRuns: OPEN_RUNS, perCommand },
          }];
          if (perCommand.length > 0) {
            const posts = steady.statuses['202'] ?? 0;
            const top = perCommand.slice(0, 6).map((c) => `${c.command} ${(c.count / Math.max(1, posts)).toFixed(2)}/POST p50 ${ms(c.p50Ms)} p99 ${ms(c.p99Ms)}`);
            out.push({
              figure: 'MongoDB commands per POST',
              setup: label,
              result: `${top.join('; ')} (during the ${RATE} req/s phase, ${posts} accepted)`,
              goal: 'report',
              verdict: 'report',
              data: { perCommand, posts },
            });
          }
          return out;
        }));
      } catch (error) {
        rows.push(errorRow(FIGURE, label, goal, error));
      }
    }
    return rows;
  },
};

function searchRequest(account: Account): PacedRequest {
  return {
    method: 'POST', path: '/v1/searches',
    headers: { authorization: `Bearer ${account.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ q: 'fintech startups in Berlin that raised a Series A in the last 6 months', target: 20 }),
  };
}

/** `count` edge hosts on one database and one set of streams (the first owns and deletes them). */
async function withEdges<T>(count: number, distributed: { natsUrl: string; mongoUrl: string } | null, fn: (hosts: Host[]) => Promise<T>): Promise<T> {
  const suffix = randomBytes(4).toString('hex');
  const hosts: Host[] = [];
  try {
    for (let i = 0; i < count; i++) {
      hosts.push(await startHost({ kind: 'edge', distributed, ...(distributed ? { shared: { suffix, owner: i === 0 } } : {}) }));
    }
    return await fn(hosts);
  } finally {
    // The owner last: it deletes what the others still use.
    for (const host of [...hosts].reverse()) await host.stop();
  }
}

function mergeStats(lists: StoreCommandStats[][]): StoreCommandStats[] {
  const merged = new Map<string, StoreCommandStats>();
  for (const s of lists.flat()) {
    const m = merged.get(s.command);
    if (!m) {
      merged.set(s.command, { ...s });
    } else {
      // Percentiles of two edges cannot be merged exactly; keep the worse of each.
      merged.set(s.command, { command: s.command, count: m.count + s.count, totalMs: m.totalMs + s.totalMs, p50Ms: Math.max(m.p50Ms, s.p50Ms), p99Ms: Math.max(m.p99Ms, s.p99Ms) });
    }
  }
  return [...merged.values()].sort((a, b) => b.totalMs - a.totalMs);
}
