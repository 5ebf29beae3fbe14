import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLeadfinderMetrics, silentLogger, systemClock } from '@leadfinder/platform';
import { interruptRun } from '../src/activities/settlement.js';
import { createFakeResearch } from './fake-research.js';
import { createHarness, lastCost, tailOf, typesOf, type Harness } from './harness.js';
import { standardWorld } from './world.js';
import type { PortsFactory } from './ports.js';
import { realTime, type TestTime } from './time.js';

/**
 * Stops, the spend ceiling, deadlines and lost coordinators, on the ports that `ports` makes and on the
 * time `makeTime` makes (fake timers: leases lapse and deadlines pass in milliseconds; real: end to end).
 */
export function describeInterruptionSuite(label: string, ports: PortsFactory, makeTime: () => TestTime = realTime): void {
  describe(label, () => {
    let h: Harness;
    let time: TestTime;
    beforeEach(() => {
      time = makeTime();
    });
    afterEach(async () => {
      // Closing lets time pass: the coordinators' grace period, the fake roles' delays. The real timers come
      // back even when closing fails, for the next file in this worker.
      try {
        if (h) await time.settle(h.close());
      } finally {
        time.restore();
      }
    });

    const newHarness = (env: Record<string, string> = {}) => createHarness(env, ports, time);
    const waitFor = (check: () => Promise<boolean>, timeoutMs = 5_000) => time.until(check, { timeoutMs });

    describe('stopping a run', () => {
      it('makes it terminal within 2 s with final(stopped), cost Stopped, usage, done(stopped) and charges what it spent', async () => {
        h = await newHarness();
        // Every port call takes 5 s: only the run's signal can end the one in flight.
        const research = createFakeResearch(standardWorld({ delayMs: 5_000 }));
        await h.coordinator(research.fetcher, research.filter).start();
        const run = await h.submit();
        await waitFor(async () => (await h.store.runs.get(run.id))!.where === 'planning');

        const asked = Date.now();
        await h.stops.raise(run.id);
        const after = await h.waitTerminal(run.id, 2_000);
        expect(Date.now() - asked).toBeLessThan(2_000);

        const events = await h.eventsOf(run.id);
        expect(after.status).toBe('stopped');
        expect(tailOf(events)).toEqual(['final', 'cost', 'usage', 'done']);
        expect(after.result).toMatchObject({ stopped: true, stopped_at: 'planning', met: false, table: [] });
        expect(lastCost(events)).toMatchObject({ stage: 'Stopped', usd: 0 });
        expect(events.at(-1)).toMatchObject({ type: 'done', stopped: true });
        expect(after.where).toBe('planning');
        expect((await h.store.accounts.get(h.accountId))!).toMatchObject({ heldMicrousd: 0, balanceMicrousd: 25_000_000 });
      });

      it('keeps the rows that already passed the funnel in the partial table', async () => {
        h = await newHarness();
        const research = createFakeResearch(standardWorld({ laterQueries: { 2: ['q3'] }, hits: { ...standardWorld().hits, q3: [{ url: 'http://slow.test/1', score: 0.9 }] } }));
        // Round 2's search never answers: the stop arrives while it hangs.
        const search = research.fetcher.search.bind(research.fetcher);
        let hanging = false;
        research.fetcher.search = async (request, o) => {
          hanging ||= request.query === 'q3';
          if (request.query === 'q3') await new Promise((_, reject) => o.signal.addEventListener('abort', () => reject(o.signal.reason)));
          return search(request, o);
        };
        await h.coordinator(research.fetcher, research.filter).start();
        const run = await h.submit({ target: 10 });
        await waitFor(async () => hanging);
        await h.stops.raise(run.id);
        const after = await h.waitTerminal(run.id, 2_000);
        expect(after.status).toBe('stopped');
        expect(after.result!.table).toHaveLength(4);
        expect(after.result).toMatchObject({ stopped: true, stopped_at: 'round 2 · searching', met: false });
        // The hanging search was attempted, so it is paid: 3 searches and 4 pages.
        expect(after.chargeMicrousd).toBe(19_000);
        expect(lastCost(await h.eventsOf(run.id))!.usd).toBe(0.019);
      });
    });

    describe('the spend ceiling', () => {
      it('never crosses the ceiling: the step that would is not started and the run ends budget_exhausted', async () => {
        h = await newHarness({ LEADFINDER_SPEND_CEILING_USD: '0.012' });
        const research = createFakeResearch(standardWorld());
        await h.coordinator(research.fetcher, research.filter).start();
        const run = await h.submit();
        const after = await h.waitTerminal(run.id);
        const events = await h.eventsOf(run.id);
        expect(after.status).toBe('budget_exhausted');
        expect(tailOf(events)).toEqual(['final', 'cost', 'usage', 'done']);
        expect(after.result).toMatchObject({ stopped: true, stopped_at: 'round 1 · opening pages' });
        expect(lastCost(events)).toMatchObject({ stage: 'Budget exhausted', usd: 0.012 });
        expect(events.at(-1)).toMatchObject({ type: 'done', stopped: true });
        // Two searches (0.010) and two pages (0.002); the third page would have crossed 0.012.
        expect(research.calls.fetched).toHaveLength(2);
        expect(after.chargeMicrousd).toBe(12_000);
        for (const cost of events.filter((e) => e.type === 'cost')) expect((cost as { usd: number }).usd).toBeLessThanOrEqual(0.012);
        expect((await h.store.accounts.get(h.accountId))!).toMatchObject({ heldMicrousd: 0, balanceMicrousd: 25_000_000 - 12_000 });
      });
    });

    describe('the deadline', () => {
      it('ends a run it drives as interrupted with stopReason deadline and the stopped tail with cost Interrupted', async () => {
        h = await newHarness();
        const research = createFakeResearch(standardWorld({ delayMs: 5_000 }));
        await h.coordinator(research.fetcher, research.filter).start();
        const run = await h.submit({ deadlineAt: new Date(Date.now() + 400).toISOString() });
        // Driving (planning) before the deadline passes, so this coordinator is the one that enforces it.
        await time.until(async () => (await h.store.runs.get(run.id))!.where === 'planning', { passing: false });
        const after = await h.waitTerminal(run.id, 3_000);
        const events = await h.eventsOf(run.id);
        expect(after).toMatchObject({ status: 'interrupted', stopReason: 'deadline', where: 'planning' });
        expect(tailOf(events)).toEqual(['final', 'cost', 'usage', 'done']);
        expect(after.result).toMatchObject({ stopped: true, stopped_at: 'planning' });
        expect(lastCost(events)).toMatchObject({ stage: 'Interrupted', usd: 0 });
        expect(events.at(-1)).toMatchObject({ type: 'done', stopped: true });
      });
    });

    describe('lost coordinators', () => {
      /** A run some coordinator began driving and then died holding: its lease lapses in 1 s. */
      async function abandonedRun(harness: Harness) {
        const run = await harness.createRun();
        const claim = (await harness.store.runs.claim(run.id, 'dead-coordinator', 1_000, Date.now()))!;
        await harness.store.runs.progress(run.id, claim.lease, { started: true, where: 'round 1 · extracting', spendMicrousd: 7_000 }, Date.now());
        return run;
      }

      it('the reaper of another coordinator ends a run whose lease lapsed as interrupted, where kept, charged its persisted spend', async () => {
        h = await newHarness({ LEADFINDER_LEASE_TTL_MS: '1000' });
        const run = await abandonedRun(h);
        const research = createFakeResearch(standardWorld());
        await h.coordinator(research.fetcher, research.filter, { reaperIntervalMs: 100 }).start();
        const after = await h.waitTerminal(run.id, 3_000);
        expect(after).toMatchObject({ status: 'interrupted', where: 'round 1 · extracting', result: null, stopReason: null, chargeMicrousd: 7_000 });
        const events = await h.eventsOf(run.id);
        expect(lastCost(events)).toMatchObject({ stage: 'Interrupted', usd: 0.007 });
        expect(typesOf(events)).not.toContain('final');
        expect((await h.store.accounts.get(h.accountId))!).toMatchObject({ heldMicrousd: 0, balanceMicrousd: 25_000_000 - 7_000 });
      });

      it('a redelivered run that someone already started is ended interrupted, never driven again', async () => {
        h = await newHarness({ LEADFINDER_LEASE_TTL_MS: '1000' });
        const run = await abandonedRun(h);
        const research = createFakeResearch(standardWorld());
        await h.coordinator(research.fetcher, research.filter, { reaperIntervalMs: 60_000 }).start();
        await time.advance(1_050);
        await h.work.enqueue(run.id, {});
        const after = await h.waitTerminal(run.id, 3_000);
        expect(after).toMatchObject({ status: 'interrupted', where: 'round 1 · extracting', chargeMicrousd: 7_000 });
        expect(research.calls.searched).toEqual([]);
      });

      it('two coordinators given the same run never both drive it', async () => {
        h = await newHarness();
        const research = createFakeResearch(standardWorld({ delayMs: 20 }));
        let plans = 0;
        const plan = research.filter.plan.bind(research.filter);
        research.filter.plan = (request, o) => {
          plans += 1;
          return plan(request, o);
        };
        // Two processes, each with its own handles on the queue (its own connection on JetStream).
        for (const replica of [await h.replica(), await h.replica()]) await replica.coordinator(research.fetcher, research.filter).start();
        const run = await h.createRun();
        await Promise.all([h.work.enqueue(run.id, {}), h.work.enqueue(run.id, {})]);
        const after = await h.waitTerminal(run.id);
        await time.advance(300);
        const events = await h.eventsOf(run.id);
        expect(after.status).toBe('done');
        expect(plans).toBe(1);
        expect(typesOf(events).filter((t) => t === 'plan')).toHaveLength(1);
        expect(typesOf(events).filter((t) => t === 'final')).toHaveLength(1);
      });

      it('a coordinator that shuts down leaves its run to lapse and another one interrupts it', async () => {
        h = await newHarness({ LEADFINDER_LEASE_TTL_MS: '1000' });
        const research = createFakeResearch(standardWorld({ delayMs: 150 }));
        const first = h.coordinator(research.fetcher, research.filter, { shutdownGraceMs: 100 });
        await first.start();
        const run = await h.submit({ target: 10 });
        await waitFor(async () => (await h.store.runs.get(run.id))!.where.startsWith('round 1'));
        await time.settle(first.stop());
        const left = (await h.store.runs.get(run.id))!;
        expect(left.status).toBe('running');
        expect(typesOf(await h.eventsOf(run.id))).not.toContain('final');

        await h.coordinator(research.fetcher, research.filter, { reaperIntervalMs: 100 }).start();
        const after = await h.waitTerminal(run.id, 4_000);
        expect(after.status).toBe('interrupted');
        expect(after.where).toBe(left.where);
        expect(after.chargeMicrousd).toBe(left.spendMicrousd);
        expect(lastCost(await h.eventsOf(run.id))!.usd * 1_000_000).toBeCloseTo(after.chargeMicrousd!, 6);
        expect((await h.store.accounts.get(h.accountId))!.heldMicrousd).toBe(0);
      });

      it('a coordinator killed mid-run (no stop, no more renewals or acks) loses its run to another, which ends it interrupted with where kept and the money settled', async () => {
        h = await newHarness({ LEADFINDER_LEASE_TTL_MS: '1000' });
        const research = createFakeResearch(standardWorld({ delayMs: 150 }));
        const doomed = await h.replica();
        await doomed.coordinator(research.fetcher, research.filter, { reaperIntervalMs: 60_000 }).start();
        const run = await h.submit({ target: 10 });
        await waitFor(async () => {
          const now = (await h.store.runs.get(run.id))!;
          return now.where.startsWith('round 1') && now.spendMicrousd > 0;
        });
        await doomed.kill();
        // Writes already on their way when it died may still land; nothing after them.
        await time.advance(50);
        const left = (await h.store.runs.get(run.id))!;
        const before = await h.eventsOf(run.id);
        expect(left).toMatchObject({ status: 'running', started: true, settled: false });

        await h.coordinator(research.fetcher, research.filter, { reaperIntervalMs: 100 }).start();
        const after = await h.waitTerminal(run.id, 4_000);
        expect(after).toMatchObject({ status: 'interrupted', where: left.where, stopReason: null, result: null, chargeMicrousd: left.spendMicrousd });
        const events = await h.eventsOf(run.id);
        // The dead one wrote nothing more; the survivor wrote only the interruption's cost, which is the charge.
        expect(events.slice(0, before.length)).toEqual(before);
        expect(typesOf(events.slice(before.length))).toEqual(['cost']);
        expect(lastCost(events)!.stage).toBe('Interrupted');
        expect(lastCost(events)!.usd * 1_000_000).toBeCloseTo(left.spendMicrousd, 6);
        expect((await h.store.accounts.get(h.accountId))!).toMatchObject({ heldMicrousd: 0, balanceMicrousd: 25_000_000 - left.spendMicrousd });
        // The dead one's unacked delivery comes back to the survivor, which acks it: nothing stays queued.
        if (h.backlog) await waitFor(async () => (await h.backlog!()) === 0, 4_000);
      });

      it('a run two replicas claim in turn (the first one\'s lease lapsed while it interrupted) is announced interrupted once', async () => {
        h = await newHarness({ LEADFINDER_LEASE_TTL_MS: '1000' });
        const run = await h.createRun({ spendMicrousd: 120_000 });
        const now = Date.now();
        const first = (await h.store.runs.claim(run.id, 'replica-a', 1_000, now))!;
        const second = (await h.store.runs.claim(run.id, 'replica-b', 1_000, now + 1_001))!;
        expect(second.lease.epoch).toBeGreaterThan(first.lease.epoch);
        const deps = { store: h.store, billing: h.billing, events: h.events, clock: systemClock, logger: silentLogger, metrics: createLeadfinderMetrics() };
        // The first announces, then fails to end it (its lease is gone); the second ends it.
        expect(await interruptRun(deps, first.before, first.lease, null)).toBe(false);
        expect(await interruptRun(deps, second.before, second.lease, null)).toBe(true);
        const events = await h.eventsOf(run.id);
        expect(typesOf(events)).toEqual(['cost']);
        expect(lastCost(events)).toMatchObject({ stage: 'Interrupted', usd: 0.12 });
        expect(await h.store.runs.get(run.id)).toMatchObject({ status: 'interrupted', chargeMicrousd: 120_000 });
      });

      it('a coordinator whose lease renewal is refused stops driving without writing anything more', async () => {
        h = await newHarness({ LEADFINDER_LEASE_TTL_MS: '1000' });
        const research = createFakeResearch(standardWorld({ delayMs: 5_000 }));
        let refuse = false;
        const runs = Object.create(h.store.runs) as typeof h.store.runs;
        runs.renew = (id, lease, ttl, now) => (refuse ? Promise.resolve(null) : h.store.runs.renew(id, lease, ttl, now));
        let abortedWith: unknown;
        const plan = research.filter.plan.bind(research.filter);
        research.filter.plan = (request, o) => {
          o.signal.addEventListener('abort', () => (abortedWith = o.signal.reason));
          return plan(request, o);
        };
        await h.coordinator(research.fetcher, research.filter, { store: { ...h.store, runs }, reaperIntervalMs: 60_000 }).start();
        const run = await h.submit();
        // The planning step has been announced (its status event written) and its call is in flight.
        await waitFor(async () => (await h.eventsOf(run.id)).some((e) => e.type === 'status' && e.where === 'planning'));
        const before = (await h.eventsOf(run.id)).length;
        refuse = true;
        // The next renewal (every ttl/3) is refused; the planning call in flight is aborted with it.
        await time.advance(800);
        await waitFor(async () => abortedWith !== undefined);
        const after = (await h.store.runs.get(run.id))!;
        expect(after).toMatchObject({ status: 'running', where: 'planning', result: null });
        expect(await h.eventsOf(run.id)).toHaveLength(before);
        expect(abortedWith).toMatchObject({ name: 'LeaseLostError', code: 'LF_ERR_LEASE_LOST' });
      });
    });
  });
}
