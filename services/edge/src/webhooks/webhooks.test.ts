import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig, silentLogger } from '@leadfinder/platform';
import type { WebhookDeliveryDoc, WebhookStore } from '@leadfinder/platform';
import { createEmbeddedWebhookStore } from '@leadfinder/platform/embedded';
import { bearer, startHarness } from '../../test/harness.js';
import type { Harness } from '../../test/harness.js';
import { createWebhookSender } from './sender.js';
import { signWebhook } from './signature.js';

let h: Harness;
let dir: string;
let store: WebhookStore;
beforeAll(async () => {
  h = await startHarness();
  dir = await mkdtemp(join(tmpdir(), 'lf-webhooks-'));
  store = await createEmbeddedWebhookStore({ dataDir: dir, logger: silentLogger });
});
afterAll(async () => {
  await h.close();
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

/** A receiver answering `status` to everything, counting requests. */
async function receiver(status: number) {
  let hits = 0;
  const server = createServer((req, res) => {
    hits += 1;
    req.resume().on('end', () => res.writeHead(status).end());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits: () => hits,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

let n = 0;
async function pendingDelivery(url: string, createdAt: number): Promise<WebhookDeliveryDoc> {
  const doc: WebhookDeliveryDoc = {
    id: `msg_test${n++}`, accountId: 'acct_1', runId: 'a'.repeat(32), endpointId: null, url, type: 'search.finished',
    body: '{"type":"search.finished"}', status: 'pending', attempts: 0, lastError: null, createdAt: new Date(createdAt).toISOString(),
    expiresAt: createdAt + 24 * 3600_000, nextAttemptAt: null, deliveredAt: null,
  };
  await store.deliveries.create(doc);
  return doc;
}

describe('webhook targets and the SSRF guard', () => {
  it('refuses a search whose webhook targets a loopback or private address (422 naming webhook.url); nothing is held', async () => {
    const { id, apiKey } = await h.createAccount(25);
    for (const url of ['http://127.0.0.1:9/hook', 'http://[::1]/hook', 'http://10.1.2.3/hook', 'http://localhost:8080/hook']) {
      const res = await h.app.inject({ method: 'POST', url: '/v1/searches', headers: bearer(apiKey), payload: { q: 'fintech startups', webhook: { url } } });
      expect(res.statusCode, url).toBe(422);
      expect(res.json().detail[0].loc).toEqual(['body', 'webhook', 'url']);
    }
    expect((await h.deps.store.accounts.get(id))!.heldMicrousd).toBe(0);
  });

  it('the sender checks every address a host name resolves to before connecting (whatever was checked at acceptance): a name for loopback is refused, never reached', async () => {
    const target = await receiver(200);
    closers.push(target.close);
    const clock = { now: () => Date.now() };
    const sender = createWebhookSender({
      config: { LEADFINDER_WEBHOOK_ALLOW_PRIVATE: false, LEADFINDER_WEBHOOK_RETRY_BASE_MS: 1000 }, logger: silentLogger, clock, webhooks: store,
    });
    closers.push(() => sender.close());
    // Straight to the sender: the guard resolves the name and refuses its loopback address.
    const delivery = await pendingDelivery(target.url.replace('127.0.0.1', 'localhost'), clock.now());
    expect(await sender.attempt(delivery.id)).toEqual({ settled: true });
    const after = await store.deliveries.get(delivery.id);
    expect(after).toMatchObject({ status: 'failed', attempts: 1 });
    expect(after!.lastError).toBe('refused: localhost resolves to a private address');
    expect(target.hits()).toBe(0);
  });

  it('backs off exponentially on failures and gives up once 24 h (injected clock) have passed, recording each attempt', async () => {
    const target = await receiver(500);
    closers.push(target.close);
    let now = Date.parse('2026-03-01T00:00:00Z');
    const clock = { now: () => now };
    const sender = createWebhookSender({
      config: { LEADFINDER_WEBHOOK_ALLOW_PRIVATE: true, LEADFINDER_WEBHOOK_RETRY_BASE_MS: 1000 }, logger: silentLogger, clock, webhooks: store,
    });
    closers.push(() => sender.close());
    const delivery = await pendingDelivery(`${target.url}/hook`, now);
    const pauses: number[] = [];
    for (;;) {
      const outcome = await sender.attempt(delivery.id);
      if (outcome.settled) break;
      pauses.push(outcome.retryInMs);
      now += outcome.retryInMs;
    }
    expect(pauses.slice(0, 4)).toEqual([1000, 2000, 4000, 8000]);
    expect(Math.max(...pauses)).toBe(3600_000);
    const after = await store.deliveries.get(delivery.id);
    expect(after).toMatchObject({ status: 'failed', lastError: 'HTTP 500', attempts: pauses.length + 1 });
    expect(target.hits()).toBe(pauses.length + 1);
    // The last attempt came before the 24 h were up, and no later one would have.
    expect(now).toBeLessThan(delivery.expiresAt);
    expect(now + 3600_000).toBeGreaterThanOrEqual(delivery.expiresAt);
  });
});

describe('signature and configuration', () => {
  it('signs id.timestamp.body with the secret bytes (the Standard Webhooks test vector)', () => {
    // From the Standard Webhooks specification's reference libraries.
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const signature = signWebhook(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}');
    expect(signature).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('allows webhooks to private addresses only on a loopback service without an https public URL', () => {
    expect(loadConfig({ LEADFINDER_WEBHOOK_ALLOW_PRIVATE: '1' }).LEADFINDER_WEBHOOK_ALLOW_PRIVATE).toBe(true);
    expect(() => loadConfig({ LEADFINDER_WEBHOOK_ALLOW_PRIVATE: '1', HOST: '0.0.0.0' })).toThrow(ConfigError);
    expect(() => loadConfig({ LEADFINDER_WEBHOOK_ALLOW_PRIVATE: '1', LEADFINDER_PUBLIC_URL: 'https://leadfinder.example.com' })).toThrow(ConfigError);
  });
});

describe('embedded webhook store', () => {
  it('keeps its records across a reopen, compacting a journal of many attempts to its live documents', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'lf-webhook-store-'));
    try {
      const first = await createEmbeddedWebhookStore({ dataDir: folder, logger: silentLogger });
      const doc: WebhookDeliveryDoc = {
        id: 'msg_compact', accountId: 'acct_1', runId: 'b'.repeat(32), endpointId: null, url: 'https://hooks.example.com/x', type: 'search.finished',
        body: '{}', status: 'pending', attempts: 0, lastError: null, createdAt: '2026-03-01T00:00:00.000Z', expiresAt: 0, nextAttemptAt: null, deliveredAt: null,
      };
      expect(await first.deliveries.create(doc)).toBe(true);
      expect(await first.deliveries.create(doc)).toBe(false);
      for (let attempt = 1; attempt <= 30; attempt++) await first.deliveries.update(doc.id, { attempts: attempt, lastError: 'HTTP 503' });
      expect((await first.requestSecret('acct_1', 'whsec_first')).secret).toBe('whsec_first');
      expect((await first.requestSecret('acct_1', 'whsec_other')).secret).toBe('whsec_first');
      await first.close();

      const reopened = await createEmbeddedWebhookStore({ dataDir: folder, logger: silentLogger, compactAfterLines: 10 });
      expect(await reopened.deliveries.get(doc.id)).toMatchObject({ attempts: 30, lastError: 'HTTP 503', status: 'pending' });
      expect((await reopened.requestSecret('acct_1', 'whsec_other')).secret).toBe('whsec_first');
      await reopened.close();
      expect((await readFile(join(folder, 'webhooks.jsonl'), 'utf8')).trim().split('\n')).toHaveLength(2);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});

describe('secret rotation', () => {
  it('signs with the new and the rotated-out secret for a day after a rotation, then with the new one alone', async () => {
    const seen: { headers: Record<string, string>; body: string }[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString())).on('end', () => {
        seen.push({ headers: req.headers as Record<string, string>, body });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closers.push(() => new Promise<void>((r) => server.close(() => r())));
    let now = Date.parse('2026-03-01T00:00:00Z');
    const clock = { now: () => now };
    const sender = createWebhookSender({
      config: { LEADFINDER_WEBHOOK_ALLOW_PRIVATE: true, LEADFINDER_WEBHOOK_RETRY_BASE_MS: 1000 }, logger: silentLogger, clock, webhooks: store,
    });
    closers.push(() => sender.close());
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    await store.endpoints.insert({ id: 'whep_rot', accountId: 'acct_rot', url, events: ['search.finished'], secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', previous: null, createdAt: new Date(now).toISOString() });
    const oldSecret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const newSecret = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD';
    expect(await store.endpoints.setSecret('acct_other', 'whep_rot', newSecret, null)).toBe(false);
    await store.endpoints.setSecret('acct_rot', 'whep_rot', newSecret, { secret: oldSecret, until: now + 24 * 3600_000 });

    const send = async () => {
      const doc = { ...(await pendingDelivery(url, now)), endpointId: 'whep_rot', accountId: 'acct_rot', id: `msg_rot${n++}` };
      await store.deliveries.create(doc);
      expect(await sender.attempt(doc.id)).toEqual({ settled: true });
      return seen.at(-1)!;
    };
    // The reference library checks the timestamp against Date.now(): it reads the manual clock while verifying.
    const verify = (secret: string, got: { headers: Record<string, string>; body: string }) => {
      vi.setSystemTime(now);
      try {
        new Webhook(secret).verify(got.body, got.headers);
      } finally {
        vi.useRealTimers();
      }
    };
    const during = await send();
    expect(during.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    for (const secret of [oldSecret, newSecret]) expect(() => verify(secret, during)).not.toThrow();
    now += 24 * 3600_000;
    const after = await send();
    expect(after.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(() => verify(newSecret, after)).not.toThrow();
    expect(() => verify(oldSecret, after)).toThrow('No matching signature found');
  });
});
