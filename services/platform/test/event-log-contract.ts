import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventLog } from '@leadfinder/platform';
import type { RunEvent, SequencedEvent } from '@leadfinder/wire';

/**
 * The behaviour every EventLog adapter must have, run unchanged against each one. `makeLog` returns a
 * fresh, empty log (its own file or stream); the suite closes it after each test, and `close()` also
 * removes what the log created.
 */
export type MakeEventLog = (options?: { retentionMs?: number }) => Promise<EventLog>;

export const newRunId = () => randomBytes(16).toString('hex');

export function statusEvent(runId: string, message: string): RunEvent {
  return { type: 'status', at: new Date().toISOString(), runId, where: 'discover', message };
}

const messages = (events: SequencedEvent[]) => events.map((e) => (e.event.type === 'status' ? e.event.message : e.event.type));

/** Collects what `follow` yields into an array until the signal aborts; `done` settles when the loop ends. */
export function collect(log: EventLog, runId: string, afterSeq: number, signal: AbortSignal) {
  const seen: SequencedEvent[] = [];
  const done = (async () => {
    for await (const item of log.follow(runId, afterSeq, signal)) seen.push(item);
  })();
  return { seen, done };
}

export function describeEventLogContract(name: string, makeLog: MakeEventLog): void {
  describe(`${name} event log`, () => {
    const open: EventLog[] = [];
    const make: MakeEventLog = async (options) => {
      const log = await makeLog(options);
      open.push(log);
      return log;
    };
    afterEach(async () => {
      await Promise.all(open.splice(0).map((log) => log.close()));
    });

    it('numbers events from 1 upwards with one sequence shared by all runs', async () => {
      const log = await make();
      const [a, b] = [newRunId(), newRunId()];
      const [a1, b1, a2] = [statusEvent(a, 'a1'), statusEvent(b, 'b1'), statusEvent(a, 'a2')];
      const seqs = [await log.append(a, a1, `${a}:1`), await log.append(b, b1, `${b}:1`), await log.append(a, a2, `${a}:2`)];
      expect(seqs).toEqual([1, 2, 3]);
      expect(await log.read(a, 0)).toEqual([{ seq: 1, event: a1 }, { seq: 3, event: a2 }]);
      expect(messages(await log.read(b, 0))).toEqual(['b1']);
    });

    it("reads exactly a run's events after a cursor, in order, up to the limit", async () => {
      const log = await make();
      const [a, b] = [newRunId(), newRunId()];
      const seqOf: number[] = [];
      for (let i = 1; i <= 5; i++) {
        seqOf[i] = await log.append(a, statusEvent(a, `a${i}`), `${a}:${i}`);
        await log.append(b, statusEvent(b, `b${i}`), `${b}:${i}`);
      }
      const after2 = await log.read(a, seqOf[2]!);
      expect(messages(after2)).toEqual(['a3', 'a4', 'a5']);
      expect(after2.map((e) => e.seq)).toEqual([seqOf[3], seqOf[4], seqOf[5]]);
      expect(messages(await log.read(a, seqOf[2]!, 2))).toEqual(['a3', 'a4']);
      expect(await log.read(a, seqOf[5]!)).toEqual([]);
      // A cursor between two of the run's events (another run's seq) still resumes right after it.
      expect(messages(await log.read(a, seqOf[3]! + 1))).toEqual(['a4', 'a5']);
      expect(await log.read(newRunId(), 0)).toEqual([]);
    });

    it('returns the first seq for a repeated dedupe id and stores nothing more', async () => {
      const log = await make();
      const a = newRunId();
      const first = await log.append(a, statusEvent(a, 'original'), `${a}:1`);
      const again = await log.append(a, statusEvent(a, 'retry'), `${a}:1`);
      const racing = await Promise.all([1, 2, 3].map(() => log.append(a, statusEvent(a, 'race'), `${a}:2`)));
      expect(again).toBe(first);
      expect(new Set(racing).size).toBe(1);
      expect(messages(await log.read(a, 0))).toEqual(['original', 'race']);
    });

    it('follows with the stored events, then live ones in order, and ends without error on abort', async () => {
      const log = await make();
      const [a, b] = [newRunId(), newRunId()];
      const s1 = await log.append(a, statusEvent(a, 'a1'), `${a}:1`);
      await log.append(a, statusEvent(a, 'a2'), `${a}:2`);
      await log.append(a, statusEvent(a, 'a3'), `${a}:3`);
      const abort = new AbortController();
      const follower = collect(log, a, s1, abort.signal);
      await expect.poll(() => messages(follower.seen)).toEqual(['a2', 'a3']);
      await log.append(b, statusEvent(b, 'b1'), `${b}:1`);
      await log.append(a, statusEvent(a, 'a4'), `${a}:4`);
      await log.append(a, statusEvent(a, 'a5'), `${a}:5`);
      await expect.poll(() => messages(follower.seen)).toEqual(['a2', 'a3', 'a4', 'a5']);
      abort.abort();
      await expect(follower.done).resolves.toBeUndefined();
      const seqs = follower.seen.map((e) => e.seq);
      expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
      expect(follower.seen).toEqual(await log.read(a, s1));
    });

    it('ends a follow of a quiet run when the signal aborts', async () => {
      const log = await make();
      const abort = new AbortController();
      const follower = collect(log, newRunId(), 0, abort.signal);
      await new Promise((r) => setTimeout(r, 100));
      abort.abort();
      await expect(follower.done).resolves.toBeUndefined();
      expect(follower.seen).toEqual([]);
    });

    it('keeps every one of many concurrent appends exactly once, in seq order, also for a live follower', async () => {
      const log = await make();
      const runs = [newRunId(), newRunId(), newRunId()];
      const abort = new AbortController();
      const follower = collect(log, runs[0]!, 0, abort.signal);
      const appended = await Promise.all(
        Array.from({ length: 20 }, (_, task) =>
          (async () => {
            const out: { runId: string; seq: number; message: string }[] = [];
            for (let i = 0; i < 10; i++) {
              const runId = runs[(task + i) % runs.length]!;
              const message = `t${task}-${i}`;
              out.push({ runId, seq: await log.append(runId, statusEvent(runId, message), `${runId}:${message}`), message });
            }
            return out;
          })(),
        ),
      );
      const all = appended.flat();
      expect(new Set(all.map((x) => x.seq)).size).toBe(200);
      for (const runId of runs) {
        const stored = await log.read(runId, 0);
        const expected = all.filter((x) => x.runId === runId).sort((x, y) => x.seq - y.seq);
        expect(stored.map((e) => e.seq)).toEqual(expected.map((x) => x.seq));
        expect(messages(stored)).toEqual(expected.map((x) => x.message));
      }
      const first = await log.read(runs[0]!, 0);
      await expect.poll(() => follower.seen.length).toBe(first.length);
      abort.abort();
      await follower.done;
      expect(follower.seen).toEqual(first);
    });

    it('never returns an event older than the retention, and keeps numbering upwards after', async () => {
      const log = await make({ retentionMs: 1_000 });
      const a = newRunId();
      const old = await log.append(a, statusEvent(a, 'old'), `${a}:1`);
      expect(messages(await log.read(a, 0))).toEqual(['old']);
      await expect.poll(() => log.read(a, 0), { timeout: 6_000, interval: 200 }).toEqual([]);
      const fresh = await log.append(a, statusEvent(a, 'fresh'), `${a}:2`);
      expect(fresh).toBeGreaterThan(old);
      expect(messages(await log.read(a, 0))).toEqual(['fresh']);
      const abort = new AbortController();
      const follower = collect(log, a, 0, abort.signal);
      await expect.poll(() => messages(follower.seen)).toEqual(['fresh']);
      abort.abort();
      await follower.done;
    });

    it("ends a follow on the run's end marker, which no read returns and which takes a seq", async () => {
      const log = await make();
      const [a, b] = [newRunId(), newRunId()];
      const s1 = await log.append(a, statusEvent(a, 'a1'), `${a}:1`);
      const live = collect(log, a, 0, new AbortController().signal);
      const otherRun = new AbortController();
      const other = collect(log, b, 0, otherRun.signal);
      await expect.poll(() => messages(live.seen)).toEqual(['a1']);
      const s2 = await log.append(a, statusEvent(a, 'a2'), `${a}:2`);
      const marker = await log.end(a);
      expect(marker).toBeGreaterThan(s2);
      // The follower returns by itself: no abort was given.
      await expect(live.done).resolves.toBeUndefined();
      expect(messages(live.seen)).toEqual(['a1', 'a2']);
      expect(await log.read(a, 0)).toEqual(live.seen);
      expect(await log.read(a, s2)).toEqual([]);
      // Repeated: the first marker's seq, nothing new; seqs keep rising past it.
      expect(await log.end(a)).toBe(marker);
      expect(await log.append(b, statusEvent(b, 'b1'), `${b}:1`)).toBeGreaterThan(marker);
      // A follower that starts after the end, from the start or from the last event, ends too.
      for (const cursor of [0, s1, s2]) {
        const late = collect(log, a, cursor, new AbortController().signal);
        await expect(late.done).resolves.toBeUndefined();
        expect(late.seen).toEqual(await log.read(a, cursor));
      }
      // Another run's follower is untouched by it.
      await expect.poll(() => messages(other.seen)).toEqual(['b1']);
      otherRun.abort();
      await other.done;
    });

    it('ends a follow whose cursor is at or past the end marker, on an ended run and on one that ends later', async () => {
      const log = await make();
      const [a, c] = [newRunId(), newRunId()];
      await log.append(a, statusEvent(a, 'a1'), `${a}:1`);
      const marker = await log.end(a);
      // A resume with a cursor from elsewhere (past every seq there is): no event, and no wait.
      for (const cursor of [marker, marker + 1_000_000]) {
        const late = collect(log, a, cursor, new AbortController().signal);
        await expect(late.done).resolves.toBeUndefined();
        expect(late.seen).toEqual([]);
      }
      // The same on a run still going: it ends when the run does, with nothing up to the cursor sent.
      const last = await log.append(c, statusEvent(c, 'c1'), `${c}:1`);
      const follower = collect(log, c, last + 1_000_000, new AbortController().signal);
      await log.append(c, statusEvent(c, 'c2'), `${c}:2`);
      await log.end(c);
      await expect(follower.done).resolves.toBeUndefined();
      expect(follower.seen).toEqual([]);
    });

    it('answers ping while open', async () => {
      const log = await make();
      await expect(log.ping()).resolves.toBeUndefined();
    });
  });
}
