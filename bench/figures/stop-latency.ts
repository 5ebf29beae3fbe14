import type { BenchContext, Figure, FigureRow } from '../support/figure.js';
import { errorRow, verdict } from '../support/figure.js';
import { createAccount, getRun, inPool, sleep, startSearch, stopSearch, TERMINAL } from '../support/api.js';
import { wallNow, withService } from '../support/runs.js';
import { ms, summarize } from '../support/stats.js';

const FIGURE = 'stop latency';
const GOAL = 'p99 ≤ 2 s';
const POLL_MS = 20;
const GIVE_UP_MS = 10_000;

/** How long after the start the stop is sent (uniform in this range). */
const STOP_AFTER_MS = [50, 500] as const;

interface Outcome {
  id: string;
  latencyMs: number | null;
  finishedFirst: boolean;
  status: string;
}

async function stopOne(url: string, apiKey: string, i: number): Promise<Outcome> {
  const id = await startSearch(url, apiKey, { q: `AI startups in Berlin that raised a seed round (stop sample ${i})`, target: 500 });
  await sleep(STOP_AFTER_MS[0] + Math.random() * (STOP_AFTER_MS[1] - STOP_AFTER_MS[0]));
  const sent = wallNow();
  const answer = await stopSearch(url, apiKey, id);
  if (TERMINAL.has(answer.status)) return { id, latencyMs: null, finishedFirst: true, status: answer.status };
  for (;;) {
    const run = await getRun(url, apiKey, id);
    const elapsed = wallNow() - sent;
    if (TERMINAL.has(run.status)) return { id, latencyMs: elapsed, finishedFirst: false, status: run.status };
    if (elapsed > GIVE_UP_MS) return { id, latencyMs: Number.POSITIVE_INFINITY, finishedFirst: false, status: run.status };
    await sleep(POLL_MS);
  }
}

/**
 * Whole service, embedded, sample corpus. Each sample: start a search (target 500, so it is still
 * working), wait 50–500 ms, send the stop request, then poll `GET /v1/searches/{id}` every 20 ms until
 * the status is terminal. Latency is from sending the stop request to the first terminal answer (so it
 * includes up to one poll interval). Four searches run at once; a run that
 * finished before its stop is replaced by a new one.
 */
export const stopLatency: Figure = {
  id: 'stop',
  title: FIGURE,
  async run(ctx: BenchContext): Promise<FigureRow[]> {
    const samples = ctx.quick ? 8 : 20;
    try {
      return [await withService(async (host) => {
        const account = await createAccount(host, samples * 3 * 5 + 100);
        ctx.log(`${FIGURE}: ${samples} searches, stopped after 50–500 ms`);
        // On the sample corpus a run can finish within a second, so a run that ended before its stop is
        // replaced by a new one (up to three times the sample count) rather than counted.
        let attempts = 0;
        const maxAttempts = samples * 3;
        const outcomes = (await inPool(Array.from({ length: samples }, (_, i) => i), 4, async (i) => {
          const tried: Outcome[] = [];
          while (attempts < maxAttempts) {
            attempts++;
            const outcome = await stopOne(host.url, account.apiKey, i);
            tried.push(outcome);
            if (!outcome.finishedFirst) break;
          }
          return tried;
        })).flat();
        const measured = outcomes.filter((o) => o.latencyMs !== null).map((o) => o.latencyMs!);
        const stuck = measured.filter((v) => !Number.isFinite(v)).length;
        const latency = summarize(measured);
        const statuses = Object.fromEntries([...new Set(outcomes.map((o) => o.status))].map((s) => [s, outcomes.filter((o) => o.status === s).length]));
        const finishedFirst = outcomes.filter((o) => o.finishedFirst).length;
        return {
          figure: FIGURE,
          setup: `embedded, ${measured.length} stops, poll ${POLL_MS} ms`,
          result: `p50 ${ms(latency.p50)}, p99 ${ms(latency.p99)}, max ${ms(latency.max)}`
            + `${stuck ? `; ${stuck} not terminal after ${GIVE_UP_MS / 1000} s` : ''}${finishedFirst ? `; ${finishedFirst} finished before the stop` : ''}`
            + `; end states ${JSON.stringify(statuses)}`,
          goal: GOAL,
          verdict: measured.length === 0 ? 'error' : verdict(latency.p99 <= 2000 && stuck === 0),
          data: { samples, latencyMs: { ...latency, max: Number.isFinite(latency.max) ? latency.max : null }, stuck, finishedFirst, statuses, pollMs: POLL_MS },
        };
      })];
    } catch (error) {
      return [errorRow(FIGURE, 'embedded', GOAL, error)];
    }
  },
};
