import { request as httpRequest } from 'node:http';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_TOKEN, bearer, startHarness } from '../../test/harness.js';
import type { Harness } from '../../test/harness.js';

/** Event streams over a real listener: how many one account may hold, and when they end on their own. */
let h: Harness;
let base: string;
const KEEPALIVE_MS = 50;
beforeAll(async () => {
  h = await startHarness({ sseKeepaliveMs: KEEPALIVE_MS, env: { LEADFINDER_STREAMS_PER_ACCOUNT: '2', LEADFINDER_KEYS_PER_ACCOUNT: '3' } });
  await h.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => h.close());

interface OpenStream {
  status: number;
  body(): Promise<string>;
  /** Resolves true when the server ends the stream within `ms`, false otherwise. */
  endsWithin(ms: number): Promise<boolean>;
  close(): void;
}

function openStream(runId: string, token: string): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}/v1/searches/${runId}/events`, { headers: bearer(token) }, (res: IncomingMessage) => {
      let text = '';
      let ended = false;
      const endWaiters: (() => void)[] = [];
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => {
        ended = true;
        endWaiters.splice(0).forEach((w) => w());
      });
      res.on('error', () => undefined);
      resolve({
        status: res.statusCode ?? 0,
        body: async () => text,
        endsWithin: (ms) =>
          new Promise((done) => {
            if (ended) return done(true);
            const timer = setTimeout(() => done(false), ms);
            endWaiters.push(() => {
              clearTimeout(timer);
              done(true);
            });
          }),
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const realPause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Keepalives on fake intervals (the stream's only timer): `fn` runs with `keepalives(n)` letting n ticks
 * pass, each given a moment of real time for its credential check, so no test waits for real ticks.
 */
async function withFakeKeepalives(fn: (keepalives: (n: number) => Promise<void>) => Promise<void>): Promise<void> {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  try {
    await fn(async (n) => {
      for (let i = 0; i < n; i += 1) {
        await vi.advanceTimersByTimeAsync(KEEPALIVE_MS);
        await realPause(5);
      }
    });
  } finally {
    vi.useRealTimers();
  }
}

async function startRun(token: string): Promise<string> {
  const res = await h.app.inject({ method: 'POST', url: '/v1/searches', headers: bearer(token), payload: { q: 'fintech startups' } });
  expect(res.statusCode).toBe(202);
  return res.json().id;
}

async function newKey(sessionToken: string, name: string): Promise<{ statusCode: number; key?: string; id?: string; detail?: string }> {
  const res = await h.app.inject({ method: 'POST', url: '/api/keys', headers: bearer(sessionToken), payload: { name } });
  const body = res.json();
  return { statusCode: res.statusCode, key: body.key, id: body.id, detail: body.detail };
}

describe('event stream limits and revocation', () => {
  it('caps open streams per account, whatever key they use, with a clear 429; a closed one frees its slot', async () => {
    const acct = await h.createAccount(100);
    const other = (await newKey(acct.sessionToken, 'second')).key!;
    const run = await startRun(acct.apiKey);
    const a = await openStream(run, acct.apiKey);
    const b = await openStream(run, other);
    expect([a.status, b.status]).toEqual([200, 200]);
    const refused = await h.app.inject({ url: `/v1/searches/${run}/events`, headers: bearer(other) });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ detail: 'Too many open event streams: an account may hold 2' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another account is not affected.
    const stranger = await h.createAccount(100);
    const theirs = await openStream(await startRun(stranger.apiKey), stranger.apiKey);
    expect(theirs.status).toBe(200);
    theirs.close();

    a.close();
    await expect.poll(async () => {
      const again = await openStream(run, other);
      again.close();
      return again.status;
    }, { timeout: 2_000 }).toBe(200);
    b.close();
  });

  it('ends a stream at the next keepalive once its key is revoked', () => withFakeKeepalives(async (keepalives) => {
    const acct = await h.createAccount(100);
    const extra = await newKey(acct.sessionToken, 'revoked soon');
    const run = await startRun(acct.apiKey);
    const s = await openStream(run, extra.key!);
    expect(s.status).toBe(200);
    await keepalives(6);
    expect(await s.endsWithin(0)).toBe(false);
    const revoked = await h.app.inject({ method: 'DELETE', url: `/api/keys/${extra.id}`, headers: bearer(acct.sessionToken) });
    expect(revoked.statusCode).toBe(204);
    await keepalives(1);
    expect(await s.endsWithin(1_000)).toBe(true);
  }));

  it('ends a stream once its account is closed or deleted', () => withFakeKeepalives(async (keepalives) => {
    for (const action of ['close', 'delete'] as const) {
      const acct = await h.createAccount(100);
      const run = await startRun(acct.apiKey);
      const byKey = await openStream(run, acct.apiKey);
      const bySession = await openStream(run, acct.sessionToken);
      await keepalives(4);
      expect(await byKey.endsWithin(0)).toBe(false);
      const res = action === 'close'
        ? await h.app.inject({ method: 'POST', url: `/admin/accounts/${acct.id}/close`, headers: bearer(ADMIN_TOKEN) })
        : await h.app.inject({ method: 'DELETE', url: `/admin/accounts/${acct.id}`, headers: bearer(ADMIN_TOKEN) });
      expect(res.statusCode).toBeLessThan(300);
      await keepalives(1);
      expect([await byKey.endsWithin(1_000), await bySession.endsWithin(1_000)]).toEqual([true, true]);
    }
  }));
});

describe('keys and rate limits per account', () => {
  it('caps live keys per account with 409, and a revoked key frees a slot', async () => {
    const acct = await h.createAccount(1); // has its "default" key
    const made = [await newKey(acct.sessionToken, 'k2'), await newKey(acct.sessionToken, 'k3')];
    expect(made.map((k) => k.statusCode)).toEqual([201, 201]);
    const refused = await newKey(acct.sessionToken, 'k4');
    expect([refused.statusCode, refused.detail]).toEqual([409, 'Too many keys: an account may have 3; revoke one first']);
    await h.app.inject({ method: 'DELETE', url: `/api/keys/${made[0]!.id}`, headers: bearer(acct.sessionToken) });
    expect((await newKey(acct.sessionToken, 'k4')).statusCode).toBe(201);
  });
});

describe('rate limits', () => {
  it('count per account: a second key or a session buys no more requests', async () => {
    const limited = await startHarness({ env: { LEADFINDER_RATE_LIMIT_PER_MIN: '6' } });
    try {
      const acct = await limited.createAccount(1);
      const second = (await limited.app.inject({ method: 'POST', url: '/api/keys', headers: bearer(acct.sessionToken), payload: { name: 'b' } })).json().key;
      const statuses: number[] = [];
      for (const token of [acct.apiKey, acct.apiKey, acct.apiKey, second, second, acct.sessionToken, second]) {
        statuses.push((await limited.app.inject({ url: '/v1/searches', headers: bearer(token) })).statusCode);
      }
      // 1 request went to POST /api/keys; the bucket holds 6.
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
      const other = await limited.createAccount(1);
      expect((await limited.app.inject({ url: '/v1/searches', headers: bearer(other.apiKey) })).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
