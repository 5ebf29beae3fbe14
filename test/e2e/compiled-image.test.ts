import { readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueName } from '@leadfinder/testkit';
import { apiClient, createAccount, distributedServers, dropTestDatabase, startNatsServer, startRole, waitTerminal } from './distributed-harness.js';
import type { Proc, RoleProc } from './distributed-harness.js';

/**
 * The image runs compiled JavaScript with `node` directly (deploy/Dockerfile: ENTRYPOINT node
 * dist/leadfinder.mjs serve). No container engine exists here, so this suite does what the image's
 * build and entry point do: compiles with deploy/build.mjs, then starts each role with
 * `node <out>/leadfinder.mjs serve --role R` over real NATS and MongoDB-wire servers, runs a search
 * through them, and measures each role's resident memory. The nats-server is the suite's own: the roles
 * use the production stream names, which no other suite's coordinator may share.
 */
const SUITE = 'test/e2e/compiled-image.test.ts';
const ROOT = process.cwd();
const ADMIN = 'compiled-image-admin-token-0123456789abcd';
const { mongoUrl, natsBin, ready: serversReady } = await distributedServers(SUITE);

// Inside the repository, so the bundle's third-party imports resolve in node_modules as in the image.
const OUT = join(ROOT, '.tmp', `compiled-image-${process.pid}`);
let externals: string[] = [];

beforeAll(async () => {
  const { buildImage } = (await import(join(ROOT, 'deploy', 'build.mjs'))) as { buildImage(outdir: string): Promise<string[]> };
  externals = await buildImage(OUT);
}, 120_000);
afterAll(() => rmSync(OUT, { recursive: true, force: true }));

describe('deploy/build.mjs', () => {
  it('compiles in and leaves to node_modules only Node built-ins and production dependencies (never a devDependency)', () => {
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
    const packageOf = (spec: string) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
    const builtins = new Set(builtinModules);
    const bad = externals.filter((spec) => !spec.startsWith('node:') && !builtins.has(spec))
      .map(packageOf)
      .filter((name) => { const entry = lock.packages[`node_modules/${name}`]; return !entry || entry.dev === true; });
    // mongodb stays a runtime import (its instrumentation patches it as it loads); fastify is compiled in.
    expect(externals).toContain('mongodb');
    expect(externals).not.toContain('fastify');
    expect(bad).toEqual([]);
    const bundled = JSON.parse(readFileSync(join(OUT, 'bundled-packages.json'), 'utf8')) as string[];
    expect(bundled).toContain('node_modules/fastify');
    expect(bundled.filter((path) => { const entry = lock.packages[path]; return !entry || entry.dev === true; })).toEqual([]);
    // The TypeScript of every workspace is compiled in: no import of @leadfinder/* or of tsx remains.
    expect(externals.filter((spec) => spec.startsWith('@leadfinder/') || spec === 'tsx')).toEqual([]);
  });
});

describe.skipIf(!serversReady)('the compiled entry point, one process per role', () => {
  const procs: Proc[] = [];
  let roles: RoleProc[] = [];
  let startedInMs = 0;
  let nats: (Proc & { url: string }) | undefined;
  const dbName = uniqueName('lf_e2e_compiled');

  beforeAll(async () => {
    const bin = join(OUT, 'leadfinder.mjs');
    nats = await startNatsServer(natsBin, join(OUT, 'jetstream'));
    const common = {
      LEADFINDER_MONGODB_URL: mongoUrl!, LEADFINDER_MONGODB_DB: dbName, LEADFINDER_NATS_URL: nats.url,
      LEADFINDER_SESSION_SECRET: 'compiled-image-session-secret-0123456789', LEADFINDER_ADMIN_TOKEN: ADMIN,
      LEADFINDER_DATA_DIR: join(OUT, 'data'), LEADFINDER_LOG_LEVEL: 'info',
    };
    const t0 = Date.now();
    const [fetcher, filter] = await Promise.all((['fetcher', 'filter'] as const).map((r) => startRole(r, r, common, { bin }).then((p) => (procs.push(p), p))));
    const [coordinator, edge] = await Promise.all([
      startRole('coordinator', 'coordinator', {
        ...common, LEADFINDER_FETCHER_ADDR: `127.0.0.1:${fetcher!.grpcPort}`, LEADFINDER_FILTER_ADDR: `127.0.0.1:${filter!.grpcPort}`,
      }, { bin }).then((p) => (procs.push(p), p)),
      startRole('edge', 'edge', common, { bin }).then((p) => (procs.push(p), p)),
    ]);
    startedInMs = Date.now() - t0;
    roles = [fetcher!, filter!, coordinator!, edge!];
  }, 120_000);

  afterAll(async () => {
    await Promise.allSettled(procs.map((p) => p.stop(5000)));
    await nats?.stop(5000);
    await dropTestDatabase(mongoUrl, dbName);
  });

  it('runs each role as a single node process, no tsx, and a search through them ends done with rows', async () => {
    for (const r of roles) {
      const cmdline = readFileSync(`/proc/${r.child.pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      expect(cmdline.slice(1)).toEqual([join(OUT, 'leadfinder.mjs'), 'serve', '--role', r.role]);
      expect(readFileSync(`/proc/${r.child.pid}/maps`, 'utf8')).not.toContain('/tsx/');
    }
    const edge = roles.find((r) => r.role === 'edge')!;
    const account = await createAccount(edge.url!, ADMIN, 10);
    const api = apiClient(edge.url!, account.apiKey);
    const id = await api.start('startups based in Berlin', 3);
    const { run } = await waitTerminal(api, id, 60_000);
    expect(run.status).toBe('done');
    expect(run.result!.table.length).toBeGreaterThan(0);
    // The web page's static files were copied beside the bundle, where the edge looks for them.
    expect((await fetch(`${edge.url}/`)).status).toBe(200);
  });

  it('reports each role\'s resident memory after start-up (the figure the chart sizes requests from)', () => {
    const rss = Object.fromEntries(roles.map((r) => [r.role, Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${r.child.pid}/status`, 'utf8'))![1]) / 1024)]));
    console.info(`compiled roles ready in ${startedInMs} ms; RSS MiB ${JSON.stringify(rss)}`);
    const measured = JSON.parse(readFileSync(join(ROOT, 'charts', 'leadfinder', 'files', 'measured-idle-rss.json'), 'utf8')).mib as Record<string, number>;
    for (const [role, mib] of Object.entries(rss)) expect(mib, role).toBeLessThanOrEqual(measured[role]! * 1.5);
  });
});
