import { chmod, mkdir } from 'node:fs/promises';

/**
 * The embedded store and event log hold emails, queries, results and key hashes: only the service's
 * own user may read them. New folders and files are created private, and ones left by an older
 * version (0755/0644) are tightened when opened.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Create the folder (and missing parents) as 0700, and make an existing one 0700. */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  await chmod(dir, PRIVATE_DIR_MODE);
}

/** Make an existing file 0600; a missing one is fine (it will be created 0600). */
export async function restrictFile(path: string): Promise<void> {
  try {
    await chmod(path, PRIVATE_FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
