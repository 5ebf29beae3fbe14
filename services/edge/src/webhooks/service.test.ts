import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { silentLogger, systemClock } from '@leadfinder/platform';
import type { WorkItem, WorkQueue } from '@leadfinder/platform';
import { createEmbeddedEventLog, createEmbeddedStore, createEmbeddedWebhookStore, createInProcessWorkQueue } from '@leadfinder/platform/embedded';
import { createWebhookService } from './service.js';

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const close of closers.splice(0).reverse()) await close();
});

/** An in-process queue that tells which ack wait its consumers asked for and how often each item was renewed. */
function observedQueue() {
  const queue = createInProcessWorkQueue({ logger: silentLogger });
  const ackWaits: number[] = [];
  const renewals = new Map<string, number>();
  const settled = new Map<string, string>();
  const observed: WorkQueue = {
    enqueue: (runId, headers) => queue.enqueue(runId, headers),
    ping: () => queue.ping(),
    close: () => queue.close(),
    consume(options) {
      ackWaits.push(options.ackWaitMs);
      const subscription = queue.consume(options);
      return {
        stop: () => subscription.stop(),
        async *[Symbol.asyncIterator]() {
          for await (const item of subscription) {
            const spied: WorkItem = {
              ...item,
              working: async () => { renewals.set(item.runId, (renewals.get(item.runId) ?? 0) + 1); await item.working(); },
              ack: async () => { settled.set(item.runId, 'ack'); await item.ack(); },
              nak: async (delayMs) => { settled.set(item.runId, 'nak'); await item.nak(delayMs); },
            };
            yield spied;
          }
        },
      };
    },
  };
  return { queue: observed, ackWaits, renewals, settled };
}

describe('webhook service: the redelivery wait', () => {
  it('consumes both queues with LEADFINDER_WEBHOOK_REDELIVERY_MS as the ack wait, and renews a slow attempt every third of it until it is answered', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lf-webhook-service-'));
    closers.push(() => rm(dir, { recursive: true, force: true }));
    const [store, events, webhooks] = await Promise.all([
      createEmbeddedStore({ dataDir: join(dir, 'store'), logger: silentLogger }),
      createEmbeddedEventLog({ dataDir: join(dir, 'events'), logger: silentLogger }),
      createEmbeddedWebhookStore({ dataDir: join(dir, 'webhooks'), logger: silentLogger }),
    ]);
    closers.push(() => store.close(), () => events.close(), () => webhooks.close());

    // A receiver that holds the attempt open until the test answers it.
    let arrived!: () => void;
    const attemptArrived = new Promise<void>((resolve) => (arrived = resolve));
    let held: ServerResponse | undefined;
    const receiver = createServer((req, res) => {
      held = res;
      req.resume();
      arrived();
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => { held?.end(); receiver.close(() => resolve()); }));

    const watch = observedQueue();
    const deliveries = observedQueue();
    const service = createWebhookService({
      config: { LEADFINDER_WEBHOOK_ALLOW_PRIVATE: true, LEADFINDER_WEBHOOK_RETRY_BASE_MS: 1000, LEADFINDER_WEBHOOK_REDELIVERY_MS: 3000 },
      logger: silentLogger, clock: systemClock, store, events, webhooks, watchQueue: watch.queue, deliveryQueue: deliveries.queue,
    });
    // Only the renewal interval runs on the fake clock; the HTTP exchange and the queue's own lease keep real time.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    await service.start();
    closers.push(() => service.stop());
    expect([...watch.ackWaits, ...deliveries.ackWaits]).toEqual([3000, 3000]);

    const createdAt = Date.now();
    await webhooks.deliveries.create({
      id: 'msg_slow', accountId: 'acct_1', runId: 'a'.repeat(32), endpointId: null, url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
      type: 'search.finished', body: '{"type":"search.finished"}', status: 'pending', attempts: 0, lastError: null,
      createdAt: new Date(createdAt).toISOString(), expiresAt: createdAt + 24 * 3600_000, nextAttemptAt: null, deliveredAt: null,
    });
    await deliveries.queue.enqueue('msg_slow', {});
    await attemptArrived;

    // While the receiver holds the attempt, the delivery is renewed every 1000 ms (a third of 3000).
    await vi.advanceTimersByTimeAsync(999);
    expect(deliveries.renewals.get('msg_slow') ?? 0).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(deliveries.renewals.get('msg_slow')).toBe(1);
    await vi.advanceTimersByTimeAsync(2000);
    expect(deliveries.renewals.get('msg_slow')).toBe(3);

    // Answered: the delivery is acked and renewed no more.
    held!.writeHead(200).end();
    await vi.waitFor(() => expect(deliveries.settled.get('msg_slow')).toBe('ack'), { timeout: 10_000 });
    await vi.advanceTimersByTimeAsync(5000);
    expect(deliveries.renewals.get('msg_slow')).toBe(3);
    expect((await webhooks.deliveries.get('msg_slow'))?.status).toBe('delivered');
  });
});
