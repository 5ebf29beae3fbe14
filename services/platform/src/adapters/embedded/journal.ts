import { constants } from 'node:fs';
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
 * resolves only once its lines are written (and fsynced, unless `sync: false`);
 * lines queued while a write is in flight go out together in the next write (group commit), in the
 * order they were appended. A torn last line (a crash mid-write) is ignored on load.
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
  let queue: { text: string; resolve: () => void; reject: (e: Error) => void }[] = [];
  let flushing: Promise<void> | null = null;

  async function flush(): Promise<void> {
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      try {
        await handle.write(batch.map((b) => b.text).join(''));
        if (sync) await handle.datasync();
        batch.forEach((b) => b.resolve());
      } catch (cause) {
        // Memory and disk may now disagree: refuse every later write instead of silently diverging.
        failed = new DataDirError(path, 'write failed', { cause });
        batch.forEach((b) => b.reject(failed!));
        queue.splice(0).forEach((b) => b.reject(failed!));
      }
    }
    flushing = null;
  }

  return {
    records,
    append(recs) {
      if (failed) return Promise.reject(failed);
      const text = recs.map((r) => JSON.stringify(r) + '\n').join('');
      const done = new Promise<void>((resolve, reject) => queue.push({ text, resolve, reject }));
      flushing ??= flush();
      return done;
    },
    async rewrite(recs) {
      await flushing;
      await handle.close();
      await writeAtomically(path, recs);
      handle = await openForAppend(path);
    },
    async close() {
      await flushing;
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
