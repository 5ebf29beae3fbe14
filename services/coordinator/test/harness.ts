import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBilling, loadConfig, randomIds, silentLogger, systemClock, type Billing, type Config, type EventLog, type FetcherPort, type FilterPort, type RunDoc, type StopFlags, type Store, type WorkQueue } from '@leadfinder/platform';
import { createEmbeddedStore } from '@leadfinder/platform/embedded';
import { RESERVATION_MICROUSD, type RunEvent } from '@leadfinder/wire';
import { createCoordinator, type Coordinator, type CoordinatorOptions } from '../src/index.js';
import { KillSwitch } from './kill-switch.js';
import { embeddedPorts, type PortsFactory, type ProcessPorts } from './ports.js';
import { realTime, type TestTime } from './time.js';

/**
 * Real adapters: the embedded store in a temporary data dir, and the event log, work queue and stop
 * flags of `ports` (embedded by default, or JetStream), plus helpers to create accounts and runs.
 * `events`, `work` and `stops` are the submitting side's handles (what the edge would hold). `time`: how
 * waits let time pass (real, or fake timers; see time.ts).
 */
export interface Harness {
  config: Config;
  store: Store;
  events: EventLog;
  work: WorkQueue;
  stops: StopFlags;
  billing: Billing;
  accountId: string;
  /** A coordinator on the harness's coordinator-side handles (a connection of its own on JetStream). */
  coordinator(fetcher: FetcherPort, filter: FilterPort, extra?: Partial<CoordinatorOptions>): Coordinator;
  /** Another coordinator process, with its own handles on the shared ports, that the test can kill -9. */
  replica(): Promise<Replica>;
  /** Inserts a running run with its 5.00 hold reserved; does not enqueue it. */
  createRun(fields?: Partial<RunDoc>): Promise<RunDoc>;
  submit(fields?: Partial<RunDoc>): Promise<RunDoc>;
  waitTerminal(runId: string, timeoutMs?: number): Promise<RunDoc>;
  eventsOf(runId: string): Promise<RunEvent[]>;
  /** Work messages not yet acked, where the queue can tell (JetStream); undefined otherwise. */
  backlog?: () => Promise<number>;
  close(): Promise<void>;
}

export interface Replica {
  coordinator(fetcher: FetcherPort, filter: FilterPort, extra?: Partial<CoordinatorOptions>): Coordinator;
  /**
   * The process dies: every port call it makes from now on fails and its connections drop, unflushed.
   * Resolves once the writes it had on their way have landed (or failed).
   */
  kill(): Promise<void>;
}

export async function createHarness(env: Record<string, string> = {}, ports: PortsFactory = embeddedPorts, time: TestTime = realTime()): Promise<Harness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lf-coordinator-'));
  const config = loadConfig({ LEADFINDER_DATA_DIR: dataDir, LEADFINDER_PRICE_LLM_INPUT_USD_PER_MTOK: '0', LEADFINDER_PRICE_LLM_OUTPUT_USD_PER_MTOK: '0', ...env });
  const logger = silentLogger;
  const store = await createEmbeddedStore({ dataDir, logger });
  const backing = await ports({ dataDir, logger });
  const { events, work, stops } = await backing.open();
  const coordinatorSide = await backing.open();
  const billing = createBilling({ store, clock: systemClock, logger });
  const accountId = randomIds.id('acct');
  await store.accounts.create({ id: accountId, email: null, createdAt: new Date().toISOString() });
  await billing.topup(accountId, 25_000_000, 'initial');
  const coordinators: Coordinator[] = [];
  let n = 0;

  const spawn = (
    side: Pick<ProcessPorts, 'events' | 'work' | 'stops'> & { store: Store; billing: Billing },
    fetcher: FetcherPort, filter: FilterPort, extra: Partial<CoordinatorOptions>,
  ): Coordinator => {
    const c = createCoordinator({
      config, logger, clock: systemClock, ...side, fetcher, filter,
      instanceId: `coordinator-${++n}`, callBackoffMs: 10, shutdownGraceMs: 500, ...extra,
    });
    coordinators.push(c);
    return c;
  };

  const createRun = async (fields: Partial<RunDoc> = {}): Promise<RunDoc> => {
    const now = Date.now();
    const run: RunDoc = {
      id: randomIds.runId(), accountId, query: 'companies hiring in Berlin', target: 3, speed: 'advanced', relax: true,
      sites: '', status: 'running', where: 'queued', spendMicrousd: 0, holdMicrousd: RESERVATION_MICROUSD,
      chargeMicrousd: null, settled: false, usdDisplay: '$0.00', stopReason: null,
      deadlineAt: new Date(now + 9_000_000).toISOString(), createdAt: new Date(now).toISOString(),
      updatedAt: new Date(now).toISOString(), finishedAt: null, result: null, lease: null, started: false, trace: {},
      ...fields,
    };
    const reserved = await billing.reserve(accountId, run.id, run.holdMicrousd);
    if (!reserved.ok) throw new Error(`reserve failed: ${reserved.reason}`);
    await store.runs.insert(run);
    return run;
  };

  return {
    config, store, events, work, stops, billing, accountId, createRun,
    coordinator(fetcher, filter, extra = {}) {
      return spawn({ ...coordinatorSide, store, billing }, fetcher, filter, extra);
    },
    async replica() {
      const own = await backing.open();
      const killSwitch = new KillSwitch();
      const guardedStore = killSwitch.guard(store, { nested: ['runs', 'accounts', 'ledger', 'keys'], land: true });
      const side = {
        store: guardedStore,
        billing: createBilling({ store: guardedStore, clock: systemClock, logger }),
        events: killSwitch.guard(own.events, { land: true }),
        work: killSwitch.guardWork(own.work),
        stops: killSwitch.guard(own.stops),
      };
      return {
        coordinator: (fetcher, filter, extra = {}) => spawn(side, fetcher, filter, extra),
        async kill() {
          await killSwitch.kill();
          // Its writes already on their way land (on fake time, letting time pass while they do).
          await time.settle(killSwitch.landed());
          await own.sever();
        },
      };
    },
    async submit(fields) {
      const run = await createRun(fields);
      await work.enqueue(run.id, {});
      return run;
    },
    async waitTerminal(runId, timeoutMs = 10_000) {
      let run: RunDoc | null = null;
      const ended = async () => {
        run = await store.runs.get(runId);
        return run !== null && run.status !== 'running' && run.settled;
      };
      await time.until(ended, { timeoutMs }).catch(() => {
        const last = run as RunDoc | null;
        throw new Error(`run ${runId} not terminal+settled: ${JSON.stringify({ status: last?.status, where: last?.where, settled: last?.settled })}`);
      });
      return run!;
    },
    async eventsOf(runId) {
      return (await events.read(runId, 0, 10_000)).map((e) => e.event);
    },
    ...(backing.backlog ? { backlog: () => backing.backlog!() } : {}),
    async close() {
      await backing.endPulls?.();
      await Promise.allSettled(coordinators.map((c) => c.stop()));
      await backing.destroy();
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const typesOf = (events: RunEvent[]) => events.map((e) => e.type);
/** The event types that are not live progress (the tail and cost/usage). */
export const tailOf = (events: RunEvent[]) => {
  const types = typesOf(events);
  const start = types.findIndex((t) => t === 'final' || t === 'error');
  return start < 0 ? [] : types.slice(start);
};
export function lastCost(events: RunEvent[]): Extract<RunEvent, { type: 'cost' }> | undefined {
  return events.filter((e): e is Extract<RunEvent, { type: 'cost' }> => e.type === 'cost').at(-1);
}
