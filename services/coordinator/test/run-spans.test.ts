import { SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { InternalError } from '@leadfinder/platform';
import { createInMemoryTelemetry, type InMemoryTelemetry } from '@leadfinder/platform/telemetry';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeResearch } from './fake-research.js';
import { createHarness, type Harness } from './harness.js';
import { embeddedPorts } from './ports.js';
import { fakeTime } from './fake-time.js';
import type { TestTime } from './time.js';
import { standardWorld } from './world.js';

/**
 * What the run's spans say about how it ended (issue 22 item 1): a stop, the budget or the deadline is
 * the `leadfinder.run.end_reason` attribute, never a span error; a run that ends `error` marks its run
 * span and the stage it failed in as errors, with the reason.
 */
describe('run and stage spans', () => {
  let telemetry: InMemoryTelemetry;
  let time: TestTime;
  let h: Harness | undefined;
  beforeEach(() => {
    telemetry = createInMemoryTelemetry();
    time = fakeTime();
  });
  afterEach(async () => {
    if (h) await time.settle(h.close());
    h = undefined;
    time.restore();
    await telemetry.shutdown();
  });

  async function started(env: Record<string, string> = {}): Promise<Harness> {
    h = await createHarness(env, embeddedPorts, time);
    return h;
  }

  async function spansOf(runId: string): Promise<{ run: ReadableSpan; stages: ReadableSpan[] }> {
    const runSpan = () => telemetry.spans().find((s) => s.name === 'leadfinder.run' && s.attributes['leadfinder.run_id'] === runId);
    await time.until(() => runSpan() !== undefined, { what: `the run span of ${runId}` });
    const run = runSpan()!;
    const traceId = run.spanContext().traceId;
    const stages = telemetry.spans().filter((s) => s.spanContext().traceId === traceId && s.attributes['leadfinder.stage'] !== undefined);
    return { run, stages };
  }

  /** The `funnel.verify` spans of the run's trace. */
  function batchesOf(runSpan: ReadableSpan): ReadableSpan[] {
    const traceId = runSpan.spanContext().traceId;
    return telemetry.spans().filter((s) => s.name === 'funnel.verify' && s.spanContext().traceId === traceId);
  }

  /** A research whose plan call only ends when the run signal ends it. */
  function hangingPlan() {
    const research = createFakeResearch(standardWorld());
    let planning = false;
    research.filter.plan = (_request, o) => {
      planning = true;
      return new Promise((_, reject) => o.signal.addEventListener('abort', () => reject(o.signal.reason)));
    };
    return { research, isPlanning: () => planning };
  }

  function expectNoErrors(spans: readonly ReadableSpan[]): void {
    for (const span of spans) {
      expect({ name: span.name, status: span.status.code }).toEqual({ name: span.name, status: SpanStatusCode.UNSET });
      expect(span.events.filter((e) => e.name === 'exception')).toEqual([]);
    }
  }

  it('a finished run says done and has no error', async () => {
    const h = await started();
    const research = createFakeResearch(standardWorld());
    await h.coordinator(research.fetcher, research.filter).start();
    const run = await h.submit();
    await h.waitTerminal(run.id);
    const { run: runSpan, stages } = await spansOf(run.id);
    expect(runSpan.attributes).toMatchObject({ 'leadfinder.run.end_reason': 'done', 'leadfinder.run.status': 'done' });
    expect(stages.length).toBeGreaterThan(3);
    expectNoErrors([runSpan, ...stages]);
  });

  it('a stopped run is no error: the run span and the stage it stopped in carry end_reason stopped', async () => {
    const h = await started();
    const { research, isPlanning } = hangingPlan();
    await h.coordinator(research.fetcher, research.filter).start();
    const run = await h.submit();
    await time.until(isPlanning);
    await h.stops.raise(run.id);
    expect((await h.waitTerminal(run.id)).status).toBe('stopped');
    const { run: runSpan, stages } = await spansOf(run.id);
    expect(runSpan.attributes).toMatchObject({ 'leadfinder.run.end_reason': 'stopped', 'leadfinder.run.status': 'stopped' });
    expect(stages.map((s) => [s.name, s.attributes['leadfinder.run.end_reason']])).toEqual([['planning', 'stopped']]);
    expectNoErrors([runSpan, ...stages]);
  });

  it('a run out of budget is no error: end_reason budget_exhausted', async () => {
    const h = await started({ LEADFINDER_SPEND_CEILING_USD: '0.012' });
    const research = createFakeResearch(standardWorld());
    await h.coordinator(research.fetcher, research.filter).start();
    const run = await h.submit();
    expect((await h.waitTerminal(run.id)).status).toBe('budget_exhausted');
    const { run: runSpan, stages } = await spansOf(run.id);
    expect(runSpan.attributes).toMatchObject({ 'leadfinder.run.end_reason': 'budget_exhausted' });
    expect(stages.at(-1)!.attributes).toMatchObject({ 'leadfinder.stage': 'open', 'leadfinder.run.end_reason': 'budget_exhausted' });
    expectNoErrors([runSpan, ...stages]);
  });

  it('a run past its deadline is no error: end_reason deadline', async () => {
    const h = await started();
    const { research } = hangingPlan();
    await h.coordinator(research.fetcher, research.filter).start();
    const run = await h.submit({ deadlineAt: new Date(Date.now() + 400).toISOString() });
    // Driving (planning) before the deadline passes, so the drive itself enforces it.
    await time.until(async () => (await h.store.runs.get(run.id))!.where === 'planning', { passing: false });
    expect(await h.waitTerminal(run.id)).toMatchObject({ status: 'interrupted', stopReason: 'deadline' });
    const { run: runSpan, stages } = await spansOf(run.id);
    expect(runSpan.attributes).toMatchObject({ 'leadfinder.run.end_reason': 'deadline' });
    expect(stages.map((s) => [s.name, s.attributes['leadfinder.run.end_reason']])).toEqual([['planning', 'deadline']]);
    expectNoErrors([runSpan, ...stages]);
  });

  it('a drive that lost its lease is no error either: end_reason lease_lost, and nothing written', async () => {
    const h = await started();
    const research = createFakeResearch(standardWorld());
    const runs = Object.create(h.store.runs) as typeof h.store.runs;
    // Progress into round 1 is refused, as when another coordinator took the lease over.
    runs.progress = (id, lease, patch, now) => (patch.where?.startsWith('round 1') ? Promise.resolve(false) : h.store.runs.progress(id, lease, patch, now));
    await h.coordinator(research.fetcher, research.filter, { store: { ...h.store, runs } }).start();
    const run = await h.submit();
    const { run: runSpan, stages } = await spansOf(run.id);
    expect(runSpan.attributes).toMatchObject({ 'leadfinder.run.end_reason': 'lease_lost' });
    expect(runSpan.attributes['leadfinder.run.status']).toBeUndefined();
    expect(stages.at(-1)!.attributes).toMatchObject({ 'leadfinder.run.end_reason': 'lease_lost' });
    expectNoErrors([runSpan, ...stages]);
    expect((await h.store.runs.get(run.id))!.status).toBe('running');
  });

  it('a failed run marks the run span and the stage it failed in as errors, with the reason', async () => {
    const h = await started();
    const research = createFakeResearch(standardWorld({ failures: { verify: new InternalError('the reasoner broke') } }));
    await h.coordinator(research.fetcher, research.filter).start();
    const run = await h.submit();
    expect((await h.waitTerminal(run.id)).status).toBe('error');
    const { run: runSpan, stages } = await spansOf(run.id);
    expect(runSpan.attributes).toMatchObject({ 'leadfinder.run.end_reason': 'error', 'leadfinder.run.status': 'error' });
    expect(runSpan.status.code).toBe(SpanStatusCode.ERROR);
    expect(runSpan.status.message).toContain('the reasoner broke');
    const failed = stages.filter((s) => s.status.code === SpanStatusCode.ERROR);
    expect(failed.map((s) => s.name)).toEqual(['round 1 · filter 1 of 2']);
    expect(failed[0]!.status.message).toContain('filter.verify failed: the reasoner broke');
    expect(failed[0]!.attributes).toMatchObject({ 'leadfinder.run.end_reason': 'error' });
    expect(failed[0]!.events.map((e) => e.name)).toContain('exception');
    expectNoErrors(stages.filter((s) => s !== failed[0]));
    // The filter batch it failed in says so too.
    const batches = batchesOf(runSpan);
    expect(batches.map((b) => [b.attributes['leadfinder.filter.index'], b.status.code, b.attributes['leadfinder.run.end_reason']]))
      .toEqual([[1, SpanStatusCode.ERROR, 'error']]);
  });

  it('a run stopped while verifying is no error: its filter batch carries end_reason stopped', async () => {
    const h = await started();
    const research = createFakeResearch(standardWorld());
    let verifying = false;
    research.filter.verify = (_request, o) => {
      verifying = true;
      return new Promise((_, reject) => o.signal.addEventListener('abort', () => reject(o.signal.reason)));
    };
    await h.coordinator(research.fetcher, research.filter).start();
    const run = await h.submit();
    await time.until(() => verifying);
    await h.stops.raise(run.id);
    expect((await h.waitTerminal(run.id)).status).toBe('stopped');
    const { run: runSpan, stages } = await spansOf(run.id);
    const batches = batchesOf(runSpan);
    expect(batches.map((b) => [b.attributes['leadfinder.filter.index'], b.attributes['leadfinder.verify.candidates'], b.attributes['leadfinder.run.end_reason']]))
      .toEqual([[1, 4, 'stopped']]);
    expectNoErrors([runSpan, ...stages, ...batches]);
  });
});
