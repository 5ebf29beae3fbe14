import { Agent, buildConnector } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '@leadfinder/platform';
import { never, startLoopback, type LoopbackServer } from '../../../test/support/loopback.js';
import { PrivateAddressError, resolveChecked } from './guarded-agent.js';
import { createHttpPageFetcher } from './http-page-fetcher.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('the guarded agent and LEADFINDER_FETCH_RESOLVE pins', () => {
  const pins = [
    { host: 'intranet.example', port: 443, address: '10.0.0.5' },
    { host: 'metadata.example', port: 80, address: '169.254.169.254' },
    { host: 'nat64.example', port: 443, address: '64:ff9b:1::a00:5' },
    { host: 'public.example', port: 443, address: '93.184.216.34' },
  ];

  it('checks a pinned address like any resolved one: a pin to a private address is refused', async () => {
    for (const [host, port] of [['intranet.example', 443], ['metadata.example', 80], ['nat64.example', 443]] as const) {
      await expect(resolveChecked(host, port, { allowPrivate: false, resolve: pins })).rejects.toBeInstanceOf(PrivateAddressError);
    }
    expect(await resolveChecked('public.example', 443, { allowPrivate: false, resolve: pins })).toBe('93.184.216.34');
    // Tests and local setups opt in explicitly.
    expect(await resolveChecked('intranet.example', 443, { allowPrivate: true, resolve: pins })).toBe('10.0.0.5');
  });

  it('refuses private IP literals, whatever their spelling', async () => {
    for (const host of ['127.0.0.1', '[::1]', '[::ffff:10.0.0.1]', '[64:ff9b::a9fe:a9fe]', '[2001:0:4136:e378:8000:63bf:3fff:fdd2]', '192.88.99.1']) {
      await expect(resolveChecked(host, 80, { allowPrivate: false, resolve: [] })).rejects.toBeInstanceOf(PrivateAddressError);
    }
  });
});

describe('redirects', () => {
  async function server(handler: Parameters<typeof startLoopback>[0]): Promise<LoopbackServer> {
    const s = await startLoopback(handler);
    cleanups.push(() => s.close());
    return s;
  }

  it('re-checks every hop: a redirect to a private address is refused before connecting', async () => {
    const inner = await server((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>internal</p>'));
    const s = await server((req, res) => {
      if (req.url === '/hop') return res.writeHead(302, { location: '/final' }).end();
      if (req.url === '/final') return res.writeHead(200, { 'content-type': 'text/html' }).end('<p>landed</p>');
      res.writeHead(301, { location: `http://127.0.0.1:${inner.port}/admin` }).end();
    });
    // Stands in for a public site: every connection goes to the loopback server, unchecked.
    const connector = buildConnector({ timeout: 3_000 });
    const publicWeb = new Agent({ connect: (opts, callback) => connector({ ...opts, hostname: '127.0.0.1', port: String(s.port) }, callback) });
    cleanups.push(() => publicWeb.close());
    const fetcher = createHttpPageFetcher({
      dispatcher: publicWeb, logger: silentLogger, timeoutMs: 3_000, maxBytes: 1_000_000, perHost: 2,
      allowPrivate: false, resolve: [], respectRobots: false,
    });
    const refused = await fetcher.download('http://news.example/go', never);
    expect(refused).toMatchObject({ ok: false, code: 'private_address' });
    expect(inner.requests).toEqual([]);
    expect(await fetcher.download('http://news.example/hop', never)).toMatchObject({ ok: true, finalUrl: 'http://news.example/final' });
  });
});
