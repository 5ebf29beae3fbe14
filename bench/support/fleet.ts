import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The distributed topology as separate `leadfinder serve --role …` processes (what the chart runs):
 * a dedicated nats-server with JetStream in a temp dir, a database unique to this bench on the given
 * MongoDB/FerretDB, and fetcher, filter, coordinators and an edge on loopback. Everything it starts it
 * stops (by its own pid), and the temp dir and database are removed.
 */
export interface Fleet {
  edgeUrl: string;
  /** The edge's admin API (its own listener). */
  adminUrl: string;
  adminToken: string;
  /** What the store ran on: a FerretDB the fleet started for itself (its CPU is then counted), or the given URL. */
  database: 'dedicated ferretdb' | 'given url';
  /**
   * Commands the dedicated FerretDB has answered so far, by command name (its /debug/metrics), or null
   * when the store is the given URL.
   */
  databaseCommands(): Promise<Record<string, number> | null>;
  /** CPU seconds (user + system) each process has used so far, by process name (Linux /proc). */
  cpuSeconds(): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

export interface FleetOptions {
  /** Used when no FerretDB binary is found (LEADFINDER_TEST_FERRETDB_BIN, else ~/go/bin/ferretdb). */
  mongoUrl: string;
  coordinators: number;
  /** Extra environment for every role. */
  env?: Record<string, string>;
  log(message: string): void;
}

const BIN = fileURLToPath(new URL('../../services/cli/bin/leadfinder.mjs', import.meta.url));

interface Proc {
  name: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const natsBin = process.env.LEADFINDER_TEST_NATS_BIN ?? join(process.env.HOME ?? '/root', 'go', 'bin', 'nats-server');
  if (!existsSync(natsBin)) throw new Error(`nats-server not found at ${natsBin} (set LEADFINDER_TEST_NATS_BIN)`);
  const root = await mkdtemp(join(tmpdir(), 'leadfinder-bench-fleet-'));
  const dbName = `bench_fleet_${randomBytes(4).toString('hex')}`;
  const adminToken = `bench-admin-${randomBytes(12).toString('hex')}`;
  const procs: Proc[] = [];
  let databaseUrl: string | null = null;
  const stop = async () => {
    for (const p of [...procs].reverse()) await p.stop();
    // LEADFINDER_BENCH_FLEET_LOGS=<dir> keeps each process's last output there, to see where time went.
    const keep = process.env.LEADFINDER_BENCH_FLEET_LOGS;
    if (keep) await Promise.all(procs.map((p) => writeFile(join(keep, `${p.name}.log`), p.output())));
    // A dedicated FerretDB is gone with the temp dir; the given server keeps nothing of the bench.
    if (databaseUrl === options.mongoUrl) await dropDatabase(options.mongoUrl, dbName).catch(() => undefined);
    await rm(root, { recursive: true, force: true });
  };
  try {
    const natsPort = await freePort();
    const nats = spawnProc('nats-server', natsBin, ['-js', '-a', '127.0.0.1', '-p', String(natsPort), '-sd', join(root, 'nats')], {});
    procs.push(nats);
    await waitFor('nats-server', () => canConnect(natsPort), 15_000, nats);
    // A FerretDB of its own (SQLite in the temp dir) when one is installed: its CPU is then the fleet's
    // alone, counted like the roles', and its command counters say what each run asks of it. On a shared
    // server neither could be told apart from other clients' load.
    const ferretBin = process.env.LEADFINDER_TEST_FERRETDB_BIN ?? join(process.env.HOME ?? '/root', 'go', 'bin', 'ferretdb');
    let mongoUrl = options.mongoUrl;
    let debugUrl: string | null = null;
    if (existsSync(ferretBin)) {
      const [port, debugPort] = [await freePort(), await freePort()];
      await mkdir(join(root, 'ferretdb'), { recursive: true });
      const ferret = spawnProc('ferretdb', ferretBin, [
        '--handler=sqlite', `--sqlite-url=file:${join(root, 'ferretdb')}/`, `--listen-addr=127.0.0.1:${port}`,
        '--telemetry=disable', `--state-dir=${join(root, 'ferretdb')}`, `--debug-addr=127.0.0.1:${debugPort}`, '--log-level=warn',
      ], {});
      procs.push(ferret);
      await waitFor('ferretdb', () => canConnect(port), 15_000, ferret);
      mongoUrl = `mongodb://127.0.0.1:${port}/`;
      debugUrl = `http://127.0.0.1:${debugPort}/debug/metrics`;
      options.log(`fleet: dedicated ferretdb on port ${port}, metrics and pprof at http://127.0.0.1:${debugPort}/debug/`);
    }
    databaseUrl = mongoUrl;
    const common = {
      // Kept logs (LEADFINDER_BENCH_FLEET_LOGS) are at info: one line per run claimed and ended.
      HOST: '127.0.0.1', LEADFINDER_LOG_LEVEL: process.env.LEADFINDER_BENCH_FLEET_LOGS ? 'info' : 'warn',
      LEADFINDER_MONGODB_URL: mongoUrl, LEADFINDER_MONGODB_DB: dbName, LEADFINDER_NATS_URL: `nats://127.0.0.1:${natsPort}`,
      LEADFINDER_SESSION_SECRET: randomBytes(32).toString('base64'), LEADFINDER_ADMIN_TOKEN: adminToken,
      LEADFINDER_RATE_LIMIT_PER_MIN: '100000000',
      ...options.env,
    };
    const role = async (name: string, kind: string, env: Record<string, string>) => {
      const httpPort = await freePort();
      const p = spawnProc(name, process.execPath, [BIN, 'serve', '--role', kind], {
        ...common, LEADFINDER_DATA_DIR: join(root, name), ...env,
        ...(kind === 'edge' ? { PORT: String(httpPort) } : { LEADFINDER_HEALTH_PORT: String(httpPort) }),
      });
      procs.push(p);
      const base = `http://127.0.0.1:${httpPort}`;
      await waitFor(`${name} /readyz`, async () => (await fetch(`${base}/readyz`)).ok, 90_000, p);
      return base;
    };
    const [fetcherPort, filterPort] = [await freePort(), await freePort()];
    options.log('fleet: fetcher, filter');
    await Promise.all([
      role('fetcher', 'fetcher', { LEADFINDER_GRPC_PORT: String(fetcherPort) }),
      role('filter', 'filter', { LEADFINDER_GRPC_PORT: String(filterPort) }),
    ]);
    options.log(`fleet: ${options.coordinators} coordinators, edge`);
    const adminPort = await freePort();
    const [edgeUrl] = await Promise.all([
      role('edge', 'edge', { LEADFINDER_ADMIN_PORT: String(adminPort) }),
      ...Array.from({ length: options.coordinators }, (_, i) => role(`coordinator-${i + 1}`, 'coordinator', {
        LEADFINDER_FETCHER_ADDR: `127.0.0.1:${fetcherPort}`, LEADFINDER_FILTER_ADDR: `127.0.0.1:${filterPort}`,
      })),
    ]);
    const cpuSeconds = async () => Object.fromEntries(await Promise.all(procs.map(async (p) => [p.name, await processCpuSeconds(p.child.pid)] as const)));
    const databaseCommands = async () => (debugUrl ? ferretCommandCounts(debugUrl) : null);
    return {
      edgeUrl: edgeUrl!, adminUrl: `http://127.0.0.1:${adminPort}`, adminToken, cpuSeconds, stop,
      database: debugUrl ? 'dedicated ferretdb' : 'given url', databaseCommands,
    };
  } catch (error) {
    const tails = procs.map((p) => `--- ${p.name}\n${p.output().slice(-1500)}`).join('\n');
    await stop();
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${tails}`);
  }
}

/**
 * FerretDB's answered commands by name, from its Prometheus counters
 * (`ferretdb_client_responses_total{command="find",…}`), summed over opcodes and results.
 */
async function ferretCommandCounts(url: string): Promise<Record<string, number>> {
  const text = await (await fetch(url)).text();
  const counts: Record<string, number> = {};
  for (const line of text.split('\n')) {
    if (!line.startsWith('ferretdb_client_responses_total{')) continue;
    const command = /command="([^"]*)"/.exec(line)?.[1];
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    if (command && Number.isFinite(value)) counts[command] = (counts[command] ?? 0) + value;
  }
  return counts;
}

/** utime + stime of a process from /proc/<pid>/stat (clock ticks of 1/100 s on Linux); 0 elsewhere. */
async function processCpuSeconds(pid: number | undefined): Promise<number> {
  if (pid === undefined) return 0;
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

function spawnProc(name: string, command: string, args: string[], env: Record<string, string>): Proc {
  const child = spawn(command, args, { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (d: Buffer) => {
    output = (output + d.toString()).slice(-400_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exit = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    name, child, output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exit;
      clearTimeout(timer);
    },
  };
}

async function waitFor(what: string, probe: () => Promise<boolean>, timeoutMs: number, proc: Proc): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (proc.child.exitCode !== null) throw new Error(`${proc.name} exited before ${what}`);
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function dropDatabase(url: string, dbName: string): Promise<void> {
  const { MongoClient } = await import('mongodb');
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 5000 });
  try {
    await client.connect();
    await client.db(dbName).dropDatabase();
  } finally {
    await client.close();
  }
}
