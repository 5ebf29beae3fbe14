import { UnavailableError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { StopFlags, WorkItem, WorkQueue, WorkSubscription } from '../../ports/work-queue.js';
import { createWorkSubscription, once, SubscriptionRegistry } from '../../work/subscription.js';

/**
 * In-process work queue with the JetStream semantics the coordinator relies on: an item not acked within
 * the consumer's `ackWaitMs` (and not kept alive with `working()`) goes back to the queue and is delivered
 * again with `deliveryCount + 1`; `nak(delay)` gives it back after `delay`; `ack` removes it. Settling a
 * delivery that has since lapsed is ignored, except `ack`, which removes the item (as JetStream acks by
 * stream sequence).
 */
export function createInProcessWorkQueue(options: { logger: Logger }): WorkQueue {
  return new InProcessWorkQueue(options.logger.child({ component: 'work-queue', adapter: 'in-process' }));
}

/** In-process stop flags: a set of raised run ids and the waiters per run. */
export function createInProcessStopFlags(): StopFlags {
  return new InProcessStopFlags();
}

interface QueuedItem {
  runId: string;
  headers: Record<string, string>;
  deliveries: number;
  /** The current delivery, or undefined while queued or waiting out a nak delay. */
  holder: object | undefined;
  timer: NodeJS.Timeout | undefined;
  done: boolean;
}

interface Waiter {
  deliver(item: QueuedItem): void;
}

class InProcessWorkQueue implements WorkQueue {
  private readonly ready: QueuedItem[] = [];
  private readonly waiters: Waiter[] = [];
  private readonly live = new Set<QueuedItem>();
  private readonly subscriptions = new SubscriptionRegistry();
  private closed = false;

  constructor(private readonly logger: Logger) {}

  async enqueue(runId: string, headers: Record<string, string>): Promise<void> {
    if (this.closed) throw new UnavailableError('work-queue', 'work queue is closed');
    const item: QueuedItem = { runId, headers: { ...headers }, deliveries: 0, holder: undefined, timer: undefined, done: false };
    this.live.add(item);
    this.makeReady(item);
  }

  consume(options: { ackWaitMs: number; maxInFlight: number }): WorkSubscription {
    const subscription = createWorkSubscription({
      maxInFlight: options.maxInFlight,
      pull: (signal, release) => this.pullOne(options.ackWaitMs, signal, release),
    });
    return this.subscriptions.track(subscription);
  }

  async ping(): Promise<void> {
    if (this.closed) throw new UnavailableError('work-queue', 'work queue is closed');
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.subscriptions.stopAll();
    for (const item of this.live) clearTimeout(item.timer);
  }

  private pullOne(ackWaitMs: number, signal: AbortSignal, release: () => void): Promise<WorkItem | undefined> {
    return new Promise((resolve) => {
      if (signal.aborted) return resolve(undefined);
      const waiter: Waiter = {
        deliver: (item) => {
          signal.removeEventListener('abort', onAbort);
          resolve(this.deliver(item, ackWaitMs, release));
        },
      };
      const onAbort = () => {
        const at = this.waiters.indexOf(waiter);
        if (at >= 0) this.waiters.splice(at, 1);
        resolve(undefined);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      const next = this.ready.shift();
      if (next) waiter.deliver(next);
      else this.waiters.push(waiter);
    });
  }

  private makeReady(item: QueuedItem): void {
    if (item.done || this.closed) return;
    const waiter = this.waiters.shift();
    if (waiter) waiter.deliver(item);
    else this.ready.push(item);
  }

  private deliver(item: QueuedItem, ackWaitMs: number, release: () => void): WorkItem {
    const delivery = {};
    item.holder = delivery;
    item.deliveries++;
    const current = () => item.holder === delivery && !item.done;
    const armLease = () => {
      clearTimeout(item.timer);
      item.timer = setTimeout(() => {
        if (!current()) return;
        item.holder = undefined;
        this.logger.debug('work item lease lapsed; redelivering', { runId: item.runId, deliveries: item.deliveries });
        this.makeReady(item);
      }, ackWaitMs);
      item.timer.unref();
    };
    armLease();
    const settle = once(release);
    return {
      runId: item.runId,
      headers: { ...item.headers },
      deliveryCount: item.deliveries,
      working: async () => {
        if (current()) armLease();
      },
      ack: async () => {
        settle();
        if (item.done) return;
        item.done = true;
        clearTimeout(item.timer);
        this.live.delete(item);
        const at = this.ready.indexOf(item);
        if (at >= 0) this.ready.splice(at, 1);
      },
      nak: async (delayMs = 0) => {
        settle();
        if (!current()) return;
        clearTimeout(item.timer);
        item.holder = undefined;
        if (delayMs <= 0) return this.makeReady(item);
        item.timer = setTimeout(() => this.makeReady(item), delayMs);
        item.timer.unref();
      },
    };
  }
}

/** Like the JetStream KV bucket's TTL: a flag is forgotten a day after it was raised. */
const STOP_FLAG_TTL_MS = 24 * 60 * 60 * 1000;

class InProcessStopFlags implements StopFlags {
  /** Run id → when it was raised (ms). */
  private readonly raised = new Map<string, number>();
  private readonly waiters = new Map<string, Set<() => void>>();

  async raise(runId: string): Promise<void> {
    const now = Date.now();
    for (const [id, at] of this.raised) if (now - at > STOP_FLAG_TTL_MS) this.raised.delete(id);
    if (!this.raised.has(runId)) this.raised.set(runId, now);
    const set = this.waiters.get(runId);
    this.waiters.delete(runId);
    for (const wake of set ?? []) wake();
  }

  async isRaised(runId: string): Promise<boolean> {
    return this.raised.has(runId);
  }

  wait(runId: string, signal: AbortSignal): Promise<boolean> {
    return new Promise((resolve) => {
      if (this.raised.has(runId)) return resolve(true);
      if (signal.aborted) return resolve(false);
      let set = this.waiters.get(runId);
      if (!set) this.waiters.set(runId, (set = new Set()));
      const done = () => {
        set.delete(done);
        signal.removeEventListener('abort', done);
        resolve(this.raised.has(runId));
      };
      set.add(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  async close(): Promise<void> {
    for (const set of this.waiters.values()) for (const wake of [...set]) wake();
    this.waiters.clear();
  }
}
