import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyPluginAsync } from 'fastify';
import type { RunEvent } from '@leadfinder/wire';
import { ADMIN_TOKEN, bearer, startHarness } from '../test/harness.js';
import type { Harness } from '../test/harness.js';
import { validate } from '../test/json-schema.js';

let h: Harness;
const web: FastifyPluginAsync = async (app) => {
  app.get('/', async () => 'web page');
  app.get('/*', async () => 'web catch-all');
};

beforeAll(async () => {
  h = await startHarness({ env: { LEADFINDER_RATE_LIMIT_PER_MIN: '5' }, web });
});
afterAll(async () => h.close());

describe('routing', () => {
  const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
  it.each(['/api/runs', '/api/runs/ws', '/api/runs/abc', '/api/search'])('answers %s with 404 Not Found to every method', async (url) => {
    for (const method of methods) {
      const res = await h.app.inject({ method, url, headers: { upgrade: 'websocket', connection: 'Upgrade' }, payload: method === 'GET' ? undefined : {} });
      expect([res.statusCode, res.json()]).toEqual([404, { detail: 'Not Found' }]);
    }
  });

  it('answers unknown API routes with 404 Not Found and serves the web plugin at the root', async () => {
    for (const url of ['/v1/nothing', '/v2/searches', '/api/other']) {
      const res = await h.app.inject({ method: 'POST', url });
      expect([res.statusCode, res.json()]).toEqual([404, { detail: 'Not Found' }]);
    }
    expect((await h.app.inject({ method: 'GET', url: '/' })).body).toBe('web page');
  });

  it('answers a method a path does not serve with 405, Allow and the {"detail"} shape', async () => {
    const a = await h.createAccount(10);
    const cases: [string, string, string][] = [
      ['DELETE', '/v1/searches', 'GET, HEAD, POST'],
      ['PUT', '/v1/searches/abc', 'GET, HEAD'],
      ['PATCH', '/v1/searches/abc/events', 'GET, HEAD'],
      ['PUT', '/v1/searches/abc/stop', 'POST'],
      ['OPTIONS', '/healthz', 'GET, HEAD'],
      ['TRACE', '/openapi.json', 'GET, HEAD'],
      ['PUT', '/api/keys', 'GET, HEAD, POST'],
      ['POST', '/api/keys/k1', 'DELETE'],
    ];
    for (const [method, url, allow] of cases) {
      const res = await h.app.inject({ method: method as 'GET', url, headers: bearer(a.apiKey) });
      expect([method, url, res.statusCode, res.headers.allow, res.json()]).toEqual([method, url, 405, allow, { detail: 'Method Not Allowed' }]);
    }
    // A served method still reaches its route, and an unknown path is still 404.
    expect((await h.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect((await h.app.inject({ method: 'PUT', url: '/v1/nothing' })).statusCode).toBe(404);
  });

  it('answers /healthz and /readyz, and /readyz 503 when a dependency fails', async () => {
    expect((await h.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await h.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    h.faults.add('store.ping');
    try {
      const res = await h.app.inject({ method: 'GET', url: '/readyz' });
      expect([res.statusCode, res.json()]).toEqual([503, { detail: 'Not ready' }]);
    } finally {
      h.faults.delete('store.ping');
    }
  });
});

describe('rate limit', () => {
  it('answers 429 Too many requests with Retry-After once a credential spends its budget, per credential', async () => {
    const a = await h.createAccount(10);
    const b = await h.createAccount(10);
    const get = (token: string) => h.app.inject({ method: 'GET', url: '/v1/searches', headers: bearer(token) });
    for (let i = 0; i < 5; i++) expect((await get(a.apiKey)).statusCode).toBe(200);
    const limited = await get(a.apiKey);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ detail: 'Too many requests' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await get(b.apiKey)).statusCode).toBe(200);
    // An unauthenticated caller is refused for its credentials, not counted.
    expect((await h.app.inject({ method: 'GET', url: '/v1/searches' })).statusCode).toBe(401);
    h.clock.advance(60_000);
    expect((await get(a.apiKey)).statusCode).toBe(200);
  });

  it('limits /api/keys too', async () => {
    const a = await h.createAccount(10);
    const list = () => h.app.inject({ method: 'GET', url: '/api/keys', headers: bearer(a.sessionToken) });
    for (let i = 0; i < 5; i++) await list();
    expect((await list()).statusCode).toBe(429);
  });
});

describe('OpenAPI document', () => {
  type Doc = { openapi: string; paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>> };
  let doc: Doc;
  beforeAll(async () => {
    doc = (await h.app.inject({ method: 'GET', url: '/admin/openapi.json', headers: bearer(ADMIN_TOKEN) })).json();
  });

  it('serves the public document without the admin API, and the whole one to the admin token only', async () => {
    const pub = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(pub.paths).filter((p) => p.startsWith('/admin'))).toEqual([]);
    expect(JSON.stringify(pub)).not.toMatch(/admin/i);
    expect(Object.keys(pub.paths).sort()).toEqual(Object.keys(doc.paths).filter((p) => !p.startsWith('/admin')).sort());
    for (const headers of [{}, bearer('not-the-admin-token-0123456789abcdef')]) {
      const res = await h.app.inject({ method: 'GET', url: '/admin/openapi.json', headers });
      expect([res.statusCode, res.json()]).toEqual([401, { detail: 'Invalid admin token' }]);
    }
  });

  /** The response must be documented for its path, method and status, and its body must match the schema. */
  function conforms(path: string, method: string, status: number, body: unknown, media = 'application/json'): string[] {
    const response = doc.paths[path]?.[method.toLowerCase()]?.responses[String(status)];
    if (!response) return [`${method} ${path} ${status} is not documented`];
    const schema = response.content?.[media]?.schema;
    if (!schema) return body === undefined ? [] : [`${method} ${path} ${status} has no ${media} schema`];
    return validate(body, schema as Record<string, unknown>, doc as unknown as Record<string, unknown>);
  }

  it('is OpenAPI 3.2 and documents every endpoint', () => {
    expect(doc.openapi).toBe('3.2.0');
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/admin/accounts', '/admin/accounts/{id}', '/admin/accounts/{id}/close', '/admin/accounts/{id}/sessions', '/admin/accounts/{id}/topup',
      '/admin/openapi.json',
      '/api/keys', '/api/keys/{id}',
      '/api/webhooks/deliveries', '/api/webhooks/endpoints', '/api/webhooks/endpoints/{id}', '/api/webhooks/endpoints/{id}/rotate-secret',
      '/api/webhooks/request-secret', '/api/webhooks/request-secret/rotate',
      '/healthz', '/openapi.json', '/readyz',
      '/v1/searches', '/v1/searches/{id}', '/v1/searches/{id}/events', '/v1/searches/{id}/stop',
    ]);
  });

  it('describes what the server actually sends', async () => {
    const fresh = await startHarness();
    try {
      const acct = await fresh.createAccount(6);
      const inject = async (method: 'GET' | 'POST' | 'DELETE', url: string, token?: string, payload?: object) => {
        const res = await fresh.app.inject({ method, url, ...(token ? { headers: bearer(token) } : {}), ...(payload ? { payload } : {}) });
        return { status: res.statusCode, body: res.body ? res.json() : undefined };
      };
      const samples: [string, string, { status: number; body: unknown }][] = [];
      const add = (path: string, method: string, r: { status: number; body: unknown }) => samples.push([path, method, r]);

      const accepted = await inject('POST', '/v1/searches', acct.apiKey, { q: 'fintech startups' });
      add('/v1/searches', 'POST', accepted);
      add('/v1/searches', 'POST', await inject('POST', '/v1/searches', acct.apiKey, { q: 'second one' }));
      add('/v1/searches', 'POST', await inject('POST', '/v1/searches', acct.apiKey, { q: 'ab', target: 0 }));
      add('/v1/searches', 'POST', await inject('POST', '/v1/searches', acct.apiKey, { q: '    ' }));
      add('/v1/searches', 'POST', await inject('POST', '/v1/searches', undefined, { q: 'abc' }));
      add('/v1/searches', 'GET', await inject('GET', '/v1/searches', acct.apiKey));
      const id = accepted.body && (accepted.body as { id: string }).id;
      const final: RunEvent = { type: 'final', at: new Date().toISOString(), runId: id!, table: [], target: 50, met: false, filters: [{ index: 1, title: 'Berlin', criterion: 'based in Berlin' }], stopped: true, stopped_at: 'round 1' };
      add('/v1/searches/{id}', 'GET', await inject('GET', `/v1/searches/${id}`, acct.apiKey));
      add('/v1/searches/{id}/stop', 'POST', await inject('POST', `/v1/searches/${id}/stop`, acct.apiKey));
      await fresh.deps.billing.endRun((await fresh.deps.store.runs.get(id!))!, null, { status: 'stopped', where: 'round 1', spendMicrousd: 1000, chargeMicrousd: 1000, usdDisplay: '$0.001', stopReason: null, result: final as never, finishedAt: new Date().toISOString() });
      add('/v1/searches/{id}', 'GET', await inject('GET', `/v1/searches/${id}`, acct.apiKey));
      add('/v1/searches/{id}', 'GET', await inject('GET', `/v1/searches/nope`, acct.apiKey));
      add('/v1/searches/{id}/events', 'GET', await inject('GET', `/v1/searches/${id}/events?since=-1`, acct.apiKey));
      add('/api/keys', 'POST', await inject('POST', '/api/keys', acct.sessionToken, { name: 'ci' }));
      add('/api/keys', 'POST', await inject('POST', '/api/keys', acct.apiKey, { name: 'ci' }));
      add('/api/keys', 'GET', await inject('GET', '/api/keys', acct.sessionToken));
      add('/api/keys/{id}', 'DELETE', await inject('DELETE', '/api/keys/none', acct.sessionToken));
      add('/admin/accounts', 'POST', await inject('POST', '/admin/accounts', ADMIN_TOKEN, { balanceUsd: 1 }));
      add('/admin/accounts/{id}', 'GET', await inject('GET', `/admin/accounts/${acct.id}`, ADMIN_TOKEN));
      add('/admin/accounts/{id}/topup', 'POST', await inject('POST', `/admin/accounts/${acct.id}/topup`, ADMIN_TOKEN, { usd: 'x' }));
      add('/admin/accounts/{id}/sessions', 'POST', await inject('POST', `/admin/accounts/${acct.id}/sessions`, ADMIN_TOKEN));
      add('/readyz', 'GET', await inject('GET', '/readyz'));

      expect(new Set(samples.map(([, , r]) => r.status))).toEqual(new Set([200, 201, 202, 400, 401, 402, 404, 422]));
      const problems = samples.flatMap(([path, method, r]) => conforms(path, method, r.status, r.body).map((p) => `${method} ${path} ${r.status}: ${p}`));
      expect(problems).toEqual([]);
      // Every event type validates against the schema of an SSE message's `data` (OpenAPI 3.2 itemSchema).
      const item = (doc.paths['/v1/searches/{id}/events']!.get!.responses['200']!.content!['text/event-stream'] as unknown as {
        itemSchema: { required: string[]; properties: { data: { contentMediaType: string; contentSchema: Record<string, unknown> } } };
      }).itemSchema;
      expect([item.required, item.properties.data.contentMediaType]).toEqual([['id', 'data'], 'application/json']);
      const data = (event: unknown) => validate(event, item.properties.data.contentSchema, doc as unknown as Record<string, unknown>);
      expect(data(final)).toEqual([]);
      expect(data({ type: 'bogus' })).not.toEqual([]);
      // The checker is not vacuous.
      expect(conforms('/v1/searches', 'POST', 202, { id: 'x', status: 'running', extra: 1 })).not.toEqual([]);
    } finally {
      await fresh.close();
    }
  });
});
