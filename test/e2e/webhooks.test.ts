import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, startServerProcess } from '../support/server-process.js';
import type { ServerProcess } from '../support/server-process.js';
import { eventually, expectDeliveredOnce, startReceiver, webhookApi } from './webhooks-suite.js';
import type { DeliveryView, Receiver } from './webhooks-suite.js';

const ADMIN = 'webhooks-admin-token-0123456789abcdefgh';
const SERVER_ENV = { LEADFINDER_ADMIN_TOKEN: ADMIN, LEADFINDER_WEBHOOK_ALLOW_PRIVATE: '1', LEADFINDER_WEBHOOK_RETRY_BASE_MS: '150' };
const QUERY = 'fintech startups in Berlin that raised a seed round';

/**
 * Signed webhooks through the HTTP API of a real `leadfinder serve` (embedded store, in-process queues)
 * to a loopback receiver that fails, then recovers. Loopback targets are allowed only because the test
 * sets LEADFINDER_WEBHOOK_ALLOW_PRIVATE (refused off loopback or behind https).
 */
describe('signed webhooks, embedded', () => {
  let server: ServerProcess;
  let receiver: Receiver;
  let account: { id: string; apiKey: string; sessionToken: string };

  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startServerProcess({ env: SERVER_ENV });
    account = await createAccount(server.url, ADMIN, 50);
  });
  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
  });

  const post = (body: unknown) =>
    fetch(`${server.url}/v1/searches`, {
      method: 'POST', headers: { authorization: `Bearer ${account.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
  const record = async (runId: string) =>
    (await fetch(`${server.url}/v1/searches/${runId}`, { headers: { authorization: `Bearer ${account.apiKey}` } })).json();

  it('delivers the terminal record and opted-in progress to a failing, then recovering receiver: once each after dedup, signed', async () => {
    const api = webhookApi(server.url, account.sessionToken);
    const created = await api.call('POST', '/endpoints', { url: `${receiver.url}/endpoint`, events: ['search.finished', 'search.progress'] });
    expect(created.status).toBe(201);
    const endpointSecret = created.body.secret as string;
    expect(endpointSecret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const requestSecret = (await api.call('GET', '/request-secret')).body.secret as string;

    const runs: string[] = [];
    for (const extra of [{ webhook: { url: `${receiver.url}/request` } }, {}]) {
      const r = await post({ q: QUERY, target: 3, ...extra });
      expect(r.status).toBe(202);
      expect(Object.keys((await r.json()) as object)).toHaveLength(2);
      runs.push(((await (await fetch(`${server.url}/v1/searches`, { headers: { authorization: `Bearer ${account.apiKey}` } })).json()) as { runs: { id: string }[] }).runs[0]!.id);
    }
    // While the receiver fails, attempts pile up (each recorded) and nothing is marked delivered.
    await eventually('failed attempts', async () => (receiver.requests.length >= 4 ? true : undefined), 30_000);
    const failing = (await Promise.all(runs.map((id) => api.deliveries(id)))).flat();
    expect(failing.every((d) => d.status === 'pending')).toBe(true);

    receiver.recover();
    const settled = await eventually('every delivery settled', async () => {
      const all = (await Promise.all(runs.map((id) => api.deliveries(id)))).flat();
      const finished = runs.every((id) => all.some((d) => d.runId === id && d.type === 'search.finished'));
      return finished && all.every((d) => d.status !== 'pending') ? all : undefined;
    }, 60_000);

    // The first run went to the request's URL (finished only) and to the endpoint; the second only to the endpoint.
    const finishedTargets = (runId: string) => settled.filter((d) => d.runId === runId && d.type === 'search.finished').map((d) => d.endpointId ?? 'request').sort();
    expect(finishedTargets(runs[0]!)).toEqual([created.body.id, 'request'].sort());
    expect(finishedTargets(runs[1]!)).toEqual([created.body.id]);
    expect(settled.filter((d) => d.type === 'search.progress' && d.endpointId === null)).toEqual([]);
    expect(settled.some((d) => d.type === 'search.progress')).toBe(true);

    await expectDeliveredOnce({
      receiver, deliveries: settled, record,
      secretFor: (d: DeliveryView) => (d.endpointId === null ? requestSecret : endpointSecret),
    });
  }, 120_000);

  it('manages endpoints with a session token only, rotates secrets and refuses private targets it was not allowed', async () => {
    const api = webhookApi(server.url, account.sessionToken);
    const made = await api.call('POST', '/endpoints', { url: 'https://hooks.example.com/leadfinder' });
    expect(made.status).toBe(201);
    expect(made.body.events).toEqual(['search.finished']);
    const listed = (await api.call('GET', '/endpoints')).body.endpoints as { id: string; secret?: string }[];
    expect(listed.some((e) => e.id === made.body.id)).toBe(true);
    expect(listed.every((e) => e.secret === undefined)).toBe(true);
    const rotated = await api.call('POST', `/endpoints/${made.body.id as string}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(made.body.secret);
    expect((await api.call('DELETE', `/endpoints/${made.body.id as string}`)).status).toBe(204);
    expect((await api.call('DELETE', `/endpoints/${made.body.id as string}`)).status).toBe(404);
    expect((await api.call('POST', '/endpoints', { url: 'ftp://example.com/x' })).status).toBe(422);

    const withKey = await fetch(`${server.url}/api/webhooks/endpoints`, { headers: { authorization: `Bearer ${account.apiKey}` } });
    expect(withKey.status).toBe(401);
    expect(await withKey.json()).toEqual({ detail: 'Invalid token' });
  });

  it('keeps pending deliveries across a restart of the embedded service (queued again from the data dir)', async () => {
    const failing = await startReceiver();
    // The file's server (started with SERVER_ENV) is the one restarted: no later test uses it. Its data dir
    // goes with it in afterAll, after the restarted server (given that dir) is stopped below.
    const env = SERVER_ENV;
    let first: ServerProcess | undefined = server;
    let second: ServerProcess | undefined;
    try {
      const owner = await createAccount(first.url, ADMIN, 10);
      const r = await fetch(`${first.url}/v1/searches`, {
        method: 'POST', headers: { authorization: `Bearer ${owner.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ q: QUERY, target: 2, webhook: { url: `${failing.url}/hook` } }),
      });
      const { id } = (await r.json()) as { id: string };
      await eventually('a failed attempt', async () => (failing.requests.length >= 1 ? true : undefined), 30_000);
      const dataDir = first.dataDir;
      await first.stop({ keepData: true });
      first = undefined;
      const attemptsBefore = failing.requests.length;

      failing.recover();
      second = await startServerProcess({ env, dataDir });
      const api = webhookApi(second.url, owner.sessionToken);
      const settled = await eventually('the delivery after the restart', async () => {
        const list = await api.deliveries(id);
        return list.length === 1 && list[0]!.status === 'delivered' ? list : undefined;
      }, 30_000);
      expect(failing.requests.length).toBeGreaterThan(attemptsBefore);
      const requestSecret = (await api.call('GET', '/request-secret')).body.secret as string;
      await expectDeliveredOnce({
        receiver: failing, deliveries: settled, secretFor: () => requestSecret,
        record: async (runId) => (await fetch(`${second!.url}/v1/searches/${runId}`, { headers: { authorization: `Bearer ${owner.apiKey}` } })).json(),
      });
    } finally {
      await first?.stop();
      await second?.stop();
      await failing.close();
    }
  }, 120_000);
});
