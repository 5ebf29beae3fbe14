import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger, systemClock, type RunDoc, type RunStore, type Store, type WorkItem } from '@leadfinder/platform';
import { createEmbeddedStore } from '@leadfinder/platform/embedded';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeTime } from '../../test/fake-time.js';
import type { TestTime } from '../../test/time.js';
import { LeaseKeeper } from './lease-keeper.js';

/**
 * The lease keeper on fake time and the embedded store: it renews every ttl/3, so a run it keeps never
 * lapses; it calls the lease lost once, at the first refusal, or when renewals fail until the last good
 * one has expired by its clock, and never before.
 */
describe('LeaseKeeper', () => {
  const TTL = 3_000;
  let time: TestTime;
  let dataDir: string;
  let store: Store;
  let keeper: LeaseKeeper | undefined;
  beforeEach(async () => {
    time = fakeTime();
    dataDir = mkdtempSync(join(tmpdir(), 'lf-lease-'));
    store = await createEmbeddedStore({ dataDir, logger: silentLogger });
  });
  afterEach(async () => {
    await keeper?.stop();
    keeper = undefined;
    time.restore();
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function claimedRun() {
    const now = Date.now();
    const run: RunDoc = {
      id: 'a'.repeat(32), accountId: 'acct', query: 'q', target: 1, speed: 'fast', relax: false, sites: '',
      status: 'running', where: 'queued', spendMicrousd: 0, holdMicrousd: 0, chargeMicrousd: null, settled: false,
      usdDisplay: '$0.00', stopReason: null, deadlineAt: new Date(now + 60_000).toISOString(),
      createdAt: new Date(now).toISOString(), updatedAt: new Date(now).toISOString(), finishedAt: null, result: null,
      lease: null, started: false, trace: {},
    };
    await store.runs.insert(run);
    return { run, lease: (await store.runs.claim(run.id, 'me', TTL, now))!.lease };
  }

  /** Renewals answered so far (granted, refused or failed). */
  let answered = 0;

  function keep(store: RunStore, lease: Awaited<ReturnType<typeof claimedRun>>['lease']) {
    const lost: number[] = [];
    const runs = Object.create(store) as RunStore;
    runs.renew = (...args) => store.renew(...args).finally(() => (answered += 1));
    keeper = new LeaseKeeper({ runs, runId: 'a'.repeat(32), lease, ttlMs: TTL, clock: systemClock, logger: silentLogger, item: null, onLost: () => lost.push(Date.now()) });
    keeper.start();
    return lost;
  }

  /** Lets `ms` pass in renewal-sized steps, each renewal answered (its store write landed) before the next. */
  async function pass(ms: number) {
    for (let t = 0; t < ms; t += TTL / 3) {
      const before = answered;
      await time.advance(TTL / 3);
      if (!keeper!.isLost) await time.until(() => answered > before, { passing: false, what: 'a renewal answered' });
    }
  }

  it('renews every ttl/3, so the run never lapses and no one else can claim it', async () => {
    const { run, lease } = await claimedRun();
    const lost = keep(store.runs, lease);
    await pass(5 * TTL);
    expect(await store.runs.claim(run.id, 'other', TTL, Date.now())).toBeNull();
    expect(keeper!.lease.expiresAt).toBeGreaterThan(Date.now());
    expect(lost).toEqual([]);
  });

  it('calls the lease lost once, at the first renewal the store refuses', async () => {
    const { run, lease } = await claimedRun();
    const lost = keep(store.runs, lease);
    // It lapses and another coordinator takes it over (a long pause of this process, say).
    await keeper!.stop();
    await time.advance(TTL + 1);
    expect(await store.runs.claim(run.id, 'other', TTL, Date.now())).not.toBeNull();
    keeper!.start();
    await pass(TTL);
    expect(lost).toHaveLength(1);
    expect(keeper!.isLost).toBe(true);
    expect(await keeper!.renew()).toBe(false);
  });

  it('keeps the work message in progress at every tick while the store has not answered a renewal', async () => {
    const { lease } = await claimedRun();
    // A store slower than the queue's ack wait (FerretDB under load): the renewal is not answered.
    let answer!: () => void;
    const hung = new Promise<void>((resolve) => (answer = resolve));
    const runs = Object.create(store.runs) as RunStore;
    runs.renew = async (...args) => {
      await hung;
      return store.runs.renew(...args);
    };
    const kept: number[] = [];
    const item: WorkItem = {
      runId: 'a'.repeat(32), headers: {}, deliveryCount: 1,
      working: async () => void kept.push(Date.now()), ack: async () => undefined, nak: async () => undefined,
    };
    const lost: number[] = [];
    keeper = new LeaseKeeper({ runs, runId: 'a'.repeat(32), lease, ttlMs: TTL, clock: systemClock, logger: silentLogger, item, onLost: () => lost.push(Date.now()) });
    keeper.start();
    for (let tick = 1; tick <= 2; tick++) {
      await time.advance(TTL / 3);
      expect(kept).toHaveLength(tick);
    }
    answer();
    await time.until(() => keeper!.lease.expiresAt > lease.expiresAt, { what: 'the renewal answered' });
    expect(lost).toEqual([]);
  });

  it('confirms the lease on the current run before a tail, and calls it lost when another coordinator took the run', async () => {
    const { run, lease } = await claimedRun();
    const lost = keep(store.runs, lease);
    expect(await keeper!.confirm()).toBe(true);
    await keeper!.stop();
    await time.advance(TTL + 1);
    expect(await store.runs.claim(run.id, 'other', TTL, Date.now())).not.toBeNull();
    expect(await keeper!.confirm()).toBe(false);
    expect(lost).toHaveLength(1);
  });

  it('renews through a tail, and reads a renewal refused once the run is terminal as its end, not a loss', async () => {
    const { run, lease } = await claimedRun();
    const lost = keep(store.runs, lease);
    keeper!.endingRun();
    await pass(TTL);
    expect(keeper!.lease.expiresAt).toBeGreaterThan(Date.now());
    expect(await store.runs.finish(run.id, keeper!.lease, {
      status: 'done', where: 'done', spendMicrousd: 0, chargeMicrousd: 0, usdDisplay: '$0.00', stopReason: null, result: null,
      finishedAt: new Date().toISOString(),
    })).toBe(true);
    const before = answered;
    await time.advance(TTL / 3);
    await time.until(() => answered > before, { passing: false, what: 'a renewal after the end' });
    expect(await keeper!.renew()).toBe(false);
    expect(lost).toEqual([]);
    expect(keeper!.isLost).toBe(false);
  });

  it('keeps the lease through failing renewals until the last good one expires by its clock, then calls it lost', async () => {
    const { lease } = await claimedRun();
    let failing = false;
    const runs = Object.create(store.runs) as RunStore;
    runs.renew = (...args) => (failing ? Promise.reject(new Error('store unreachable')) : store.runs.renew(...args));
    const lost = keep(runs, lease);
    await pass(TTL / 3);
    const lastGood = keeper!.lease.expiresAt;
    failing = true;
    while (Date.now() + TTL / 3 < lastGood) {
      await pass(TTL / 3);
      expect(lost).toEqual([]);
    }
    await pass(TTL);
    expect(lost).toHaveLength(1);
    expect(lost[0]).toBeGreaterThanOrEqual(lastGood);
  });
});
