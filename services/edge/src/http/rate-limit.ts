import type { Clock } from '@leadfinder/platform';

/**
 * In-memory token bucket per key (an account, a client address): `perMinute` requests of burst,
 * refilled continuously. Per edge process (a cluster multiplies it by the replica count), which is
 * enough to blunt a runaway client.
 */
export interface RateLimiter {
  /** Take one token; null when allowed, else the seconds to wait (for Retry-After). */
  take(bucketKey: string): number | null;
}

export interface RateLimiterOptions {
  perMinute: number;
  clock: Clock;
  /** Buckets idle this long are forgotten. @default 600000 */
  idleMs?: number;
}

export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const capacity = options.perMinute;
  const perMs = options.perMinute / 60_000;
  const idleMs = options.idleMs ?? 600_000;
  const buckets = new Map<string, { tokens: number; at: number }>();
  let lastSweep = options.clock.now();

  function sweep(now: number): void {
    if (now - lastSweep < idleMs) return;
    lastSweep = now;
    for (const [id, b] of buckets) if (now - b.at > idleMs) buckets.delete(id);
  }

  return {
    take(bucketKey) {
      const now = options.clock.now();
      sweep(now);
      const bucket = buckets.get(bucketKey) ?? { tokens: capacity, at: now };
      bucket.tokens = Math.min(capacity, bucket.tokens + (now - bucket.at) * perMs);
      bucket.at = now;
      buckets.set(bucketKey, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return null;
      }
      return Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000));
    },
  };
}
