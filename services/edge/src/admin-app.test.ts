import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, bearer, startHarness } from '../test/harness.js';
import type { Harness } from '../test/harness.js';
import { buildAdminApp } from './admin-app.js';

describe('the admin API on its own listener (LEADFINDER_ADMIN_PORT)', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('is absent from the public app once an admin port is set, and answers on the admin app instead', async () => {
    h = await startHarness({ env: { LEADFINDER_ADMIN_PORT: '18081' } });
    const body = { balanceUsd: 25 };
    const publicAnswer = await h.app.inject({ method: 'POST', url: '/admin/accounts', headers: bearer(ADMIN_TOKEN), payload: body });
    expect(publicAnswer.statusCode).toBe(404);
    expect((await h.app.inject({ method: 'GET', url: '/admin/openapi.json', headers: bearer(ADMIN_TOKEN) })).statusCode).toBe(404);

    const admin = await buildAdminApp(h.deps, ADMIN_TOKEN);
    try {
      const created = await admin.inject({ method: 'POST', url: '/admin/accounts', headers: bearer(ADMIN_TOKEN), payload: body });
      expect(created.statusCode).toBe(201);
      const account = created.json() as { id: string; apiKey: string };
      expect(account.apiKey).toMatch(/^lf_live_/);
      expect(created.headers['cache-control']).toBe('no-store');
      // The account it made is the public app's: its key works there.
      const runs = await h.app.inject({ method: 'GET', url: '/v1/searches', headers: bearer(account.apiKey) });
      expect(runs.statusCode).toBe(200);
      // Same refusals as before: a wrong token is 401, and the public API is not served here.
      expect((await admin.inject({ method: 'GET', url: `/admin/accounts/${account.id}`, headers: bearer('x'.repeat(40)) })).statusCode).toBe(401);
      expect((await admin.inject({ method: 'GET', url: '/v1/searches', headers: bearer(account.apiKey) })).statusCode).toBe(404);
      const document = await admin.inject({ method: 'GET', url: '/admin/openapi.json', headers: bearer(ADMIN_TOKEN) });
      expect(Object.keys((document.json() as { paths: object }).paths)).toContain('/admin/accounts');
    } finally {
      await admin.close();
    }
  });

  it('stays on the public app when no admin port is set (npm start)', async () => {
    h = await startHarness();
    const created = await h.app.inject({ method: 'POST', url: '/admin/accounts', headers: bearer(ADMIN_TOKEN), payload: { balanceUsd: 1 } });
    expect(created.statusCode).toBe(201);
  });
});
