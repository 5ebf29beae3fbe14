import type { Attributes } from '@opentelemetry/api';
import type { DataPoint, Histogram, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { createLeadfinderMetrics, type Clock } from '@leadfinder/platform';
import { createInMemoryTelemetry, type InMemoryTelemetry } from '@leadfinder/platform/telemetry';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeResearch } from './fake-research.js';
import { createHarness, type Harness } from './harness.js';
import { standardWorld } from './world.js';

/**
 * The run metrics an SRE's dashboard reads (issue 22 item 5), as the platform's instruments record them:
 * runs by end state with their duration on the coordinator's clock, spend by the stage it was made in,
 * and leases a coordinator found taken over.
 */
describe('run metrics', () => {
  let telemetry: InMemoryTelemetry;
  let h: Harness | undefined;
  /** The coordinator's clock runs an hour ahead of the wall: durations must be read on it. */
  const HOUR = 3_600_000;
  const aheadClock: Clock = { now: () => Date.now() + HOUR };

  beforeEach(() => {
    telemetry = createInMemoryTelemetry();
  });
  afterEach(async () => {
    await h?.close();
    h = undefined;
    await telemetry.shutdown();
  });

  async function points(name: string): Promise<DataPoint<number | Histogram>[]> {
    const collected: ResourceMetrics = await telemetry.collectMetrics();
    return collected.scopeMetrics.flatMap((s) => s.metrics).filter((m) => m.descriptor.name === name)
      .flatMap((m) => m.dataPoints as DataPoint<number | Histogram>[]);
  }
  async function sums(name: string, label: string): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const p of await points(name)) out[String((p.attributes as Attributes)[label])] = p.value as number;
    return out;
  }
  /** The run record turns terminal before its metrics are recorded (after the end marker): wait for them. */
  async function ended(): Promise<Record<string, number>> {
    for (let i = 0; i < 300; i += 1) {
      const runs = await sums('leadfinder.runs', 'status');
      if (Object.keys(runs).length > 0) return runs;
      await new Promise((r) => setTimeout(r, 10));
    }
    return {};
  }
  async function durations(): Promise<{ status: string; count: number; sum: number }[]> {
    return (await points('leadfinder.run.duration')).map((p) => {
      const value = p.value as Histogram;
      return { status: String(p.attributes.status), count: value.count, sum: value.sum ?? 0 };
    });
  }

  it('a finished run: counted done, its duration from accept on the injected clock, its spend by stage', async () => {
    h = await createHarness();
    const research = createFakeResearch(standardWorld());
    const before = Date.now();
    await h.coordinator(research.fetcher, research.filter, { clock: aheadClock, metrics: createLeadfinderMetrics() }).start();
    const run = await h.submit();
    const record = await h.waitTerminal(run.id);
    expect(record.status).toBe('done');
    expect(await ended()).toEqual({ done: 1 });
    const wall = Date.now() - before;

    const [duration] = await durations();
    expect(duration).toMatchObject({ status: 'done', count: 1 });
    expect(duration!.sum).toBeGreaterThanOrEqual(HOUR);
    expect(duration!.sum).toBeLessThanOrEqual(HOUR + wall);

    // Searches are paid in the search stage, pages in the open stage (LLM tokens are free in the harness).
    const spend = await sums('leadfinder.spend_microusd', 'stage');
    expect(spend).toEqual({
      search: research.calls.searched.length * h.config.LEADFINDER_PRICE_SEARCH_USD,
      open: research.calls.fetched.length * h.config.LEADFINDER_PRICE_PAGE_USD,
    });
    expect(Object.values(spend).reduce((a, b) => a + b, 0)).toBe(record.spendMicrousd);
    expect(await sums('leadfinder.leases.lost', 'x')).toEqual({ undefined: 0 });
  });

  it('a drive whose lease was taken over counts one lost lease and no ended run', async () => {
    h = await createHarness();
    const research = createFakeResearch(standardWorld());
    const runs = Object.create(h.store.runs) as typeof h.store.runs;
    runs.progress = (id, lease, patch, now) => (patch.where?.startsWith('round 1 · screening') ? Promise.resolve(false) : h!.store.runs.progress(id, lease, patch, now));
    await h.coordinator(research.fetcher, research.filter, { store: { ...h.store, runs }, metrics: createLeadfinderMetrics() }).start();
    await h.submit();
    let lost = 0;
    for (let i = 0; i < 200 && lost === 0; i += 1) {
      lost = (await sums('leadfinder.leases.lost', 'x')).undefined ?? 0;
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(lost).toBe(1);
    expect(await sums('leadfinder.runs', 'status')).toEqual({});
    expect(await durations()).toEqual([]);
  });

  it('a half-driven run ended interrupted by its next claimer: counted, timed, its spend unattributed', async () => {
    h = await createHarness();
    const research = createFakeResearch(standardWorld());
    await h.coordinator(research.fetcher, research.filter, { clock: aheadClock, metrics: createLeadfinderMetrics() }).start();
    // Driven before (started) by a coordinator that died after spending 7,000 micro-USD.
    const run = await h.submit({ started: true, spendMicrousd: 7_000, where: 'round 1 · opening pages' });
    expect((await h.waitTerminal(run.id)).status).toBe('interrupted');
    expect(await ended()).toEqual({ interrupted: 1 });
    expect(await sums('leadfinder.spend_microusd', 'stage')).toEqual({ unknown: 7_000 });
    const [duration] = await durations();
    expect(duration).toMatchObject({ status: 'interrupted', count: 1 });
    expect(duration!.sum).toBeGreaterThanOrEqual(HOUR);
  });
});
