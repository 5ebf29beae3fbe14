import type { Span } from '@opentelemetry/api';
import { LeaseLostError, type Config, type FetcherPort, type FilterPort, type LeadfinderMetrics, type Logger, type RunDoc, type RunLease, type StopFlags, type WorkItem } from '@leadfinder/platform';
import { describeWhere, formatWhere, microsToUsdDisplay, microsToUsdNumber, WHERE_DONE, type RunEvent, type RunEventBody, type Verdict, type Where } from '@leadfinder/wire';
import { RunEmitter } from '../activities/emitter.js';
import { ResearchActivities, type ResearchTimeouts } from '../activities/research.js';
import { recordRunEnd, type SettlementDeps } from '../activities/settlement.js';
import { researchPort } from '../activities/research-port.js';
import { countFetchOutcomes, markRunEnd, RUN_ATTRIBUTES, StageTrace, traceStep, type RunEnding, type VerifyBatch } from '../activities/tracing.js';
import { SpendMeter, spendCapMicrousd, type Prices } from '../pipeline/pricing.js';
import { RowCostMeter } from '../pipeline/row-cost.js';
import { RunState } from '../pipeline/run-state.js';
import { terminalDecision, type RunOutcome } from '../pipeline/tail.js';
import { LeaseKeeper } from './lease-keeper.js';
import { CoordinatorShutdownError, decideEnd, errorDetail, MarginalCostStopError, type EndDecision } from './run-end.js';
import { RunSignals } from './signals.js';

/** Knobs of one drive; defaults in DEFAULT_DRIVE_TUNING. */
export interface DriveTuning {
  /** Pages opened at once per run. @default 4 */
  fetchParallelism: number;
  /** filter.extract calls at once per run. @default 4 */
  extractParallelism: number;
  /** filter.verify calls at once per run. @default 4 */
  verifyParallelism: number;
  /** fetcher.search calls at once per run (hits are still merged in query order). @default 4 */
  searchParallelism: number;
  /** Results asked of each search call. @default 10 */
  searchLimit: number;
  /**
   * Deepest result page read of one query. Later rounds read the next page of each query whose last page
   * came back full and brought a new row (each page is one priced search). @default 5
   */
  maxSearchPages: number;
  /** Hard cap on rounds; the run then ends `done` with what it has. @default 50 */
  maxRounds: number;
  /** Consecutive rounds that open no new page and find no new candidate before the run gives up. @default 2 */
  maxEmptyRounds: number;
  /** Candidates' own pages (leads from listings) opened per round, each a priced page. @default 40 */
  maxLeadsPerRound: number;
  /** Searches restricted to a candidate's own domain (when no listing links it) per round. @default 8 */
  maxDomainSearchesPerRound: number;
  /**
   * Searches of a candidate's name per round, for one still unclear after its own page was tried: another page
   * about it (a profile, an article) may state what its own did not. Each is one priced search and at most two
   * priced pages, once per candidate. @default 8
   */
  maxNameSearchesPerRound: number;
}
export const DEFAULT_DRIVE_TUNING: DriveTuning = {
  fetchParallelism: 4,
  extractParallelism: 4,
  verifyParallelism: 4,
  searchParallelism: 4,
  searchLimit: 10,
  maxSearchPages: 5,
  maxRounds: 50,
  maxEmptyRounds: 2,
  maxLeadsPerRound: 40,
  maxDomainSearchesPerRound: 8,
  maxNameSearchesPerRound: 8,
};

/** What a coordinator hands every run it drives. */
export interface RunDeps extends SettlementDeps {
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
 * One drive of one claimed run. It owns what the drive must not lose track of: the run's signals (stop,
 * deadline, lease loss, shutdown), its lease, its spend meter and its event emitter, and offers the
 * pipeline a handful of verbs:
 * - `enter(where)`: a new step (checkpoint, `where` and spend persisted under the lease, `status` event);
 * - `recordSpend()`: after a priced step (spend persisted, then a `cost` event);
 * - `checkpoint()`: throws the reason the run must end now;
 * - `research`: the fetcher and filter calls, metered and under the run signal;
 * - `verifyBatch()`: one filter's verification of a batch of candidates (one span, not one per candidate).
 * Then `conclude()` classifies how the drive ended and `settle()` writes the tail and settles.
 */
export class RunSession {
  readonly state: RunState;
  readonly research: ResearchActivities;
  readonly tuning: DriveTuning;
  readonly logger: Logger;
  private readonly signals: RunSignals;
  private readonly keeper: LeaseKeeper;
  private readonly meter: SpendMeter;
  private readonly emitter: RunEmitter;
  private readonly stages: StageTrace;
  private lastCostMicrousd: number;
  /**
   * Spend recorded but not yet written and announced: it goes out with the next step's write (one run
   * revision for both, see recordSpend), or before the next event, whichever comes first.
   */
  private pendingCost: { spend: number; event: RunEventBody } | null = null;
  /** Spend per row, its projection to target, and the request's marginal-cost stop. */
  private readonly rowCost: RowCostMeter;
  /** Spend by the stage it was made in (the metric's `stage` label), counted once the run is terminal. */
  private readonly spendByStage = new Map<string, number>();
  private attributedMicrousd = 0;

  /**
   * Takes over a claimed run: starts renewing its lease, watching its stop flag and its deadline. Call it
   * with the run span active (stage spans become its children).
   */
  static open(deps: RunDeps, run: RunDoc, lease: RunLease, item: WorkItem | null, runSpan?: Span): RunSession {
    return new RunSession(deps, run, lease, item, runSpan);
  }

  private constructor(
    private readonly deps: RunDeps,
    readonly run: RunDoc,
    lease: RunLease,
    item: WorkItem | null,
    private readonly runSpan?: Span,
  ) {
    this.logger = deps.logger.child({ runId: run.id });
    this.tuning = deps.tuning;
    this.signals = new RunSignals(deps.shutdown);
    this.keeper = new LeaseKeeper({
      runs: deps.store.runs, runId: run.id, lease, ttlMs: deps.config.LEADFINDER_LEASE_TTL_MS, clock: deps.clock,
      logger: this.logger, item,
      onLost: () => {
        deps.metrics.leaseLost();
        this.signals.leaseLost(new LeaseLostError(run.id));
      },
    });
    this.keeper.start();
    this.signals.watch(run, deps.stops, deps.clock, this.logger);
    // The moment the run learns it must end (a stop, its deadline, its spend cap, a lost lease, a shutdown), before
    // it unwinds: with "run ended" after it, a run that never ends shows whether it missed the news or hung unwinding.
    this.signals.signal.addEventListener('abort', () => {
      const reason: unknown = this.signals.signal.reason;
      this.logger.info('run interrupted', { reason: reason instanceof Error ? reason.name : String(reason), where: this.state.where });
    }, { once: true });

    this.meter = new SpendMeter(spendCapMicrousd(deps.config.LEADFINDER_SPEND_CEILING_USD, run.holdMicrousd), pricesFrom(deps.config), run.spendMicrousd);
    this.lastCostMicrousd = this.meter.spendMicrousd;
    this.rowCost = new RowCostMeter(run.target, run.maxMicrousdPerRow);
    this.state = new RunState(run.target, run.where);
    this.emitter = new RunEmitter(deps.events, run.id, deps.clock);
    this.stages = new StageTrace(deps.metrics, deps.clock);
    runSpan?.setAttribute(RUN_ATTRIBUTES.target, run.target);
    const signal = this.signals.signal;
    // Port calls run inside the current stage span, so gRPC client spans (and the servers') join the run's
    // trace; page fetches are counted by outcome.
    const port = researchPort(deps.fetcher, deps.filter, [this.stages.inStage, countFetchOutcomes(deps.metrics, signal)]);
    this.research = new ResearchActivities({
      runId: run.id, port, meter: this.meter, signal, logger: this.logger,
      retries: deps.retries, backoffMs: deps.backoffMs, timeouts: deps.timeouts,
    });
  }

  /** Throws the reason the run must end now (stop, deadline, lease loss, shutdown), else returns. */
  checkpoint(): void {
    this.signals.signal.throwIfAborted();
    if (this.deps.isDraining()) throw new CoordinatorShutdownError();
  }

  /** Appends one event of the run, inside the current stage (its span covers the append). */
  async emit(body: RunEventBody): Promise<RunEvent> {
    // A recorded spend is written and announced before any later event, so events keep their order.
    if (this.pendingCost) await this.flushCost();
    return this.stages.within(() => this.emitter.emit(body));
  }

  /**
   * Marks the run started, before its first event: from here a lapsed lease means "interrupted", never
   * a re-drive. Its own span (`run.start`): the write comes before the first stage.
   */
  markStarted(): Promise<void> {
    return traceStep('run.start', {}, () => this.persist({ started: true }), (thrown) => this.endingOf(thrown));
  }

  /**
   * A new step: checkpoint, then `where` and spend persisted and announced by a `status` event (a
   * `run.checkpoint` span under the new stage's span).
   */
  async enter(where: Where): Promise<void> {
    try {
      this.checkpoint();
    } catch (reason) {
      // Ending here: the spend recorded before is still written and announced, as it was recorded.
      if (this.pendingCost) await this.flushCost().catch(() => undefined);
      throw reason;
    }
    this.attributeSpend();
    this.stages.enter(where);
    const text = formatWhere(where);
    this.state.moveTo(text);
    const cost = this.pendingCost;
    this.pendingCost = null;
    await this.checkpointSpan('where', async () => {
      // One revision of the run for the new step and the spend recorded before it.
      await this.persist({ where: text, spendMicrousd: this.meter.spendMicrousd });
      if (cost) await this.announce(cost);
      await this.emitter.emit({ type: 'status', where: text, message: describeWhere(where) });
    });
  }

  /**
   * After a priced step: the spend is written (it is what an interrupted run is charged), then announced
   * by a `cost` event, so the persisted figure is never below an announced one. Both go out with the next
   * step's write (`enter`), one run revision instead of two (most priced steps are followed by a step at
   * once), or before the next event (`emit`), or before the tail; the event's figures are the ones here.
   */
  async recordSpend(): Promise<void> {
    const spend = this.meter.spendMicrousd;
    if (spend === (this.pendingCost?.spend ?? this.lastCostMicrousd)) return;
    // Two in a row with nothing between: the first goes out as it would have.
    if (this.pendingCost) await this.flushCost();
    const rows = this.state.rowCount;
    this.pendingCost = {
      spend,
      event: { type: 'cost', stage: this.state.where, usd: microsToUsdNumber(spend), ...this.rowCost.fields(spend, rows) },
    };
    this.noteRows();
  }

  /** Writes and announces the recorded spend now (a `run.checkpoint` span of its own). */
  private async flushCost(): Promise<void> {
    const cost = this.pendingCost;
    if (!cost) return;
    this.pendingCost = null;
    await this.checkpointSpan('spend', async () => {
      await this.persist({ spendMicrousd: this.meter.spendMicrousd });
      await this.announce(cost);
    });
  }

  private async announce(cost: { spend: number; event: RunEventBody }): Promise<void> {
    this.lastCostMicrousd = cost.spend;
    await this.emitter.emit(cost.event);
  }

  /**
   * Rows were accepted (or spend recorded): the row-cost meter learns the spend at this row count, and past
   * the request's max_usd_per_row the run unwinds at its next checkpoint (or port call) and ends stopped.
   */
  noteRows(): void {
    const spend = this.meter.spendMicrousd;
    const rows = this.state.rowCount;
    this.rowCost.observe(spend, rows);
    if (this.rowCost.exceeded(spend, rows)) this.signals.marginalCostPassed(new MarginalCostStopError(this.run.id));
  }

  /**
   * One filter's verification of `batch.candidates` candidates as one `funnel.verify` span, with its
   * outcome counts; the per-candidate calls `verify` makes are not traced one by one.
   */
  verifyBatch(batch: VerifyBatch, verify: () => Promise<Verdict[]>): Promise<Verdict[]> {
    return this.stages.verifyBatch(batch, verify, (verdicts) => {
      const passed = verdicts.filter((v) => v.pass).length;
      return { passed, dropped: verdicts.length - passed, unclear: verdicts.filter((v) => !v.pass && v.outcome === 'unclear').length };
    }, (thrown) => this.endingOf(thrown));
  }

  /** A run-record write and its event, as a `run.checkpoint` span under the current stage. */
  private checkpointSpan(what: 'where' | 'spend', fn: () => Promise<void>): Promise<void> {
    return this.stages.within(() => traceStep('run.checkpoint', { 'leadfinder.checkpoint': what }, fn, (thrown) => this.endingOf(thrown)));
  }

  /** How a throw ends the drive, for the span it crossed (a stop or a lost lease is no span error). */
  private endingOf(thrown: unknown): RunEnding {
    return endingOf(decideEnd(thrown, this.signals.signal), thrown);
  }

  /** Spend since the last call is the current stage's (parallel calls of a stage all end inside it). */
  private attributeSpend(): void {
    const delta = this.meter.spendMicrousd - this.attributedMicrousd;
    if (delta === 0) return;
    const stage = this.stages.stage ?? 'plan';
    this.spendByStage.set(stage, (this.spendByStage.get(stage) ?? 0) + delta);
    this.attributedMicrousd += delta;
  }

  /**
   * The drive is over (`failure` when it threw): stops watching the signals and says whether to write a
   * tail, and which.
   */
  conclude(failure?: { thrown: unknown }): EndDecision {
    let end: EndDecision = { write: true, outcome: { kind: 'done' } };
    let ending: RunEnding = { reason: 'done' };
    if (failure) {
      const { thrown } = failure;
      end = decideEnd(thrown, this.signals.signal);
      ending = endingOf(end, thrown);
      if (!end.write) this.logger.info('leaving run without writing', { why: end.why });
      // The stream says what failed in general terms; the log (with the run id) keeps the detail.
      else if (end.outcome.kind === 'error') this.logger.warn('run failed', { error: ending.message, shown: end.outcome.message, where: this.state.where });
    }
    this.attributeSpend();
    this.stages.end(failure ? ending : undefined);
    if (this.runSpan) {
      markRunEnd(this.runSpan, ending);
      this.runSpan.setAttribute(RUN_ATTRIBUTES.spend, this.meter.spendMicrousd);
    }
    this.signals.unwatch();
    return end;
  }

  /**
   * After conclude(): writes the tail and settles (`run.settle`), or, writing nothing, stops renewing
   * the lease (`run.release`). Returns whether this drive made the run terminal.
   */
  settle(end: EndDecision): Promise<boolean> {
    return traceStep(end.write ? 'run.settle' : 'run.release', {}, async () => {
      try {
        // Leaving without a tail (shutdown): the spend recorded is still written, as it is what the run
        // is charged once interrupted (refused, harmlessly, when the lease is gone).
        if (!end.write) await this.flushCost().catch(() => undefined);
        return end.write && (await this.finish(end.outcome));
      } finally {
        await this.close();
      }
    });
  }

  /**
   * Writes the terminal tail and settles, under a freshly confirmed lease. Returns whether this drive
   * made the run terminal.
   */
  private async finish(outcome: RunOutcome): Promise<boolean> {
    // Confirm the lease on the current run before the tail: the event log is not fenced, the store is
    // (periodic renewals check a hint of the run, enough to keep it, not to write a tail on).
    if (!(await this.keeper.confirm())) return false;
    // Renewals go on through the tail (its writes may outlast a lease under load); once the tail makes
    // the run terminal the store refuses them, which the keeper then reads as the end, not a loss.
    this.keeper.endingRun();
    // The last recorded spend before the tail, as it would have gone out at once.
    try {
      await this.flushCost();
    } catch (error) {
      this.logger.warn('could not write the spend before the tail; leaving the run', { error: String(error) });
      return false;
    }
    return this.writeTail(outcome);
  }

  /** Stops renewing the lease (it lapses, or the run is terminal). */
  private close(): Promise<void> {
    return this.keeper.stop();
  }

  private async persist(patch: { where?: string; spendMicrousd?: number; started?: boolean }): Promise<void> {
    const ok = await this.deps.store.runs.progress(this.run.id, this.keeper.lease, patch, this.deps.clock.now());
    if (!ok) {
      this.keeper.markLost();
      throw new LeaseLostError(this.run.id);
    }
  }

  private async writeTail(outcome: RunOutcome): Promise<boolean> {
    const { run, state, meter, deps } = this;
    const charge = Math.min(meter.spendMicrousd, run.holdMicrousd);
    const decision = terminalDecision({
      outcome,
      rows: state.rows(),
      target: run.target,
      filters: state.descriptors(),
      where: state.where,
      chargeMicrousd: charge,
      costFields: this.rowCost.fields(charge, Math.min(state.rowCount, run.target)),
      usage: meter.usage,
      report: state.finalReport(),
    });
    let result = null;
    for (const body of decision.events) {
      const event = await this.emitter.emit(body);
      if (event.type === 'final') result = event;
    }
    // Terminal (fenced by the lease) and settled in one step; a failed settle is left to billing.reconcile().
    const finished = await deps.billing.endRun(run, this.keeper.lease, {
      status: decision.status,
      where: outcome.kind === 'done' ? formatWhere(WHERE_DONE) : state.where,
      spendMicrousd: meter.spendMicrousd,
      chargeMicrousd: charge,
      usdDisplay: microsToUsdDisplay(charge),
      stopReason: decision.stopReason,
      result,
      finishedAt: new Date(deps.clock.now()).toISOString(),
    });
    // The store refused the fenced write: the lease is someone else's now.
    if (!finished) this.keeper.markLost();
    // Event streams close on the end marker, appended once the record is terminal.
    if (finished) await this.emitter.end(this.logger);
    if (finished) {
      const rows = result?.table.length ?? 0;
      recordRunEnd(deps.metrics, { status: decision.status, spendByStage: this.spendByStage, durationMs: deps.clock.now() - Date.parse(run.createdAt) });
      deps.metrics.rows(rows);
      this.runSpan?.setAttributes({ [RUN_ATTRIBUTES.status]: decision.status, [RUN_ATTRIBUTES.rows]: rows, [RUN_ATTRIBUTES.charge]: charge });
      this.logger.info('run ended', { status: decision.status, stopReason: decision.stopReason, where: state.where, rows, chargeMicrousd: charge });
    }
    return finished;
  }
}

/** The span view of an end: its reason, and for a failure the error and its full detail. */
function endingOf(end: EndDecision, thrown: unknown): RunEnding {
  if (!end.write) return { reason: end.why };
  const { kind } = end.outcome;
  return kind === 'error' ? { reason: 'error', error: thrown, message: errorDetail(thrown) } : { reason: kind };
}
