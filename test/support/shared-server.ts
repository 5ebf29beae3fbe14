import { readFileSync } from 'node:fs';
import { startServerProcess } from './server-process.js';

/**
 * One embedded `leadfinder serve` with the settings below, shared by the test files that need no more
 * than that (an account of their own on the bundled sample corpus): it is started once for the whole
 * vitest run (test/support/shared-server.global.ts) instead of once per file, about 2 CPU-seconds and a
 * few seconds of waiting per file. Each file makes its own accounts, so files never see each other's runs
 * or money.
 */
export const SHARED_SERVER_ADMIN_TOKEN = 'shared-server-admin-token-0123456789abcdef';
/**
 * Its settings: the admin token, and webhooks to loopback receivers (the test files' own) allowed, with
 * retries a tenth of a second apart instead of seconds.
 */
export const SHARED_SERVER_SETTINGS: Readonly<Record<string, string>> = {
  LEADFINDER_ADMIN_TOKEN: SHARED_SERVER_ADMIN_TOKEN,
  LEADFINDER_WEBHOOK_ALLOW_PRIVATE: '1',
  LEADFINDER_WEBHOOK_RETRY_BASE_MS: '100',
};
/** Set by the global setup to the shared server's URL, for the test files; `off` (set by hand) gives each file its own server, as before. */
export const SHARED_SERVER_ENV = 'LEADFINDER_TEST_SHARED_SERVER';
/** Set by the global setup to the file the shared server's output goes to. */
export const SHARED_SERVER_LOG_ENV = 'LEADFINDER_TEST_SHARED_SERVER_LOG';
/** Set by the global setup to the shared server's data dir (LEADFINDER_DATA_DIR). */
export const SHARED_SERVER_DATA_ENV = 'LEADFINDER_TEST_SHARED_SERVER_DATA';

/** What a test file gets: the server's address, its output, and `stop`, which stops it only when it is the file's own. */
export interface EmbeddedServer {
  url: string;
  /** Its LEADFINDER_DATA_DIR (where it writes the sample corpus); shared by every file, so read it only. */
  dataDir: string;
  output(): string;
  stop(): Promise<void>;
}

/**
 * The shared embedded server (waits until it is ready), or, where the run has none (a run of other files
 * only, or a script outside vitest), one of the file's own with the same settings, stopped by `stop`.
 */
export async function embeddedServer(): Promise<EmbeddedServer> {
  const url = process.env[SHARED_SERVER_ENV];
  if (!url || url === 'off') {
    const own = await startServerProcess({ env: { ...SHARED_SERVER_SETTINGS } });
    return { url: own.url, dataDir: own.dataDir, output: own.output, stop: async () => void (await own.stop()) };
  }
  const log = process.env[SHARED_SERVER_LOG_ENV];
  const output = () => (log ? readFileSync(log, 'utf8') : '');
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the shared server at ${url} is not ready after 60 s:\n${output().slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, dataDir: process.env[SHARED_SERVER_DATA_ENV] ?? '', output, stop: async () => undefined };
}
