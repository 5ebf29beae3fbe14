import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createBilling, createEmbeddedEventLog, createEmbeddedStore, createInProcessStopFlags, createInProcessWorkQueue,
  loadConfig, randomIds, silentLogger, systemClock, type Billing, type Config, type EventLog, type FetcherPort,
  type FilterPort, type RunDoc, type StopFlags, type Store, type WorkQueue,
} from '@leadfinder/platform';
import { RESERVATION_MICROUSD, type RunEvent } from '@leadfinder/wire';
import { createCoordinator, type Coordinator, type CoordinatorOptions } from '../src/index.js';

/** Real embedded adapters in a temporary data dir, plus helpers to create accounts and runs. */
export interface Harness {
  config: Config;
  store: Store;
  events: EventLog;
  work: WorkQueue;
  stops: StopFlags;
  billing: Billing;
  accountId: string;
  coordinator(fetcher: FetcherPort, filter: FilterPort, extra?: Partial<CoordinatorOptions>): Coordinator;
  /** Inserts a running run with its 5.00 hold reserved; does not enqueue it. */
  createRun(fields?: Partial<RunDoc>): Promise<RunDoc>;
  submit(fields?: Partial<RunDoc>): Promise<RunDoc>;
  waitTerminal(runId: string, timeoutMs?: number): Promise<RunDoc>;
  eventsOf(runId: string): Promise<RunEvent[]>;
  close(): Promise<void>;
}

export async function createHarness(env: Record<string, string> = {}): Promise<Harness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lf-coordinator-'));
  const config = loadConfig({ LEADFINDER_DATA_DIR: dataDir, LEADFINDER_PRICE_LLM_INPUT_USD_PER_MTOK: '0', LEADFINDER_PRICE_LLM_OUTPUT_USD_PER_MTOK: '0', ...env });
  const logger = silentLogger;
  const store = await createEmbeddedStore({ dataDir, logger });
  const events = await createEmbeddedEventLog({ dataDir, logger });
  const work = createInProcessWorkQueue({ logger });
  const stops = createInProcessStopFlags();
  const billing = createBilling({ store, clock: systemClock, logger });
  const accountId = randomIds.id('acct');
  await store.accounts.create({ id: accountId, email: null, createdAt: new Date().toISOString() });
  await billing.topup(accountId, 25_000_000, 'initial');
  const coordinators: Coordinator[] = [];
  let n = 0;

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
      const c = createCoordinator({
        config, logger, clock: systemClock, store, events, work, stops, billing, fetcher, filter,
        instanceId: `coordinator-${++n}`, callBackoffMs: 10, shutdownGraceMs: 500, ...extra,
      });
      coordinators.push(c);
      return c;
    },
    async submit(fields) {
      const run = await createRun(fields);
      await work.enqueue(run.id, {});
      return run;
    },
    async waitTerminal(runId, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const run = await store.runs.get(runId);
        if (run && run.status !== 'running' && run.settled) return run;
        if (Date.now() > until) throw new Error(`run ${runId} not terminal+settled: ${JSON.stringify({ status: run?.status, where: run?.where, settled: run?.settled })}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async eventsOf(runId) {
      return (await events.read(runId, 0, 10_000)).map((e) => e.event);
    },
    async close() {
      await Promise.allSettled(coordinators.map((c) => c.stop()));
      await work.close();
      await stops.close();
      await events.close();
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
