import { trace } from '@opentelemetry/api';
import { LeaseLostError, type Config, type FetcherPort, type FilterPort, type LeadfinderMetrics, type RunDoc, type RunLease, type StopFlags, type WorkItem } from '@leadfinder/platform';
import { isTerminal, microsToUsdDisplay } from '@leadfinder/wire';
import { RunEmitter } from '../activities/emitter.js';
import { ResearchActivities, type ResearchTimeouts } from '../activities/research.js';
import { deadlineReason, finishAndSettle, interruptRun, type SettlementDeps } from '../activities/settlement.js';
import { countingFetchOutcomes, StageTrace, traceRun } from '../activities/tracing.js';
import { driveRun } from '../pipeline/drive-run.js';
import { LeaseKeeper } from './lease-keeper.js';
import { SpendMeter, spendCapMicrousd, type Prices } from '../pipeline/pricing.js';
import { RunState } from '../pipeline/run-state.js';
import { terminalDecision, type RunOutcome } from '../pipeline/tail.js';
import { WHERE_DONE } from '../pipeline/where.js';
import { CoordinatorShutdownError, decideEnd, errorDetail, RunDeadlineError, StopRequestedError, type EndDecision } from './run-end.js';
import { RunSteps, type DriveTuning } from './run-steps.js';

export interface ActorDeps extends SettlementDeps {
  config: Config;
  stops: StopFlags;
  fetcher: FetcherPort;
  filter: FilterPort;
  instanceId: string;
  tuning: DriveTuning;
  timeouts: ResearchTimeouts;
  retries: number;
  backoffMs: number;
  /** Aborted when the coordinator gives up on its runs (stop() past its grace period). */
  shutdown: AbortSignal;
  /** True once stop() began: actors leave their run at the next step boundary, writing nothing. */
  isDraining: () => boolean;
  /** Runs by status, spend, rows, stage latency, fetch outcomes. */
  metrics: LeadfinderMetrics;
}

export function pricesFrom(config: Config): Prices {
  return {
    searchMicrousd: config.LEADFINDER_PRICE_SEARCH_USD,
    pageMicrousd: config.LEADFINDER_PRICE_PAGE_USD,
    llmInputMicrousdPerMtok: config.LEADFINDER_PRICE_LLM_INPUT_USD_PER_MTOK,
    llmOutputMicrousdPerMtok: config.LEADFINDER_PRICE_LLM_OUTPUT_USD_PER_MTOK,
  };
}

/**
 * One delivery of a run: claim it (the store's fenced lease is the authority: two replicas never drive
 * the same run), then drive it, end a half-driven one, or hand the message back.
 */
export async function handleWorkItem(deps: ActorDeps, item: WorkItem): Promise<void> {
  const ttl = deps.config.LEADFINDER_LEASE_TTL_MS;
  const now = deps.clock.now();
  const claimed = await deps.store.runs.claim(item.runId, deps.instanceId, ttl, now);
  if (!claimed) {
    const run = await deps.store.runs.get(item.runId);
    if (!run || isTerminal(run.status)) return item.ack();
    // Someone else holds it; look again once their lease could have lapsed.
    const wait = run.lease ? Math.max(250, run.lease.expiresAt - now + 250) : Math.floor(ttl / 3);
    return item.nak(wait);
  }
  if (claimed.before.started) {
    // Driven before and its lease lapsed: never resume a half-driven run.
    if (await interruptRun(deps, claimed.before, claimed.lease, deadlineReason(claimed.before, now))) {
      deps.metrics.runEnded('interrupted');
      deps.metrics.spend(claimed.before.spendMicrousd);
    }
    return item.ack();
  }
  const wrote = await driveClaimedRun(deps, claimed.before, claimed.lease, item);
  if (wrote) return item.ack();
  // Lease lost or shutting down: nothing written; whoever picks the message up next sorts it out.
  const run = await deps.store.runs.get(item.runId).catch(() => null);
  if (!run || isTerminal(run.status)) return item.ack();
  return item.nak(ttl);
}

/** Drives a claimed, never-started run to its end. Returns whether it wrote the terminal state. */
export function driveClaimedRun(deps: ActorDeps, run: RunDoc, lease: RunLease, item: WorkItem | null): Promise<boolean> {
  return traceRun(run.id, () => drive(deps, run, lease, item));
}

async function drive(deps: ActorDeps, run: RunDoc, lease: RunLease, item: WorkItem | null): Promise<boolean> {
  const logger = deps.logger.child({ runId: run.id });
  const stopCtl = new AbortController();
  const deadlineCtl = new AbortController();
  const leaseCtl = new AbortController();
  const signal = AbortSignal.any([stopCtl.signal, deadlineCtl.signal, leaseCtl.signal, deps.shutdown]);

  const keeper = new LeaseKeeper({
    runs: deps.store.runs, runId: run.id, lease, ttlMs: deps.config.LEADFINDER_LEASE_TTL_MS, clock: deps.clock,
    logger, item, onLost: () => leaseCtl.abort(new LeaseLostError(run.id)),
  });
  keeper.start();
  const stopWatch = new AbortController();
  const watchSignal = AbortSignal.any([stopWatch.signal, signal]);
  // wait() also resolves when its signal aborts or the flags close, so confirm the flag is really up.
  deps.stops.wait(run.id, watchSignal)
    .then(async () => !watchSignal.aborted && (await deps.stops.isRaised(run.id)))
    .then((raised) => { if (raised) stopCtl.abort(new StopRequestedError(run.id)); }, () => undefined);
  const deadlineTimer = setTimeout(
    () => deadlineCtl.abort(new RunDeadlineError(run.id, run.deadlineAt)),
    Math.max(0, Date.parse(run.deadlineAt) - deps.clock.now()),
  );

  const meter = new SpendMeter(spendCapMicrousd(deps.config.LEADFINDER_SPEND_CEILING_USD, run.holdMicrousd), pricesFrom(deps.config), run.spendMicrousd);
  const state = new RunState(run.target);
  state.where = run.where;
  const emitter = new RunEmitter(deps.events, run.id, deps.clock);
  // Port calls run inside the current stage span, so gRPC client spans (and the servers') join the run's trace.
  const stages = new StageTrace(deps.metrics, deps.clock);
  const research = new ResearchActivities({
    runId: run.id, fetcher: stages.bind(countingFetchOutcomes(deps.fetcher, deps.metrics, signal)), filter: stages.bind(deps.filter),
    meter, signal, logger,
    retries: deps.retries, backoffMs: deps.backoffMs, timeouts: deps.timeouts,
  });
  const persist = async (patch: { where?: string; spendMicrousd?: number; started?: boolean }) => {
    const ok = await deps.store.runs.progress(run.id, keeper.lease, patch, deps.clock.now());
    if (!ok) {
      keeper.markLost();
      throw new LeaseLostError(run.id);
    }
  };
  const checkpoint = () => {
    signal.throwIfAborted();
    if (deps.isDraining()) throw new CoordinatorShutdownError();
  };
  const steps = new RunSteps({ run, state, meter, research, emitter, tuning: deps.tuning, logger, checkpoint, persist, stages });

  let end: EndDecision;
  try {
    // Marked started before the first event: from here a lapsed lease means "interrupted", never a re-drive.
    await persist({ started: true });
    await driveRun(steps);
    end = { write: true, outcome: { kind: 'done' } };
  } catch (error) {
    stages.end(error);
    end = decideEnd(error, signal);
    if (!end.write) logger.info('leaving run without writing', { why: end.why });
    // The stream says what failed in general terms; the log (with the run id) keeps the detail.
    else if (end.outcome.kind === 'error') logger.warn('run failed', { error: errorDetail(error), shown: end.outcome.message, where: state.where });
  } finally {
    stages.end();
    clearTimeout(deadlineTimer);
    stopWatch.abort();
  }

  try {
    if (!end.write) return false;
    // Confirm the lease before the tail: the event log is not fenced, the store is.
    if (!(await keeper.renew())) return false;
    // The fresh lease covers the tail. No periodic renewal after this point: once the tail makes the
    // run terminal the store refuses renewals, which would read as a lost lease.
    await keeper.stop();
    return await writeTail(deps, { run, lease: keeper.lease, state, meter, emitter, outcome: end.outcome });
  } finally {
    await keeper.stop();
  }
}

interface TailContext {
  run: RunDoc;
  lease: RunLease;
  state: RunState;
  meter: SpendMeter;
  emitter: RunEmitter;
  outcome: RunOutcome;
}

async function writeTail(deps: ActorDeps, t: TailContext): Promise<boolean> {
  const charge = Math.min(t.meter.spendMicrousd, t.run.holdMicrousd);
  const decision = terminalDecision({
    outcome: t.outcome,
    rows: t.state.rows(),
    target: t.run.target,
    filters: t.state.descriptors(),
    where: t.state.where,
    chargeMicrousd: charge,
    usage: t.meter.usage,
  });
  let result = null;
  for (const body of decision.events) {
    const event = await t.emitter.emit(body);
    if (event.type === 'final') result = event;
  }
  const finished = await finishAndSettle(deps, t.run, t.lease, {
    status: decision.status,
    where: t.outcome.kind === 'done' ? WHERE_DONE : t.state.where,
    spendMicrousd: t.meter.spendMicrousd,
    chargeMicrousd: charge,
    usdDisplay: microsToUsdDisplay(charge),
    stopReason: decision.stopReason,
    result,
    finishedAt: new Date(deps.clock.now()).toISOString(),
  });
  if (finished) {
    const rows = result?.table.length ?? 0;
    deps.metrics.runEnded(decision.status);
    deps.metrics.spend(t.meter.spendMicrousd);
    deps.metrics.rows(rows);
    trace.getActiveSpan()?.setAttributes({ 'leadfinder.run.status': decision.status, 'leadfinder.run.rows': rows });
  }
  return finished;
}
