import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { isRunSetup } from './run-setup.js';
import { launchServerProcess } from './server-process.js';
import { SHARED_SERVER_DATA_ENV, SHARED_SERVER_ENV, SHARED_SERVER_LOG_ENV, SHARED_SERVER_SETTINGS } from './shared-server.js';

/**
 * vitest global setup: starts the embedded server the test files share (test/support/shared-server.ts)
 * when the run includes a file that uses it, hands its URL to the files, and stops it at the end of the
 * run. It is started in the background (the files wait until it is ready), after the bundle's global
 * setup, so it runs the bundle as every other server of the run does.
 */

/** Ports for the shared server: above the blocks test files take theirs from (server-process.ts), below the kernel's ephemeral range. */
const FIRST_PORT = 32_000;
const LAST_PORT = 32_700;

function bindable(port: number): Promise<boolean> {
  return new Promise((done) => {
    const s = createServer();
    s.once('error', () => done(false));
    s.listen(port, '127.0.0.1', () => s.close(() => done(true)));
  });
}

async function freeSharedPort(): Promise<number> {
  const offset = process.pid % (LAST_PORT - FIRST_PORT);
  for (let i = 0; i <= LAST_PORT - FIRST_PORT; i++) {
    const port = FIRST_PORT + ((offset + i) % (LAST_PORT - FIRST_PORT + 1));
    if (await bindable(port)) return port;
  }
  throw new Error(`no free port in ${FIRST_PORT}-${LAST_PORT}`);
}

function testFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) testFiles(path, out);
    else if (entry.name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

/**
 * Whether this run includes a test file that uses the shared server: every file when vitest is given no
 * file filters, else those the filters name. An argument taken wrongly for a filter at worst leaves the
 * server unstarted, and the files then start one of their own.
 */
function runUsesSharedServer(): boolean {
  const args = process.argv.slice(2);
  const filters = args.slice(args[0] === 'run' ? 1 : 0).filter((a) => !a.startsWith('-'));
  const users = [...testFiles('services'), ...testFiles('test')].filter((f) => readFileSync(f, 'utf8').includes('embeddedServer()'));
  if (filters.length === 0) return users.length > 0;
  return users.some((f) => filters.some((filter) => f.includes(filter) || resolve(f) === resolve(filter)));
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  if (!isRunSetup(project) || process.env[SHARED_SERVER_ENV] === 'off' || !runUsesSharedServer()) return;
  const logDir = mkdtempSync(join(tmpdir(), 'leadfinder-shared-server-'));
  const log = join(logDir, 'output.log');
  appendFileSync(log, '');
  const { server, ready } = launchServerProcess(await freeSharedPort(), { env: { ...SHARED_SERVER_SETTINGS } });
  server.child.stdout!.on('data', (d: Buffer) => appendFileSync(log, d));
  server.child.stderr!.on('data', (d: Buffer) => appendFileSync(log, d));
  // The files wait for it themselves (and report a failed start); nothing here waits.
  const started = ready.then(() => true, () => false);
  process.env[SHARED_SERVER_ENV] = server.url;
  process.env[SHARED_SERVER_LOG_ENV] = log;
  process.env[SHARED_SERVER_DATA_ENV] = server.dataDir;
  return async () => {
    await started;
    await server.stop();
    rmSync(logDir, { recursive: true, force: true });
    delete process.env[SHARED_SERVER_ENV];
    delete process.env[SHARED_SERVER_LOG_ENV];
    delete process.env[SHARED_SERVER_DATA_ENV];
  };
}
