import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startHarness } from '../../test/harness.js';
import type { Harness } from '../../test/harness.js';

/**
 * The HTTP server as a client on the wire sees it: raw sockets, so the parser, the timeouts and the
 * headers are the real ones (inject() bypasses all three).
 */
let h: Harness;
let port: number;
let apiKey: string;
beforeAll(async () => {
  h = await startHarness({ edgeOptions: { requestTimeoutMs: 1_000 } });
  await h.app.listen({ host: '127.0.0.1', port: 0 });
  const address = h.app.server.address();
  port = typeof address === 'object' && address ? address.port : 0;
  apiKey = (await h.createAccount(10)).apiKey;
});
afterAll(async () => h.close());

/** Sends `head`, then one body byte every `dripMs` until the server closes; what it answered and when. */
function slowRequest(head: string, dripMs: number, giveUpMs: number): Promise<{ answer: string; closedAfterMs: number | null }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.write(head);
    const drip = setInterval(() => socket.write('{'), dripMs);
    const finish = (closed: boolean) => {
      clearInterval(drip);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ answer, closedAfterMs: closed ? Date.now() - started : null });
    };
    const giveUp = setTimeout(() => finish(false), giveUpMs);
    socket.on('data', (d) => (answer += d.toString()));
    socket.on('close', () => finish(true));
    socket.on('error', () => undefined);
  });
}

describe('HTTP server limits', () => {
  it('closes a connection whose body trickles in, with or without credentials (408 in the detail shape)', async () => {
    const head = (auth: string) =>
      `POST /v1/searches HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n${auth}\r\n`;
    const [anonymous, signed] = await Promise.all([
      slowRequest(head(''), 200, 8_000),
      slowRequest(head(`Authorization: Bearer ${apiKey}\r\n`), 200, 8_000),
    ]);
    for (const r of [anonymous, signed]) {
      expect(r.closedAfterMs).not.toBeNull();
      expect(r.closedAfterMs!).toBeLessThan(4_000);
    }
    expect(signed.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(signed.answer.endsWith('{"detail":"Request Timeout"}')).toBe(true);
  }, 15_000);

  it('answers a request with both Content-Length and Transfer-Encoding with 400 in the detail shape', async () => {
    const r = await slowRequest(
      `POST /v1/searches HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${apiKey}\r\nContent-Type: application/json\r\n` +
        'Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      10_000, 5_000,
    );
    expect(r.answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(r.answer).toMatch(/content-type: application\/json/i);
    expect(r.answer.endsWith('{"detail":"Bad Request"}')).toBe(true);
  });

  it('marks JSON answers nosniff and no-store, successes and refusals alike', async () => {
    const answers = await Promise.all([
      fetch(`http://127.0.0.1:${port}/v1/searches`, { headers: bearer(apiKey) }),
      fetch(`http://127.0.0.1:${port}/v1/searches`),
      fetch(`http://127.0.0.1:${port}/healthz`),
      fetch(`http://127.0.0.1:${port}/openapi.json`),
      fetch(`http://127.0.0.1:${port}/no-such-path`),
    ]);
    for (const res of answers) {
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
    expect(answers.map((r) => r.status)).toEqual([200, 401, 200, 200, 404]);
  });
});
