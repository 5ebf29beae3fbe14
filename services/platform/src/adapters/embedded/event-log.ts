import type { RunEvent, SequencedEvent } from '@leadfinder/wire';
import { systemClock, type Clock } from '../../context.js';
import { UnavailableError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { EVENT_RETENTION_MS, type EventLog } from '../../ports/event-log.js';
import { EventLogFile, type StoredLogRecord } from './event-log-file.js';

export interface EmbeddedEventLogOptions {
  /** Directory holding `events.jsonl`; created if missing. */
  dataDir: string;
  logger: Logger;
  /** @default systemClock */
  clock?: Clock;
  /** @default EVENT_RETENTION_MS (24 h) */
  retentionMs?: number;
  /** How often expired events are dropped from memory and the file. @default min(retentionMs, 5 min) */
  purgeIntervalMs?: number;
}

/** Followers wake on each commit; they re-read from their cursor, so a missed wake-up cannot cause a gap. */
const FOLLOW_BATCH = 256;

/**
 * Embedded event log: a JSON-lines file in the data dir, an in-memory index by run, and an in-process
 * notifier for followers. Appends are group-committed in seq order: an event is visible to readers and
 * followers only once it is on disk, so nothing a client saw is lost by a crash.
 */
export async function createEmbeddedEventLog(options: EmbeddedEventLogOptions): Promise<EventLog> {
  const log = new EmbeddedEventLog(options);
  await log.start();
  return log;
}

interface PendingAppend {
  record: StoredLogRecord;
  resolve(seq: number): void;
  reject(err: unknown): void;
}

class EmbeddedEventLog implements EventLog {
  private readonly file: EventLogFile;
  private readonly logger: Logger;
  private readonly clock: Clock;
  private readonly retentionMs: number;
  private readonly purgeIntervalMs: number;
  private readonly byRun = new Map<string, StoredLogRecord[]>();
  /** Committed dedupe ids (kept as long as their event is retained). */
  private readonly dedupe = new Map<string, number>();
  /** Dedupe ids whose append is still being written. */
  private readonly inflight = new Map<string, Promise<number>>();
  private readonly wakers = new Map<string, Set<() => void>>();
  private readonly closing = new AbortController();
  private pending: PendingAppend[] = [];
  private lastSeq = 0;
  /** Serialises file writes and rewrites. */
  private serial: Promise<void> = Promise.resolve();
  private flushQueued = false;
  private purgeTimer: NodeJS.Timeout | undefined;

  constructor(options: EmbeddedEventLogOptions) {
    this.logger = options.logger.child({ component: 'event-log', adapter: 'embedded' });
    this.file = new EventLogFile(options.dataDir, this.logger);
    this.clock = options.clock ?? systemClock;
    this.retentionMs = options.retentionMs ?? EVENT_RETENTION_MS;
    this.purgeIntervalMs = options.purgeIntervalMs ?? Math.min(this.retentionMs, 5 * 60_000);
  }

  async start(): Promise<void> {
    const { records, lastSeq } = await this.file.load();
    this.lastSeq = lastSeq;
    for (const record of records) this.index(record);
    // Always compact on start: drops expired events and any torn tail before the next append lands after it.
    await this.purge({ rewrite: true });
    this.purgeTimer = setInterval(() => {
      this.serial = this.serial.then(() => this.purge({ rewrite: false })).catch((err: unknown) => {
        this.logger.error('event log: purge failed', { err: String(err) });
      });
    }, this.purgeIntervalMs);
    this.purgeTimer.unref();
    this.logger.info('event log loaded', { file: this.file.path, events: records.length, lastSeq });
  }

  append(runId: string, event: RunEvent, dedupeId: string): Promise<number> {
    return this.write(runId, dedupeId, (head) => ({ ...head, event }));
  }

  end(runId: string): Promise<number> {
    return this.write(runId, endDedupeId(runId), (head) => ({ ...head, end: true }));
  }

  private write(runId: string, dedupeId: string, make: (head: Omit<StoredLogRecord, 'event' | 'end'>) => StoredLogRecord): Promise<number> {
    if (this.closing.signal.aborted) return Promise.reject(new UnavailableError('event-log', 'event log is closed'));
    const known = this.dedupe.get(dedupeId);
    if (known !== undefined) return Promise.resolve(known);
    const writing = this.inflight.get(dedupeId);
    if (writing) return writing;

    const record = make({ seq: ++this.lastSeq, runId, dedupeId, at: this.clock.now() });
    const done = new Promise<number>((resolve, reject) => this.pending.push({ record, resolve, reject }));
    this.inflight.set(dedupeId, done);
    this.queueFlush();
    return done;
  }

  async read(runId: string, afterSeq: number, limit?: number): Promise<SequencedEvent[]> {
    return this.readNow(runId, afterSeq, limit ?? Number.POSITIVE_INFINITY).filter(isEvent);
  }

  async *follow(runId: string, afterSeq: number, signal: AbortSignal): AsyncIterable<SequencedEvent> {
    const stop = AbortSignal.any([signal, this.closing.signal]);
    let cursor = afterSeq;
    while (!stop.aborted) {
      const batch = this.readNow(runId, cursor, FOLLOW_BATCH, { withEnd: true });
      if (batch.length === 0) {
        // A cursor at or past the end marker's seq reads nothing, not even the marker: the run has ended all the same.
        if (this.ended(runId)) return;
        // Registered synchronously after the read, so a commit in between cannot be missed.
        await this.nextCommit(runId, stop);
        continue;
      }
      for (const item of batch) {
        if (stop.aborted || !isEvent(item)) return;
        yield item;
        cursor = item.seq;
      }
    }
  }

  async ping(): Promise<void> {
    if (this.closing.signal.aborted) throw new UnavailableError('event-log', 'event log is closed');
  }

  async close(): Promise<void> {
    if (this.closing.signal.aborted) return;
    this.closing.abort();
    clearInterval(this.purgeTimer);
    await this.serial;
    await this.file.close();
  }

  /** Whether the run's end marker is written (it is the run's last record: nothing of the run follows it). */
  private ended(runId: string): boolean {
    const last = this.byRun.get(runId)?.at(-1);
    return last !== undefined && !('event' in last);
  }

  /** Up to `limit` of the run's events after `afterSeq`; `withEnd` also returns its end marker (counted in `limit`). */
  private readNow(runId: string, afterSeq: number, limit: number, options: { withEnd?: boolean } = {}): LogItem[] {
    const events = this.byRun.get(runId);
    if (!events || limit <= 0) return [];
    const cutoff = this.clock.now() - this.retentionMs;
    const out: LogItem[] = [];
    for (let i = firstAfter(events, afterSeq); i < events.length && out.length < limit; i++) {
      const record = events[i]!;
      // Expired but not yet purged events are already invisible: retention is exact, not timer-bound.
      if (record.at <= cutoff) continue;
      if ('event' in record) out.push({ seq: record.seq, event: record.event });
      else if (options.withEnd) out.push({ seq: record.seq, end: true });
    }
    return out;
  }

  private nextCommit(runId: string, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      let set = this.wakers.get(runId);
      if (!set) this.wakers.set(runId, (set = new Set()));
      const wake = () => {
        set.delete(wake);
        if (set.size === 0 && this.wakers.get(runId) === set) this.wakers.delete(runId);
        signal.removeEventListener('abort', wake);
        resolve();
      };
      set.add(wake);
      signal.addEventListener('abort', wake, { once: true });
    });
  }

  private queueFlush(): void {
    if (this.flushQueued) return;
    this.flushQueued = true;
    this.serial = this.serial.then(() => this.flush());
  }

  /** Writes every queued append in one go, then makes them visible in seq order. */
  private async flush(): Promise<void> {
    this.flushQueued = false;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    try {
      await this.file.append(batch.map((p) => p.record));
    } catch (err) {
      this.logger.error('event log: append failed', { err: String(err), events: batch.length });
      for (const p of batch) {
        this.inflight.delete(p.record.dedupeId);
        p.reject(new UnavailableError('event-log', 'could not write the event log', { cause: err }));
      }
      return;
    }
    const touched = new Set<string>();
    for (const p of batch) {
      this.index(p.record);
      this.inflight.delete(p.record.dedupeId);
      touched.add(p.record.runId);
      p.resolve(p.record.seq);
    }
    for (const runId of touched) for (const wake of [...(this.wakers.get(runId) ?? [])]) wake();
  }

  private index(record: StoredLogRecord): void {
    let events = this.byRun.get(record.runId);
    if (!events) this.byRun.set(record.runId, (events = []));
    events.push(record);
    this.dedupe.set(record.dedupeId, record.seq);
  }

  /** Drops expired events from memory and, when any were dropped (or asked to), rewrites the file. */
  private async purge(options: { rewrite: boolean }): Promise<void> {
    const cutoff = this.clock.now() - this.retentionMs;
    let purged = 0;
    for (const [runId, events] of this.byRun) {
      const kept = events.filter((r) => r.at > cutoff);
      if (kept.length === events.length) continue;
      purged += events.length - kept.length;
      for (const r of events) if (r.at <= cutoff) this.dedupe.delete(r.dedupeId);
      if (kept.length === 0) this.byRun.delete(runId);
      else this.byRun.set(runId, kept);
    }
    if (purged === 0 && !options.rewrite) return;
    const all = [...this.byRun.values()].flat().sort((a, b) => a.seq - b.seq);
    await this.file.rewrite(this.lastSeq, all);
    if (purged > 0) this.logger.info('event log: purged expired events', { purged, kept: all.length });
  }
}

/** What the index yields: an event, or the run's end marker. */
type LogItem = SequencedEvent | { seq: number; end: true };

function isEvent(item: LogItem): item is SequencedEvent {
  return 'event' in item;
}

/** One end marker per run: a second `end` returns the first one's seq. */
function endDedupeId(runId: string): string {
  return `${runId}:end`;
}

/** Index of the first record with seq > afterSeq (records are sorted by seq). */
function firstAfter(events: readonly StoredLogRecord[], afterSeq: number): number {
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (events[mid]!.seq <= afterSeq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
