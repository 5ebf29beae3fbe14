/**
 * A standard EventSource client (the `eventsource` npm package, not our SDK) against a real
 * `leadfinder serve`, through a proxy that closes and cuts its connections. Such a client reconnects on
 * its own with its first URL (`?since=` still in it) and the newest `Last-Event-ID`, so the server must
 * resume after the later of the two; and once it has everything of a finished run, the server's 204
 * must make it stop rather than reconnect forever.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventSource } from 'eventsource';
import { startProxy } from '../../services/client/test/proxy.js';
import type { TestProxy } from '../../services/client/test/proxy.js';
import { createAccount } from '../support/server-process.js';
import { embeddedServer, SHARED_SERVER_ADMIN_TOKEN, type EmbeddedServer } from '../support/shared-server.js';

const ADMIN = SHARED_SERVER_ADMIN_TOKEN;
let server: EmbeddedServer;
let apiKey: string;
let proxy: TestProxy | undefined;

beforeAll(async () => {
  server = await embeddedServer();
  apiKey = (await createAccount(server.url, ADMIN, 50)).apiKey;
});
afterAll(async () => {
  await proxy?.close();
  await server?.stop();
});

const auth = () => ({ authorization: `Bearer ${apiKey}` });

/** Every event id of a finished run, read in one go straight from the server. */
async function allIds(id: string): Promise<number[]> {
  const text = await (await fetch(`${server.url}/v1/searches/${id}/events`, { headers: auth() })).text();
  return [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
}

describe('the eventsource npm package', () => {
  it('with ?since in its URL, through closed and cut connections, gets each event once and stops at the end', async () => {
    const created = await fetch(`${server.url}/v1/searches`, {
      method: 'POST', headers: { ...auth(), 'content-type': 'application/json' }, body: JSON.stringify({ q: 'AI startups in Berlin', target: 5 }),
    });
    const { id } = (await created.json()) as { id: string };
    for (let i = 0; i < 100; i++) {
      const run = (await (await fetch(`${server.url}/v1/searches/${id}`, { headers: auth() })).json()) as { status: string };
      if (run.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const ids = await allIds(id);
    expect(ids.length).toBeGreaterThanOrEqual(8);

    // 1st connection: closed cleanly after 2 frames; 2nd: cut in the middle of its 3rd frame; then as is.
    proxy = await startProxy(server.url, (req) => {
      if (req.n === 1) return { kind: 'close', frames: 2 };
      if (req.n === 2) return { kind: 'cut', frames: 2 };
      return { kind: 'forward' };
    });
    const since = ids[1]!;
    const received: number[] = [];
    const source = new EventSource(`${proxy.url}/v1/searches/${id}/events?since=${since}`, {
      fetch: async (input, init) => {
        const response = await fetch(input, { ...init, headers: { ...init?.headers, ...auth() } });
        if (!response.body) return response;
        // Test speed only: the server sends no `retry:` line, and the package waits 3 s before each
        // reconnect by default; a leading `retry: 50` (as a server may send) shortens that.
        const faster = response.body.pipeThrough(prefixed('retry: 50\n\n'));
        return new Response(faster, { status: response.status, statusText: response.statusText, headers: response.headers });
      },
    });
    const ended = new Promise<void>((resolve) => {
      source.onmessage = (message) => received.push(Number(message.lastEventId));
      source.onerror = () => {
        if (source.readyState === source.CLOSED) resolve();
      };
    });
    await Promise.race([ended, new Promise((_, reject) => setTimeout(() => reject(new Error(`still open after ${received.length} events: ${received.slice(0, 40).join(',')}`)), 20_000))]);
    source.close();

    expect(received).toEqual(ids.filter((seq) => seq > since));
    const eventRequests = proxy.requests.filter((r) => r.path.startsWith(`/v1/searches/${id}/events`));
    // Every reconnect kept the first URL and named the newest id it had; the last one was answered 204.
    expect(eventRequests.every((r) => r.path === `/v1/searches/${id}/events?since=${since}`)).toBe(true);
    expect(eventRequests.slice(1).map((r) => r.headers['last-event-id'])).toEqual([String(ids[3]), String(ids[5]), String(ids.at(-1))]);
    // Stopped: no further connection after the 204.
    await new Promise((r) => setTimeout(r, 300));
    expect(proxy.requests.filter((r) => r.path.startsWith(`/v1/searches/${id}/events`))).toHaveLength(eventRequests.length);
  }, 40_000);
});

/** A stream that yields `text` first, then `body`. */
function prefixed(text: string): TransformStream<Uint8Array, Uint8Array> {
  return new TransformStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(text));
    },
  });
}
