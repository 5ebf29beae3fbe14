import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RunEvent, isTerminal } from '@leadfinder/wire';
import {
  AuthenticationError, InsufficientBalanceError, LeadfinderApiError, NotFoundError, SseParser, ValidationError, WebhookVerificationError,
  createClient, verifyWebhook,
} from '@leadfinder/client';
import type { FollowedEvent, LeadfinderClient } from '@leadfinder/client';
import { createAccount } from '../../../test/support/server-process.js';
import { embeddedServer, SHARED_SERVER_ADMIN_TOKEN as ADMIN } from '../../../test/support/shared-server.js';
import type { EmbeddedServer } from '../../../test/support/shared-server.js';
import { startProxy } from './proxy.js';
import type { ProxyAction, ProxiedRequest, TestProxy } from './proxy.js';

/** Finds rows in the bundled sample corpus within a few seconds. */
const QUERY = 'fintech startups in Berlin that raised a seed round';

let server: EmbeddedServer;
let apiKey: string;
let sessionToken: string;
let direct: LeadfinderClient;
const proxies: TestProxy[] = [];

beforeAll(async () => {
  // The run's shared server: loopback webhook receivers are allowed there (a loopback test service), and
  // retries come quickly.
  server = await embeddedServer();
  ({ apiKey, sessionToken } = await createAccount(server.url, ADMIN, 200));
  direct = createClient({ baseUrl: server.url, credential: apiKey });
});

afterAll(async () => {
  await server?.stop();
});

afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});

async function proxied(plan: (req: ProxiedRequest) => ProxyAction, options: { timeoutMs?: number; credential?: string } = {}) {
  const proxy = await startProxy(server.url, plan);
  proxies.push(proxy);
  const client = createClient({ baseUrl: proxy.url, credential: options.credential ?? apiKey, timeoutMs: options.timeoutMs, recoveryWindowMs: 500 });
  return { proxy, client };
}

/** A query no other test uses, so the run list can be counted per test. */
const uniqueQuery = () => `${QUERY} (ref ${randomBytes(4).toString('hex')})`;

/** Ground truth: every frame of a finished run, read in one go straight from the server. */
async function allEvents(id: string): Promise<{ seq: number; event: RunEvent }[]> {
  const r = await fetch(`${server.url}/v1/searches/${id}/events?since=0`, { headers: { authorization: `Bearer ${apiKey}` } });
  const parser = new SseParser();
  return parser.push(await r.text()).map((f) => ({ seq: f.id!, event: RunEvent.parse(JSON.parse(f.data)) }));
}

const eventsPath = (id: string) => `/v1/searches/${id}/events`;
const posts = (proxy: TestProxy) => proxy.requests.filter((r) => r.method === 'POST' && r.path === '/v1/searches');

describe('follow', () => {
  it('survives connections cut mid-frame during a run, without losing or repeating an event', async () => {
    let cuts = 0;
    const { proxy, client } = await proxied((req) => {
      if (req.path.startsWith('/v1/searches/') && req.path.endsWith('/events') && cuts < 4) {
        cuts += 1;
        return { kind: 'cut', frames: 2 };
      }
      return { kind: 'forward' };
    });
    const { id } = await direct.createSearch({ q: QUERY, target: 5 });
    const follower = client.follow(id, { reconnectDelayMs: 20 });
    const seen: FollowedEvent[] = [];
    let statusAtFirstDrop: string | null = null;
    for await (const item of follower) {
      if (follower.reconnects > 0 && statusAtFirstDrop === null) statusAtFirstDrop = (await direct.getSearch(id)).status;
      seen.push(item);
    }

    expect(statusAtFirstDrop).toBe('running');
    expect(follower.reconnects).toBeGreaterThanOrEqual(4);
    const truth = await allEvents(id);
    expect(seen.map((e) => e.seq)).toEqual(truth.map((e) => e.seq));
    expect(seen.map((e) => e.event)).toEqual(truth.map((e) => e.event));
    // Each reconnect carried the last sequence handled by then: two more frames per cut.
    const opens = proxy.requests.filter((r) => r.path === eventsPath(id));
    expect(opens[0]!.headers['last-event-id']).toBeUndefined();
    const cursors = opens.slice(1).map((r) => Number(r.headers['last-event-id']));
    expect(cursors.slice(0, 4)).toEqual([1, 3, 5, 7].map((i) => truth[i]!.seq));
    // Stream end was confirmed with GET: the terminal record with the streamed result.
    expect(follower.run && isTerminal(follower.run.status)).toBe(true);
    expect(follower.run!.result).toEqual(truth.find((e) => e.event.type === 'final')!.event);
  });

  it('reconnects when the stream goes silent, keepalives included', async () => {
    let stalled = false;
    const { client } = await proxied((req) => {
      if (req.path.endsWith('/events') && !stalled) {
        stalled = true;
        return { kind: 'stall' };
      }
      return { kind: 'forward' };
    });
    const { id } = await direct.createSearch({ q: QUERY, target: 5 });
    const follower = client.follow(id, { silenceTimeoutMs: 600, reconnectDelayMs: 20 });
    const seqs: number[] = [];
    for await (const { seq } of follower) seqs.push(seq);
    expect(follower.reconnects).toBeGreaterThanOrEqual(1);
    expect(seqs).toEqual((await allEvents(id)).map((e) => e.seq));
  });

  it('keeps following when a live run\'s stream is closed cleanly, and ends only once GET shows the run terminal', async () => {
    let closed = false;
    const { proxy, client } = await proxied((req) => {
      if (req.path.endsWith('/events') && !closed) {
        closed = true;
        return { kind: 'close', frames: 1 };
      }
      return { kind: 'forward' };
    });
    const { id } = await direct.createSearch({ q: QUERY, target: 5 });
    const follower = client.follow(id, { reconnectDelayMs: 20 });
    const seqs: number[] = [];
    for await (const { seq } of follower) seqs.push(seq);
    expect(seqs).toEqual((await allEvents(id)).map((e) => e.seq));
    expect(follower.run?.status).toBe('done');
    // After the early close it asked for the run record before reconnecting.
    const paths = proxy.requests.map((r) => r.path);
    expect(paths.slice(0, 3)).toEqual([eventsPath(id), `/v1/searches/${id}`, eventsPath(id)]);
  });

  it('advances its cursor only past events the caller has handled', async () => {
    const { id } = await direct.createSearch({ q: QUERY, target: 5 });
    await direct.waitForResult(id, { intervalMs: 100 });
    const truth = await allEvents(id);

    const first = direct.follow(id);
    let received = 0;
    for await (const item of first) {
      received += 1;
      expect(item.seq).toBe(truth[received - 1]!.seq);
      if (received === 3) break; // the caller gave up while handling the third event
    }
    expect(first.cursor).toBe(truth[1]!.seq);

    const resumed = direct.follow(id, { since: first.cursor });
    const rest: number[] = [];
    for await (const { seq } of resumed) rest.push(seq);
    expect(rest).toEqual(truth.slice(2).map((e) => e.seq));
    expect(resumed.cursor).toBe(truth.at(-1)!.seq);
  });

  it('takes the server’s 204 for a finished run it has caught up with as the end, with the run confirmed', async () => {
    const { id } = await direct.createSearch({ q: QUERY, target: 5 });
    await direct.waitForResult(id, { intervalMs: 100 });
    const last = (await allEvents(id)).at(-1)!.seq;
    const answer = await fetch(`${server.url}/v1/searches/${id}/events?since=${last}`, { headers: { authorization: `Bearer ${apiKey}` } });
    expect(answer.status).toBe(204);
    const follower = direct.follow(id, { since: last });
    const seen: number[] = [];
    for await (const { seq } of follower) seen.push(seq);
    expect([seen, follower.run?.status, follower.reconnects]).toEqual([[], 'done', 0]);
  });

  it('ends quietly when its signal aborts, leaving the run running', async () => {
    const { id } = await direct.createSearch({ q: QUERY, target: 5 });
    const abort = new AbortController();
    const follower = direct.follow(id, { signal: abort.signal });
    let count = 0;
    for await (const _ of follower) {
      count += 1;
      if (count === 1) abort.abort();
    }
    expect(count).toBe(1);
    expect(follower.run).toBeNull();
    await direct.waitForResult(id, { intervalMs: 100 });
  });
});

describe('createSearch', () => {
  it('after a timeout, finds the run the server accepted in the run list instead of starting a second one', async () => {
    let delayed = false;
    const { proxy, client } = await proxied((req) => {
      if (req.method === 'POST' && req.path === '/v1/searches' && !delayed) {
        delayed = true;
        return { kind: 'delay', ms: 3000 };
      }
      return { kind: 'forward' };
    }, { timeoutMs: 800 });
    const q = uniqueQuery();
    const accepted = await client.createSearch({ q, target: 5 });

    expect(posts(proxy)).toHaveLength(1);
    expect(accepted).toEqual({ id: JSON.parse(posts(proxy)[0]!.upstreamBody!).id, status: 'running' });
    expect(proxy.requests.some((r) => r.method === 'GET' && r.path === '/v1/searches')).toBe(true);
    const runs = (await direct.listSearches()).filter((r) => r.query === q);
    expect(runs.map((r) => r.id)).toEqual([accepted.id]);
  });

  it('after a timeout of a request the server never saw, lists, then sends it once more', async () => {
    let swallowed = false;
    const { proxy, client } = await proxied((req) => {
      if (req.method === 'POST' && req.path === '/v1/searches' && !swallowed) {
        swallowed = true;
        return { kind: 'blackhole' };
      }
      return { kind: 'forward' };
    }, { timeoutMs: 800 });
    const q = uniqueQuery();
    const accepted = await client.createSearch({ q, target: 5 });
    expect(posts(proxy)).toHaveLength(2);
    const runs = (await direct.listSearches()).filter((r) => r.query === q);
    expect(runs.map((r) => r.id)).toEqual([accepted.id]);
  });

  it('re-sends with the same Idempotency-Key after a timeout once the server has shown it honours keys: one run, no listing', async () => {
    let delayed = false;
    const { proxy, client } = await proxied((req) => {
      // The second POST (the first taught the client that this server honours keys) is answered too late.
      if (req.method === 'POST' && req.path === '/v1/searches' && req.n > 1 && !delayed) {
        delayed = true;
        return { kind: 'delay', ms: 3000 };
      }
      return { kind: 'forward' };
    }, { timeoutMs: 800 });
    await client.createSearch({ q: uniqueQuery(), target: 1 });
    const q = uniqueQuery();
    const accepted = await client.createSearch({ q, target: 5 });

    const sent = posts(proxy).slice(1);
    expect(sent).toHaveLength(2);
    expect(sent[0]!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent[1]!.headers['idempotency-key']).toBe(sent[0]!.headers['idempotency-key']);
    expect(proxy.requests.some((r) => r.method === 'GET' && r.path === '/v1/searches')).toBe(false);
    expect((await direct.listSearches()).filter((r) => r.query === q).map((r) => r.id)).toEqual([accepted.id]);
  });

  it('sends a caller-chosen Idempotency-Key, so a second call with it names the same run', async () => {
    const q = uniqueQuery();
    const key = `order-${randomBytes(4).toString('hex')}`;
    const first = await direct.createSearch({ q, target: 5 }, { idempotencyKey: key });
    const second = await direct.createSearch({ q, target: 5 }, { idempotencyKey: key });
    expect(second).toEqual(first);
    expect((await direct.listSearches()).filter((r) => r.query === q)).toHaveLength(1);
    const reused = await direct.createSearch({ q: `${q} elsewhere`, target: 5 }, { idempotencyKey: key }).catch((e: unknown) => e);
    expect(reused).toBeInstanceOf(LeadfinderApiError);
    expect((reused as LeadfinderApiError).status).toBe(422);
  });

  it('retries a 500 exactly once', async () => {
    let failures = 0;
    const { proxy, client } = await proxied((req) => {
      if (req.method === 'POST' && failures < 1) {
        failures += 1;
        return { kind: 'respond', status: 500, body: { detail: 'The reservation for this search could not be opened.' } };
      }
      return { kind: 'forward' };
    });
    const q = uniqueQuery();
    const accepted = await client.createSearch({ q, target: 5 });
    expect(posts(proxy)).toHaveLength(2);
    expect((await direct.listSearches()).filter((r) => r.query === q).map((r) => r.id)).toEqual([accepted.id]);
  });

  it('gives up after a second 500 without a third try', async () => {
    const { proxy, client } = await proxied(() => ({ kind: 'respond', status: 500, body: { detail: 'Internal server error' } }));
    const error = await client.createSearch({ q: uniqueQuery() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LeadfinderApiError);
    expect((error as LeadfinderApiError).status).toBe(500);
    expect((error as LeadfinderApiError).message).toBe('Internal server error');
    expect(posts(proxy)).toHaveLength(2);
  });

  it('surfaces a 402 with its message and amounts, and sends it only once', async () => {
    const poor = await createAccount(server.url, ADMIN, 1);
    const { proxy, client } = await proxied(() => ({ kind: 'forward' }), { credential: poor.apiKey });
    const error = await client.createSearch({ q: QUERY }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InsufficientBalanceError);
    const e = error as InsufficientBalanceError;
    expect(e.retryable).toBe(false);
    expect(e.message).toBe(e.balance.message);
    expect(e.message.length).toBeGreaterThan(10);
    expect({ available: e.availableMicrousd, held: e.heldMicrousd, needed: e.neededMicrousd, neededUsd: e.neededUsd })
      .toEqual({ available: 1_000_000, held: 0, needed: 5_000_000, neededUsd: '5.00' });
    expect(proxy.requests).toHaveLength(1);
  });

  it('does not retry 400, 401, 403 or 422', async () => {
    const closed = await createAccount(server.url, ADMIN, 50);
    const r = await fetch(`${server.url}/admin/accounts/${closed.id}/close`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}` } });
    expect(r.status).toBe(200);
    const cases: { credential: string; q: string; status: number; type: unknown; detail: unknown }[] = [
      { credential: apiKey, q: '   ', status: 400, type: LeadfinderApiError, detail: 'Empty query' },
      { credential: 'lf_live_not-a-real-key', q: QUERY, status: 401, type: AuthenticationError, detail: 'Invalid credentials' },
      { credential: closed.apiKey, q: QUERY, status: 403, type: AuthenticationError, detail: 'Account disabled' },
      { credential: apiKey, q: 'ab', status: 422, type: ValidationError, detail: expect.arrayContaining([expect.objectContaining({ loc: ['body', 'q'] })]) },
    ];
    for (const c of cases) {
      const { proxy, client } = await proxied(() => ({ kind: 'forward' }), { credential: c.credential });
      const error = await client.createSearch({ q: c.q }).catch((e: unknown) => e);
      expect(error, `status ${c.status}`).toBeInstanceOf(c.type as typeof LeadfinderApiError);
      expect((error as LeadfinderApiError).status).toBe(c.status);
      expect((error as LeadfinderApiError).retryable).toBe(false);
      expect((error as LeadfinderApiError).detail).toEqual(c.detail);
      expect(proxy.requests, `status ${c.status}`).toHaveLength(1);
    }
  });
});

describe('runs', () => {
  it('waitForResult polls every few seconds until the run is terminal', async () => {
    const { proxy, client } = await proxied(() => ({ kind: 'forward' }));
    const { id } = await direct.createSearch({ q: QUERY, target: 5 });
    const started = Date.now();
    const run = await client.waitForResult(id, { intervalMs: 1000 });
    const elapsed = Date.now() - started;
    expect(run.status).toBe('done');
    expect(run.result?.table.length).toBeGreaterThan(0);
    const polls = proxy.requests.filter((r) => r.path === `/v1/searches/${id}`).length;
    expect(polls).toBeLessThanOrEqual(Math.ceil(elapsed / 1000) + 1);
  });

  it('stopSearch ends a live run as stopped with its partial table', async () => {
    const { id } = await direct.createSearch({ q: QUERY, target: 50 });
    const stop = await direct.stopSearch(id);
    expect(stop).toEqual({ id, status: 'running', stopRequested: true });
    const follower = direct.follow(id);
    const types: string[] = [];
    for await (const { event } of follower) types.push(event.type);
    expect(follower.run?.status).toBe('stopped');
    expect(follower.run?.result?.stopped).toBe(true);
    expect(types.slice(-4)).toEqual(['final', 'cost', 'usage', 'done']);
    expect(await direct.stopSearch(id)).toEqual({ id, status: 'stopped', stopRequested: true });
  });

  it('answers an unknown run with NotFoundError', async () => {
    await expect(direct.getSearch('0'.repeat(32))).rejects.toBeInstanceOf(NotFoundError);
    await expect(direct.follow('0'.repeat(32))[Symbol.asyncIterator]().next()).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('keys', () => {
  it('creates, lists and revokes keys with a session token; the new key works', async () => {
    const keys = createClient({ baseUrl: server.url, credential: sessionToken }).keys;
    const created = await keys.create('ci key');
    expect(created.key.startsWith('lf_live_')).toBe(true);
    expect((await keys.list()).map((k) => k.id)).toContain(created.id);
    const withNewKey = createClient({ baseUrl: server.url, credential: created.key });
    expect(Array.isArray(await withNewKey.listSearches())).toBe(true);
    await keys.revoke(created.id);
    expect((await keys.list()).map((k) => k.id)).not.toContain(created.id);
    await expect(keys.revoke(created.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(withNewKey.listSearches()).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('refuses an API key on key management with 401 Invalid token', async () => {
    const error = await direct.keys.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).detail).toBe('Invalid token');
  });
});

describe('webhooks', () => {
  it('registers an endpoint, receives a search\'s signed deliveries, verifies them and lists them as delivered', async () => {
    const received: { headers: Record<string, string | string[] | undefined>; body: string; path: string }[] = [];
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c)).on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), path: req.url ?? '' });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    try {
      const owner = await createAccount(server.url, ADMIN, 20);
      const session = createClient({ baseUrl: server.url, credential: owner.sessionToken });
      const caller = createClient({ baseUrl: server.url, credential: owner.apiKey });
      const endpoint = await session.webhooks.createEndpoint(`${hookUrl}/endpoint`);
      expect((await session.webhooks.listEndpoints()).map((e) => e.id)).toEqual([endpoint.id]);
      const requestSecret = await session.webhooks.requestSecret();

      const { id } = await caller.createSearch({ q: QUERY, target: 2, webhook: { url: `${hookUrl}/request` } });
      const run = await caller.waitForResult(id, { intervalMs: 200 });
      const deliveries = await (async () => {
        for (;;) {
          const list = await session.webhooks.deliveries({ runId: id });
          if (list.length === 2 && list.every((d) => d.status === 'delivered')) return list;
          await new Promise((r) => setTimeout(r, 100));
        }
      })();
      expect(deliveries.map((d) => d.endpointId ?? 'request').sort()).toEqual([endpoint.id, 'request'].sort());

      for (const request of received) {
        const secret = request.path === '/request' ? requestSecret : endpoint.secret;
        const payload = verifyWebhook({ secret, headers: request.headers, body: request.body });
        expect(payload).toMatchObject({ type: 'search.finished', data: { id, status: run.status } });
        expect(() => verifyWebhook({ secret: endpoint.secret === secret ? requestSecret : endpoint.secret, headers: request.headers, body: request.body }))
          .toThrow(WebhookVerificationError);
        expect(() => verifyWebhook({ secret, headers: request.headers, body: request.body.replace(id, 'f'.repeat(32)) })).toThrow(WebhookVerificationError);
        expect(() => verifyWebhook({ secret, headers: request.headers, body: request.body, now: () => Date.now() + 600_000 })).toThrow(WebhookVerificationError);
      }
      expect(new Set(received.map((r) => r.headers['webhook-id']))).toEqual(new Set(deliveries.map((d) => d.id)));
      await session.webhooks.deleteEndpoint(endpoint.id);
      expect(await session.webhooks.listEndpoints()).toEqual([]);
    } finally {
      await new Promise<void>((r) => receiver.close(() => r()));
    }
  });
});
