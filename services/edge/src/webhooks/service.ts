import type { Clock, Config, EventLog, Logger, RunDoc, Store, WebhookStore, WorkItem, WorkQueue } from '@leadfinder/platform';
import type { SearchWebhook } from '@leadfinder/wire';
import { createWebhookSender } from './sender.js';
import { watchRun } from './watcher.js';

export interface WebhookServiceDeps {
  config: Pick<Config, 'LEADFINDER_WEBHOOK_ALLOW_PRIVATE' | 'LEADFINDER_WEBHOOK_RETRY_BASE_MS' | 'LEADFINDER_WEBHOOK_REDELIVERY_MS'>;
  logger: Logger;
  clock: Clock;
  store: Store;
  events: EventLog;
  webhooks: WebhookStore;
  /** Runs to watch (JetStream `WEBHOOK_WATCH` distributed, in-process embedded). */
  watchQueue: WorkQueue;
  /** Deliveries to send; a retry is the message given back with a delay (nak). */
  deliveryQueue: WorkQueue;
  /** Runs watched and deliveries sent at once by this process. @default 32 */
  concurrency?: number;
}

export interface WebhookService {
  readonly store: WebhookStore;
  /**
   * Called when a run is accepted: when the request has a `webhook` or the account has endpoints, the
   * run's subscription is written and the run queued for watching. Throws when that fails (the run is
   * then not started, so no webhook is silently lost).
   */
  runAccepted(run: RunDoc, request: SearchWebhook | undefined): Promise<void>;
  /** Start watching and sending. `requeue`: queue open subscriptions and pending deliveries again (embedded restart). */
  start(options?: { requeue?: boolean }): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Webhooks are sent by the edge: it is the role that accepts the runs (so it writes each subscription with
 * the run), already reads the event log and the run record for `GET` and the event stream, and scales with
 * the API; the coordinator's job stays the research. Both queues are work queues, so on JetStream a watch or
 * a delivery whose process died is taken up by another edge, and a retry waits in the queue, not in memory.
 */
export function createWebhookService(deps: WebhookServiceDeps): WebhookService {
  const sender = createWebhookSender(deps);
  const concurrency = deps.concurrency ?? 32;
  const aborter = new AbortController();
  const loops: Promise<void>[] = [];
  const subscriptions: { stop(): Promise<void> }[] = [];
  const inFlight = new Set<Promise<void>>();
  const send = (deliveryId: string) => deps.deliveryQueue.enqueue(deliveryId, {});

  /**
   * The queues' ack wait: a watch or a delivery whose edge died goes to another edge after this. The edge
   * holding one says it is still at work every third of it, so a watch (as long as its run) or an attempt
   * (up to 15 s) outlasting the wait is not handed to a second edge meanwhile.
   */
  const ackWaitMs = deps.config.LEADFINDER_WEBHOOK_REDELIVERY_MS;
  const heartbeatMs = Math.floor(ackWaitMs / 3);

  const track = (work: Promise<void>) => {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  };

  function keepAlive(item: WorkItem): NodeJS.Timeout {
    return setInterval(() => void item.working().catch(() => undefined), heartbeatMs);
  }

  async function handleWatch(item: WorkItem): Promise<void> {
    const heartbeat = keepAlive(item);
    try {
      await watchRun({ ...deps, send }, item.runId, aborter.signal);
      if (aborter.signal.aborted) await item.nak();
      else await item.ack();
    } catch (error) {
      deps.logger.error('webhook watch failed; it will be retried', { runId: item.runId, err: String(error) });
      await item.nak(5_000).catch(() => undefined);
    } finally {
      clearInterval(heartbeat);
    }
  }

  async function handleDelivery(item: WorkItem): Promise<void> {
    const heartbeat = keepAlive(item);
    try {
      const outcome = await sender.attempt(item.runId);
      if (outcome.settled) await item.ack();
      else await item.nak(outcome.retryInMs);
    } catch (error) {
      deps.logger.error('webhook attempt could not be recorded; it will be retried', { deliveryId: item.runId, err: String(error) });
      await item.nak(deps.config.LEADFINDER_WEBHOOK_RETRY_BASE_MS).catch(() => undefined);
    } finally {
      clearInterval(heartbeat);
    }
  }

  function consume(queue: WorkQueue, ackWaitMs: number, handle: (item: WorkItem) => Promise<void>): void {
    const subscription = queue.consume({ ackWaitMs, maxInFlight: concurrency });
    subscriptions.push(subscription);
    loops.push((async () => {
      for await (const item of subscription) track(handle(item));
    })().catch((error: unknown) => deps.logger.error('webhook queue stopped', { err: String(error) })));
  }

  return {
    store: deps.webhooks,
    async runAccepted(run, request) {
      const endpoints = await deps.webhooks.endpoints.listForAccount(run.accountId);
      if (!request && endpoints.length === 0) return;
      await deps.webhooks.runs.insert({
        runId: run.id, accountId: run.accountId,
        request: request ? { url: request.url, events: request.events ?? ['search.finished'] } : null,
        endpointIds: endpoints.map((e) => e.id), createdAt: run.createdAt, finishedAt: null,
      });
      await deps.watchQueue.enqueue(run.id, {});
    },
    async start(options = {}) {
      if (options.requeue) {
        for (const open of await deps.webhooks.runs.listOpen()) await deps.watchQueue.enqueue(open.runId, {});
        for (const pending of await deps.webhooks.deliveries.listPending()) await send(pending.id);
      }
      consume(deps.watchQueue, ackWaitMs, handleWatch);
      consume(deps.deliveryQueue, ackWaitMs, handleDelivery);
    },
    async stop() {
      aborter.abort();
      await Promise.all(subscriptions.map((s) => s.stop()));
      await Promise.allSettled([...inFlight]);
      await Promise.allSettled(loops);
      await sender.close();
    },
  };
}
