import { open, readFile, rename, writeFile, appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunEvent } from '@leadfinder/wire';
import type { Logger } from '../../logger.js';
import { PRIVATE_FILE_MODE, ensurePrivateDir, restrictFile } from './private-files.js';

/** One stored event: the JSON-lines record of the embedded event log file. */
export interface StoredEventRecord {
  seq: number;
  runId: string;
  dedupeId: string;
  /** Append time (ms since epoch, from the injected clock); retention is measured from it. */
  at: number;
  event: RunEvent;
}

/**
 * The first line of a compacted file. It keeps the highest seq ever handed out, so seqs keep rising
 * after a restart even when retention has purged every event.
 */
interface HighWaterMark {
  lastSeq: number;
}

export interface LoadedEventFile {
  records: StoredEventRecord[];
  lastSeq: number;
}

/** The JSON-lines file behind the embedded event log. Callers serialise writes and rewrites. */
export class EventLogFile {
  readonly path: string;

  constructor(dataDir: string, private readonly logger: Logger) {
    this.path = join(dataDir, 'events.jsonl');
  }

  /** Reads every whole line; a torn last line (crash mid-write) is dropped with a warning. */
  async load(): Promise<LoadedEventFile> {
    await ensurePrivateDir(join(this.path, '..'));
    await restrictFile(this.path);
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], lastSeq: 0 };
      throw err;
    }
    const lines = text.split('\n');
    const records: StoredEventRecord[] = [];
    let lastSeq = 0;
    lines.forEach((line, index) => {
      if (line.trim() === '') return;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        const isLast = index === lines.length - 1;
        this.logger.warn(isLast ? 'event log: dropping torn last line' : 'event log: skipping unreadable line', {
          file: this.path,
          line: index + 1,
        });
        return;
      }
      if (isRecord(value)) {
        records.push(value);
        lastSeq = Math.max(lastSeq, value.seq);
      } else if (isMark(value)) {
        lastSeq = Math.max(lastSeq, value.lastSeq);
      }
    });
    records.sort((a, b) => a.seq - b.seq);
    return { records, lastSeq };
  }

  async append(records: readonly StoredEventRecord[]): Promise<void> {
    await appendFile(this.path, records.map((r) => JSON.stringify(r) + '\n').join(''), { encoding: 'utf8', mode: PRIVATE_FILE_MODE });
  }

  /** Replaces the file atomically (temp file, fsync, rename) with the mark and the kept records. */
  async rewrite(lastSeq: number, records: readonly StoredEventRecord[]): Promise<void> {
    const tmp = `${this.path}.tmp`;
    const mark: HighWaterMark = { lastSeq };
    await writeFile(tmp, [mark, ...records].map((r) => JSON.stringify(r) + '\n').join(''), { encoding: 'utf8', mode: PRIVATE_FILE_MODE });
    const handle = await open(tmp, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, this.path);
    // A temp file left by a crash keeps its old mode when rewritten.
    await restrictFile(this.path);
  }
}

function isRecord(value: unknown): value is StoredEventRecord {
  const v = value as Partial<StoredEventRecord> | null;
  return (
    typeof v === 'object' && v !== null && typeof v.seq === 'number' && typeof v.runId === 'string' &&
    typeof v.dedupeId === 'string' && typeof v.at === 'number' && typeof v.event === 'object'
  );
}

function isMark(value: unknown): value is HighWaterMark {
  const v = value as Partial<HighWaterMark> & { seq?: unknown } | null;
  return typeof v === 'object' && v !== null && typeof v.lastSeq === 'number' && v.seq === undefined;
}
