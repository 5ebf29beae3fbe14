import type { WorkItem, WorkQueue, WorkSubscription } from '@leadfinder/platform';

/** What every port call of a killed "process" rejects with. */
export class ProcessKilledError extends Error {
  constructor() {
    super('the process was killed');
    this.name = 'ProcessKilledError';
  }
}

/**
 * Simulates `kill -9` of one coordinator inside the test process: once killed, every call it makes on
 * its ports rejects (nothing more reaches the store, the log, the flags or the queue: no renewal, no
 * in-progress ack, no ack), and its work subscription ends. Its timers and awaits run on harmlessly.
 * Writes already on their way when it dies may still land: `landed()` says when they have, so a test
 * reads the last of them however slow the machine (a pause on fake time lets no real I/O finish).
 */
export class KillSwitch {
  private killed = false;
  private readonly subscriptions: WorkSubscription[] = [];
  /** Calls on the store and the event log made before the kill and not yet settled. */
  private readonly landing = new Set<Promise<unknown>>();

  get isKilled(): boolean {
    return this.killed;
  }

  async kill(): Promise<void> {
    this.killed = true;
    await Promise.allSettled(this.subscriptions.map((s) => s.stop()));
  }

  /** Resolves once every call made on a landing port before the kill has settled. */
  async landed(): Promise<void> {
    await Promise.allSettled([...this.landing]);
  }

  /**
   * Every method of `target`, and of its `nested` objects, rejects once killed. With `land`, a call made
   * before the kill counts for `landed()`: for ports whose calls all end (the store, the event log), not
   * for those that wait on others (a stop flag's wait).
   */
  guard<T extends object>(target: T, { nested = [], land = false }: { nested?: readonly string[]; land?: boolean } = {}): T {
    return new Proxy(target, {
      get: (obj, prop, receiver) => {
        const value = Reflect.get(obj, prop, receiver);
        if (typeof value === 'function') {
          return (...args: unknown[]) => {
            if (this.killed) return Promise.reject(new ProcessKilledError());
            const result = (value as (...a: unknown[]) => unknown).apply(obj, args);
            if (land && result instanceof Promise) {
              const settled = result.then(() => undefined, () => undefined);
              this.landing.add(settled);
              void settled.then(() => this.landing.delete(settled));
            }
            return result;
          };
        }
        if (value && typeof value === 'object' && nested.includes(String(prop))) return this.guard(value as object, { land });
        return value;
      },
    });
  }

  /** The queue, whose subscriptions end at the kill and whose items can no longer be settled or kept alive. */
  guardWork(work: WorkQueue): WorkQueue {
    const guarded = this.guard(work);
    return {
      enqueue: (runId, headers) => guarded.enqueue(runId, headers),
      ping: () => guarded.ping(),
      close: () => work.close(),
      consume: (options) => {
        const inner = work.consume(options);
        this.subscriptions.push(inner);
        const guardItem = (item: WorkItem): WorkItem => this.guard(item);
        return {
          stop: () => inner.stop(),
          async *[Symbol.asyncIterator]() {
            for await (const item of inner) yield guardItem(item);
          },
        };
      },
    };
  }
}
