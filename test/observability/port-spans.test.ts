/**
 * Issue 22 item 2: store, event-log, billing and work-queue calls are spans of the trace they serve, in
 * embedded mode too, through the port wrappers the composition root puts around whichever adapter runs
 * (services/cli/src/serve/adapters.ts). Real embedded adapters and in-memory exporters.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SpanKind, context, propagation, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createBilling, silentLogger, systemClock, tracer, type Billing, type EventLog, type Store } from '@leadfinder/platform';
import { createEmbeddedEventLog, createEmbeddedStore, createInProcessWorkQueue } from '@leadfinder/platform/embedded';
import { createInMemoryTelemetry, traceBilling, traceEventLog, traceStore, traceWorkQueue, type InMemoryTelemetry } from '@leadfinder/platform/telemetry';
import type { RunEvent } from '@leadfinder/wire';
import { makeRun } from '../../services/platform/test/store-contract.js';

let telemetry: InMemoryTelemetry;
let dataDir: string;
let store: Store;
let events: EventLog;
let billing: Billing;

beforeAll(async () => {
  telemetry = createInMemoryTelemetry();
  dataDir = await mkdtemp(join(tmpdir(), 'lf-port-spans-'));
  store = traceStore(await createEmbeddedStore({ dataDir: join(dataDir, 'store'), logger: silentLogger }));
  events = traceEventLog(await createEmbeddedEventLog({ dataDir: join(dataDir, 'events'), logger: silentLogger }));
  billing = traceBilling(createBilling({ store, clock: systemClock, logger: silentLogger }));
});
afterAll(async () => {
  await events?.close();
  await store?.close();
  await telemetry.shutdown();
  await rm(dataDir, { recursive: true, force: true });
});
afterEach(() => telemetry.reset());

/** Runs `fn` under a `run` span; returns that span's id. */
async function inRun(fn: () => Promise<unknown>): Promise<string> {
  const span = tracer('test').startSpan('run');
  await context.with(trace.setSpan(context.active(), span), fn);
  span.end();
  return span.spanContext().spanId;
}
const named = (name: string) => telemetry.spans().filter((s) => s.name === name);
const parentOf = (s: ReadableSpan) => s.parentSpanContext?.spanId;
const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));
const status = (runId: string, n: number): RunEvent => ({ type: 'status', where: `step ${n}`, message: `step ${n}`, at: new Date().toISOString(), runId }) as RunEvent;

describe('store and billing spans', () => {
  it('a run\'s store writes and its hold are spans of its trace, named by operation, with the run id; billing nests the store calls it makes', async () => {
    const account = `acc_${Date.now()}`;
    await store.accounts.create({ id: account, email: null, createdAt: new Date().toISOString() });
    await billing.topup(account, 10_000_000, 'seed');
    const run = makeRun({ accountId: account });
    const root = await inRun(async () => {
      expect((await billing.reserve(account, run.id, 5_000_000)).ok).toBe(true);
      await store.runs.insert(run);
      const claimed = await store.runs.claim(run.id, 'coordinator-test', 30_000, Date.now());
      expect(await store.runs.progress(run.id, claimed!.lease, { where: 'planning' }, Date.now())).toBe(true);
    });
    const reserve = named('billing.reserve');
    expect(reserve).toHaveLength(1);
    expect(parentOf(reserve[0]!)).toBe(root);
    expect(reserve[0]!.attributes).toMatchObject({ 'leadfinder.run_id': run.id, 'leadfinder.billing.outcome': 'held' });
    // The hold's store calls hang under billing.reserve.
    const underReserve = telemetry.spans().filter((s) => parentOf(s) === reserve[0]!.spanContext().spanId).map((s) => s.name);
    expect(underReserve).toContain('store.accounts.reserve');
    for (const name of ['store.runs.insert', 'store.runs.claim', 'store.runs.progress']) {
      const [span] = named(name);
      expect(span, name).toBeDefined();
      expect(parentOf(span!)).toBe(root);
      expect(span!.kind).toBe(SpanKind.INTERNAL);
      expect(span!.attributes['leadfinder.run_id']).toBe(run.id);
    }
    expect(named('store.runs.claim')[0]!.attributes['leadfinder.store.claimed']).toBe(true);
  });

  it('outside any trace (the reaper\'s scans, start-up) the ports make no spans', async () => {
    await store.runs.findLapsed(Date.now());
    await store.runs.findOverdue(new Date().toISOString());
    await billing.reconcile();
    await events.append('outside', status('outside', 1), 'outside:1');
    await settle(20);
    expect(telemetry.spans()).toEqual([]);
  });
});

describe('event-log spans', () => {
  it('appends that follow one another share one event_log.append span with their count and types; a pause starts another', async () => {
    const runId = `run_${Date.now()}`;
    const root = await inRun(async () => {
      for (let n = 1; n <= 4; n++) await events.append(runId, status(runId, n), `${runId}:${n}`);
      await settle(30);
      await events.append(runId, { ...status(runId, 5), type: 'cost', stage: 'x', usd: 0.01 } as RunEvent, `${runId}:5`);
    });
    await settle(20);
    const appends = named('event_log.append');
    expect(appends.map((s) => s.attributes['leadfinder.event.count'])).toEqual([4, 1]);
    expect(appends.map((s) => s.attributes['leadfinder.event.types'])).toEqual([['status'], ['cost']]);
    for (const s of appends) {
      expect(parentOf(s)).toBe(root);
      expect(s.attributes['leadfinder.run_id']).toBe(runId);
      expect(Number(s.attributes['leadfinder.event.append_ms'])).toBeGreaterThan(0);
    }
    // The first batch ended with its last append, before the pause: it does not cover the 30 ms idle.
    const [first, second] = appends;
    const ms = (t: [number, number]) => t[0] * 1000 + t[1] / 1e6;
    expect(ms(second!.startTime) - ms(first!.endTime)).toBeGreaterThanOrEqual(25);
    expect(await events.read(runId, 0)).toHaveLength(5);
  });
});

describe('work-queue spans (the in-process queue)', () => {
  it('a PRODUCER publish span carries the run to the consumer: the delivered headers name it, and a receive span follows it', async () => {
    const queue = traceWorkQueue(createInProcessWorkQueue({ logger: silentLogger }), { system: 'inprocess', destination: 'work.runs' });
    const runId = `run_${Date.now()}`;
    const root = await inRun(async () => {
      const carrier: Record<string, string> = {};
      // As the edge does: the run's context travels in the headers given to enqueue.
      propagation.inject(context.active(), carrier);
      await queue.enqueue(runId, carrier);
    });
    const subscription = queue.consume({ ackWaitMs: 10_000, maxInFlight: 1 });
    const iterator = subscription[Symbol.asyncIterator]();
    const item = (await iterator.next()).value!;
    await item.ack();
    await subscription.stop();
    await queue.close();

    const [publish] = named('publish work.runs');
    expect(publish?.kind).toBe(SpanKind.PRODUCER);
    expect(parentOf(publish!)).toBe(root);
    expect(publish!.attributes).toMatchObject({ 'messaging.system': 'inprocess', 'messaging.operation': 'publish', 'leadfinder.run_id': runId });
    expect(item.headers['traceparent']).toContain(publish!.spanContext().spanId);
    const [receive] = named('receive work.runs');
    expect(receive?.kind).toBe(SpanKind.CLIENT);
    expect(parentOf(receive!)).toBe(publish!.spanContext().spanId);
  });
});
