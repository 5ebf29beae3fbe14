import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { HostSpec } from './host-child.js';

/** Parent side of host-child.ts: start it, talk to it, stop it (always by its own pid). */
export interface Host {
  url: string;
  adminToken: string;
  call<T = unknown>(cmd: string, args?: Record<string, unknown>): Promise<T>;
  stop(): Promise<void>;
}

/** CPU time (user + system, µs) the host process has used so far: diff two readings around a phase. */
export async function hostCpuMicros(host: Host): Promise<number> {
  const usage = await host.call<{ user: number; system: number }>('cpu');
  return usage.user + usage.system;
}

const CHILD = fileURLToPath(new URL('./host-child.ts', import.meta.url));
const START_TIMEOUT_MS = 60_000;

export async function startHost(spec: Omit<HostSpec, 'adminToken'>): Promise<Host> {
  const adminToken = `bench-admin-${randomBytes(12).toString('hex')}`;
  const child: ChildProcess = fork(CHILD, [], {
    // LEADFINDER_BENCH_HOST_NODE_ARGS: extra node flags for the process under test, e.g.
    // `--cpu-prof --cpu-prof-dir=/tmp/prof` to see where its CPU goes (NODE_OPTIONS refuses --cpu-prof).
    execArgv: ['--import', 'tsx', '--expose-gc', ...(process.env.LEADFINDER_BENCH_HOST_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? [])],
    env: { ...process.env, LEADFINDER_BENCH_HOST: JSON.stringify({ ...spec, adminToken }) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let nextId = 1;
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => {
    exited = true;
    for (const p of pending.values()) p.reject(new Error('bench host exited'));
    pending.clear();
    resolve();
  }));

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('bench host did not start within 60 s')), START_TIMEOUT_MS);
    child.on('message', (message: { type?: string; url?: string; error?: string; id?: number; ok?: boolean; result?: unknown }) => {
      if (message.type === 'ready') {
        clearTimeout(timer);
        resolve(message.url!);
      } else if (message.type === 'failed') {
        clearTimeout(timer);
        reject(new Error(`bench host failed to start: ${message.error}`));
      } else if (message.id !== undefined) {
        const waiter = pending.get(message.id);
        pending.delete(message.id);
        if (message.ok) waiter?.resolve(message.result);
        else waiter?.reject(new Error(message.error));
      }
    });
    void exit.then(() => {
      clearTimeout(timer);
      reject(new Error('bench host exited during start-up'));
    });
  }).catch(async (error: unknown) => {
    if (!exited) child.kill('SIGTERM');
    await exit;
    throw error;
  });

  const call = <T>(cmd: string, args?: Record<string, unknown>) =>
    new Promise<T>((resolve, reject) => {
      if (exited) return reject(new Error('bench host exited'));
      const id = nextId++;
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      child.send({ id, cmd, args });
    });

  return {
    url,
    adminToken,
    call,
    async stop() {
      if (exited) return;
      const forced = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await call('stop').catch(() => undefined);
      await exit;
      clearTimeout(forced);
    },
  };
}
