import { join } from 'node:path';
import type { RunEvent } from '@leadfinder/wire';
import type { Logger } from '../../logger.js';
import { openJournal, type Journal } from './journal.js';

/** One stored event: the JSON-lines record of the embedded event log file. */
export interface StoredEventRecord {
  seq: number;
  runId: string;
  dedupeId: string;
  /** Append time (ms since epoch, from the injected clock); retention is measured from it. */
  at: number;
  event: RunEvent;
}

/** The end marker of a run (`EventLog.end`): a line of its own kind, after the run's last event. */
export interface StoredEndRecord {
  seq: number;
  runId: string;
  dedupeId: string;
  at: number;
  end: true;
}

/** One line of the log that belongs to a run: an event or the run's end marker. */
export type StoredLogRecord = StoredEventRecord | StoredEndRecord;

/**
 * The first line of a compacted file. It keeps the highest seq ever handed out, so seqs keep rising
 * after a restart even when retention has purged every event.
 */
interface HighWaterMark {
  lastSeq: number;
}

type EventFileLine = StoredLogRecord | HighWaterMark;

export interface LoadedEventFile {
  records: StoredLogRecord[];
  lastSeq: number;
}

/**
 * The file behind the embedded event log: `events.jsonl` in the data dir, kept by the same JSON-lines
 * journal as the store (group commits, atomic rewrites, private modes, one torn-line rule), without a
 * disk sync per append (see `JournalOptions.sync`).
 * Callers serialise writes and rewrites.
 */
export class EventLogFile {
  readonly path: string;
  private journal: Journal<EventFileLine> | null = null;

  constructor(private readonly dataDir: string, private readonly logger: Logger) {
    this.path = join(dataDir, 'events.jsonl');
  }

  /** Opens the file and reads every whole line (a torn last line is dropped with a warning). */
  async load(): Promise<LoadedEventFile> {
    this.journal = await openJournal<EventFileLine>({ dataDir: this.dataDir, fileName: 'events.jsonl', logger: this.logger, sync: false });
    const records: StoredLogRecord[] = [];
    let lastSeq = 0;
    for (const line of this.journal.records) {
      if (isRecord(line) || isEndRecord(line)) {
        records.push(line);
        lastSeq = Math.max(lastSeq, line.seq);
      } else if (isMark(line)) {
        lastSeq = Math.max(lastSeq, line.lastSeq);
      }
    }
    records.sort((a, b) => a.seq - b.seq);
    // The journal keeps what it loaded in memory; the event log keeps its own index, so let it go.
    this.journal.records.length = 0;
    return { records, lastSeq };
  }

  append(records: readonly StoredLogRecord[]): Promise<void> {
    return this.opened().append([...records]);
  }

  /** Replaces the file atomically with the high-water mark and the kept records. */
  rewrite(lastSeq: number, records: readonly StoredLogRecord[]): Promise<void> {
    const mark: HighWaterMark = { lastSeq };
    return this.opened().rewrite([mark, ...records]);
  }

  async close(): Promise<void> {
    await this.journal?.close();
    this.journal = null;
  }

  private opened(): Journal<EventFileLine> {
    if (!this.journal) throw new Error('event log file used before load()');
    return this.journal;
  }
}

function isRecord(value: unknown): value is StoredEventRecord {
  const v = value as Partial<StoredEventRecord> | null;
  return (
    typeof v === 'object' && v !== null && typeof v.seq === 'number' && typeof v.runId === 'string' &&
    typeof v.dedupeId === 'string' && typeof v.at === 'number' && typeof v.event === 'object'
  );
}

function isEndRecord(value: unknown): value is StoredEndRecord {
  const v = value as Partial<StoredEndRecord> | null;
  return (
    typeof v === 'object' && v !== null && typeof v.seq === 'number' && typeof v.runId === 'string' &&
    typeof v.dedupeId === 'string' && typeof v.at === 'number' && v.end === true
  );
}

function isMark(value: unknown): value is HighWaterMark {
  const v = value as Partial<HighWaterMark> & { seq?: unknown } | null;
  return typeof v === 'object' && v !== null && typeof v.lastSeq === 'number' && v.seq === undefined;
}
