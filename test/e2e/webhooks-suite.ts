import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { expect } from 'vitest';

/**
 * A webhook receiver on loopback that fails (503, after reading the request, so the sender must send it
 * again) until told to recover, then answers 200. It keeps every request, so a test can deduplicate by
 * `webhook-id` as a receiver should and check each signature with the official Standard Webhooks library.
 */
export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  recover(): void;
  close(): Promise<void>;
}

export interface ReceivedRequest {
  path: string;
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  answered: number;
}

export async function startReceiver(): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  let healthy = false;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answered = healthy ? 200 : 503;
      requests.push({
        path: req.url ?? '/', id: String(req.headers['webhook-id']), timestamp: String(req.headers['webhook-timestamp']),
        signature: String(req.headers['webhook-signature']), body: Buffer.concat(chunks).toString('utf8'), answered,
      });
      res.writeHead(answered).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    recover: () => void (healthy = true),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export interface DeliveryView {
  id: string;
  runId: string;
  endpointId: string | null;
  url: string;
  type: string;
  status: string;
  attempts: number;
  lastError: string | null;
}

/** `/api/webhooks…` as the account's session. */
export function webhookApi(edgeUrl: string, sessionToken: string) {
  const call = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${edgeUrl}/api/webhooks${path}`, {
      method,
      headers: { authorization: `Bearer ${sessionToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await r.text();
    return { status: r.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> };
  };
  return {
    call,
    deliveries: async (runId: string) => ((await call('GET', `/deliveries?run=${runId}`)).body.deliveries as DeliveryView[]),
  };
}

/**
 * What every webhook test checks once the receiver has recovered and every delivery is settled: after
 * deduplication by `webhook-id` the receiver has each recorded delivery exactly once, every request it
 * got (retries included) carries a valid signature of the right secret, the first attempts failed and
 * were retried, and a `search.finished` body holds the record `GET /v1/searches/{id}` answers.
 */
export async function expectDeliveredOnce(options: {
  receiver: Receiver;
  deliveries: DeliveryView[];
  secretFor: (d: DeliveryView) => string;
  record: (runId: string) => Promise<unknown>;
}): Promise<void> {
  const { receiver, deliveries } = options;
  expect(deliveries.length).toBeGreaterThan(0);
  expect(deliveries.map((d) => d.status)).toEqual(deliveries.map(() => 'delivered'));
  const byId = new Map(deliveries.map((d) => [d.id, d]));
  const received = receiver.requests.filter((r) => byId.has(r.id));
  // Nothing arrived that is not a recorded delivery of these runs.
  expect(receiver.requests.filter((r) => !byId.has(r.id) && deliveries.some((d) => r.body.includes(d.runId)))).toEqual([]);

  const deduplicated = new Map<string, ReceivedRequest>();
  for (const request of received) {
    const delivery = byId.get(request.id)!;
    const verified = new Webhook(options.secretFor(delivery)).verify(request.body, {
      'webhook-id': request.id, 'webhook-timestamp': request.timestamp, 'webhook-signature': request.signature,
    }) as { type: string; data: { id?: string; runId?: string } };
    expect(verified.type).toBe(delivery.type);
    expect(new URL(delivery.url).pathname).toBe(request.path);
    if (!deduplicated.has(request.id)) deduplicated.set(request.id, request);
    else expect(request.body).toBe(deduplicated.get(request.id)!.body);
  }
  expect([...deduplicated.keys()].sort()).toEqual([...byId.keys()].sort());
  // Each delivery got through (a 200); repeats are allowed (at least once) and deduplicated above.
  for (const id of byId.keys()) expect(received.filter((r) => r.id === id && r.answered === 200).length).toBeGreaterThanOrEqual(1);
  // The receiver failed first: some deliveries needed more than one attempt, and say why.
  expect(deliveries.some((d) => d.attempts > 1 && d.lastError === 'HTTP 503')).toBe(true);

  for (const request of deduplicated.values()) {
    const payload = JSON.parse(request.body) as { type: string; data: { id: string } };
    if (payload.type === 'search.finished') expect(payload.data).toEqual(await options.record(payload.data.id));
  }
}

export async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
