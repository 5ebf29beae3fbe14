import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { StopFlags, WorkItem, WorkQueue, WorkSubscription } from '@leadfinder/platform';

/**
 * The behaviour every WorkQueue + StopFlags adapter pair must have, run unchanged against each. `make`
 * returns a fresh, empty pair; the suite calls `close()` after each test, which also removes what the
 * pair created (streams, buckets).
 */
export interface WorkHarness {
  queue: WorkQueue;
  stopFlags: StopFlags;
  /** Ends the consumers' pulls in progress at once, before they are stopped (else each stop waits out its pull). */
  endPulls?(): Promise<void>;
  close(): Promise<void>;
}

const newRunId = () => randomBytes(16).toString('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Reads a subscription in the background, recording each delivery and when it came. */
function reader(subscription: WorkSubscription) {
  const items: (WorkItem & { receivedAt: number })[] = [];
  const done = (async () => {
    for await (const item of subscription) items.push(Object.assign(item, { receivedAt: Date.now() }));
  })();
  return { items, done, subscription };
}

export function describeWorkQueueContract(name: string, make: () => Promise<WorkHarness>): void {
  describe(`${name} work queue and stop flags`, () => {
    const open: WorkHarness[] = [];
    const subscriptions: WorkSubscription[] = [];
    const fresh = async () => {
      const harness = await make();
      open.push(harness);
      return harness;
    };
    const consume = (queue: WorkQueue, options: { ackWaitMs: number; maxInFlight: number }) => {
      const r = reader(queue.consume(options));
      subscriptions.push(r.subscription);
      return r;
    };
    afterEach(async () => {
      await Promise.all(open.map((h) => h.endPulls?.()));
      await Promise.all(subscriptions.splice(0).map((s) => s.stop()));
      await Promise.all(open.splice(0).map((h) => h.close()));
    });

    it('delivers an enqueued run once with its headers, and never again once acked', async () => {
      const { queue } = await fresh();
      const runId = newRunId();
      const headers = { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' };
      const r = consume(queue, { ackWaitMs: 500, maxInFlight: 4 });
      await queue.enqueue(runId, headers);
      await expect.poll(() => r.items.length).toBe(1);
      expect(r.items[0]).toMatchObject({ runId, headers, deliveryCount: 1 });
      await r.items[0]!.ack();
      await sleep(1_200);
      expect(r.items).toHaveLength(1);
    });

    it('redelivers an item whose ack wait lapsed, with a higher delivery count', async () => {
      const { queue } = await fresh();
      const runId = newRunId();
      const r = consume(queue, { ackWaitMs: 500, maxInFlight: 4 });
      await queue.enqueue(runId, {});
      await expect.poll(() => r.items.length, { timeout: 3_000 }).toBe(2);
      expect(r.items.map((i) => [i.runId, i.deliveryCount])).toEqual([[runId, 1], [runId, 2]]);
      expect(r.items[1]!.receivedAt - r.items[0]!.receivedAt).toBeGreaterThanOrEqual(400);
      await r.items[1]!.ack();
    });

    it('does not redeliver an item kept alive with working(), and drops it on ack', async () => {
      const { queue } = await fresh();
      const r = consume(queue, { ackWaitMs: 500, maxInFlight: 4 });
      const other = consume(queue, { ackWaitMs: 500, maxInFlight: 4 });
      await queue.enqueue(newRunId(), {});
      await expect.poll(() => r.items.length + other.items.length).toBe(1);
      const held = [...r.items, ...other.items][0]!;
      for (let i = 0; i < 8; i++) {
        await sleep(200);
        await held.working();
      }
      expect(r.items.length + other.items.length).toBe(1);
      await held.ack();
      await sleep(1_000);
      expect(r.items.length + other.items.length).toBe(1);
    });

    it('gives a nak-ed item back after the delay asked for', async () => {
      const { queue } = await fresh();
      const runId = newRunId();
      const r = consume(queue, { ackWaitMs: 5_000, maxInFlight: 4 });
      await queue.enqueue(runId, {});
      await expect.poll(() => r.items.length).toBe(1);
      await r.items[0]!.nak(600);
      await sleep(300);
      expect(r.items).toHaveLength(1);
      await expect.poll(() => r.items.length, { timeout: 3_000 }).toBe(2);
      expect(r.items[1]).toMatchObject({ runId, deliveryCount: 2 });
      await r.items[1]!.nak();
      await expect.poll(() => r.items.length, { timeout: 1_000 }).toBe(3);
      await r.items[2]!.ack();
    });

    it('never hands the same item to two consumers at once', async () => {
      const { queue } = await fresh();
      const a = consume(queue, { ackWaitMs: 5_000, maxInFlight: 10 });
      const b = consume(queue, { ackWaitMs: 5_000, maxInFlight: 10 });
      const runIds = Array.from({ length: 12 }, newRunId);
      await Promise.all(runIds.map((id) => queue.enqueue(id, {})));
      await expect.poll(() => a.items.length + b.items.length, { timeout: 3_000 }).toBe(12);
      await sleep(300);
      const held = [...a.items, ...b.items].map((i) => i.runId);
      expect(held.sort()).toEqual([...runIds].sort());
      await Promise.all([...a.items, ...b.items].map((i) => i.ack()));
    });

    it('holds at most maxInFlight unsettled items per consumer', async () => {
      const { queue } = await fresh();
      const r = consume(queue, { ackWaitMs: 5_000, maxInFlight: 2 });
      for (let i = 0; i < 4; i++) await queue.enqueue(newRunId(), {});
      await expect.poll(() => r.items.length).toBe(2);
      await sleep(400);
      expect(r.items).toHaveLength(2);
      await r.items[0]!.ack();
      await expect.poll(() => r.items.length).toBe(3);
      await Promise.all(r.items.slice(1).map((i) => i.ack()));
      await expect.poll(() => r.items.length).toBe(4);
      await r.items[3]!.ack();
    });

    it('ends the iteration on stop, leaving later work for other consumers', async () => {
      const { queue } = await fresh();
      const r = consume(queue, { ackWaitMs: 5_000, maxInFlight: 4 });
      await r.subscription.stop();
      await expect(r.done).resolves.toBeUndefined();
      const runId = newRunId();
      await queue.enqueue(runId, {});
      const other = consume(queue, { ackWaitMs: 5_000, maxInFlight: 4 });
      await expect.poll(() => other.items.map((i) => i.runId), { timeout: 3_000 }).toEqual([runId]);
      expect(r.items).toEqual([]);
      await other.items[0]!.ack();
    });

    it('raises stop flags per run, harmlessly twice', async () => {
      const { stopFlags } = await fresh();
      const [a, b] = [newRunId(), newRunId()];
      expect(await stopFlags.isRaised(a)).toBe(false);
      await stopFlags.raise(a);
      await stopFlags.raise(a);
      expect(await stopFlags.isRaised(a)).toBe(true);
      expect(await stopFlags.isRaised(b)).toBe(false);
    });

    it('wakes a waiter when the flag is raised, and at once when it already was', async () => {
      const { stopFlags } = await fresh();
      const runId = newRunId();
      let woke = false;
      const waiting = stopFlags.wait(runId, new AbortController().signal).finally(() => (woke = true));
      await sleep(200);
      expect(woke).toBe(false);
      await stopFlags.raise(runId);
      await expect.poll(() => woke, { timeout: 2_000 }).toBe(true);
      expect(await waiting).toBe(true);
      const started = Date.now();
      expect(await stopFlags.wait(runId, new AbortController().signal)).toBe(true);
      expect(Date.now() - started).toBeLessThan(1_000);
    });

    it('returns false from wait when its signal aborts, leaving the flag down', async () => {
      const { stopFlags } = await fresh();
      const runId = newRunId();
      const abort = new AbortController();
      const waiting = stopFlags.wait(runId, abort.signal);
      await sleep(100);
      abort.abort();
      await expect(waiting).resolves.toBe(false);
      expect(await stopFlags.isRaised(runId)).toBe(false);
    });
  });
}
