import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, startServerProcess, type ServerProcess } from '../support/server-process.js';
import { serveBin } from '../support/serve-bin.js';

/**
 * Runs `leadfinder serve` (the bundle the image runs, serveBin()) expecting it to refuse to start;
 * resolves with exit code and stderr. Not spawnSync: a test starts its refusals together, so their
 * start-ups overlap. A refusal of the configuration comes before the drivers and roles are initialised
 * (0.3 CPU-seconds; 0.5 through the TypeScript launcher); one made later, by the stack (data dir,
 * database, port), pays the whole start-up.
 */
function refusedStart(env: Record<string, string>, args: string[] = []): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [serveBin(), 'serve', ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LEADFINDER_LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: 100_000,
    });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stderr }));
  });
}

/**
 * Time limits are room for start-ups (seconds of imports each, slower beside other test files on two
 * shared cores); no test asserts how fast a start is.
 */
describe('starting the embedded service', () => {
  const cleanup: (() => Promise<unknown> | void)[] = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c();
  });
  /** A temporary folder removed after the file. */
  const tempDir = (prefix: string) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  };

  /**
   * One server, started on a data dir it creates, given an account and a search, then stopped with SIGTERM
   * (started once, for two tests): the restart test starts it again on that data dir, the privacy test
   * reads the modes it left.
   */
  const ADMIN = 'admin-secret-0123456789abcdefghijklmnop';
  const QUERY = 'AI startups in Berlin that raised a seed round in the last year';
  let firstServer: Promise<{
    dataDir: string; health: number; ready: number; account: { id: string; apiKey: string }; created: number; id: string;
    exitCode: number | null; modes: Record<string, number | undefined>;
  }>;
  /**
   * The first server started again on its data dir, with the log at info and a fetch pin: the restart test
   * reads the first server's run from it, the sign-in test its start-up lines (one start for both).
   */
  let restartedServer: Promise<ServerProcess>;
  beforeAll(() => {
    firstServer = stoppedServer();
    restartedServer = firstServer.then(async (first) => {
      const server = await startServerProcess({
        dataDir: first.dataDir, args: [],
        env: { LEADFINDER_ADMIN_TOKEN: ADMIN, LEADFINDER_LOG_LEVEL: 'info', LEADFINDER_FETCH_RESOLVE: 'intranet.example:443:10.0.0.5' },
      });
      cleanup.push(() => server.stop());
      return server;
    });
    // Awaited by the tests that use them, which report their failure; the other tests do not depend on them.
    firstServer.catch(() => undefined);
    restartedServer.catch(() => undefined);
  });
  async function stoppedServer() {
    const parent = mkdtempSync(join(tmpdir(), 'lf-private-'));
    cleanup.push(() => rmSync(parent, { recursive: true, force: true }));
    const dataDir = join(parent, 'data');
    const server = await startServerProcess({ dataDir, env: { LEADFINDER_ADMIN_TOKEN: ADMIN } });
    cleanup.push(() => server.stop());
    const health = (await fetch(`${server.url}/healthz`)).status;
    const ready = (await fetch(`${server.url}/readyz`)).status;
    const account = await createAccount(server.url, ADMIN, 12.5);
    const created = await fetch(`${server.url}/v1/searches`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ q: QUERY, target: 2 }),
    });
    const { id } = (await created.json()) as { id: string };
    const exitCode = await server.stop({ keepData: true });
    const mode = (path: string) => {
      const stat = statSync(join(dataDir, path), { throwIfNoEntry: false });
      return stat && stat.mode & 0o777;
    };
    const modes = {
      data: mode('.'), store: mode('store'), storeFile: mode('store/store.jsonl'), events: mode('events'),
      eventsFile: mode('events/events.jsonl'), secret: mode('session-secret'),
    };
    return { dataDir, health, ready, account, created: created.status, id, exitCode, modes };
  }

  it('answers /healthz and /readyz, keeps data across a restart, and exits 0 on SIGTERM', async () => {
    const first = await firstServer;
    expect(first.health).toBe(200);
    expect(first.ready).toBe(200);
    expect(first.created).toBe(202);
    expect(first.exitCode).toBe(0);

    const server = await restartedServer;
    const again = await fetch(`${server.url}/v1/searches/${first.id}`, { headers: { authorization: `Bearer ${first.account.apiKey}` } });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { query: string }).query).toBe(QUERY);
    const admin = await fetch(`${server.url}/admin/accounts/${first.account.id}`, { headers: { authorization: `Bearer ${ADMIN}` } });
    expect(((await admin.json()) as { balanceMicrousd: number }).balanceMicrousd).toBeLessThanOrEqual(12_500_000);
  }, 150_000);

  it('refuses a bad configuration value with exit code 1 and one line naming the variable', async () => {
    const corpusDataDir = mkdtempSync(join(tmpdir(), 'lf-bad-'));
    cleanup.push(() => rmSync(corpusDataDir, { recursive: true, force: true }));
    const [r, r2, r3] = await Promise.all([
      refusedStart({ PORT: 'eighty', LEADFINDER_DATA_DIR: tempDir('lf-bad-') }),
      refusedStart({ LEADFINDER_SEARCH: 'searxng' }),
      refusedStart({ LEADFINDER_CORPUS_DIR: '/nonexistent', LEADFINDER_DATA_DIR: corpusDataDir }),
    ]);
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('PORT');

    expect(r2.code).toBe(1);
    expect(r2.stderr.trim().split('\n')).toHaveLength(1);
    expect(r2.stderr).toContain('LEADFINDER_SEARXNG_URL');

    expect(r3.code).toBe(1);
    expect(r3.stderr.trim().split('\n')).toEqual([expect.stringMatching(/LEADFINDER_CORPUS_DIR: no such folder \(got "\/nonexistent"\)/)]);
  }, 120_000);

  it('refuses the development sign-in off loopback, behind https and on a separate edge, in one line saying why', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lf-devsignin-'));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const cases: [Record<string, string>, string[], RegExp][] = [
      [{ HOST: '0.0.0.0' }, [], /LEADFINDER_DEV_SIGNIN: .*refused when HOST is not loopback \(HOST=0\.0\.0\.0\)/],
      [{ LEADFINDER_PUBLIC_URL: 'https://leads.example.com' }, [], /LEADFINDER_DEV_SIGNIN: .*refused when LEADFINDER_PUBLIC_URL is https/],
      [{ LEADFINDER_SESSION_SECRET: 'x'.repeat(40) }, ['--role', 'edge'], /LEADFINDER_DEV_SIGNIN: .*refused when the edge runs as a separate service/],
    ];
    const refusals = await Promise.all(cases.map(([env, args]) => refusedStart({ LEADFINDER_DEV_SIGNIN: '1', LEADFINDER_DATA_DIR: dataDir, ...env }, args)));
    for (const [i, [, , why]] of cases.entries()) {
      const r = refusals[i]!;
      expect(r.code).toBe(1);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(why);
    }
  }, 120_000);

  it('refuses short secrets, and a bad database URL without printing its password', async () => {
    const kept = mkdtempSync(join(tmpdir(), 'lf-kept-secret-'));
    cleanup.push(() => rmSync(kept, { recursive: true, force: true }));
    writeFileSync(join(kept, 'session-secret'), 'short\n');
    const [r, file, admin, url] = await Promise.all([
      refusedStart({ LEADFINDER_SESSION_SECRET: 'a' }),
      refusedStart({ LEADFINDER_DATA_DIR: kept }),
      refusedStart({ LEADFINDER_ADMIN_TOKEN: 'x' }),
      refusedStart({ LEADFINDER_MONGODB_URL: 'mongodb://lf:hunter2-secret@db host/x' }),
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/LEADFINDER_SESSION_SECRET: must be at least 32 bytes/);
    expect(file.code).toBe(1);
    expect(file.stderr.trim().split('\n')).toHaveLength(1);
    expect(file.stderr).toMatch(/session-secret is shorter than 32 bytes/);
    expect(admin.stderr).toMatch(/LEADFINDER_ADMIN_TOKEN: must be at least 32 bytes/);
    expect(url.code).toBe(1);
    expect(url.stderr).toContain('LEADFINDER_MONGODB_URL');
    expect(url.stderr).not.toContain('hunter2');
  }, 120_000);

  it('says at start-up which sign-in is active', async () => {
    // The restarted server has no sign-in set; the other is started here. Each is stopped by the cleanup.
    const [none, dev] = await Promise.all([
      restartedServer,
      startServerProcess({ env: { LEADFINDER_LOG_LEVEL: 'warn', LEADFINDER_DEV_SIGNIN: '1' } })
        .then((server) => (cleanup.push(() => server.stop()), server)),
    ]);
    // Polled: a server is ready once it answers /readyz, and its stdout (the log) arrives on a pipe of its own,
    // which under load this process may read after that answer.
    await expect.poll(() => none.output()).toContain('web sign-in: none');
    // Fetch pins are listed, and one the SSRF guard will refuse is called out.
    expect(none.output()).toContain('intranet.example:443 -> 10.0.0.5');
    expect(none.output()).toContain('fetch pin to a refused address');
    await expect.poll(() => dev.output()).toContain('web sign-in: DEVELOPMENT sign-in');
    // And the development sign-in works only where it was enabled.
    const signIn = (url: string) => fetch(`${url}/auth/dev-signin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":"victim@example.com"}' });
    expect((await signIn(none.url)).status).toBe(404);
    expect((await signIn(dev.url)).status).toBe(200);
  }, 120_000);

  it('keeps its data private: folders 0700, store, event log and session secret 0600', async () => {
    // The data dir the first server created and left after a search and a SIGTERM (stoppedServer).
    const first = await firstServer;
    expect(first.modes).toEqual({ data: 0o700, store: 0o700, storeFile: 0o600, events: 0o700, eventsFile: 0o600, secret: 0o600 });
  });

  it('says in one line that the port is in use', async () => {
    // Any listener holds the port as well as a second server would, without seconds of start-up.
    const first = createServer();
    await new Promise<void>((resolve) => first.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => new Promise<void>((resolve) => first.close(() => resolve())));
    const port = (first.address() as AddressInfo).port;
    const r = await refusedStart({ PORT: String(port), HOST: '127.0.0.1', LEADFINDER_DATA_DIR: tempDir('lf-port-') });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/address already in use/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  }, 120_000);

  it('says in one line that the data dir cannot be used', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'lf-ro-'));
    cleanup.push(() => {
      chmodSync(parent, 0o755);
      rmSync(parent, { recursive: true, force: true });
    });
    const dataDir = join(parent, 'data');
    // A data dir that is a regular file cannot be used even by root (permissions do not stop root).
    spawnSync('touch', [dataDir]);
    const r = await refusedStart({ LEADFINDER_DATA_DIR: dataDir });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('LEADFINDER_DATA_DIR');
  }, 120_000);
});
