import { PassThrough } from 'node:stream';
import { createLogger } from '@leadfinder/platform';
import { createInMemoryTelemetry, type InMemoryTelemetry } from '@leadfinder/platform/telemetry';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeResearch } from './fake-research.js';
import { createHarness, type Harness } from './harness.js';
import { standardWorld } from './world.js';

interface LogLine {
  level: number;
  msg: string;
  runId?: string;
  coordinatorId?: string;
  trace_id?: string;
  span_id?: string;
  [field: string]: unknown;
}

const INFO = 30;

/**
 * One info line per run state change (claimed, each terminal state, lease lost, requeued), each with the
 * run id, the coordinator's id and the trace and span ids that lead to the run's trace (issue 19 item 7,
 * issue 22 item 4). Lines are captured from the platform logger's JSON output.
 */
describe('coordinator log lines', () => {
  let telemetry: InMemoryTelemetry;
  let h: Harness;
  let lines: LogLine[];
  let logger: ReturnType<typeof createLogger>;
  beforeEach(() => {
    telemetry = createInMemoryTelemetry();
    lines = [];
    const out = new PassThrough();
    let buffered = '';
    out.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const complete = buffered.split('\n');
      buffered = complete.pop()!;
      for (const line of complete) if (line.trim()) lines.push(JSON.parse(line) as LogLine);
    });
    logger = createLogger({ level: 'info', destination: out });
  });
  afterEach(async () => {
    await h?.close();
    await telemetry.shutdown();
  });

  const stateLines = (runId: string) =>
    lines.filter((l) => l.runId === runId && ['run claimed', 'run ended', 'run lease lost', 'run requeued'].includes(l.msg));

  async function until(check: () => boolean | Promise<boolean>): Promise<void> {
    for (let i = 0; i < 500; i += 1) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error('condition not reached');
  }

  function expectLeadsToTrace(line: LogLine, traceId?: string): void {
    expect(line.level).toBe(INFO);
    expect(line.coordinatorId).toBe('coordinator-logs');
    expect(line.trace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(line.span_id).toMatch(/^[0-9a-f]{16}$/);
    if (traceId) expect(line.trace_id).toBe(traceId);
  }

  it('a run that finishes: claimed, then ended done, both in the run\'s trace', async () => {
    h = await createHarness();
    const research = createFakeResearch(standardWorld());
    await h.coordinator(research.fetcher, research.filter, { logger, instanceId: 'coordinator-logs' }).start();
    const run = await h.submit();
    await h.waitTerminal(run.id);
    await until(() => stateLines(run.id).length >= 2);
    const [claimed, ended] = stateLines(run.id);
    expect(stateLines(run.id)).toHaveLength(2);
    expect(claimed).toMatchObject({ msg: 'run claimed', epoch: 1 });
    expect(ended).toMatchObject({ msg: 'run ended', status: 'done', stopReason: null, rows: 3, chargeMicrousd: 14_000 });
    const runSpan = telemetry.spans().find((s) => s.name === 'leadfinder.run' && s.attributes['leadfinder.run_id'] === run.id)!;
    expectLeadsToTrace(claimed!, runSpan.spanContext().traceId);
    expectLeadsToTrace(ended!, runSpan.spanContext().traceId);
    // Logged while settling: the line names the run's `run.settle` span, a child of the run span.
    const settle = telemetry.spans().find((s) => s.name === 'run.settle' && s.spanContext().spanId === ended!.span_id);
    expect(settle?.parentSpanContext?.spanId).toBe(runSpan.spanContext().spanId);
  });

  it('a stopped run says when it learned of the stop, before it ended: claimed, interrupted (stop requested), ended stopped', async () => {
    h = await createHarness();
    // Every port call takes 5 s: only the run's signal can end the one in flight.
    const research = createFakeResearch(standardWorld({ delayMs: 5_000 }));
    await h.coordinator(research.fetcher, research.filter, { logger, instanceId: 'coordinator-logs' }).start();
    const run = await h.submit();
    await until(async () => (await h.store.runs.get(run.id))!.where === 'planning');
    await h.stops.raise(run.id);
    await h.waitTerminal(run.id);
    await until(() => lines.some((l) => l.runId === run.id && l.msg === 'run ended'));
    const said = lines.filter((l) => l.runId === run.id && ['run claimed', 'run interrupted', 'run ended'].includes(l.msg));
    expect(said.map((l) => l.msg)).toEqual(['run claimed', 'run interrupted', 'run ended']);
    expect(said[1]).toMatchObject({ level: INFO, reason: 'StopRequestedError', where: 'planning' });
    expect(said[2]).toMatchObject({ status: 'stopped' });
  });

  it('a run leased by another coordinator is requeued, and says so', async () => {
    h = await createHarness();
    const research = createFakeResearch(standardWorld());
    const run = await h.createRun();
    expect(await h.store.runs.claim(run.id, 'someone-else', 30_000, Date.now())).not.toBeNull();
    await h.coordinator(research.fetcher, research.filter, { logger, instanceId: 'coordinator-logs' }).start();
    await h.work.enqueue(run.id, {});
    await until(() => stateLines(run.id).length >= 1);
    const [requeued] = stateLines(run.id);
    expect(requeued).toMatchObject({ msg: 'run requeued', why: 'leased by another coordinator' });
    expect(requeued!.delayMs).toBeGreaterThan(29_000);
    expectLeadsToTrace(requeued!);
  });

  it('a coordinator whose lease is taken mid-run says the lease was lost and requeues the run, writing nothing', async () => {
    h = await createHarness();
    const research = createFakeResearch(standardWorld());
    const runs = Object.create(h.store.runs) as typeof h.store.runs;
    // Progress into round 1 is refused, as when another coordinator took the lease over.
    runs.progress = (id, lease, patch, now) => (patch.where?.startsWith('round 1') ? Promise.resolve(false) : h.store.runs.progress(id, lease, patch, now));
    await h.coordinator(research.fetcher, research.filter, { logger, instanceId: 'coordinator-logs', store: { ...h.store, runs } }).start();
    const run = await h.submit();
    await until(() => stateLines(run.id).length >= 3);
    expect(stateLines(run.id).map((l) => l.msg)).toEqual(['run claimed', 'run lease lost', 'run requeued']);
    for (const line of stateLines(run.id)) expectLeadsToTrace(line, stateLines(run.id)[0]!.trace_id);
    expect(stateLines(run.id)[2]).toMatchObject({ why: 'left without writing' });
    expect((await h.store.runs.get(run.id))!.status).toBe('running');
  });

  it('a reaped run: claimed by the reaper and ended interrupted, in the trace the run was created in', async () => {
    h = await createHarness();
    const traceId = 'ab'.repeat(16);
    const run = await h.createRun({ trace: { traceparent: `00-${traceId}-${'cd'.repeat(8)}-01` } });
    // A coordinator began driving it and died: its lease lapsed a while ago.
    const dead = (await h.store.runs.claim(run.id, 'dead-coordinator', 1_000, Date.now() - 5_000))!;
    await h.store.runs.progress(run.id, dead.lease, { started: true, where: 'round 1 · extracting', spendMicrousd: 7_000 }, Date.now() - 5_000);
    const research = createFakeResearch(standardWorld());
    await h.coordinator(research.fetcher, research.filter, { logger, instanceId: 'coordinator-logs', reaperIntervalMs: 20 }).start();
    await h.waitTerminal(run.id);
    await until(() => stateLines(run.id).length >= 2);
    const [claimed, ended] = stateLines(run.id);
    expect(claimed).toMatchObject({ msg: 'run claimed', by: 'reaper' });
    expect(ended).toMatchObject({ msg: 'run ended', status: 'interrupted', where: 'round 1 · extracting', chargeMicrousd: 7_000 });
    expectLeadsToTrace(claimed!, traceId);
    expectLeadsToTrace(ended!, traceId);
  });
});
