import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '@leadfinder/platform';
import type { RunEvent } from '@leadfinder/wire';
import { bearer, startHarness } from '../../test/harness.js';
import type { Harness } from '../../test/harness.js';
import { startAndFollow as followSearch, type FollowedSearch } from '../../test/follow-stream.js';

/** Production keepalives (15 s): nothing in these tests ends a stream by a keepalive tick. */
let h: Harness;
let base: string;
let key: string;
let realStore: Store;
/** Set: every run read by the route from now on is counted and never answers (a store that hangs). */
let stalled = false;
let runReads = 0;
beforeAll(async () => {
  h = await startHarness({ sseKeepaliveMs: 15_000 });
  await h.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
  key = (await h.createAccount(100)).apiKey;
  realStore = h.deps.store;
  const runs: Store['runs'] = new Proxy(realStore.runs, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (prop !== 'get' || typeof value !== 'function') return value;
      return (id: string) => {
        if (!stalled) return target.get(id);
        runReads += 1;
        return new Promise(() => undefined);
      };
    },
  });
  h.deps.store = new Proxy(realStore, { get: (target, prop, receiver) => (prop === 'runs' ? runs : Reflect.get(target, prop, receiver)) });
});
afterAll(async () => {
  h.deps.store = realStore;
  await h.close();
});

async function startAndFollow(): Promise<FollowedSearch> {
  const followed = await followSearch(h, base, key);
  // Connected and following (the route has read the run once, to check who owns it).
  await new Promise((r) => setTimeout(r, 200));
  return followed;
}

function tail(runId: string): RunEvent[] {
  const at = new Date().toISOString();
  return [
    { type: 'final', at, runId, table: [], target: 50, met: false, filters: [], stopped: false, stopped_at: null },
    { type: 'cost', at, runId, stage: 'Done', usd: 0.01 },
    { type: 'usage', at, runId, search_calls: 2, pages_opened: 0, llm_calls: 0, input_tokens: 0, output_tokens: 0, spend_microusd: 10_000 },
    { type: 'done', at, runId },
  ];
}

async function append(runId: string, events: RunEvent[]): Promise<number[]> {
  const seqs: number[] = [];
  for (const [i, e] of events.entries()) seqs.push(await h.deps.events.append(runId, e, `${runId}:${i}`));
  return seqs;
}

const frames = (body: string) => body.split('\n\n').filter((f) => f.startsWith('id: '));

describe('event stream ending on the event log end marker', () => {
  it('closes on the marker without reading the run from the store, and never sends the marker', async () => {
    const { id, stream, ended } = await startAndFollow();
    stalled = true;
    runReads = 0;
    try {
      const events = tail(id);
      const seqs = await append(id, events);
      const marker = await h.deps.events.end(id);
      const markedAt = Date.now();
      await ended;
      expect(stream.endedAt - markedAt).toBeLessThan(300);
      expect(runReads).toBe(0);
      expect(frames(stream.body)).toEqual(events.map((e, i) => `id: ${seqs[i]}\ndata: ${JSON.stringify(e)}`));
      expect(stream.body).not.toContain(`id: ${marker}\n`);
    } finally {
      stalled = false;
    }
    // The record was never made terminal: it was the marker, not the store, that ended the stream.
    expect((await h.app.inject({ method: 'GET', url: `/v1/searches/${id}`, headers: bearer(key) })).json().status).toBe('running');
  });

  it('closes on a marker that comes late while every store read of the run hangs', async () => {
    const { id, stream, ended } = await startAndFollow();
    stalled = true;
    runReads = 0;
    try {
      await append(id, tail(id));
      // Long enough for the unmarked-log fallback to ask the store (which never answers).
      await new Promise((r) => setTimeout(r, 1_000));
      expect(stream.endedAt).toBe(0);
      // It asked once, and while that read hangs it does not ask again (checks never pile up on a slow store).
      expect(runReads).toBe(1);
      await h.deps.events.end(id);
      const markedAt = Date.now();
      await ended;
      expect(stream.endedAt - markedAt).toBeLessThan(300);
      expect(frames(stream.body)).toHaveLength(4);
    } finally {
      stalled = false;
    }
  });

  it('resumes after the last event of a marked run with nothing more (Last-Event-ID at the end: 204)', async () => {
    const { id, ended } = await startAndFollow();
    const seqs = await append(id, tail(id));
    await h.deps.billing.endRun((await h.deps.store.runs.get(id))!, null, {
      status: 'done', where: 'done', spendMicrousd: 10_000, chargeMicrousd: 10_000, usdDisplay: '$0.01', stopReason: null, result: null,
      finishedAt: new Date().toISOString(),
    });
    await h.deps.events.end(id);
    await ended;
    const resumed = await h.app.inject({ method: 'GET', url: `/v1/searches/${id}/events`, headers: { ...bearer(key), 'last-event-id': String(seqs[3]) } });
    expect(resumed.statusCode).toBe(204);
    const again = await h.app.inject({ method: 'GET', url: `/v1/searches/${id}/events?since=${seqs[1]}`, headers: bearer(key) });
    expect(again.statusCode).toBe(200);
    expect(frames(again.body).map((f) => f.split('\n')[0])).toEqual([`id: ${seqs[2]}`, `id: ${seqs[3]}`]);
  });
});
