import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAccount, startServerProcess } from '../support/server-process.js';
import type { ServerProcess } from '../support/server-process.js';

const BIN = join(process.cwd(), 'services', 'cli', 'bin', 'leadfinder.mjs');

/** Runs `leadfinder serve` expecting it to refuse to start; returns exit code and stderr. */
function refusedStart(env: Record<string, string>): { code: number | null; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, 'serve'], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LEADFINDER_LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { code: r.status, stderr: r.stderr };
}

describe('starting the embedded service', () => {
  const cleanup: (() => Promise<unknown> | void)[] = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c();
  });

  it('answers /healthz and /readyz, keeps data across a restart, and exits 0 on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'leadfinder-restart-'));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const env = { LEADFINDER_ADMIN_TOKEN: 'admin-secret' };
    let server: ServerProcess = await startServerProcess({ dataDir, env });
    cleanup.push(() => server.stop());
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);

    const account = await createAccount(server.url, 'admin-secret', 12.5);
    const created = await fetch(`${server.url}/v1/searches`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ q: 'AI startups in Berlin that raised a seed round in the last year', target: 2 }),
    });
    expect(created.status).toBe(202);
    const { id } = (await created.json()) as { id: string };
    expect(await server.stop({ keepData: true })).toBe(0);

    server = await startServerProcess({ dataDir, env, args: [] });
    const again = await fetch(`${server.url}/v1/searches/${id}`, { headers: { authorization: `Bearer ${account.apiKey}` } });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { query: string }).query).toBe('AI startups in Berlin that raised a seed round in the last year');
    const admin = await fetch(`${server.url}/admin/accounts/${account.id}`, { headers: { authorization: 'Bearer admin-secret' } });
    expect(((await admin.json()) as { balanceMicrousd: number }).balanceMicrousd).toBeLessThanOrEqual(12_500_000);
  }, 90_000);

  it('refuses a bad configuration value with exit code 1 and one line naming the variable', () => {
    const r = refusedStart({ PORT: 'eighty', LEADFINDER_DATA_DIR: mkdtempSync(join(tmpdir(), 'lf-bad-')) });
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('PORT');

    const r2 = refusedStart({ LEADFINDER_SEARCH: 'searxng' });
    expect(r2.code).toBe(1);
    expect(r2.stderr.trim().split('\n')).toHaveLength(1);
    expect(r2.stderr).toContain('LEADFINDER_SEARXNG_URL');
  }, 60_000);

  it('says in one line that the port is in use', async () => {
    const first = await startServerProcess();
    cleanup.push(() => first.stop());
    const r = refusedStart({ PORT: String(first.port), HOST: '127.0.0.1', LEADFINDER_DATA_DIR: mkdtempSync(join(tmpdir(), 'lf-port-')) });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/address already in use/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);

  it('says in one line that the data dir cannot be used', () => {
    const parent = mkdtempSync(join(tmpdir(), 'lf-ro-'));
    cleanup.push(() => {
      chmodSync(parent, 0o755);
      rmSync(parent, { recursive: true, force: true });
    });
    const dataDir = join(parent, 'data');
    // A data dir that is a regular file cannot be used even by root (permissions do not stop root).
    spawnSync('touch', [dataDir]);
    const r = refusedStart({ LEADFINDER_DATA_DIR: dataDir });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('LEADFINDER_DATA_DIR');
  }, 60_000);
});
