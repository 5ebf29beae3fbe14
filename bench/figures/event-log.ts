import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '@leadfinder/platform';
import { createEmbeddedEventLog } from '@leadfinder/platform/embedded';
import { connectNats, createNatsEventLog } from '@leadfinder/platform/nats';
import type { EventLog } from '@leadfinder/platform';
import type { RunEvent } from '@leadfinder/wire';
import type { BenchContext, Figure, FigureRow } from '../support/figure.js';
import { errorRow, skippedRow } from '../support/figure.js';

const FIGURE = 'event log';
const RUNS = 10;
const IN_FLIGHT = 64;
const READ_BATCH = 100;

/**
 * The event-log port directly (no HTTP): appends of `status` events over 10 runs with 64 appends in
 * flight (as many coordinators' runs write at once), then `read(run, after, 100)` calls from random
 * positions for a fixed time. Embedded: the JSON-lines file in a temp dir. JetStream: a stream with a
 * name unique to this bench, deleted afterwards.
 */
export const eventLog: Figure = {
  id: 'eventlog',
  title: FIGURE,
  async run(ctx: BenchContext): Promise<FigureRow[]> {
    const rows: FigureRow[] = [];
    const appends = ctx.quick ? 2000 : 10_000;
    const readMs = ctx.quick ? 1500 : 4000;

    const dir = await mkdtemp(join(tmpdir(), 'leadfinder-bench-events-'));
    try {
      const log = await createEmbeddedEventLog({ dataDir: dir, logger: silentLogger });
      try {
        rows.push(await measure(ctx, log, 'embedded', appends, readMs));
      } finally {
        await log.close();
      }
    } catch (error) {
      rows.push(errorRow(FIGURE, 'embedded', 'report', error));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }

    if (!ctx.natsUrl) {
      rows.push(skippedRow(FIGURE, 'JetStream', 'report'));
      return rows;
    }
    try {
      const nats = await connectNats({ url: ctx.natsUrl, name: 'leadfinder-bench-events', logger: silentLogger });
      const suffix = randomBytes(4).toString('hex');
      const stream = `BENCH_EVENTLOG_${suffix}`;
      try {
        const log = await createNatsEventLog({ nats, logger: silentLogger, stream, subjectPrefix: `bench_${suffix}_runs` });
        try {
          rows.push(await measure(ctx, log, 'JetStream', appends, readMs));
        } finally {
          await log.close();
        }
      } finally {
        await nats.jsm.streams.delete(stream).catch(() => false);
        await nats.close();
      }
    } catch (error) {
      rows.push(errorRow(FIGURE, 'JetStream', 'report', error));
    }
    return rows;
  },
};

async function measure(ctx: BenchContext, log: EventLog, setup: string, total: number, readMs: number): Promise<FigureRow> {
  const runIds = Array.from({ length: RUNS }, () => randomBytes(16).toString('hex'));
  const event = (runId: string, i: number): RunEvent => ({
    type: 'status', at: new Date().toISOString(), runId, where: 'searching', message: `benchmark status message number ${i}`,
  });
  ctx.log(`${FIGURE} ${setup}: ${total} appends, ${IN_FLIGHT} in flight`);
  let next = 0;
  const appendStart = performance.now();
  await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
    while (next < total) {
      const i = next++;
      const runId = runIds[i % RUNS]!;
      await log.append(runId, event(runId, i), `${runId}:${i}`);
    }
  }));
  const appendSeconds = (performance.now() - appendStart) / 1000;
  const appendsPerSecond = total / appendSeconds;

  // Each read starts at a random event of its run that leaves a full batch after it.
  const seqs = await Promise.all(runIds.map(async (id) => (await log.read(id, 0)).map((e) => e.seq)));
  ctx.log(`${FIGURE} ${setup}: reads of ${READ_BATCH} for ${readMs / 1000}s`);
  let calls = 0;
  let events = 0;
  const readStart = performance.now();
  // Eight readers, as eight SSE clients catching up at once.
  await Promise.all(Array.from({ length: 8 }, async () => {
    while (performance.now() - readStart < readMs) {
      const r = Math.floor(Math.random() * RUNS);
      const own = seqs[r]!;
      const runId = runIds[r]!;
      const after = own.length > READ_BATCH ? own[Math.floor(Math.random() * (own.length - READ_BATCH))]! : 0;
      const batch = await log.read(runId, after, READ_BATCH);
      events += batch.length;
      calls++;
    }
  }));
  const readSeconds = (performance.now() - readStart) / 1000;
  return {
    figure: FIGURE,
    setup,
    result: `${Math.round(appendsPerSecond)} appends/s; ${Math.round(events / readSeconds)} events read/s (${Math.round(calls / readSeconds)} reads/s of up to ${READ_BATCH})`,
    goal: 'report',
    verdict: 'report',
    data: { appends: total, inFlight: IN_FLIGHT, appendSeconds, appendsPerSecond, readCalls: calls, eventsRead: events, readSeconds, readsPerSecond: calls / readSeconds, eventsReadPerSecond: events / readSeconds },
  };
}
