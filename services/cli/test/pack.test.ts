/**
 * The `leadfinder` command as an outside user gets it: packed (scripts/pack.mjs), installed from the
 * tarball into an empty folder, and run as `npx leadfinder …` with plain node against a real server.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../../test/support/server-process.js';
import { embeddedServer, SHARED_SERVER_ADMIN_TOKEN, type EmbeddedServer } from '../../../test/support/shared-server.js';
import { csvObjects } from './parse-csv.js';

const run = promisify(execFile);
const ROOT = process.cwd();
const ADMIN = SHARED_SERVER_ADMIN_TOKEN;

describe('the packed leadfinder command', () => {
  const dir = mkdtempSync(join(tmpdir(), 'leadfinder-cli-pack-'));
  const app = join(dir, 'app');
  let tarball: string;
  let server: EmbeddedServer;
  let apiKey: string;

  beforeAll(async () => {
    const [packed] = await Promise.all([
      run(process.execPath, [join(ROOT, 'services/cli/scripts/pack.mjs'), dir], { timeout: 120_000 }),
      (async () => {
        server = await embeddedServer();
        apiKey = (await createAccount(server.url, ADMIN, 50)).apiKey;
      })(),
    ]);
    tarball = packed.stdout.trim();
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'cli-user', private: true }));
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], { cwd: app, timeout: 120_000 });
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const npx = (args: string[], env: Record<string, string> = {}) =>
    run('npx', ['--no-install', 'leadfinder', ...args], { cwd: app, timeout: 60_000, env: { PATH: process.env.PATH ?? '', HOME: dir, ...env } })
      .then((r) => ({ code: 0, ...r }), (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }));

  it('depends on zod only and carries no TypeScript', async () => {
    const { stdout } = await run('tar', ['-tzf', tarball]);
    expect(stdout.split('\n').filter(Boolean).sort()).toEqual(['package/README.md', 'package/dist/leadfinder.mjs', 'package/package.json']);
    const manifest = JSON.parse(readFileSync(join(app, 'node_modules/@leadfinder/cli/package.json'), 'utf8'));
    expect([manifest.private, Object.keys(manifest.dependencies), manifest.bin, manifest.engines.node])
      .toEqual([undefined, ['zod'], { leadfinder: './dist/leadfinder.mjs' }, expect.stringMatching(/^>=20/)]);
  });

  it('runs a search, lists it and shows it with npx from an empty folder', async () => {
    const env = { LEADFINDER_URL: server.url, LEADFINDER_API_KEY: apiKey };
    const search = await npx(['search', 'fintech startups in Berlin', '--target', '3', '--format', 'csv'], env);
    expect(search.code, search.stderr).toBe(0);
    const id = /search ([0-9a-f]{32}) started/.exec(search.stderr)?.[1];
    expect(csvObjects(search.stdout).length).toBeGreaterThan(0);
    const runs = await npx(['runs'], env);
    expect(runs.stdout).toMatch(new RegExp(`^${id}\\s+done`));
    const show = await npx(['show', id!, '--format', 'json'], env);
    expect(JSON.parse(show.stdout).length).toBe(csvObjects(search.stdout).length);
  }, 90_000);

  it('says serve is not part of it, and prints its usage', async () => {
    const serve = await npx(['serve']);
    expect([serve.code, serve.stderr]).toEqual([2, expect.stringContaining('client only')]);
    const help = await npx(['--help']);
    expect([help.code, help.stdout]).toEqual([0, expect.stringContaining('leadfinder search "query"')]);
  });
});
