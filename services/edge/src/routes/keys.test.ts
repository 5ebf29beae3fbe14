import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CreatedKey, KeyList } from '@leadfinder/wire';
import { ADMIN_TOKEN, bearer, startHarness } from '../../test/harness.js';
import type { Harness } from '../../test/harness.js';

let h: Harness;
let account: { id: string; apiKey: string; sessionToken: string };

beforeAll(async () => {
  // The property test below makes dozens of keys on one account, past the default cap.
  h = await startHarness({ env: { LEADFINDER_KEYS_PER_ACCOUNT: '1000' } });
  account = await h.createAccount(10);
});
afterAll(async () => h.close());

const createKey = (payload: unknown, token = account.sessionToken) =>
  h.app.inject({ method: 'POST', url: '/api/keys', headers: bearer(token), payload: payload as object });
const admin = (method: 'POST' | 'DELETE', url: string) => h.app.inject({ method, url, headers: bearer(ADMIN_TOKEN) });

describe('/api/keys credentials (spec §7 key table)', () => {
  it.each([
    ['no header', {}],
    ['an empty bearer', { authorization: 'Bearer  ' }],
    ['another scheme', { authorization: 'Token abc' }],
  ])('answers 401 Missing bearer token for %s', async (_label, headers) => {
    const res = await h.app.inject({ method: 'GET', url: '/api/keys', headers });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ detail: 'Missing bearer token' });
  });

  it('answers 401 Invalid token to an API key and to anything that is not our session token', async () => {
    for (const token of [account.apiKey, 'garbage', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln']) {
      const res = await h.app.inject({ method: 'GET', url: '/api/keys', headers: bearer(token) });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ detail: 'Invalid token' });
    }
  });

  it('answers 401 Invalid token to an expired session token', async () => {
    const token = await h.deps.sessions.issue(account.id);
    h.clock.advance(2 * 3600 * 1000);
    try {
      const res = await h.app.inject({ method: 'GET', url: '/api/keys', headers: bearer(token) });
      expect(res.json()).toEqual({ detail: 'Invalid token' });
    } finally {
      h.clock.advance(-2 * 3600 * 1000);
    }
  });

  it('answers 403 Account is deleted for a closed account and 401 Unknown user for a deleted one', async () => {
    const closed = await h.createAccount(1);
    await admin('POST', `/admin/accounts/${closed.id}/close`);
    const c = await h.app.inject({ method: 'GET', url: '/api/keys', headers: bearer(closed.sessionToken) });
    expect([c.statusCode, c.json()]).toEqual([403, { detail: 'Account is deleted' }]);
    const gone = await h.createAccount(1);
    await admin('DELETE', `/admin/accounts/${gone.id}`);
    const g = await h.app.inject({ method: 'GET', url: '/api/keys', headers: bearer(gone.sessionToken) });
    expect([g.statusCode, g.json()]).toEqual([401, { detail: 'Unknown user' }]);
  });
});

describe('creating, listing and revoking keys', () => {
  it.each([
    ['missing', {}, 422, 'missing'],
    ['empty', { name: '' }, 422, 'string_too_short'],
    ['1 character', { name: 'a' }, 201, null],
    ['100 characters', { name: 'n'.repeat(100) }, 201, null],
    ['101 characters', { name: 'n'.repeat(101) }, 422, 'string_too_long'],
    ['not a string', { name: 5 }, 422, 'string_type'],
  ])('name %s answers %s', async (_label, body, status, type) => {
    const res = await createKey(body);
    expect(res.statusCode).toBe(status);
    if (type) expect(res.json().detail).toEqual([expect.objectContaining({ loc: ['body', 'name'], type })]);
  });

  it('answers a whitespace-only name with 400 name is required', async () => {
    const res = await createKey({ name: '   ' });
    expect([res.statusCode, res.json()]).toEqual([400, { detail: 'name is required' }]);
  });

  it('accepts any name of 1 to 100 characters with a non-space character (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 100 }).filter((s) => s.trim() !== ''), async (name) => {
        expect((await createKey({ name })).statusCode).toBe(201);
      }),
      { numRuns: 30 },
    );
  });

  it('returns the key once; it authenticates /v1 and is listed without its value; revoking it stops it', async () => {
    const acct = await h.createAccount(10);
    const res = await createKey({ name: 'ci' }, acct.sessionToken);
    expect(res.statusCode).toBe(201);
    const created = CreatedKey.strict().parse(res.json());
    expect(created.key).toMatch(/^lf_live_[0-9A-Za-z]{40}$/);
    expect(created.prefix).toBe(created.key.slice(0, 12));
    expect((await h.app.inject({ method: 'GET', url: '/v1/searches', headers: bearer(created.key) })).statusCode).toBe(200);

    const list = KeyList.parse((await h.app.inject({ method: 'GET', url: '/api/keys', headers: bearer(acct.sessionToken) })).json());
    expect(list.keys.map((k) => k.name).sort()).toEqual(['ci', 'default']);
    expect(JSON.stringify(list)).not.toContain(created.key);
    const stored = await h.deps.store.keys.listForAccount(acct.id);
    expect(JSON.stringify(stored)).not.toContain(created.key);

    const del = await h.app.inject({ method: 'DELETE', url: `/api/keys/${created.id}`, headers: bearer(acct.sessionToken) });
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    const after = await h.app.inject({ method: 'GET', url: '/v1/searches', headers: bearer(created.key) });
    expect(after.json()).toEqual({ detail: 'Invalid credentials' });
    const again = await h.app.inject({ method: 'DELETE', url: `/api/keys/${created.id}`, headers: bearer(acct.sessionToken) });
    expect([again.statusCode, again.json()]).toEqual([404, { detail: 'Key not found' }]);
  });

  it("answers 404 Key not found for another account's key and a missing one", async () => {
    const other = await h.createAccount(1);
    const theirs = CreatedKey.parse((await createKey({ name: 'theirs' }, other.sessionToken)).json());
    for (const id of [theirs.id, 'key_missing']) {
      const res = await h.app.inject({ method: 'DELETE', url: `/api/keys/${id}`, headers: bearer(account.sessionToken) });
      expect([res.statusCode, res.json()]).toEqual([404, { detail: 'Key not found' }]);
    }
    expect((await h.app.inject({ method: 'GET', url: '/v1/searches', headers: bearer(theirs.key) })).statusCode).toBe(200);
  });
});
