import { request as httpRequest } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '@leadfinder/wire';
import { bearer, startHarness } from './harness.js';
import type { Harness, QueuePortsFactory } from './harness.js';

export interface EventsRouteSuiteOptions {
  /** Reads the log's own record at `seq` behind the adapter's back (JetStream: the stored stream message). */
  storedAt?: (seq: number) => Promise<{ subject: string; event: unknown } | null>;
}

/** `GET /v1/searches/{id}/events` over a real listener, on the event log that `queuePorts` makes. */
export function describeEventsRoute(label: string, queuePorts: QueuePortsFactory, options: EventsRouteSuiteOptions = {}): void {
  describe(label, () => {
    let h: Harness;
    let base: string;
    let key: string;

    beforeAll(async () => {
      h = await startHarness({ sseKeepaliveMs: 60, queuePorts });
      await h.app.listen({ host: '127.0.0.1', port: 0 });
      base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
      key = (await h.createAccount(1000)).apiKey;
    });
    afterAll(async () => h.close());

    interface SseRead {
      status: number;
      headers: IncomingHttpHeaders;
      body: string;
      /** True when the server ended the stream (rather than our timeout). */
      ended: boolean;
    }

    /** Read an event stream until the server closes it or `timeoutMs` passes (then we hang up). */
    function readSse(path: string, headers: Record<string, string>, timeoutMs = 1500, onChunk?: (text: string) => void): Promise<SseRead> {
      return new Promise((resolve, reject) => {
        const req = httpRequest(`${base}${path}`, { headers }, (res) => {
          let body = '';
          let done = false;
          const finish = (ended: boolean) => {
            if (done) return;
            done = true;
            clearTimeout(timer);
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body, ended });
            if (!ended) req.destroy();
          };
          const timer = setTimeout(() => finish(false), timeoutMs);
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            body += chunk;
            onChunk?.(body);
          });
          res.on('end', () => finish(true));
          res.on('error', () => finish(false));
        });
        req.on('error', reject);
        req.end();
      });
    }

    async function startRun(): Promise<string> {
      const res = await h.app.inject({ method: 'POST', url: '/v1/searches', headers: bearer(key), payload: { q: 'fintech startups' } });
      return res.json().id;
    }

    const at = () => new Date().toISOString();
    const status = (runId: string, message: string): RunEvent => ({ type: 'status', at: at(), runId, where: 'planning', message });
    const done = (runId: string): RunEvent => ({ type: 'done', at: at(), runId });

    async function append(runId: string, events: RunEvent[]): Promise<number[]> {
      const seqs: number[] = [];
      for (const [i, e] of events.entries()) seqs.push(await h.deps.events.append(runId, e, `${runId}:${i}:${Math.random()}`));
      return seqs;
    }

    /** Ends the run as its ender does: terminal, then settled (billing.endRun). */
    async function finish(runId: string, status: 'done' | 'interrupted' = 'done') {
      await h.deps.billing.endRun((await h.deps.store.runs.get(runId))!, null, {
        status, where: 'round 1', spendMicrousd: 0, chargeMicrousd: 0, usdDisplay: '$0.00', stopReason: null, result: null, finishedAt: at(),
      });
    }

    const frame = (seq: number, e: RunEvent) => `id: ${seq}\ndata: ${JSON.stringify(e)}\n\n`;
    const frames = (body: string) => body.split('\n\n').filter((f) => f.startsWith('id: '));

    describe('GET /v1/searches/{id}/events', () => {
      it('sends every event as an id/data frame with the SSE headers and closes after done', async () => {
        const id = await startRun();
        const events = [status(id, 'one'), status(id, 'two'), done(id)];
        const seqs = await append(id, events);
        await finish(id);
        const read = await readSse(`/v1/searches/${id}/events`, bearer(key));
        expect(read.status).toBe(200);
        expect(read.headers['content-type']).toBe('text/event-stream');
        expect(read.headers['cache-control']).toBe('no-cache');
        expect(read.headers['x-accel-buffering']).toBe('no');
        expect(read.headers.connection).toBe('keep-alive');
        expect(read.ended).toBe(true);
        expect(read.body.replace(/: keepalive\n\n/g, '')).toBe(events.map((e, i) => frame(seqs[i]!, e)).join(''));
        expect(read.body).not.toMatch(/^(event|retry):/m);
      });

      it('resumes after ?since and after Last-Event-ID, and after the later of the two when both are sent', async () => {
        const id = await startRun();
        const events = [status(id, 'one'), status(id, 'two'), status(id, 'three'), done(id)];
        const seqs = await append(id, events);
        await finish(id);
        const bySince = await readSse(`/v1/searches/${id}/events?since=${seqs[1]}`, bearer(key));
        expect(frames(bySince.body).map((f) => f.split('\n')[0])).toEqual([`id: ${seqs[2]}`, `id: ${seqs[3]}`]);
        const byHeader = await readSse(`/v1/searches/${id}/events`, { ...bearer(key), 'last-event-id': String(seqs[2]) });
        expect(frames(byHeader.body).map((f) => f.split('\n')[0])).toEqual([`id: ${seqs[3]}`]);
        // A standard EventSource reconnects with its first URL (`?since` in it) and the newest Last-Event-ID.
        const headerLater = await readSse(`/v1/searches/${id}/events?since=${seqs[0]}`, { ...bearer(key), 'last-event-id': String(seqs[2]) });
        expect(frames(headerLater.body).map((f) => f.split('\n')[0])).toEqual([`id: ${seqs[3]}`]);
        const queryLater = await readSse(`/v1/searches/${id}/events?since=${seqs[1]}`, { ...bearer(key), 'last-event-id': String(seqs[0]) });
        expect(frames(queryLater.body).map((f) => f.split('\n')[0])).toEqual([`id: ${seqs[2]}`, `id: ${seqs[3]}`]);
        const zero = await readSse(`/v1/searches/${id}/events?since=0`, bearer(key));
        expect(frames(zero.body)).toHaveLength(4);
      });

      it('resumes exactly after the cursor when other runs’ events sit between this run’s', async () => {
        const id = await startRun();
        const other = await startRun();
        const mine = [status(id, 'one'), status(id, 'two'), status(id, 'three'), done(id)];
        const seqs: number[] = [];
        const between: number[] = [];
        for (const [i, event] of mine.entries()) {
          seqs.push(...(await append(id, [event])));
          between.push(...(await append(other, [status(other, `other ${i}`)])));
        }
        await finish(id);
        // One log for all runs: this run's sequence numbers rise with gaps.
        expect(seqs[1]! - seqs[0]!).toBeGreaterThan(1);
        const expected = (from: number) => mine.slice(from).map((e, k) => frame(seqs[from + k]!, e).trimEnd());
        const bySince = await readSse(`/v1/searches/${id}/events?since=${seqs[1]}`, bearer(key));
        expect(bySince.ended).toBe(true);
        expect(frames(bySince.body)).toEqual(expected(2));
        // A cursor that names another run's event resumes at this run's next one.
        const onOther = await readSse(`/v1/searches/${id}/events?since=${between[0]}`, bearer(key));
        expect(frames(onOther.body)).toEqual(expected(1));
        const byHeader = await readSse(`/v1/searches/${id}/events`, { ...bearer(key), 'last-event-id': String(seqs[2]) });
        expect(frames(byHeader.body)).toEqual(expected(3));
        const atEnd = await readSse(`/v1/searches/${id}/events`, { ...bearer(key), 'last-event-id': String(seqs[3]) }, 3000);
        expect(atEnd.ended).toBe(true);
        expect(frames(atEnd.body)).toEqual([]);
      });

      it('answers 204 (nothing more, do not reconnect) to a cursor at or past the end of a finished run, 200 without a cursor', async () => {
        const id = await startRun();
        const seqs = await append(id, [status(id, 'one'), done(id)]);
        await finish(id);
        for (const headers of [{ 'last-event-id': String(seqs[1]) }, { 'last-event-id': String(seqs[1]! + 50) }]) {
          const read = await readSse(`/v1/searches/${id}/events`, { ...bearer(key), ...headers }, 3000);
          expect([read.status, read.body, read.ended]).toEqual([204, '', true]);
        }
        expect((await readSse(`/v1/searches/${id}/events?since=${seqs[1]}`, bearer(key), 3000)).status).toBe(204);
        // Caught up by the query, behind by the header: the later cursor decides.
        expect((await readSse(`/v1/searches/${id}/events?since=${seqs[1]}`, { ...bearer(key), 'last-event-id': '0' }, 3000)).status).toBe(204);
        // Events still to send: 200 with them.
        const behind = await readSse(`/v1/searches/${id}/events?since=${seqs[0]}`, bearer(key), 3000);
        expect([behind.status, frames(behind.body).length]).toEqual([200, 1]);
        // A terminal run with no events at all (the 402 refusal's row), first connection: 200, closed at once, no frames.
        const empty = await startRun();
        await finish(empty);
        const first = await readSse(`/v1/searches/${empty}/events`, bearer(key), 3000);
        expect([first.status, first.ended, frames(first.body)]).toEqual([200, true, []]);
        // Still running and caught up: a cursor gets the open stream, not 204.
        const live = await startRun();
        const liveSeqs = await append(live, [status(live, 'one')]);
        const open = await readSse(`/v1/searches/${live}/events`, { ...bearer(key), 'last-event-id': String(liveSeqs[0]) }, 300);
        expect([open.status, open.ended]).toEqual([200, false]);
      });

      if (options.storedAt) {
        const storedAt = options.storedAt;
        it('numbers every frame with the sequence the log stored that event at', async () => {
          const id = await startRun();
          const other = await startRun();
          await append(other, [status(other, 'before')]);
          await append(id, [status(id, 'one')]);
          await append(other, [status(other, 'between')]);
          await append(id, [status(id, 'two'), done(id)]);
          await finish(id);
          const read = await readSse(`/v1/searches/${id}/events`, bearer(key));
          expect(read.ended).toBe(true);
          const parsed = frames(read.body).map((f) => {
            const [idLine, dataLine, ...rest] = f.split('\n');
            expect(rest).toEqual([]);
            return { seq: Number(idLine!.slice('id: '.length)), event: JSON.parse(dataLine!.slice('data: '.length)) as RunEvent };
          });
          expect(parsed.map((p) => p.event.type)).toEqual(['status', 'status', 'done']);
          for (const { seq, event } of parsed) {
            const stored = await storedAt(seq);
            expect(stored?.subject).toContain(`.${id}.`);
            expect(stored?.event).toEqual(event);
          }
        });
      }

      it.each([
        ['-1', 'greater_than_equal'],
        ['abc', 'int_parsing'],
        ['1.5', 'int_parsing'],
      ])('answers since=%s with a 422 naming since', async (since, type) => {
        const id = await startRun();
        const res = await h.app.inject({ method: 'GET', url: `/v1/searches/${id}/events?since=${since}`, headers: bearer(key) });
        expect(res.statusCode).toBe(422);
        expect(res.json().detail).toEqual([expect.objectContaining({ loc: ['query', 'since'], type })]);
      });

      it.each([
        ['-1', 'greater_than_equal'],
        ['abc', 'int_parsing'],
      ])('answers Last-Event-ID: %s with a 422 naming since in the query (loc starts with body, query or path)', async (value, type) => {
        const id = await startRun();
        const res = await h.app.inject({ method: 'GET', url: `/v1/searches/${id}/events`, headers: { ...bearer(key), 'last-event-id': value } });
        expect(res.statusCode).toBe(422);
        expect(res.json().detail).toEqual([expect.objectContaining({ loc: ['query', 'since'], type })]);
      });

      it('answers 401 without credentials and the same 404 for foreign and malformed ids', async () => {
        const id = await startRun();
        const other = await h.createAccount(10);
        expect((await h.app.inject({ method: 'GET', url: `/v1/searches/${id}/events` })).json()).toEqual({ detail: 'Missing credentials' });
        for (const [runId, token] of [[id, other.apiKey], ['xyz', key], ['f'.repeat(32), key]] as const) {
          const res = await h.app.inject({ method: 'GET', url: `/v1/searches/${runId}/events`, headers: bearer(token) });
          expect(res.statusCode).toBe(404);
          expect(res.json()).toEqual({ detail: 'Unknown search.' });
        }
      });

      it('answers the 402 refusal row with 200 and closes at once with no frames', async () => {
        const poor = await h.createAccount(1);
        const refused = await h.app.inject({ method: 'POST', url: '/v1/searches', headers: bearer(poor.apiKey), payload: { q: 'fintech startups' } });
        expect(refused.statusCode).toBe(402);
        const [row] = (await h.app.inject({ method: 'GET', url: '/v1/searches', headers: bearer(poor.apiKey) })).json().runs;
        const started = Date.now();
        const read = await readSse(`/v1/searches/${row.id}/events`, bearer(poor.apiKey), 3000);
        expect(read.status).toBe(200);
        expect(read.ended).toBe(true);
        expect(read.body).toBe('');
        expect(Date.now() - started).toBeLessThan(1000);
      });

      it('closes the stream of an interrupted run once the client has caught up, with or without a tail', async () => {
        const bare = await startRun();
        await finish(bare, 'interrupted');
        const none = await readSse(`/v1/searches/${bare}/events`, bearer(key), 3000);
        expect(none.ended).toBe(true);
        expect(frames(none.body)).toEqual([]);

        const partial = await startRun();
        await append(partial, [status(partial, 'one')]);
        await finish(partial, 'interrupted');
        const some = await readSse(`/v1/searches/${partial}/events`, bearer(key), 3000);
        expect(some.ended).toBe(true);
        expect(frames(some.body)).toHaveLength(1);
      });

      it('streams live events as they are written, with keepalives while quiet', async () => {
        const id = await startRun();
        let seen = '';
        const reading = readSse(`/v1/searches/${id}/events`, bearer(key), 3000, (text) => (seen = text));
        await new Promise((r) => setTimeout(r, 200));
        expect(seen).toContain(': keepalive\n\n');
        const [s1] = await append(id, [status(id, 'live')]);
        await new Promise((r) => setTimeout(r, 100));
        expect(seen).toContain(`id: ${s1}\n`);
        await append(id, [done(id)]);
        await finish(id);
        const read = await reading;
        expect(read.ended).toBe(true);
        expect(frames(read.body)).toHaveLength(2);
      });

      it('leaves the run running when the client disconnects', async () => {
        const id = await startRun();
        const read = await readSse(`/v1/searches/${id}/events`, bearer(key), 150);
        expect(read.ended).toBe(false);
        await new Promise((r) => setTimeout(r, 100));
        const run = (await h.app.inject({ method: 'GET', url: `/v1/searches/${id}`, headers: bearer(key) })).json();
        expect(run.status).toBe('running');
        expect(await h.deps.stops.isRaised(id)).toBe(false);
      });
    });
  });
}
