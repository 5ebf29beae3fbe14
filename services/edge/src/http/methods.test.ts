import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness } from '../../test/harness.js';
import type { Harness } from '../../test/harness.js';

let h: Harness;
let port: number;
beforeAll(async () => {
  h = await startHarness();
  await h.app.listen({ host: '127.0.0.1', port: 0 });
  port = (h.app.server.address() as AddressInfo).port;
});
afterAll(async () => h.close());

/** A raw request over a real socket: methods such as QUERY never reach light-my-request's validation. */
function send(method: string, path: string): Promise<{ status: number; allow?: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, allow: res.headers.allow, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('methods on existing paths', () => {
  it.each(['TRACE', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'QUERY'])('answers %s with 405, Allow and {"detail"}', async (method) => {
    for (const [path, allow] of [['/v1/searches/abc', 'GET, HEAD'], ['/healthz', 'GET, HEAD'], ['/openapi.json', 'GET, HEAD']] as const) {
      const res = await send(method, path);
      expect([method, path, res.status, res.allow, method === 'HEAD' ? '' : JSON.parse(res.body)])
        .toEqual([method, path, 405, allow, { detail: 'Method Not Allowed' }]);
    }
  });
});
