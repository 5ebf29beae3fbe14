import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clockEnv } from '@leadfinder/testkit';

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

export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      s.close(() => resolve(port));
    });
  });
}

const BIN = join(process.cwd(), 'services', 'cli', 'bin', 'leadfinder.mjs');

export async function startServerProcess(options: { env?: Record<string, string>; args?: string[]; dataDir?: string; readyTimeoutMs?: number } = {}): Promise<ServerProcess> {
  const port = options.env?.PORT ? Number(options.env.PORT) : await freePort();
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'leadfinder-test-'));
  const child = spawn(process.execPath, [BIN, 'serve', ...(options.args ?? [])], {
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
  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode} before it was ready:\n${output}`);
    try {
      const r = await fetch(`${url}/readyz`);
      if (r.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server not ready after ${readyTimeoutMs} ms:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  return {
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
