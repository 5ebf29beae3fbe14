import { createLeadfinderMetrics, type Billing, type Clock, type Config, type EventLog, type FetcherPort, type FilterPort, type Ids, type LeadfinderMetrics, type Logger, type StopFlags, type Store, type WorkItem, type WorkQueue, type WorkSubscription } from '@leadfinder/platform';
import type { ResearchTimeouts } from '../activities/research.js';
import { traceWorkItem, type WorkSource } from '../activities/tracing.js';
import { Reaper } from './reaper.js';
import { handleWorkItem, requeue } from '../run/actor.js';
import { CoordinatorShutdownError } from '../run/run-end.js';
import { DEFAULT_DRIVE_TUNING, type DriveTuning, type RunDeps } from '../run/session.js';

export interface CoordinatorOptions {
  config: Config;
  logger: Logger;
  clock: Clock;
  /** @default randomIds */
  ids?: Ids;
  store: Store;
  events: EventLog;
  work: WorkQueue;
  stops: StopFlags;
  billing: Billing;
  fetcher: FetcherPort;
  filter: FilterPort;
  /** Names this replica as lease owner (e.g. pod name). Must differ between replicas. */
  instanceId: string;
  /** Embedded mode: re-enqueue runs no coordinator ever claimed (lost with the in-process queue). @default false */
  requeueUnclaimedOnStart?: boolean;
  /** How long stop() lets actors reach a step boundary before aborting their calls. @default 10000 */
  shutdownGraceMs?: number;
  /** Reaper period. @default LEADFINDER_LEASE_TTL_MS / 3 */
  reaperIntervalMs?: number;
  /** billing.reconcile() period (also run once at start). @default 60000 */
  reconcileEveryMs?: number;
  /** Retries of a retryable fetcher/filter error. @default 2 */
  callRetries?: number;
  /** First retry backoff (doubles). @default 250 */
  callBackoffMs?: number;
  /** Per-call timeouts. @default { searchMs: 30000, fetchMs: 30000, filterMs: 120000 } */
  timeouts?: Partial<ResearchTimeouts>;
  /** Pipeline knobs. @default DEFAULT_DRIVE_TUNING */
  tuning?: Partial<DriveTuning>;
  /** Business metrics. @default createLeadfinderMetrics() on the global meter, made when the coordinator is */
  metrics?: LeadfinderMetrics;
  /**
   * Where work comes from, for the messaging attributes of the `process` span.
   * @default NATS subject `work.runs` when LEADFINDER_NATS_URL is set, else the in-process queue
   */
  workSource?: WorkSource;
}

export interface Coordinator {
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The run coordinator: consumes run work, drives one actor per run, and reaps runs nobody drives.
 *
 * stop() order:
 *   1. stop the reaper (its pass in flight finishes);
 *   2. stop the work subscription: no new run is taken;
 *   3. drain: each actor leaves its run at the next step boundary, writing nothing more (no tail, no
 *      finish); the run's lease lapses and a surviving replica ends it `interrupted`, or its message is
 *      redelivered and the next claimer does (never resumed half-driven);
 *   4. after `shutdownGraceMs`, abort the actors' signals so calls still in flight end too;
 *   5. wait for every actor to return.
 */
export function createCoordinator(options: CoordinatorOptions): Coordinator {
  const { config } = options;
  // Every line names the coordinator, so a run's lines tell which replica drove it.
  const logger = options.logger.child({ coordinatorId: options.instanceId });
  const ttl = config.LEADFINDER_LEASE_TTL_MS;
  const shutdownCtl = new AbortController();
  let draining = false;
  const driving = new Map<string, Promise<void>>();

  const deps: RunDeps = {
    config, logger, clock: options.clock, store: options.store, events: options.events, billing: options.billing,
    stops: options.stops, fetcher: options.fetcher, filter: options.filter, instanceId: options.instanceId,
    tuning: { ...DEFAULT_DRIVE_TUNING, ...options.tuning },
    timeouts: { searchMs: 30_000, fetchMs: 30_000, filterMs: 120_000, ...options.timeouts },
    retries: options.callRetries ?? 2,
    backoffMs: options.callBackoffMs ?? 250,
    shutdown: shutdownCtl.signal,
    isDraining: () => draining,
    metrics: options.metrics ?? createLeadfinderMetrics(),
  };
  const workSource: WorkSource = options.workSource
    ?? { system: config.LEADFINDER_NATS_URL ? 'nats' : 'inprocess', destination: 'work.runs' };
  const reaper = new Reaper({
    store: options.store, billing: options.billing, events: options.events, clock: options.clock, logger,
    metrics: deps.metrics, instanceId: options.instanceId, leaseTtlMs: ttl,
    intervalMs: options.reaperIntervalMs ?? Math.max(100, Math.floor(ttl / 3)),
    reconcileEveryMs: options.reconcileEveryMs ?? 60_000,
    isDriving: (runId) => driving.has(runId),
  });

  let subscription: WorkSubscription | null = null;
  let consuming: Promise<void> | null = null;

  const handle = (item: WorkItem): Promise<void> => {
    const task = traceWorkItem(item, workSource, () => handleWorkItem(deps, item))
      .catch(async (error: unknown) => {
        logger.error('work item failed', { runId: item.runId, error: String(error) });
        await requeue(deps, item, Math.floor(ttl / 3), 'failed').catch(() => undefined);
      })
      .finally(() => {
        if (driving.get(item.runId) === task) driving.delete(item.runId);
      });
    driving.set(item.runId, task);
    return task;
  };

  const consume = async (sub: WorkSubscription) => {
    const concurrency = config.LEADFINDER_COORDINATOR_CONCURRENCY;
    const inFlight = new Set<Promise<void>>();
    for await (const item of sub) {
      if (draining) {
        await requeue(deps, item, 0, 'coordinator shutting down').catch(() => undefined);
        continue;
      }
      const task = handle(item).finally(() => inFlight.delete(task));
      inFlight.add(task);
      // Backpressure: stop pulling while every slot is busy.
      while (inFlight.size >= concurrency) await Promise.race(inFlight);
    }
  };

  return {
    async start() {
      if (options.requeueUnclaimedOnStart) {
        for (const run of await options.store.runs.findUnclaimed()) {
          await options.work.enqueue(run.id, run.trace ?? {});
          logger.info('run requeued', { runId: run.id, why: 'never claimed' });
        }
      }
      await reaper.reconcile();
      subscription = options.work.consume({ ackWaitMs: ttl, maxInFlight: config.LEADFINDER_COORDINATOR_CONCURRENCY });
      consuming = consume(subscription).catch((error: unknown) => {
        logger.error('work consumer ended', { error: String(error) });
      });
      reaper.start();
      logger.info('coordinator started', { instanceId: options.instanceId });
    },

    async stop() {
      await reaper.stop();
      draining = true;
      await subscription?.stop();
      await consuming;
      const grace = options.shutdownGraceMs ?? 10_000;
      let timer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<void>((resolve) => (timer = setTimeout(resolve, grace)));
      await Promise.race([Promise.allSettled([...driving.values()]), graceOver]);
      clearTimeout(timer);
      if (driving.size > 0) shutdownCtl.abort(new CoordinatorShutdownError());
      await Promise.allSettled([...driving.values()]);
      logger.info('coordinator stopped', { instanceId: options.instanceId });
    },
  };
}
