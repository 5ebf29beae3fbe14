import { appendFile, chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { silentLogger } from '@leadfinder/platform';
import { createEmbeddedEventLog } from '@leadfinder/platform/embedded';
import { collect, describeEventLogContract, newRunId, statusEvent } from './event-log-contract.js';

const dirs: string[] = [];
async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'lf-events-'));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

describeEventLogContract('embedded', async (options) =>
  createEmbeddedEventLog({ dataDir: await freshDir(), logger: silentLogger, retentionMs: options?.retentionMs }),
);

describe('embedded event log on disk', () => {
  const mode = async (path: string) => (await stat(path)).mode & 0o777;

  it('keeps its folder 0700 and its file 0600, tightening ones an older version left open', async () => {
    const fresh = join(await freshDir(), 'events');
    const log = await createEmbeddedEventLog({ dataDir: fresh, logger: silentLogger });
    const a = newRunId();
    await log.append(a, statusEvent(a, 'a1'), `${a}:1`);
    await log.close();
    expect(await mode(fresh)).toBe(0o700);
    expect(await mode(join(fresh, 'events.jsonl'))).toBe(0o600);

    const old = join(await freshDir(), 'events');
    await mkdir(old, { mode: 0o755 });
    await chmod(old, 0o755);
    await writeFile(join(old, 'events.jsonl'), '', { mode: 0o644 });
    await chmod(join(old, 'events.jsonl'), 0o644);
    const reopened = await createEmbeddedEventLog({ dataDir: old, logger: silentLogger });
    await reopened.close();
    expect(await mode(old)).toBe(0o700);
    expect(await mode(join(old, 'events.jsonl'))).toBe(0o600);
  });

  it('keeps events, their seqs and their dedupe ids across a restart, and numbers on from there', async () => {
    const dataDir = await freshDir();
    const [a, b] = [newRunId(), newRunId()];
    const first = await createEmbeddedEventLog({ dataDir, logger: silentLogger });
    await first.append(a, statusEvent(a, 'a1'), `${a}:1`);
    await first.append(b, statusEvent(b, 'b1'), `${b}:1`);
    await first.append(a, statusEvent(a, 'a2'), `${a}:2`);
    const before = await first.read(a, 0);
    await first.close();

    const second = await createEmbeddedEventLog({ dataDir, logger: silentLogger });
    try {
      expect(await second.read(a, 0)).toEqual(before);
      expect(before.map((e) => e.seq)).toEqual([1, 3]);
      expect(await second.append(a, statusEvent(a, 'a2 again'), `${a}:2`)).toBe(3);
      expect(await second.append(a, statusEvent(a, 'a3'), `${a}:3`)).toBe(4);
      expect((await second.read(a, 0)).map((e) => e.seq)).toEqual([1, 3, 4]);
    } finally {
      await second.close();
    }
  });

  it('starts from a file whose last line was torn by a crash, and keeps the whole lines', async () => {
    const dataDir = await freshDir();
    const a = newRunId();
    const first = await createEmbeddedEventLog({ dataDir, logger: silentLogger });
    await first.append(a, statusEvent(a, 'a1'), `${a}:1`);
    await first.close();
    await appendFile(join(dataDir, 'events.jsonl'), '{"seq":2,"runId":"' + a + '","dedupeId":"x","at":1,"ev');

    const second = await createEmbeddedEventLog({ dataDir, logger: silentLogger });
    await second.append(a, statusEvent(a, 'a2'), `${a}:2`);
    await second.close();
    const third = await createEmbeddedEventLog({ dataDir, logger: silentLogger });
    try {
      expect((await third.read(a, 0)).map((e) => e.event.type === 'status' && e.event.message)).toEqual(['a1', 'a2']);
    } finally {
      await third.close();
    }
  });

  it('drops expired events from the file and still numbers upwards after a restart that finds it empty', async () => {
    const dataDir = await freshDir();
    let now = Date.parse('2030-01-01T00:00:00.000Z');
    const clock = { now: () => now };
    const a = newRunId();
    const first = await createEmbeddedEventLog({ dataDir, logger: silentLogger, clock, retentionMs: 60_000 });
    await first.append(a, statusEvent(a, 'secret old'), `${a}:1`);
    await first.append(a, statusEvent(a, 'old too'), `${a}:2`);
    await first.close();

    now += 61_000;
    const second = await createEmbeddedEventLog({ dataDir, logger: silentLogger, clock, retentionMs: 60_000 });
    try {
      expect(await second.read(a, 0)).toEqual([]);
      expect(await readFile(join(dataDir, 'events.jsonl'), 'utf8')).not.toContain('old');
      // A dedupe id whose event expired no longer blocks a new append.
      expect(await second.append(a, statusEvent(a, 'new'), `${a}:1`)).toBe(3);
    } finally {
      await second.close();
    }
  });

  it('hides an expired event at once, before the periodic purge has run', async () => {
    let now = 0;
    const log = await createEmbeddedEventLog({
      dataDir: await freshDir(), logger: silentLogger, clock: { now: () => now }, retentionMs: 1_000, purgeIntervalMs: 3_600_000,
    });
    try {
      const a = newRunId();
      await log.append(a, statusEvent(a, 'old'), `${a}:1`);
      now = 999;
      expect(await log.read(a, 0)).toHaveLength(1);
      now = 1_000;
      expect(await log.read(a, 0)).toEqual([]);
    } finally {
      await log.close();
    }
  });

  it('keeps a run end marker across a restart, and reads a file written before markers existed', async () => {
    const dataDir = await freshDir();
    const [a, b] = [newRunId(), newRunId()];
    // An older version's file: a compaction mark and event lines only.
    const old = (seq: number, runId: string, message: string) => JSON.stringify({ seq, runId, dedupeId: `${runId}:${seq}`, at: Date.now(), event: statusEvent(runId, message) });
    await writeFile(join(dataDir, 'events.jsonl'), `${JSON.stringify({ lastSeq: 1 })}\n${old(2, a, 'a1')}\n${old(3, b, 'b1')}\n`);
    const first = await createEmbeddedEventLog({ dataDir, logger: silentLogger });
    const marker = await first.end(a);
    expect(marker).toBe(4);
    await first.close();
    expect(await readFile(join(dataDir, 'events.jsonl'), 'utf8')).toContain('"end":true');

    const second = await createEmbeddedEventLog({ dataDir, logger: silentLogger });
    try {
      expect((await second.read(a, 0)).map((e) => e.seq)).toEqual([2]);
      const ended = collect(second, a, 0, new AbortController().signal);
      await expect(ended.done).resolves.toBeUndefined();
      expect(ended.seen.map((e) => e.seq)).toEqual([2]);
      expect(await second.end(a)).toBe(marker);
      // The run without a marker is followed until its follower lets go.
      const abort = new AbortController();
      const open = collect(second, b, 0, abort.signal);
      await expect.poll(() => open.seen.length).toBe(1);
      abort.abort();
      await open.done;
      expect(await second.append(b, statusEvent(b, 'b2'), `${b}:2`)).toBe(5);
    } finally {
      await second.close();
    }
  });

  it('ends its followers when the log is closed', async () => {
    const log = await createEmbeddedEventLog({ dataDir: await freshDir(), logger: silentLogger });
    const follower = collect(log, newRunId(), 0, new AbortController().signal);
    await log.close();
    await expect(follower.done).resolves.toBeUndefined();
  });
});
