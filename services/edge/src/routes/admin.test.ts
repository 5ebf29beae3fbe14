import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminAccount, AdminCreatedAccount } from '@leadfinder/wire';
import { ADMIN_TOKEN, bearer, startHarness } from '../../test/harness.js';
import type { Harness } from '../../test/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, token = ADMIN_TOKEN) =>
  h.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

describe('admin API', () => {
  it('answers 401 Invalid admin token without the right bearer', async () => {
    for (const headers of [{}, bearer('wrong'), bearer(ADMIN_TOKEN + 'x'), { authorization: ADMIN_TOKEN }]) {
      const res = await h.app.inject({ method: 'POST', url: '/admin/accounts', headers, payload: { balanceUsd: 5 } });
      expect([res.statusCode, res.json()]).toEqual([401, { detail: 'Invalid admin token' }]);
    }
  });

  it("accepts the operator contract's own example body, and refuses what is no email with 422 naming email", async () => {
    const res = await call('POST', '/admin/accounts', { email: 'a@b.c' });
    expect(res.statusCode).toBe(201);
    const bad = await call('POST', '/admin/accounts', { balanceUsd: 1, email: 'not an email' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail).toEqual([expect.objectContaining({ loc: ['body', 'email'] })]);
  });

  it('creates an account with a balance, a working API key and a session token', async () => {
    const res = await call('POST', '/admin/accounts', { balanceUsd: 25, email: 'a@b.co' });
    expect(res.statusCode).toBe(201);
    const created = AdminCreatedAccount.strict().parse(res.json());
    const shown = AdminAccount.strict().parse((await call('GET', `/admin/accounts/${created.id}`)).json());
    expect(shown).toEqual({ id: created.id, status: 'active', balanceMicrousd: 25_000_000, heldMicrousd: 0, availableMicrousd: 25_000_000 });
    expect((await h.app.inject({ method: 'GET', url: '/v1/searches', headers: bearer(created.apiKey) })).statusCode).toBe(200);
    const keys = await h.app.inject({ method: 'GET', url: '/api/keys', headers: bearer(created.sessionToken) });
    expect(keys.json().keys.map((k: { name: string }) => k.name)).toEqual(['default']);
  });

  it('refuses a top-up past the largest safe micro-USD balance with 422, and the balance stays exact', async () => {
    const { id } = (await call('POST', '/admin/accounts', { balanceUsd: '9000000000' })).json();
    const res = await call('POST', `/admin/accounts/${id}/topup`, { usd: '9000000000' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ detail: [{ loc: ['body', 'usd'], msg: 'The resulting balance would be out of range', type: 'value_error' }] });
    expect((await call('GET', `/admin/accounts/${id}`)).json().balanceMicrousd).toBe(9_000_000_000_000_000);
  });

  it('tops up by USD number or decimal string and reports micro-USD', async () => {
    const { id } = (await call('POST', '/admin/accounts', { balanceUsd: '1.5' })).json();
    const a = await call('POST', `/admin/accounts/${id}/topup`, { usd: 10 });
    expect([a.statusCode, a.json().balanceMicrousd]).toEqual([200, 11_500_000]);
    const b = await call('POST', `/admin/accounts/${id}/topup`, { usd: '0.000001' });
    expect(b.json().availableMicrousd).toBe(11_500_001);
  });

  it.each([{ usd: -1 }, { usd: 'ten' }, { usd: '-5' }, {}])('refuses the top-up %j with 422', async (body) => {
    const { id } = (await call('POST', '/admin/accounts', { balanceUsd: 1 })).json();
    const res = await call('POST', `/admin/accounts/${id}/topup`, body);
    expect(res.statusCode).toBe(422);
    expect(res.json().detail[0].loc).toEqual(['body', 'usd']);
  });

  it('issues sessions, closes and deletes accounts', async () => {
    const created = (await call('POST', '/admin/accounts', { balanceUsd: 10 })).json();
    const session = await call('POST', `/admin/accounts/${created.id}/sessions`);
    expect(session.statusCode).toBe(201);
    expect(session.json().sessionToken).toMatch(/^eyJ/);
    const closed = await call('POST', `/admin/accounts/${created.id}/close`);
    expect([closed.statusCode, closed.json().status]).toEqual([200, 'closed']);
    expect((await h.app.inject({ method: 'GET', url: '/v1/searches', headers: bearer(created.apiKey) })).statusCode).toBe(403);
    const del = await call('DELETE', `/admin/accounts/${created.id}`);
    expect(del.statusCode).toBe(204);
    const keys = await h.app.inject({ method: 'GET', url: '/api/keys', headers: bearer(session.json().sessionToken) });
    expect(keys.json()).toEqual({ detail: 'Unknown user' });
  });

  it.each([
    ['GET', '/admin/accounts/acct_nope'],
    ['POST', '/admin/accounts/acct_nope/sessions'],
    ['POST', '/admin/accounts/acct_nope/close'],
    ['DELETE', '/admin/accounts/acct_nope'],
  ] as const)('answers %s %s with 404 Unknown account', async (method, url) => {
    const res = await call(method, url);
    expect([res.statusCode, res.json()]).toEqual([404, { detail: 'Unknown account' }]);
  });

  it('answers a top-up of an unknown account with 404 Unknown account', async () => {
    const res = await call('POST', '/admin/accounts/acct_nope/topup', { usd: 1 });
    expect([res.statusCode, res.json()]).toEqual([404, { detail: 'Unknown account' }]);
  });

  it('does not exist when LEADFINDER_ADMIN_TOKEN is unset', async () => {
    const plain = await startHarness({ env: { LEADFINDER_ADMIN_TOKEN: '' } });
    try {
      const res = await plain.app.inject({ method: 'POST', url: '/admin/accounts', headers: bearer('anything'), payload: { balanceUsd: 1 } });
      expect([res.statusCode, res.json()]).toEqual([404, { detail: 'Not Found' }]);
    } finally {
      await plain.close();
    }
  });
});
