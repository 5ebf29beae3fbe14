import { expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Clock, Store } from '@leadfinder/platform';
import { KEY_REUSED } from '../src/runs/idempotency.js';

/** What the idempotency behaviour needs of a running edge (embedded or over MongoDB). */
export interface IdempotencyStack {
  /** One or more edges over the same stores (like edge pods); concurrent duplicates are spread over them. */
  apps: FastifyInstance[];
  store: Store;
  clock: Clock & { advance(ms: number): void };
  createAccount(balanceUsd?: number): Promise<{ id: string; apiKey: string }>;
  /** The admin token (the suite tops up through the admin API). */
  adminToken: string;
}

const post = (s: IdempotencyStack, apiKey: string, body: unknown, key?: string, edge = 0) =>
  s.apps[edge % s.apps.length]!.inject({
    method: 'POST', url: '/v1/searches', payload: body as object,
    headers: { authorization: `Bearer ${apiKey}`, ...(key === undefined ? {} : { 'idempotency-key': key }) },
  });

/** Idempotency-Key behaviour through the HTTP API; the same cases run on each store. */
export function idempotencySuite(stack: () => IdempotencyStack, options: { concurrency: number }): void {
  it(`${options.concurrency} concurrent duplicates start exactly one run with one hold, and every answer names it`, async () => {
    const s = stack();
    const { id: accountId, apiKey } = await s.createAccount(25);
    const body = { q: 'fintech startups in Berlin', target: 3 };
    const answers = await Promise.all(Array.from({ length: options.concurrency }, (_, i) => post(s, apiKey, body, 'order-4711', i)));

    expect(answers.map((a) => a.statusCode)).toEqual(Array(options.concurrency).fill(202));
    const ids = new Set(answers.map((a) => a.json().id));
    expect(ids.size).toBe(1);
    expect(answers.every((a) => a.json().status === 'running')).toBe(true);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'false')).toHaveLength(1);
    const runs = await s.store.runs.listRecent(accountId, 50);
    expect(runs.map((r) => r.id)).toEqual([...ids]);
    // The key is stored with the run it started.
    expect((await s.store.runs.get([...ids][0]!))!.idempotencyKey).toBe('order-4711');
    const account = await s.store.accounts.get(accountId);
    // One hold of 5.00 USD: a second reservation would show as 10.00 held (or less available).
    expect(account!.heldMicrousd).toBe(5_000_000);
  }, 120_000);

  it('answers a repeat with the same key and body with the first run, after it finished too, without a second hold', async () => {
    const s = stack();
    const { id: accountId, apiKey } = await s.createAccount(25);
    const body = { q: 'climate tech startups in Paris', target: 2, speed: 'fast' };
    const first = await post(s, apiKey, body, 'k-1');
    // Key order and spacing are not a different body.
    const again = await s.apps.at(-1)!.inject({
      method: 'POST', url: '/v1/searches', headers: { authorization: `Bearer ${apiKey}`, 'idempotency-key': 'k-1', 'content-type': 'application/json' },
      payload: ' {"speed":"fast", "target":2, "q":"climate tech startups in Paris"}',
    });
    expect(first.statusCode).toBe(202);
    expect(again.statusCode).toBe(202);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect((await s.store.runs.listRecent(accountId, 50))).toHaveLength(1);
    expect((await s.store.accounts.get(accountId))!.heldMicrousd).toBe(5_000_000);
    // A run created without a key has none.
    const plain = await post(s, apiKey, body);
    expect((await s.store.runs.get(plain.json<{ id: string }>().id))!.idempotencyKey).toBeUndefined();
  });

  it('refuses the same key with another body with 422, starting nothing', async () => {
    const s = stack();
    const { id: accountId, apiKey } = await s.createAccount(25);
    await post(s, apiKey, { q: 'fintech startups in Berlin' }, 'k-2');
    const other = await post(s, apiKey, { q: 'fintech startups in Munich' }, 'k-2');
    expect(other.statusCode).toBe(422);
    expect(other.json()).toEqual({ detail: KEY_REUSED });
    expect(await s.store.runs.listRecent(accountId, 50)).toHaveLength(1);
  });

  it('scopes keys to the account, and lets a key start a new run once 24 hours have passed', async () => {
    const s = stack();
    const a = await s.createAccount(25);
    const b = await s.createAccount(25);
    const body = { q: 'fintech startups in Berlin' };
    const mine = (await post(s, a.apiKey, body, 'shared-key')).json().id;
    const theirs = (await post(s, b.apiKey, body, 'shared-key')).json().id;
    expect(theirs).not.toBe(mine);

    s.clock.advance(24 * 60 * 60 * 1000 - 60_000);
    expect((await post(s, a.apiKey, body, 'shared-key')).json().id).toBe(mine);
    s.clock.advance(60_000);
    const later = await post(s, a.apiKey, body, 'shared-key');
    expect(later.statusCode).toBe(202);
    expect(later.json().id).not.toBe(mine);
    expect(later.headers['idempotent-replayed']).toBe('false');
  });

  it('frees the key of a request refused with 402, so the same key starts the run after a top-up', async () => {
    const s = stack();
    const poor = await s.createAccount(1);
    const body = { q: 'fintech startups in Berlin' };
    const refused = await post(s, poor.apiKey, body, 'k-402');
    expect(refused.statusCode).toBe(402);
    const topup = await s.apps[0]!.inject({
      method: 'POST', url: `/admin/accounts/${poor.id}/topup`, headers: { authorization: `Bearer ${s.adminToken}` }, payload: { usd: 10 },
    });
    expect(topup.statusCode).toBeLessThan(300);
    const accepted = await post(s, poor.apiKey, body, 'k-402');
    expect(accepted.statusCode).toBe(202);
    expect(accepted.headers['idempotent-replayed']).toBe('false');
  });

  it('refuses a malformed key with 400 and leaves requests without a key as they were', async () => {
    const s = stack();
    const { id: accountId, apiKey } = await s.createAccount(25);
    const bad = await post(s, apiKey, { q: 'fintech startups in Berlin' }, 'x'.repeat(256));
    expect(bad.statusCode).toBe(400);
    const plain1 = await post(s, apiKey, { q: 'fintech startups in Berlin' });
    const plain2 = await post(s, apiKey, { q: 'fintech startups in Berlin' });
    expect(plain1.json().id).not.toBe(plain2.json().id);
    expect(plain1.headers['idempotent-replayed']).toBeUndefined();
    expect(Object.keys(plain1.json()).sort()).toEqual(['id', 'status']);
    expect(await s.store.runs.listRecent(accountId, 50)).toHaveLength(2);
  });
}

