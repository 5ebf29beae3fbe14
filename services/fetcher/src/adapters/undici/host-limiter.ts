/** At most `perHost` requests in flight per host; waiters queue in arrival order and leave on abort. */
export interface HostLimiter {
  acquire(host: string, signal: AbortSignal): Promise<() => void>;
}

export function createHostLimiter(perHost: number): HostLimiter {
  const active = new Map<string, number>();
  const waiting = new Map<string, (() => void)[]>();

  const release = (host: string) => {
    const queue = waiting.get(host);
    const next = queue?.shift();
    if (queue && queue.length === 0) waiting.delete(host);
    if (next) return next(); // hand the slot straight to the next waiter
    const n = (active.get(host) ?? 1) - 1;
    if (n <= 0) active.delete(host);
    else active.set(host, n);
  };

  const releaser = (host: string) => {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      release(host);
    };
  };

  return {
    acquire(host, signal) {
      if (signal.aborted) return Promise.reject(signal.reason);
      const n = active.get(host) ?? 0;
      if (n < perHost) {
        active.set(host, n + 1);
        return Promise.resolve(releaser(host));
      }
      return new Promise((resolve, reject) => {
        const grant = () => {
          signal.removeEventListener('abort', onAbort);
          resolve(releaser(host));
        };
        const onAbort = () => {
          const queue = waiting.get(host) ?? [];
          const i = queue.indexOf(grant);
          if (i >= 0) queue.splice(i, 1);
          if (queue.length === 0) waiting.delete(host);
          reject(signal.reason);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        const queue = waiting.get(host) ?? [];
        queue.push(grant);
        waiting.set(host, queue);
      });
    },
  };
}
