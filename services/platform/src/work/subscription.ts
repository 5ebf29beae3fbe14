import type { WorkItem, WorkSubscription } from '../ports/work-queue.js';

/**
 * Pulls one item when the subscriber is ready for it: `undefined` when `signal` aborted first. `release`
 * must be called once when the item is acked or nak'ed, freeing its in-flight slot.
 */
export type PullOne = (signal: AbortSignal, release: () => void) => Promise<WorkItem | undefined>;

/**
 * A work subscription shared by the in-process and JetStream queues: it pulls only while the consumer
 * holds fewer than `maxInFlight` unsettled items, so neither adapter hoards work it cannot start (an
 * item buffered but not started would still burn its ack wait). `stop()` ends the iteration and waits
 * for a pull in progress to settle.
 */
export function createWorkSubscription(options: { maxInFlight: number; pull: PullOne }): WorkSubscription {
  const slots = new InFlightSlots(Math.max(1, options.maxInFlight));
  const stopping = new AbortController();
  let current: Promise<WorkItem | undefined> = Promise.resolve(undefined);

  async function* iterate(): AsyncGenerator<WorkItem> {
    while (!stopping.signal.aborted) {
      await slots.waitForFree(stopping.signal);
      if (stopping.signal.aborted) return;
      current = options.pull(stopping.signal, once(() => slots.release()));
      const item = await current;
      if (!item) continue;
      slots.take();
      yield item;
    }
  }

  return {
    [Symbol.asyncIterator]: () => iterate(),
    async stop() {
      stopping.abort();
      await current.catch(() => undefined);
    },
  };
}

/** Counts unsettled items and lets the puller wait for a free slot. */
class InFlightSlots {
  private held = 0;
  private waiters: (() => void)[] = [];

  constructor(private readonly max: number) {}

  get free(): number {
    return Math.max(0, this.max - this.held);
  }

  take(): void {
    this.held++;
  }

  release(): void {
    this.held = Math.max(0, this.held - 1);
    for (const wake of this.waiters.splice(0)) wake();
  }

  async waitForFree(signal: AbortSignal): Promise<void> {
    while (this.free === 0 && !signal.aborted) {
      await new Promise<void>((resolve) => {
        const done = () => {
          signal.removeEventListener('abort', done);
          resolve();
        };
        this.waiters.push(done);
        signal.addEventListener('abort', done, { once: true });
      });
    }
  }
}

/** Runs `fn` the first time only. */
export function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}

/**
 * The subscriptions a queue has handed out, so closing the queue stops them all; a subscription stopped
 * by its consumer leaves the set. Shared by the in-process and JetStream queues.
 */
export class SubscriptionRegistry {
  private readonly open = new Set<WorkSubscription>();

  track(subscription: WorkSubscription): WorkSubscription {
    this.open.add(subscription);
    return {
      [Symbol.asyncIterator]: () => subscription[Symbol.asyncIterator](),
      stop: async () => {
        this.open.delete(subscription);
        await subscription.stop();
      },
    };
  }

  async stopAll(): Promise<void> {
    const all = [...this.open];
    this.open.clear();
    await Promise.all(all.map((s) => s.stop()));
  }
}
