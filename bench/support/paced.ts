import { Pool } from 'undici';
import { summarize, type Summary } from './stats.js';

/**
 * Open-loop load at an even pace: one request every 1000/rate ms, whatever the answers do. autocannon's
 * `overallRate` sends each connection's quota in a burst at the top of every second, which measures
 * bursts, not a steady rate. Latency runs from the request's *scheduled* time to the end of its response
 * body, so a stalled server or a saturated pool counts against the server (no coordinated omission).
 */
export interface PacedRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface PacedResult {
  rate: number;
  seconds: number;
  requests: number;
  latencyMs: Summary;
  /** Count by HTTP status ('error' for a failed request). */
  statuses: Record<string, number>;
  /** How far behind schedule the generator itself ran at worst (ms); large values mean the client lagged. */
  maxLagMs: number;
  /** Requests never sent because the server fell more than `maxBacklogS` seconds of requests behind. */
  abandoned: number;
}

export interface PacedOptions {
  /** @default 32 */
  connections?: number;
  /** A request unanswered this long counts as 'timeout'. @default 10000 */
  timeoutMs?: number;
  /** Stop sending once this many seconds' worth of requests are outstanding: the server cannot keep up. @default 3 */
  maxBacklogS?: number;
}

/** `origin`: one server, or several taking turns (request i goes to origin i mod n, e.g. two edges). */
export async function pacedLoad(origin: string | readonly string[], requests: readonly PacedRequest[], rate: number, seconds: number, options: PacedOptions = {}): Promise<PacedResult> {
  const origins = typeof origin === 'string' ? [origin] : origin;
  const pools = origins.map((o) => new Pool(o, { connections: Math.ceil((options.connections ?? 32) / origins.length), pipelining: 1 }));
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxBacklog = Math.max(1, Math.round(rate * (options.maxBacklogS ?? 3)));
  let outstanding = 0;
  let abandoned = 0;
  const intervalMs = 1000 / rate;
  const total = Math.round(rate * seconds);
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const inflight: Promise<void>[] = [];
  let maxLag = 0;
  const start = performance.now();
  try {
    for (let i = 0; i < total; i++) {
      const due = start + i * intervalMs;
      const wait = due - performance.now();
      // Always yield, so answers are handled while the schedule runs even when it is behind.
      await new Promise((resolve) => (wait > 0.5 ? setTimeout(resolve, wait) : setImmediate(resolve)));
      if (outstanding >= maxBacklog) {
        abandoned = total - i;
        break;
      }
      maxLag = Math.max(maxLag, performance.now() - due);
      const req = requests[i % requests.length]!;
      const pool = pools[i % pools.length]!;
      outstanding++;
      inflight.push((async () => {
        const signal = AbortSignal.timeout(timeoutMs);
        try {
          const res = await pool.request({ method: req.method, path: req.path, headers: req.headers, body: req.body, signal });
          await res.body.dump();
          statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
          latencies.push(performance.now() - due);
        } catch {
          const kind = signal.aborted ? 'timeout' : 'error';
          statuses[kind] = (statuses[kind] ?? 0) + 1;
        } finally {
          outstanding--;
        }
      })());
    }
    await Promise.all(inflight);
  } finally {
    await Promise.all(pools.map((p) => p.close()));
  }
  return { rate, seconds, requests: total - abandoned, latencyMs: summarize(latencies), statuses, maxLagMs: maxLag, abandoned };
}

/** True when every request got the expected status. */
export function allAnswered(result: PacedResult, status: number): boolean {
  return result.abandoned === 0 && (result.statuses[status] ?? 0) === result.requests;
}

export function pacedProblems(result: PacedResult, status: number): string {
  if (allAnswered(result, status)) return '';
  const other = Object.entries(result.statuses).filter(([code]) => code !== String(status)).map(([code, n]) => `${n}× ${code}`);
  if (result.abandoned) other.push(`stopped after ${result.requests} sent: server fell behind`);
  return ` [${other.join('; ')}]`;
}

/**
 * One request, answered: when the server fell behind, it queues behind the backlog, so once it returns
 * the next phase starts on an idle server instead of inheriting the previous phase's queue.
 */
export async function settle(origin: string, request: PacedRequest, timeoutMs = 60_000): Promise<void> {
  const res = await fetch(`${origin}${request.path}`, {
    method: request.method, headers: request.headers, body: request.body, signal: AbortSignal.timeout(timeoutMs),
  }).catch(() => null);
  await res?.arrayBuffer().catch(() => undefined);
}
