import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clockEnv } from '@leadfinder/testkit';
import { serveBin } from './serve-bin.js';

/** A real `leadfinder serve` process on a free loopback port, with its own data dir. */
export interface ServerProcess {
  url: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  /** Everything the process wrote, for failure messages. */
  output(): string;
  /** SIGTERM, wait for exit (SIGKILL after 10 s); removes the data dir unless `keepData`. */
  stop(options?: { keepData?: boolean }): Promise<number | null>;
  /** SIGKILL (a crash), then wait for exit. */
  kill(): Promise<void>;
}

/**
 * Ports for child processes. A child binds its port seconds after we picked it (its imports come first),
 * so a port the kernel hands out for `listen(0)` could meanwhile go to a server of a test file running
 * beside this one, and our readiness check would then reach that server. Each vitest worker therefore
 * takes ports from a block of its own, below the kernel's ephemeral range (where outgoing connections
 * take theirs), never the same one twice in a file, and a bind probe skips any port in use.
 */
const FIRST_PORT = 20_000;
const PORT_BLOCK = 1_500;
const blockStart = FIRST_PORT + ((Number(process.env.VITEST_POOL_ID ?? 1) - 1) % 8) * PORT_BLOCK;
let portOffset = process.pid % PORT_BLOCK;

export async function freePort(): Promise<number> {
  for (let tries = 0; tries < PORT_BLOCK; tries++) {
    const port = blockStart + (portOffset++ % PORT_BLOCK);
    if (await bindable(port)) return port;
  }
  throw new Error(`no free port in ${blockStart}-${blockStart + PORT_BLOCK - 1}`);
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

export async function startServerProcess(options: { env?: Record<string, string>; args?: string[]; dataDir?: string; readyTimeoutMs?: number } = {}): Promise<ServerProcess> {
  const port = options.env?.PORT ? Number(options.env.PORT) : await freePort();
  const launched = launchServerProcess(port, options);
  await launched.ready;
  return launched.server;
}

/**
 * Spawns `leadfinder serve` on `port` and returns at once: `ready` settles when it answers /readyz (or
 * rejects when it exits first or is not ready in time, after a SIGKILL).
 */
export function launchServerProcess(port: number, options: { env?: Record<string, string>; args?: string[]; dataDir?: string; readyTimeoutMs?: number } = {}): { server: ServerProcess; ready: Promise<void> } {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'leadfinder-test-'));
  const child = spawn(process.execPath, [serveBin(), 'serve', ...(options.args ?? [])], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      ...clockEnv(),
      HOST: '127.0.0.1',
      PORT: String(port),
      LEADFINDER_DATA_DIR: dataDir,
      LEADFINDER_LOG_LEVEL: 'warn',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  // 60 s: on two shared cores with test files in parallel, a start (about 3 CPU-seconds of imports) can
  // take far longer than on an idle machine; a healthy server is ready long before, so only a failure waits.
  const readyTimeoutMs = options.readyTimeoutMs ?? 60_000;
  const ready = (async () => {
    const deadline = Date.now() + readyTimeoutMs;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode} before it was ready:\n${output}`);
      try {
        const r = await fetch(`${url}/readyz`);
        if (r.ok) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`server not ready after ${readyTimeoutMs} ms:\n${output}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();

  const server: ServerProcess = {
    url, port, dataDir, child,
    output: () => output,
    async stop(stopOptions = {}) {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      if (!stopOptions.keepData && !options.dataDir) rmSync(dataDir, { recursive: true, force: true });
      return child.exitCode;
    },
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
  };
  return { server, ready };
}

/** Create an account through the admin API. */
export async function createAccount(url: string, adminToken: string, balanceUsd: number): Promise<{ id: string; apiKey: string; sessionToken: string }> {
  const r = await fetch(`${url}/admin/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ balanceUsd }),
  });
  if (r.status !== 201) throw new Error(`admin create account: ${r.status} ${await r.text()}`);
  return (await r.json()) as { id: string; apiKey: string; sessionToken: string };
}
