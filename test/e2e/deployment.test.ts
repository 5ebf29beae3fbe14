import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clockEnv, uniqueName } from '@leadfinder/testkit';
import { distributedServers, dropTestDatabase, startNatsServer, startRole } from './distributed-harness.js';
import type { Proc, RoleProc } from './distributed-harness.js';
import { freePort } from '../support/server-process.js';
import { serveBin } from '../support/serve-bin.js';

/**
 * What the Helm chart relies on from the processes it runs: every role answers /readyz and /healthz
 * alike, the admin API can live on a port of its own, and NATS can require credentials and TLS.
 * Real `leadfinder serve --role …` processes over real NATS and MongoDB-wire servers. Each describe has a
 * nats-server of its own: the roles use the production stream names, so on a shared server another
 * suite's coordinator could take their runs (or they another suite's) when files run in parallel.
 */
const SUITE = 'test/e2e/deployment.test.ts';
const ADMIN = 'deployment-admin-token-0123456789abcdef';
const { mongoUrl, natsBin, ready: serversReady } = await distributedServers(SUITE);

describe.skipIf(!serversReady)('the roles as the chart runs them', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'lf-deployment-'));
  const procs: Proc[] = [];
  let roles: RoleProc[] = [];
  let adminPort = 0;
  let nats: (Proc & { url: string }) | undefined;
  const started = <T extends Proc>(p: T): T => (procs.push(p), p);
  const dbName = uniqueName('lf_e2e_deploy');

  beforeAll(async () => {
    nats = started(await startNatsServer(natsBin, join(tmp, 'jetstream')));
    adminPort = await freePort();
    const common = {
      LEADFINDER_MONGODB_URL: mongoUrl!, LEADFINDER_MONGODB_DB: dbName, LEADFINDER_NATS_URL: nats.url,
      LEADFINDER_SESSION_SECRET: 'deployment-session-secret-0123456789abcdef',
    };
    const dataDir = (name: string) => mkdtempSync(join(tmp, `${name}-`));
    const [fetcher, filter] = await Promise.all((['fetcher', 'filter'] as const).map((r) => startRole(r, r, { ...common, LEADFINDER_DATA_DIR: dataDir(r) }).then(started)));
    const [coordinator, edge] = await Promise.all([
      startRole('coordinator', 'coordinator', {
        // info: startRole reads the coordinator's instance id from its start-up line.
        ...common, LEADFINDER_DATA_DIR: dataDir('coordinator'), LEADFINDER_LOG_LEVEL: 'info',
        LEADFINDER_FETCHER_ADDR: `127.0.0.1:${fetcher!.grpcPort}`, LEADFINDER_FILTER_ADDR: `127.0.0.1:${filter!.grpcPort}`,
      }).then(started),
      startRole('edge', 'edge', {
        ...common, LEADFINDER_DATA_DIR: dataDir('edge'), LEADFINDER_ADMIN_TOKEN: ADMIN, LEADFINDER_ADMIN_PORT: String(adminPort),
      }).then(started),
    ]);
    roles = [fetcher!, filter!, coordinator!, edge!];
  }, 180_000);

  afterAll(async () => {
    // The roles first, their nats-server last.
    await Promise.allSettled(procs.filter((p) => p !== nats).map((p) => p.stop(5000)));
    await nats?.stop(5000);
    await dropTestDatabase(mongoUrl, dbName);
    rmSync(tmp, { recursive: true, force: true });
  });

  it('answers /readyz and /healthz with the same status, body and headers on every role', async () => {
    const answers = await Promise.all(roles.map(async (r) => {
      const [ready, health] = await Promise.all([fetch(`${r.healthUrl}/readyz`), fetch(`${r.healthUrl}/healthz`)]);
      return {
        role: r.role,
        ready: { status: ready.status, body: await ready.text(), type: ready.headers.get('content-type'), cache: ready.headers.get('cache-control') },
        health: { status: health.status, body: await health.text() },
      };
    }));
    for (const a of answers) {
      expect(a, a.role).toEqual({
        role: a.role,
        ready: { status: 200, body: '{"status":"ok"}', type: 'application/json; charset=utf-8', cache: 'no-store' },
        health: { status: 200, body: '{"status":"ok"}' },
      });
    }
  });

  it('serves the admin API only on LEADFINDER_ADMIN_PORT once it is set, never on the public port', async () => {
    const edge = roles.find((r) => r.role === 'edge')!;
    const create = (url: string) => fetch(`${url}/admin/accounts`, {
      method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: '{"balanceUsd": 1}',
    });
    const onPublic = await create(edge.url!);
    expect(onPublic.status).toBe(404);
    const onAdmin = await create(`http://127.0.0.1:${adminPort}`);
    expect(onAdmin.status).toBe(201);
    const { apiKey } = await onAdmin.json() as { apiKey: string };
    // The account is real: its key works on the public API.
    expect((await fetch(`${edge.url}/v1/searches`, { headers: { authorization: `Bearer ${apiKey}` } })).status).toBe(200);
    // And the public API is not on the admin port.
    expect((await fetch(`http://127.0.0.1:${adminPort}/v1/searches`, { headers: { authorization: `Bearer ${apiKey}` } })).status).toBe(404);
  });
});

describe.skipIf(!serversReady)('an edge connecting to NATS that requires a password and TLS', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'lf-nats-tls-'));
  const procs: Proc[] = [];
  let natsTlsUrl = '';
  const natsTlsDb = uniqueName('lf_e2e_natstls');
  let env: Record<string, string> = {};
  let nats: ReturnType<typeof spawn> | undefined;

  beforeAll(async () => {
    // A throwaway self-signed certificate for 127.0.0.1 (nats.js checks it against `localhost` too); valid
    // from the (possibly faked) now, as openssl runs under the same clock as the test.
    const cert = join(tmp, 'server.crt');
    const key = join(tmp, 'server.key');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2',
      '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'], { stdio: 'ignore' });
    const port = await freePort();
    nats = spawn(natsBin, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', join(tmp, 'js'),
      '--tls', '--tlscert', cert, '--tlskey', key, '--user', 'leadfinder', '--pass', 'nats-password-0123'], { stdio: 'ignore' });
    natsTlsUrl = `tls://127.0.0.1:${port}`;
    for (let i = 0; i < 100; i += 1) {
      const up = await fetch(`http://127.0.0.1:${port}`).then(() => true, (e: { cause?: { code?: string } }) => e.cause?.code !== 'ECONNREFUSED');
      if (up) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    env = {
      LEADFINDER_MONGODB_URL: mongoUrl!, LEADFINDER_MONGODB_DB: natsTlsDb, LEADFINDER_NATS_URL: natsTlsUrl,
      LEADFINDER_SESSION_SECRET: 'deployment-session-secret-0123456789abcdef', LEADFINDER_DATA_DIR: join(tmp, 'data'),
      LEADFINDER_NATS_TLS_CA_FILE: cert, LEADFINDER_NATS_USER: 'leadfinder',
    };
  }, 60_000);

  afterAll(async () => {
    await Promise.allSettled(procs.map((p) => p.stop(5000)));
    if (nats && nats.exitCode === null) {
      const gone = new Promise((r) => nats!.once('exit', r));
      nats.kill('SIGTERM');
      await gone;
    }
    await dropTestDatabase(mongoUrl, natsTlsDb);
    rmSync(tmp, { recursive: true, force: true });
  });

  /** Starts an edge that is expected to fail, and returns its exit code and output. */
  const failingEdge = (extra: Record<string, string>) => new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, [serveBin(), 'serve', '--role', 'edge'], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...clockEnv(), HOST: '127.0.0.1', PORT: '0', ...env, ...extra },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => { output += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { output += d.toString(); });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('exit', (code) => { clearTimeout(timer); resolve({ code, output }); });
  });

  it('becomes ready with the CA file, user and password from the environment', async () => {
    const edge = await startRole('edge-nats-tls', 'edge', { ...env, LEADFINDER_NATS_PASSWORD: 'nats-password-0123' }).then((p) => (procs.push(p), p));
    expect((await fetch(`${edge.healthUrl}/readyz`)).status).toBe(200);
  }, 90_000);

  it('refuses to start with a wrong password, saying NATS is unavailable and never printing the password', async () => {
    const { code, output } = await failingEdge({ LEADFINDER_NATS_PASSWORD: 'wrong-password-987' });
    expect(code).not.toBe(0);
    expect(output).toMatch(/NATS/);
    expect(output).not.toContain('wrong-password-987');
  }, 90_000);

  it('refuses to start without the CA that signed the server certificate', async () => {
    const { LEADFINDER_NATS_TLS_CA_FILE: _ca, ...withoutCa } = env;
    const { code, output } = await failingEdge({ ...withoutCa, LEADFINDER_NATS_TLS_CA_FILE: '', LEADFINDER_NATS_PASSWORD: 'nats-password-0123' });
    expect(code).not.toBe(0);
    expect(output).toMatch(/self[- ]signed certificate/i);
  }, 90_000);
});
