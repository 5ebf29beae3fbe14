import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEdgeApp, createSessionSigner } from '@leadfinder/edge';
import { createBilling, loadConfig, randomIds, silentLogger, systemClock } from '@leadfinder/platform';
import { createEmbeddedEventLog, createEmbeddedStore, createInProcessStopFlags, createInProcessWorkQueue } from '@leadfinder/platform/embedded';
import type { EventLog, Store } from '@leadfinder/platform';
import { runAdminCommand } from './admin.js';

const ADMIN_TOKEN = 'cli-admin-test-token-0123456789abcdef';
let app: Awaited<ReturnType<typeof buildEdgeApp>>;
let url: string;
let dataDir: string;
let store: Store;
let events: EventLog;

// A real edge app on loopback over the embedded adapters, in a temp data dir.
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'lf-cli-admin-'));
  const config = loadConfig({ LEADFINDER_DATA_DIR: dataDir, LEADFINDER_ADMIN_TOKEN: ADMIN_TOKEN, LEADFINDER_SESSION_SECRET: 'cli-admin-test-secret-0123456789' });
  store = await createEmbeddedStore({ dataDir, logger: silentLogger });
  events = await createEmbeddedEventLog({ dataDir, logger: silentLogger });
  app = await buildEdgeApp({
    config, logger: silentLogger, clock: systemClock, ids: randomIds, store, events,
    work: createInProcessWorkQueue({ logger: silentLogger }), stops: createInProcessStopFlags(),
    billing: createBilling({ store, clock: systemClock, logger: silentLogger }),
    sessions: createSessionSigner({ secret: config.LEADFINDER_SESSION_SECRET! }),
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await app.close();
  await events.close();
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function admin(args: string[], env: Record<string, string | undefined> = { LEADFINDER_URL: url, LEADFINDER_ADMIN_TOKEN: ADMIN_TOKEN }) {
  let stdout = '';
  let stderr = '';
  const code = await runAdminCommand(args, { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) }, env });
  return { code, stdout, stderr };
}

describe('leadfinder admin account', () => {
  it('creates, shows, tops up, issues a session, closes and deletes an account', async () => {
    const created = await admin(['account', 'create', '--balance', '12.5', '--email', 'ops@example.com', '--json']);
    expect(created.code).toBe(0);
    const { id, apiKey, sessionToken } = JSON.parse(created.stdout);
    expect(apiKey).toMatch(/^lf_live_/);
    expect(sessionToken).toMatch(/^eyJ/);

    const shown = await admin(['account', 'show', id]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`Account ${id} (active)`);
    expect(shown.stdout).toContain('balance:   $12.50');

    const topped = await admin(['account', 'topup', id, '7.5', '--json']);
    expect(JSON.parse(topped.stdout)).toMatchObject({ balanceMicrousd: 20_000_000, availableMicrousd: 20_000_000 });

    const session = await admin(['account', 'session', id]);
    expect(session.stdout.trim()).toMatch(/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/);

    const closed = await admin(['account', 'close', id, '--json']);
    expect(JSON.parse(closed.stdout).status).toBe('closed');
    const deleted = await admin(['account', 'delete', id]);
    expect([deleted.code, deleted.stdout.trim()]).toEqual([0, `Account ${id} deleted.`]);

    const missing = await admin(['account', 'show', id]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('404 Unknown account');
  });

  it('prints human output for create by default', async () => {
    const res = await admin(['account', 'create']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^Account \S+ created\.\n {2}API key: +lf_live_/);
  });

  it('exits 2 on usage errors and a missing admin token', async () => {
    expect((await admin(['account'])).code).toBe(2);
    expect((await admin(['account', 'explode'])).code).toBe(2);
    expect((await admin(['account', 'show'])).code).toBe(2);
    expect((await admin(['account', 'topup', 'acct_x', 'lots'])).code).toBe(2);
    expect((await admin(['account', 'create', '--bogus'])).code).toBe(2);
    const noToken = await admin(['account', 'create'], { LEADFINDER_URL: url });
    expect([noToken.code, noToken.stderr]).toEqual([2, 'leadfinder admin: LEADFINDER_ADMIN_TOKEN is not set\n']);
  });

  it('exits 1 when the service refuses or cannot be reached', async () => {
    const wrong = await admin(['account', 'create'], { LEADFINDER_URL: url, LEADFINDER_ADMIN_TOKEN: 'wrong' });
    expect([wrong.code, wrong.stderr]).toEqual([1, 'leadfinder admin: 401 Invalid admin token\n']);
    const down = await admin(['account', 'create'], { LEADFINDER_URL: 'http://127.0.0.1:9', LEADFINDER_ADMIN_TOKEN: ADMIN_TOKEN });
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('cannot reach http://127.0.0.1:9');
  });
});
