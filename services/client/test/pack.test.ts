/**
 * The SDK as an outside user gets it: `npm pack` (scripts/pack.mjs), installed from the tarball into an
 * empty folder, then the README's snippet run with plain `node` (no tsx, no workspace) against a real
 * `leadfinder serve`; `require()` from CommonJS; and the bundled .d.ts checked by the TypeScript compiler
 * as a NodeNext project would read it.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../../test/support/server-process.js';
import { embeddedServer, SHARED_SERVER_ADMIN_TOKEN, type EmbeddedServer } from '../../../test/support/shared-server.js';

const run = promisify(execFile);
const ROOT = process.cwd();
const ADMIN = SHARED_SERVER_ADMIN_TOKEN;

/** The ```js block of the README's "SDK and CLI" section. */
function readmeSnippet(file: string): string {
  const text = readFileSync(file, 'utf8');
  const match = /```js\n(import \{ createClient \} from '@leadfinder\/client';[\s\S]*?)\n```/.exec(text);
  if (!match) throw new Error(`no SDK snippet in ${file}`);
  return match[1]!;
}

describe('the packed @leadfinder/client', () => {
  const dir = mkdtempSync(join(tmpdir(), 'leadfinder-sdk-'));
  const app = join(dir, 'app');
  let tarball: string;
  let server: EmbeddedServer;
  let apiKey: string;

  beforeAll(async () => {
    const [packed] = await Promise.all([
      run(process.execPath, [join(ROOT, 'services/client/scripts/pack.mjs'), dir], { timeout: 120_000 }),
      (async () => {
        server = await embeddedServer();
        apiKey = (await createAccount(server.url, ADMIN, 50)).apiKey;
      })(),
    ]);
    tarball = packed.stdout.trim();
    // An empty folder outside the repository; zod comes from npm's cache (works offline once installed here).
    await run('mkdir', ['-p', app]);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'sdk-user', private: true, type: 'module' }));
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], { cwd: app, timeout: 120_000 });
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('ships built ESM, CJS and .d.ts with an exports map and engines, and depends on zod only', async () => {
    const { stdout } = await run('tar', ['-tzf', tarball]);
    expect(stdout.split('\n').filter(Boolean).sort()).toEqual([
      'package/README.md', 'package/dist/index.cjs', 'package/dist/index.d.cts', 'package/dist/index.d.ts', 'package/dist/index.js', 'package/package.json',
    ]);
    const manifest = JSON.parse(readFileSync(join(app, 'node_modules/@leadfinder/client/package.json'), 'utf8'));
    expect(manifest.private).toBeUndefined();
    expect(Object.keys(manifest.dependencies)).toEqual(['zod']);
    expect(manifest.engines.node).toMatch(/^>=20/);
    expect(manifest.exports['.'].require.default).toBe('./dist/index.cjs');
    expect(readFileSync(join(app, 'node_modules/@leadfinder/client/dist/index.js'), 'utf8')).not.toMatch(/@leadfinder\/wire/);
  });

  it('runs the README snippet with plain node against a real server', async () => {
    const snippet = readmeSnippet(join(ROOT, 'README.md'));
    expect(readmeSnippet(join(ROOT, 'services/client/README.md'))).toBe(snippet);
    writeFileSync(join(app, 'snippet.mjs'), snippet);
    const { stdout } = await run(process.execPath, ['snippet.mjs'], {
      cwd: app, timeout: 60_000, env: { PATH: process.env.PATH ?? '', LEADFINDER_URL: server.url, LEADFINDER_API_KEY: apiKey },
    });
    // Progress lines, then the table of rows with their sources.
    expect(stdout).toMatch(/^\d+\/10 /m);
    expect(stdout).toMatch(/│ name\s+│ why\s+│ source/);
    expect(stdout).toMatch(/https?:\/\//);
  }, 60_000);

  it('loads from CommonJS and type-checks as a NodeNext project', async () => {
    writeFileSync(join(app, 'check.cjs'), "const sdk = require('@leadfinder/client'); console.log(typeof sdk.createClient, typeof sdk.InsufficientBalanceError);");
    expect((await run(process.execPath, ['check.cjs'], { cwd: app })).stdout.trim()).toBe('function function');
    writeFileSync(join(app, 'check.ts'), [
      "import { createClient, type RunEvent } from '@leadfinder/client';",
      "const lf = createClient({ baseUrl: 'http://127.0.0.1:1', credential: 'lf_live_x' });",
      "export const started: Promise<{ id: string }> = lf.createSearch({ q: 'fintech startups', target: 3 });",
      "export const kind = (e: RunEvent): string => (e.type === 'progress' ? String(e.have) : e.type);",
      '// @ts-expect-error target is a number',
      "lf.createSearch({ q: 'x', target: 'three' });",
    ].join('\n'));
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const check = await run(process.execPath, [tsc, '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', 'check.ts'], { cwd: app })
      .then(() => ({ code: 0, out: '' }), (error: { code: number; stdout: string }) => ({ code: error.code, out: error.stdout }));
    expect(check).toEqual({ code: 0, out: '' });
  }, 60_000);
});
