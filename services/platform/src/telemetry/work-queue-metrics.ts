import type { Meter } from '@opentelemetry/api';
import type { Clock } from '../context.js';
import type { WorkItem, WorkQueue, WorkSubscription } from '../ports/work-queue.js';
import { meter as globalMeter } from './context.js';

/** Header carrying when the run was handed to the queue (epoch ms, the enqueuer's clock). */
export const ENQUEUED_AT_HEADER = 'leadfinder-enqueued-at';

/**
 * Bucket bounds in seconds for the queue wait: normally well under a second, but with every coordinator
 * busy a run waits for a free slot, up to its whole deadline (9,000 s by default).
 */
export const QUEUE_WAIT_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 1800, 3600, 9000, 18000];

/**
 * The work queue as the dashboard sees it, for any adapter (in-process or JetStream), wired by the
 * composition root around the real queue:
 * - `leadfinder.work.queue_wait` (s): from enqueue to first delivery, read from a header the enqueuing
 *   side stamps, so it spans processes (edge to coordinator);
 * - `leadfinder.work.redeliveries`: deliveries after the first (a coordinator died or gave a run back);
 * - `leadfinder.runs.in_flight`: runs this process holds (delivered, not yet acked or given back);
 * - `leadfinder.runs.oldest_in_flight_age` (s): how long the oldest of them has been held; past the run
 *   deadline a run is stuck, whatever its events say.
 */
export function instrumentWorkQueue(queue: WorkQueue, options: { clock: Clock; meter?: Meter }): WorkQueue {
  const m = options.meter ?? globalMeter('leadfinder');
  const { clock } = options;
  const queueWait = m.createHistogram('leadfinder.work.queue_wait', {
    description: 'Time from enqueue to first delivery of a run', unit: 's',
    advice: { explicitBucketBoundaries: QUEUE_WAIT_BUCKETS_S },
  });
  const redeliveries = m.createCounter('leadfinder.work.redeliveries', { description: 'Run deliveries after the first' });
  // Exported at zero from the start (as is in_flight below), so panels and alerts have a series before the first event.
  redeliveries.add(0);
  const inFlight = m.createUpDownCounter('leadfinder.runs.in_flight', { description: 'Runs this process holds from the work queue' });
  inFlight.add(0);
  const heldSince = new Set<{ at: number }>();
  const oldest = m.createObservableGauge('leadfinder.runs.oldest_in_flight_age', {
    description: 'Age of the oldest run this process holds', unit: 's',
  });
  oldest.addCallback((result) => {
    let first = Number.POSITIVE_INFINITY;
    for (const held of heldSince) first = Math.min(first, held.at);
    result.observe(heldSince.size === 0 ? 0 : Math.max(0, (clock.now() - first) / 1000));
  });

  const track = (item: WorkItem): WorkItem => {
    if (item.deliveryCount > 1) redeliveries.add(1);
    else {
      const enqueuedAt = Number(item.headers[ENQUEUED_AT_HEADER]);
      if (Number.isFinite(enqueuedAt) && enqueuedAt > 0) queueWait.record(Math.max(0, clock.now() - enqueuedAt) / 1000);
    }
    const held = { at: clock.now() };
    heldSince.add(held);
    inFlight.add(1);
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      heldSince.delete(held);
      inFlight.add(-1);
    };
    return {
      ...item,
      working: () => item.working(),
      ack: async () => { settle(); await item.ack(); },
      nak: async (delayMs?: number) => { settle(); await item.nak(delayMs); },
    };
  };

  return {
    enqueue: (runId, headers) => queue.enqueue(runId, { ...headers, [ENQUEUED_AT_HEADER]: String(clock.now()) }),
    consume(consumeOptions): WorkSubscription {
      const subscription = queue.consume(consumeOptions);
      return {
        stop: () => subscription.stop(),
        async *[Symbol.asyncIterator]() {
          for await (const item of subscription) yield track(item);
        },
      };
    },
    ping: () => queue.ping(),
    close: () => queue.close(),
  };
}
