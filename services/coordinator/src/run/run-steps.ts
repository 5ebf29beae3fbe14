import type { Logger, RunDoc } from '@leadfinder/platform';
import { microsToUsdNumber, type RunEvent, type RunEventBody } from '@leadfinder/wire';
import type { ResearchActivities } from '../activities/research.js';
import type { RunEmitter } from '../activities/emitter.js';
import type { SpendMeter } from '../pipeline/pricing.js';
import type { RunState } from '../pipeline/run-state.js';
import { describeWhere } from '../pipeline/where.js';

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
};

export interface RunStepsOptions {
  run: RunDoc;
  state: RunState;
  meter: SpendMeter;
  research: ResearchActivities;
  emitter: RunEmitter;
  tuning: DriveTuning;
  logger: Logger;
  /** Throws the reason the run must end now (stop, deadline, lease loss, shutdown), else returns. */
  checkpoint: () => void;
  /** Persists where/spend under the lease; throws LeaseLostError when the lease is gone. */
  persist: (patch: { where?: string; spendMicrousd?: number; started?: boolean }) => Promise<void>;
  /** Told of each new `where` (stage spans and durations). */
  stages?: { enter(where: string): void };
}

/**
 * The bookkeeping around each step of a drive: checkpoint before it, `where` + spend persisted and a
 * `status` event when it starts, a `cost` event after it when it spent money.
 */
export class RunSteps {
  readonly run: RunDoc;
  readonly state: RunState;
  readonly meter: SpendMeter;
  readonly research: ResearchActivities;
  readonly tuning: DriveTuning;
  readonly logger: Logger;
  readonly checkpoint: () => void;
  private lastCostMicrousd: number;

  constructor(private readonly o: RunStepsOptions) {
    this.run = o.run;
    this.state = o.state;
    this.meter = o.meter;
    this.research = o.research;
    this.tuning = o.tuning;
    this.logger = o.logger;
    this.checkpoint = o.checkpoint;
    this.lastCostMicrousd = o.meter.spendMicrousd;
  }

  emit(body: RunEventBody): Promise<RunEvent> {
    return this.o.emitter.emit(body);
  }

  async enter(where: string): Promise<void> {
    this.checkpoint();
    this.o.stages?.enter(where);
    this.state.where = where;
    await this.o.persist({ where, spendMicrousd: this.meter.spendMicrousd });
    await this.emit({ type: 'status', where, message: describeWhere(where) });
  }

  /**
   * After a step: persist the spend first (it is what an interrupted run is charged), then the `cost`
   * event, so the persisted figure is never below an announced one for long.
   */
  async afterSpend(): Promise<void> {
    const spend = this.meter.spendMicrousd;
    if (spend === this.lastCostMicrousd) return;
    await this.o.persist({ spendMicrousd: spend });
    this.lastCostMicrousd = spend;
    await this.emit({ type: 'cost', stage: this.state.where, usd: microsToUsdNumber(spend) });
  }
}
