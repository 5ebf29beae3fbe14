import { constants, writeSync } from 'node:fs';
import { access, open, readFile, rename, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { LeadfinderError, UnavailableError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { PRIVATE_FILE_MODE, ensurePrivateDir, restrictFile } from './private-files.js';

/** The data dir (or a file in it) cannot be read or written. */
export class DataDirError extends UnavailableError {
  constructor(readonly path: string, reason: string, options?: ErrorOptions) {
    super('data-dir', `data dir ${path}: ${reason}`, { retryable: false, ...options });
    this.name = 'DataDirError';
  }
}

/**
 * An append-only JSON-lines journal: the one file format of the embedded store and event log. `append`
 * hands its lines to the OS before it returns (a synchronous write), so a process killed at any later
 * moment loses none of them: the store applies a change in memory, where readers see it, in the same
 * step as it appends it, and a reader never sees a change a crash of the process then takes back. The
 * promise resolves once the lines are on the disk (fdatasync, unless `sync: false`); appends made while a
 * sync is in flight share the next one (group commit). A torn last line (a crash mid-write) is ignored on
 * load.
 */
export interface Journal<R> {
  /** Records in the file, oldest first. */
  readonly records: R[];
  append(records: R[]): Promise<void>;
  /** Replace the file with these records (atomic rename); used to compact on start-up. */
  rewrite(records: R[]): Promise<void>;
  close(): Promise<void>;
}

export interface JournalOptions {
  dataDir: string;
  fileName: string;
  logger: Logger;
  /**
   * Whether `append` waits for the disk (fdatasync) or only for the OS (write). Money needs the disk;
   * the event log takes the OS's word, as JetStream does by default, since a process crash loses
   * nothing either way and a sync per batch costs it about 20× in appends per second.
   * @default true
   */
  sync?: boolean;
}

export async function openJournal<R>(options: JournalOptions): Promise<Journal<R>> {
  const sync = options.sync ?? true;
  const path = join(options.dataDir, options.fileName);
  try {
    await ensurePrivateDir(options.dataDir);
    await access(options.dataDir, constants.R_OK | constants.W_OK | constants.X_OK);
    await restrictFile(path);
  } catch (cause) {
    throw new DataDirError(options.dataDir, 'not readable and writable', { cause });
  }
  const { records, torn } = await load<R>(path, options.logger);
  // A torn tail must go before anything is appended after it, or it would corrupt the next line.
  if (torn) await writeAtomically(path, records);
  let handle = await openForAppend(path);
  let failed: Error | null = null;
  /** Appends written to the OS so far; those not yet known to be on the disk wait in `waiting`. */
  let written = 0;
  let waiting: { seq: number; resolve: () => void; reject: (e: Error) => void }[] = [];
  let syncing: Promise<void> | null = null;

  /** Memory and disk may now disagree: every waiting and later append is refused instead of silently diverging. */
  function fail(reason: string, cause: unknown): Error {
    failed = new DataDirError(path, reason, { cause });
    waiting.splice(0).forEach((w) => w.reject(failed!));
    return failed;
  }

  async function syncLoop(): Promise<void> {
    while (waiting.length > 0 && !failed) {
      const upTo = written;
      try {
        await handle.datasync();
      } catch (cause) {
        fail('sync failed', cause);
        break;
      }
      const done = waiting.filter((w) => w.seq <= upTo);
      waiting = waiting.filter((w) => w.seq > upTo);
      done.forEach((w) => w.resolve());
    }
    syncing = null;
  }

  return {
    records,
    append(recs) {
      if (failed) return Promise.reject(failed);
      const bytes = Buffer.from(recs.map((r) => JSON.stringify(r) + '\n').join(''));
      try {
        for (let off = 0; off < bytes.length;) off += writeSync(handle.fd, bytes, off);
      } catch (cause) {
        return Promise.reject(fail('write failed', cause));
      }
      written += 1;
      if (!sync) return Promise.resolve();
      const seq = written;
      const done = new Promise<void>((resolve, reject) => waiting.push({ seq, resolve, reject }));
      syncing ??= syncLoop();
      return done;
    },
    async rewrite(recs) {
      await syncing;
      await handle.close();
      await writeAtomically(path, recs);
      handle = await openForAppend(path);
    },
    async close() {
      await syncing;
      await handle.close();
    },
  };
}

async function openForAppend(path: string): Promise<FileHandle> {
  try {
    return await open(path, 'a', PRIVATE_FILE_MODE);
  } catch (cause) {
    throw new DataDirError(path, 'cannot open for writing', { cause });
  }
}

async function writeAtomically(path: string, records: unknown[]): Promise<void> {
  const tmp = `${path}.tmp`;
  try {
    const out = await open(tmp, 'w', PRIVATE_FILE_MODE);
    try {
      // A temp file left by a crash keeps its old mode when reopened.
      await out.chmod(PRIVATE_FILE_MODE);
      await out.write(records.map((r) => JSON.stringify(r) + '\n').join(''));
      await out.sync();
    } finally {
      await out.close();
    }
    await rename(tmp, path);
  } catch (cause) {
    throw new DataDirError(path, 'cannot rewrite', { cause });
  }
}

async function load<R>(path: string, logger: Logger): Promise<{ records: R[]; torn: boolean }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], torn: false };
    throw new DataDirError(path, 'cannot read', { cause });
  }
  const lines = text.split('\n');
  const records: R[] = [];
  let torn = false;
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') continue;
    try {
      records.push(JSON.parse(line) as R);
    } catch (cause) {
      // Only the last line can be torn by a crash; damage anywhere else is corruption.
      const isLast = lines.slice(i + 1).every((l) => l.trim() === '');
      if (!isLast) throw new LeadfinderError('LF_ERR_INTERNAL', `${path}: line ${i + 1} is not valid JSON`, { cause });
      logger.warn('ignoring torn last journal line', { path, line: i + 1 });
      torn = true;
    }
  }
  return { records, torn };
}
