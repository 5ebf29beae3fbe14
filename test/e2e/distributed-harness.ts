import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { clockEnv, recordSkippedSuite, serverUrl, serversRequired } from '@leadfinder/testkit';
import { MongoClient } from 'mongodb';
import { freePort } from '../support/server-process.js';
import { serveBin } from '../support/serve-bin.js';

/**
 * Harness for the distributed end-to-end suite: real `leadfinder serve --role …` processes, a dedicated
 * nats-server with JetStream, and a loopback fake of the public web (SearXNG JSON API + news pages) whose
 * searches can be held, so a run stays in flight exactly as long as a test needs.
 */

/** One child process with its output kept for failure messages. */
export interface Proc {
  readonly name: string;
  readonly child: ChildProcess;
  output(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code (null when killed). */
  stop(graceMs?: number): Promise<number | null>;
  /** SIGKILL: a crash. */
  kill(): Promise<void>;
  readonly exited: boolean;
}

function spawnProc(name: string, command: string, args: string[], env: Record<string, string>): Proc {
  const child = spawn(command, args, { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...clockEnv(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (d: Buffer) => {
    output += d.toString();
    if (output.length > 400_000) output = output.slice(-200_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  return {
    name, child,
    output: () => output,
    get exited() { return gone(); },
    async stop(graceMs = 10_000) {
      if (gone()) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const code = await exit;
      clearTimeout(timer);
      return code;
    },
    async kill() {
      if (!gone()) child.kill('SIGKILL');
      await exit;
    },
  };
}

async function waitUntil<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number, proc?: Proc, pollMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (proc?.exited) throw new Error(`${proc.name} exited before ${what}:\n${proc.output().slice(-4000)}`);
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${proc ? `:\n${proc.output().slice(-4000)}` : ''}`);
    await sleep(pollMs);
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A dedicated nats-server with JetStream on a free loopback port; its store dir is `storeDir`. */
export async function startNatsServer(bin: string, storeDir: string): Promise<Proc & { url: string }> {
  const port = await freePort();
  const proc = spawnProc('nats-server', bin, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', storeDir], {});
  await waitUntil('nats-server to listen', () => new Promise<true | undefined>((resolve) => {
    const socket = connect(port, '127.0.0.1', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => resolve(undefined));
  }), 15_000, proc);
  return Object.assign(proc, { url: `nats://127.0.0.1:${port}` });
}

export type ServiceRole = 'edge' | 'coordinator' | 'fetcher' | 'filter';

export interface RoleProc extends Proc {
  role: ServiceRole;
  /** Public API base (edge only). */
  url: string | null;
  /** Where /healthz and /readyz answer: the edge's PORT, the other roles' LEADFINDER_HEALTH_PORT. */
  healthUrl: string;
  /** gRPC port (fetcher, filter). */
  grpcPort: number | null;
  /** The coordinator's lease-owner name, read from its "coordinator started" log line. */
  instanceId: string | null;
}

/** Starts `leadfinder serve --role <role>` and waits for its /readyz (on PORT or LEADFINDER_HEALTH_PORT). */
export async function startRole(name: string, role: ServiceRole, env: Record<string, string>, options: { grpcPort?: number; bin?: string } = {}): Promise<RoleProc> {
  const httpPort = await freePort();
  const grpcPort = role === 'fetcher' || role === 'filter' ? options.grpcPort ?? await freePort() : null;
  const roleEnv: Record<string, string> = {
    HOST: '127.0.0.1',
    LEADFINDER_LOG_LEVEL: 'warn',
    ...env,
    ...(role === 'edge' ? { PORT: String(httpPort) } : { LEADFINDER_HEALTH_PORT: String(httpPort) }),
    ...(grpcPort !== null ? { LEADFINDER_GRPC_PORT: String(grpcPort) } : {}),
  };
  // `bin`: another entry point than this run's bundle (test/support/serve-bin.ts), e.g. a fresh build.
  const proc = spawnProc(name, process.execPath, [options.bin ?? serveBin(), 'serve', '--role', role], roleEnv);
  const base = `http://127.0.0.1:${httpPort}`;
  try {
    await waitUntil(`${name} /readyz`, async () => ((await fetch(`${base}/readyz`)).ok ? true : undefined), 60_000, proc);
    const instanceId = role === 'coordinator'
      ? await waitUntil(`${name} to log its instance id`, async () => /"instanceId":"([^"]+)"/.exec(proc.output())?.[1], 10_000, proc)
      : null;
    return Object.assign(proc, { role, url: role === 'edge' ? base : null, healthUrl: base, grpcPort, instanceId });
  } catch (error) {
    await proc.kill();
    throw error;
  }
}

/** One search request the fake SearXNG received. */
export interface SeenSearch {
  /** Path prefix naming which fetcher asked (each fetcher gets its own SearXNG base URL). */
  tag: string;
  q: string;
  pageno: number;
  at: number;
  /** Whether it was held by `hold()` (and is still waiting). */
  waiting: boolean;
}

export interface FakeWeb {
  /** The SearXNG base URL to give one fetcher; `tag` tells its requests apart. */
  searxngUrl(tag: string): string;
  /** LEADFINDER_FETCH_RESOLVE entry sending the news host to this server. */
  resolveEntry: string;
  /** New searches wait until `release()`. */
  hold(): void;
  release(): void;
  seen: SeenSearch[];
  close(): Promise<void>;
}

export const NEWS_HOST = 'berlin-wire.test';
const SYLLABLES = ['kor', 'vex', 'lum', 'tar', 'bri', 'zen', 'qua', 'mop', 'dri', 'fal', 'nor', 'pix'];

function companyName(n: number): string {
  let name = '';
  let i = n + SYLLABLES.length; // at least two syllables
  while (i > 0) {
    name += SYLLABLES[i % SYLLABLES.length];
    i = Math.floor(i / SYLLABLES.length);
  }
  return name[0]!.toUpperCase() + name.slice(1) + 'ly';
}

function isoDaysAgo(days: number): string {
  return new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * The public web, faked on loopback: `/<tag>/search` answers like SearXNG (each query and result page
 * gets fresh Berlin seed-round news, `pagesPerQuery` pages deep, after `delayMs`), `/news/<slug>` serves
 * the article. Answers are stable per (query, page), so a retried search gets the same results.
 */
export async function startFakeWeb(options: { delayMs: number; pagesPerQuery: number; resultsPerPage: number }): Promise<FakeWeb> {
  const port = await freePort();
  const base = `http://${NEWS_HOST}:${port}`;
  const answers = new Map<string, { url: string; title: string; content: string; publishedDate: string }[]>();
  const articles = new Map<string, { name: string; published: string }>();
  let nextCompany = 0;
  let held: (() => void)[] | null = null;
  const seen: SeenSearch[] = [];

  const resultsFor = (q: string, pageno: number) => {
    const key = `${q}\n${pageno}`;
    if (pageno > options.pagesPerQuery) return [];
    if (!answers.has(key)) {
      const list = [];
      for (let i = 0; i < options.resultsPerPage; i++) {
        const name = companyName(nextCompany++);
        const slug = name.toLowerCase();
        const published = isoDaysAgo(20 + (nextCompany % 200));
        articles.set(slug, { name, published });
        list.push({
          url: `${base}/news/${slug}`,
          title: `${name} raises €2 million seed funding`,
          content: `${name}, a Berlin-based AI startup, has raised a €2 million seed round led by Harbour Capital.`,
          publishedDate: published,
        });
      }
      answers.set(key, list);
    }
    return answers.get(key)!;
  };

  const article = (slug: string) => {
    const a = articles.get(slug);
    if (!a) return null;
    return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${a.name} raises €2 million seed funding</title>
<meta property="article:published_time" content="${a.published}"></head>
<body><article><h1>${a.name} raises €2 million seed funding</h1>
<p>${a.name}, a Berlin-based AI startup, has raised a €2 million seed round led by Harbour Capital.</p>
<p>Founded in 2025 by Lena Vogt, the company sells an AI assistant for logistics teams.</p>
<p>The new capital will go into hiring engineers across Europe, Lena Vogt said.</p>
</article></body></html>`;
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const search = /^\/([a-z0-9-]+)\/search$/.exec(url.pathname);
      if (search) {
        const entry: SeenSearch = { tag: search[1]!, q: url.searchParams.get('q') ?? '', pageno: Number(url.searchParams.get('pageno') ?? '1'), at: Date.now(), waiting: false };
        seen.push(entry);
        if (held) {
          entry.waiting = true;
          await new Promise<void>((resolve) => held!.push(resolve));
          entry.waiting = false;
        }
        await sleep(options.delayMs);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results: resultsFor(entry.q, entry.pageno) }));
        return;
      }
      const page = /^\/news\/([a-z]+)$/.exec(url.pathname);
      const html = page ? article(page[1]!) : null;
      if (html) res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
      else res.writeHead(404).end();
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    searxngUrl: (tag) => `http://127.0.0.1:${port}/${tag}`,
    resolveEntry: `${NEWS_HOST}:${port}:127.0.0.1`,
    hold: () => { held ??= []; },
    release: () => {
      const waiting = held ?? [];
      held = null;
      for (const go of waiting) go();
    },
    seen,
    close: async () => {
      const waiting = held ?? [];
      held = null;
      for (const go of waiting) go();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** One SSE frame: the `id:` sequence and the parsed `data:` JSON. */
export interface Frame {
  seq: number;
  event: { type: string; [field: string]: unknown };
}

/**
 * Follows a run's event stream (raw fetch streaming, `id:`/`data:` frames, `:` keepalives ignored)
 * until the service closes it; returns every frame in arrival order.
 */
export async function readEventStream(edgeUrl: string, runId: string, credential: string, timeoutMs = 60_000): Promise<Frame[]> {
  const response = await fetch(`${edgeUrl}/v1/searches/${runId}/events`, {
    headers: { authorization: `Bearer ${credential}`, accept: 'text/event-stream' },
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (response.status !== 200 || !response.body) throw new Error(`events of ${runId}: HTTP ${response.status} ${await response.text()}`);
  const frames: Frame[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  const takeFrames = () => {
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let seq: number | null = null;
      let data = '';
      for (const line of block.split('\n')) {
        if (line.startsWith(':') || line === '') continue;
        if (line.startsWith('id:')) seq = Number(line.slice(3).trim());
        else if (line.startsWith('data:')) data += line.slice(5).trimStart();
        else throw new Error(`unexpected SSE line: ${line}`);
      }
      if (data) {
        if (seq === null) throw new Error(`frame without id: ${block}`);
        frames.push({ seq, event: JSON.parse(data) as Frame['event'] });
      }
    }
  };
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, '\n');
    takeFrames();
  }
  return frames;
}

/** The public API of one edge, as one account. */
export function apiClient(edgeUrl: string, credential: string) {
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${edgeUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${credential}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> };
  };
  return {
    url: edgeUrl,
    start: async (q: string, target: number) => {
      const r = await call('POST', '/v1/searches', { q, target });
      if (r.status !== 202) throw new Error(`POST /v1/searches on ${edgeUrl}: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body.id as string;
    },
    run: async (id: string) => {
      const r = await call('GET', `/v1/searches/${id}`);
      if (r.status !== 200) throw new Error(`GET run ${id} on ${edgeUrl}: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body as unknown as RunView;
    },
    stop: (id: string) => call('POST', `/v1/searches/${id}/stop`),
  };
}

export interface RunView {
  id: string;
  status: string;
  where: string;
  usdDisplay: string;
  stopReason: string | null;
  result: { type: 'final'; table: { name: string; source_urls: string[] }[]; stopped: boolean; met: boolean; target: number } | null;
}

export const TERMINAL = new Set(['done', 'stopped', 'budget_exhausted', 'interrupted', 'error']);

/**
 * Polls until the run is terminal; returns the record and when it was first seen terminal. A timeout
 * names the record last seen and, given `context`, what the fleet printed (a run that never ends is
 * otherwise undiagnosable after the fact).
 */
export async function waitTerminal(api: ReturnType<typeof apiClient>, id: string, timeoutMs: number, pollMs = 100, context?: () => string): Promise<{ run: RunView; at: number }> {
  let last: RunView | undefined;
  try {
    return await waitUntil(`run ${id} to end`, async () => {
      const run = last = await api.run(id);
      return TERMINAL.has(run.status) ? { run, at: Date.now() } : undefined;
    }, timeoutMs, undefined, pollMs);
  } catch (error) {
    const seen = last ? `status ${last.status}, where ${last.where}` : 'never read';
    throw new Error(`${(error as Error).message} (last seen: ${seen})${context ? `\n${context()}` : ''}`);
  }
}

export { waitUntil };

/** Admin API: one account. */
export async function createAccount(edgeUrl: string, adminToken: string, balanceUsd: number): Promise<{ id: string; apiKey: string }> {
  const r = await fetch(`${edgeUrl}/admin/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ balanceUsd }),
  });
  if (r.status !== 201) throw new Error(`admin create account: ${r.status} ${await r.text()}`);
  return (await r.json()) as { id: string; apiKey: string };
}

export async function accountMoney(edgeUrl: string, adminToken: string, id: string): Promise<{ balanceMicrousd: number; heldMicrousd: number; availableMicrousd: number }> {
  const r = await fetch(`${edgeUrl}/admin/accounts/${id}`, { headers: { authorization: `Bearer ${adminToken}` } });
  if (r.status !== 200) throw new Error(`admin account: ${r.status} ${await r.text()}`);
  return (await r.json()) as { balanceMicrousd: number; heldMicrousd: number; availableMicrousd: number };
}

export interface DistributedServers {
  mongoUrl: string | null;
  natsBin: string;
  /** Both servers are there; otherwise the suite is recorded as skipped (or, when servers are required, fails). */
  ready: boolean;
}

/** Finds the MongoDB-wire server and nats-server binary a distributed suite runs on, recording a skip without them. */
export async function distributedServers(suite: string): Promise<DistributedServers> {
  const mongoUrl = await serverUrl('mongodb');
  const natsBin = process.env.LEADFINDER_TEST_NATS_BIN ?? join(process.env.HOME ?? '/root', 'go', 'bin', 'nats-server');
  const natsAvailable = existsSync(natsBin);
  if (!mongoUrl) recordSkippedSuite(suite, 'mongodb');
  if (!natsAvailable) {
    if (serversRequired()) throw new Error(`nats-server not found at ${natsBin} (set LEADFINDER_TEST_NATS_BIN), but LEADFINDER_TEST_REQUIRE_SERVERS=1`);
    recordSkippedSuite(suite, 'nats');
  }
  return { mongoUrl, natsBin, ready: mongoUrl !== null && natsAvailable };
}

/** Drops a suite's database (named per run) on the MongoDB-wire server, if the suite had one. */
export async function dropTestDatabase(mongoUrl: string | null | undefined, dbName: string): Promise<void> {
  if (!mongoUrl) return;
  const client = new MongoClient(mongoUrl);
  await client.db(dbName).dropDatabase().catch(() => undefined);
  await client.close();
}
