import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueName } from '@leadfinder/testkit';
import { distributedServers, dropTestDatabase, startNatsServer, startRole } from './distributed-harness.js';
import type { Proc, RoleProc } from './distributed-harness.js';
import { createAccount } from '../support/server-process.js';
import { eventually, expectDeliveredOnce, startReceiver, webhookApi } from './webhooks-suite.js';
import type { DeliveryView, Receiver } from './webhooks-suite.js';

const SUITE = 'test/e2e/webhooks-distributed.test.ts';
const ADMIN = 'e2e-webhooks-admin-token-0123456789abcd';
const QUERY = 'fintech startups in Berlin that raised a seed round';

const { mongoUrl, natsBin, ready: serversReady } = await distributedServers(SUITE);

/**
 * Idempotent create and signed webhooks on the distributed stack: `serve --role` processes over a dedicated nats-server
 * (JetStream) and FerretDB/MongoDB. The edge that accepted the runs and began sending is killed while the
 * receiver still fails; an edge started afterwards (nothing of it existed while the deliveries were made)
 * delivers every one of them from the JetStream queues once the receiver recovers.
 */
describe.skipIf(!serversReady)('idempotent create and signed webhooks over NATS JetStream and MongoDB', () => {
  const dbName = uniqueName('lf_e2e_hooks');
  const tmpRoot = mkdtempSync(join(tmpdir(), 'lf-webhooks-dist-'));
  const procs: Proc[] = [];
  let common: Record<string, string>;
  let nats: Proc & { url: string };
  let receiver: Receiver;
  let edgeA: RoleProc;
  const started = <T extends Proc>(p: T): T => (procs.push(p), p);
  const dataDir = (name: string) => mkdtempSync(join(tmpRoot, `${name}-`));

  beforeAll(async () => {
    receiver = await startReceiver();
    nats = started(await startNatsServer(natsBin, join(tmpRoot, 'jetstream')));
    common = {
      LEADFINDER_MONGODB_URL: mongoUrl!, LEADFINDER_MONGODB_DB: dbName, LEADFINDER_NATS_URL: nats.url,
      LEADFINDER_SESSION_SECRET: 'e2e-webhooks-session-secret-0123456789ab', LEADFINDER_ADMIN_TOKEN: ADMIN,
      // Loopback receiver: allowed only because this is a loopback test service (refused otherwise).
      LEADFINDER_WEBHOOK_ALLOW_PRIVATE: '1', LEADFINDER_WEBHOOK_RETRY_BASE_MS: '300',
      // A delivery edge A held when it was killed goes to edge B after 5 s instead of the production 30 s.
      LEADFINDER_WEBHOOK_REDELIVERY_MS: '5000',
    };
    // A coordinator with the fetcher and filter in process (no addresses given), searching the sample corpus,
    // and edge A, started at once; each is recorded as soon as it is up, so afterAll stops it either way.
    [, edgeA] = await Promise.all([
      startRole('coordinator', 'coordinator', { ...common, LEADFINDER_DATA_DIR: dataDir('coordinator'), LEADFINDER_LOG_LEVEL: 'info' }).then(started),
      startRole('edge-a', 'edge', { ...common, LEADFINDER_DATA_DIR: dataDir('edge-a') }).then(started),
    ]);
  }, 120_000);

  afterAll(async () => {
    await Promise.allSettled(procs.filter((p) => p !== nats).map((p) => p.stop(5000)));
    await nats?.stop(5000);
    await receiver?.close();
    await dropTestDatabase(mongoUrl, dbName);
    rmSync(tmpRoot, { recursive: true, force: true });
  }, 60_000);

  it('200 concurrent duplicates of one Idempotency-Key over two edges start exactly one run with one hold, and every answer names it', async () => {
    const edgeC = started(await startRole('edge-c', 'edge', { ...common, LEADFINDER_DATA_DIR: dataDir('edge-c') }));
    try {
      const account = await createAccount(edgeA.url!, ADMIN, 25);
      const body = JSON.stringify({ q: QUERY, target: 2 });
      const answers = await Promise.all(Array.from({ length: 200 }, async (_, i) => {
        const r = await fetch(`${(i % 2 === 0 ? edgeA : edgeC).url}/v1/searches`, {
          method: 'POST', body,
          headers: { authorization: `Bearer ${account.apiKey}`, 'content-type': 'application/json', 'idempotency-key': 'order-distributed-1' },
        });
        return { status: r.status, replayed: r.headers.get('idempotent-replayed'), body: (await r.json()) as { id?: string } };
      }));
      expect(answers.map((a) => a.status)).toEqual(Array(200).fill(202));
      const ids = new Set(answers.map((a) => a.body.id));
      expect(ids.size).toBe(1);
      expect(answers.filter((a) => a.replayed === 'false')).toHaveLength(1);
      const list = (await (await fetch(`${edgeC.url}/v1/searches`, { headers: { authorization: `Bearer ${account.apiKey}` } })).json()) as { runs: { id: string }[] };
      expect(list.runs.map((r) => r.id)).toEqual([...ids]);
      const money = (await (await fetch(`${edgeA.url}/admin/accounts/${account.id}`, { headers: { authorization: `Bearer ${ADMIN}` } })).json()) as { heldMicrousd: number; balanceMicrousd: number };
      // One hold of 5.00 USD at most (the run may already have settled): never two.
      expect(money.heldMicrousd === 5_000_000 || money.heldMicrousd === 0).toBe(true);
    } finally {
      await edgeC.stop(5000);
    }
  }, 120_000);

  it('a failing, then recovering receiver gets each delivery exactly once after dedup, signed, though the sending edge died', async () => {
    const account = await createAccount(edgeA.url!, ADMIN, 50);
    const hooksA = webhookApi(edgeA.url!, account.sessionToken);
    const endpoint = await hooksA.call('POST', '/endpoints', { url: `${receiver.url}/endpoint`, events: ['search.finished', 'search.progress'] });
    expect(endpoint.status).toBe(201);
    const requestSecret = (await hooksA.call('GET', '/request-secret')).body.secret as string;

    const post = async (body: unknown) => {
      const r = await fetch(`${edgeA.url}/v1/searches`, {
        method: 'POST', headers: { authorization: `Bearer ${account.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
      });
      expect(r.status).toBe(202);
      return ((await r.json()) as { id: string }).id;
    };
    const runs = [await post({ q: QUERY, target: 3, webhook: { url: `${receiver.url}/request` } }), await post({ q: QUERY, target: 3 })];

    // Edge A creates the deliveries and sends them; the receiver refuses every one.
    const pending = await eventually('both runs to have failed finished deliveries', async () => {
      const all = (await Promise.all(runs.map((id) => hooksA.deliveries(id)))).flat();
      const finished = all.filter((d) => d.type === 'search.finished');
      return finished.length === 3 && finished.every((d) => d.attempts >= 1 && d.status === 'pending') ? all : undefined;
    }, 60_000);
    expect(pending.every((d) => d.status === 'pending')).toBe(true);

    await edgeA.kill();
    const seenBeforeDeath = receiver.requests.length;
    const edgeB = started(await startRole('edge-b', 'edge', { ...common, LEADFINDER_DATA_DIR: dataDir('edge-b') }));
    receiver.recover();
    const hooksB = webhookApi(edgeB.url!, account.sessionToken);
    const settled = await eventually('every delivery settled by edge B', async () => {
      const all = (await Promise.all(runs.map((id) => hooksB.deliveries(id)))).flat();
      return all.length >= pending.length && all.every((d) => d.status !== 'pending') ? all : undefined;
    }, 90_000);

    expect(receiver.requests.length).toBeGreaterThan(seenBeforeDeath);
    expect(new Set(settled.map((d) => d.id))).toEqual(new Set([...pending.map((d) => d.id), ...settled.map((d) => d.id)]));
    await expectDeliveredOnce({
      receiver, deliveries: settled,
      secretFor: (d: DeliveryView) => (d.endpointId === null ? requestSecret : (endpoint.body.secret as string)),
      record: async (runId) => (await fetch(`${edgeB.url}/v1/searches/${runId}`, { headers: { authorization: `Bearer ${account.apiKey}` } })).json(),
    });
  }, 240_000);
});
