import autocannon from 'autocannon';
import type { Options, Result } from 'autocannon';
import type { BenchContext } from './figure.js';
import { startHost, type Host } from './host.js';

/** The two set-ups the latency figures are measured on. */
export interface Setup {
  name: 'embedded' | 'distributed';
  label: string;
  distributed: { natsUrl: string; mongoUrl: string } | null;
}

export function setups(ctx: BenchContext): (Setup & { available: boolean })[] {
  const distributed = ctx.natsUrl && ctx.mongoUrl ? { natsUrl: ctx.natsUrl, mongoUrl: ctx.mongoUrl } : null;
  return [
    { name: 'embedded', label: 'embedded', distributed: null, available: true },
    { name: 'distributed', label: 'distributed (FerretDB + NATS)', distributed, available: distributed !== null },
  ];
}

/** Starts the edge-only host for a set-up, runs `fn`, and always stops the host. */
export async function withEdgeHost<T>(setup: Setup, fn: (host: Host) => Promise<T>): Promise<T> {
  const host = await startHost({ kind: 'edge', distributed: setup.distributed });
  try {
    return await fn(host);
  } finally {
    await host.stop();
  }
}

export async function cannon(options: Options): Promise<Result> {
  return autocannon({ timeout: 10, ...options });
}

/** Latency figures of one autocannon result (ms) plus what went wrong, if anything. */
export function describeLoad(result: Result) {
  return {
    requests: result.requests.total,
    ratePerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count])),
  };
}

export function clean(load: ReturnType<typeof describeLoad>): boolean {
  return load.non2xx === 0 && load.errors === 0 && load.timeouts === 0 && load.requests > 0;
}

export function problems(load: ReturnType<typeof describeLoad>): string {
  if (clean(load)) return '';
  if (load.requests === 0) return ' [no answer within the run]';
  return ` [non-2xx ${load.non2xx}, errors ${load.errors}, timeouts ${load.timeouts}; codes ${JSON.stringify(load.statusCodes)}]`;
}
