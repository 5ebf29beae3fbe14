import { openEventStream, stopSearch, type Frame } from './api.js';
import type { Host } from './host.js';
import { startHost } from './host.js';

/** A run followed over its event stream, with receipt times relative to `startedAt`. */
export interface FollowedRun {
  frames: { atMs: number; frame: Frame }[];
  /** True when the run was stopped by us because it passed `timeoutMs`. */
  timedOut: boolean;
  lastCost: number | null;
  final: { table: unknown[]; met: boolean; stopped: boolean } | null;
  error: string | null;
}

/**
 * Follows `GET /v1/searches/{id}/events` until the server ends the stream (run terminal, client caught
 * up). Past `timeoutMs` the run is stopped and followed to its tail, so it is never left running.
 */
export async function followRun(url: string, apiKey: string, id: string, startedAt: number, timeoutMs: number): Promise<FollowedRun> {
  const out: FollowedRun = { frames: [], timedOut: false, lastCost: null, final: null, error: null };
  const stream = await openEventStream(url, apiKey, id, (frame, receivedAt) => {
    out.frames.push({ atMs: receivedAt - startedAt, frame });
    const e = frame.event;
    if (e.type === 'cost' && typeof e.usd === 'number') out.lastCost = e.usd;
    if (e.type === 'final') out.final = { table: e.table as unknown[], met: Boolean(e.met), stopped: Boolean(e.stopped) };
    if (e.type === 'error') out.error = String(e.message);
  });
  const timer = setTimeout(() => {
    out.timedOut = true;
    void stopSearch(url, apiKey, id).catch(() => undefined);
  }, timeoutMs);
  // A stop must end a run within seconds; do not wait forever if it does not.
  const hardLimit = new Promise<void>((resolve) => setTimeout(resolve, timeoutMs + 15_000).unref());
  try {
    await Promise.race([stream.ended, hardLimit]);
  } finally {
    clearTimeout(timer);
    stream.close();
  }
  return out;
}

/** The whole service in a child process (embedded, sample corpus), as `npm start` runs it. */
export async function withService<T>(fn: (host: Host) => Promise<T>): Promise<T> {
  const host = await startHost({ kind: 'service', distributed: null });
  try {
    return await fn(host);
  } finally {
    await host.stop();
  }
}

export const wallNow = () => performance.timeOrigin + performance.now();
