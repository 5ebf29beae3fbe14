import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startHarness } from '../../test/harness.js';
import type { Harness } from '../../test/harness.js';
import { startAndFollow as followSearch } from '../../test/follow-stream.js';

/** One harness with production keepalives (15 s), listening on loopback, and one funded account. */
let h: Harness;
let base: string;
let key: string;
beforeAll(async () => {
  h = await startHarness({ sseKeepaliveMs: 15_000 });
  await h.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
  key = (await h.createAccount(100)).apiKey;
});
afterAll(async () => h.close());

const startAndFollow = () => followSearch(h, base, key);

/**
 * With production keepalives (15 s), a live stream of a run that ends without `done` (its process died:
 * the reaper writes a `cost` stage `Interrupted` and ends the run `interrupted`) closes at once, not at
 * the next keepalive tick.
 */
describe('event stream of a run interrupted while followed', () => {

  it('closes within a second of the run becoming interrupted, with the cost frame delivered', async () => {
    const { id, stream, ended } = await startAndFollow();
    await new Promise((r) => setTimeout(r, 200));
    const at = new Date().toISOString();
    await h.deps.events.append(id, { type: 'cost', at, runId: id, stage: 'Interrupted', usd: 0.012 }, `${id}:interrupted`);
    // The reaper ends the run (terminal, then settled) right after writing the cost event.
    await new Promise((r) => setTimeout(r, 100));
    const finishedAt = Date.now();
    await h.deps.billing.endRun((await h.deps.store.runs.get(id))!, null, {
      status: 'interrupted', where: 'round 1 · searching', spendMicrousd: 12_000, chargeMicrousd: 12_000,
      usdDisplay: '$0.012', stopReason: null, result: null, finishedAt: at,
    });
    await ended;
    expect(stream.endedAt - finishedAt).toBeLessThan(1_000);
    expect(stream.body).toContain('"stage":"Interrupted"');
  });
});

/**
 * The coordinator writes the tail (… `done`) before it makes the run terminal, then settles its hold. A
 * client that reads the run record when the stream ends must find it ended (terminal, its hold released),
 * so the stream waits for the record after `done`.
 */
describe('event stream of a run whose tail is written before its record turns terminal', () => {

  it('ends after done only once the run record is terminal and settled', async () => {
    const { id, stream, ended } = await startAndFollow();
    await new Promise((r) => setTimeout(r, 200));
    const at = new Date().toISOString();
    const final = { type: 'final' as const, at, runId: id, table: [], target: 50, met: false, filters: [], stopped: false, stopped_at: null };
    await h.deps.events.append(id, final, `${id}:final`);
    await h.deps.events.append(id, { type: 'cost', at, runId: id, stage: 'Done', usd: 0.01 }, `${id}:cost`);
    const usage = { search_calls: 2, pages_opened: 0, llm_calls: 0, input_tokens: 0, output_tokens: 0, spend_microusd: 10_000 };
    await h.deps.events.append(id, { type: 'usage', at, runId: id, ...usage }, `${id}:usage`);
    await h.deps.events.append(id, { type: 'done', at, runId: id }, `${id}:done`);
    await new Promise((r) => setTimeout(r, 600));
    expect(stream.endedAt).toBe(0); // still open: the record says running
    await h.deps.store.runs.finish(id, null, {
      status: 'done', where: 'done', spendMicrousd: 10_000, chargeMicrousd: 10_000,
      usdDisplay: '$0.01', stopReason: null, result: final, finishedAt: at,
    });
    // Past the stream's check 1.2 s after `done` (checks back off: 0.4 s, then 0.8 s, 1.6 s later).
    await new Promise((r) => setTimeout(r, 800));
    expect(stream.endedAt).toBe(0); // still open: terminal, but the hold is not settled yet
    const settledAt = Date.now();
    await h.deps.billing.settle((await h.deps.store.runs.get(id))!);
    await ended;
    expect(stream.endedAt - settledAt).toBeLessThan(2_000); // at the next check, 2.8 s after `done`
    expect(stream.body).toContain('"type":"done"');
    const run = await h.app.inject({ method: 'GET', url: `/v1/searches/${id}`, headers: bearer(key) });
    expect(run.json().status).toBe('done');
  });
});
