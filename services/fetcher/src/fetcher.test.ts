import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger, type SearchProvider } from '@leadfinder/platform';
import type { FetchOutcome } from '@leadfinder/wire';
import { createFetcher, type Fetcher } from './fetcher.js';
import { never, startLoopback, testConfig, type LoopbackServer } from '../test/support/loopback.js';

const noSearch: SearchProvider = { name: 'none', search: async () => ({ hits: [] }) };
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function server(handler: Parameters<typeof startLoopback>[0]): Promise<LoopbackServer> {
  const s = await startLoopback(handler);
  cleanups.push(() => s.close());
  return s;
}
function fetcher(env: Record<string, string> = {}): Fetcher {
  const f = createFetcher({ config: testConfig(env), logger: silentLogger, provider: noSearch });
  cleanups.push(() => f.close());
  return f;
}
const PRIVATE_OK = { LEADFINDER_FETCH_ALLOW_PRIVATE: '1' };
function failed(outcome: FetchOutcome): { code: string; reason: string } {
  if (outcome.ok) throw new Error(`expected a failure, got page ${outcome.page.finalUrl}`);
  return outcome;
}
function page(outcome: FetchOutcome) {
  if (!outcome.ok) throw new Error(`expected a page, got ${outcome.code}: ${outcome.reason}`);
  return outcome.page;
}

describe('fetching pages over HTTP', () => {
  it('extracts title, date and passages from an HTML page', async () => {
    const s = await server((req, res) => {
      if (req.url === '/robots.txt') return res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<html><head><title>Hello</title><meta property="article:published_time" content="2025-01-02"></head><body><p>First para.</p><p>Second para.</p></body></html>');
    });
    const p = page(await fetcher(PRIVATE_OK).fetch({ url: `${s.url}/post` }, { signal: never }));
    expect(p).toMatchObject({ url: `${s.url}/post`, finalUrl: `${s.url}/post`, status: 200, title: 'Hello', publishedAt: '2025-01-02' });
    expect(p.passages).toEqual(['First para.', 'Second para.']);
    expect(p.text).toBe('First para.\nSecond para.');
  });

  it('decodes a windows-1252 page using the Content-Type charset', async () => {
    const s = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=windows-1252' });
      res.end(Buffer.from([...Buffer.from('<p>Caf'), 0xe9, ...Buffer.from(' cr'), 0xe8, ...Buffer.from('me ('), 0x80, ...Buffer.from('5)</p>')]));
    });
    expect(page(await fetcher(PRIVATE_OK).fetch({ url: `${s.url}/` }, { signal: never })).text).toBe('Café crème (€5)');
  });

  it('decodes using <meta charset> when the header names none', async () => {
    const s = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(Buffer.concat([Buffer.from('<meta charset="iso-8859-1"><p>Z'), Buffer.from([0xfc]), Buffer.from('rich</p>')]));
    });
    expect(page(await fetcher(PRIVATE_OK).fetch({ url: `${s.url}/` }, { signal: never })).text).toBe('Zürich');
  });

  it('serves text/plain and markdown as text', async () => {
    const s = await server((req, res) => {
      const md = req.url?.endsWith('.md');
      res.writeHead(200, { 'content-type': md ? 'text/markdown' : 'text/plain' });
      res.end(md ? '# Notes\n\nSome **bold** words.' : 'Line one\n\nLine two');
    });
    const f = fetcher(PRIVATE_OK);
    expect(page(await f.fetch({ url: `${s.url}/a.txt` }, { signal: never })).passages).toEqual(['Line one', 'Line two']);
    expect(page(await f.fetch({ url: `${s.url}/b.md` }, { signal: never })).passages).toEqual(['Notes', 'Some bold words.']);
  });

  it('stops reading a body past the size cap and reports too_large', async () => {
    const s = await server((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }); // no Content-Length: chunked
      const chunk = `<p>${'x'.repeat(1000)}</p>`;
      let sent = 0;
      const pump = () => {
        while (sent < 200 && res.write(chunk)) sent++;
        if (sent < 200) res.once('drain', pump);
        else res.end();
      };
      if (req.url === '/robots.txt') return res.end();
      pump();
    });
    const outcome = failed(await fetcher({ ...PRIVATE_OK, LEADFINDER_FETCH_MAX_BYTES: '50000' }).fetch({ url: `${s.url}/big` }, { signal: never }));
    expect(outcome.code).toBe('too_large');
  });

  it('refuses a declared Content-Length over the cap without reading it', async () => {
    const s = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(10_000_000) });
      res.write('<p>start</p>');
    });
    expect(failed(await fetcher({ ...PRIVATE_OK, LEADFINDER_FETCH_MAX_BYTES: '1000' }).fetch({ url: `${s.url}/` }, { signal: never })).code).toBe('too_large');
  });

  it('gives up after the fetch timeout', async () => {
    const s = await server((req, res) => {
      if (req.url === '/robots.txt') return res.writeHead(404).end();
      // never answers
    });
    const started = Date.now();
    const outcome = failed(await fetcher({ ...PRIVATE_OK, LEADFINDER_FETCH_TIMEOUT_MS: '300' }).fetch({ url: `${s.url}/slow` }, { signal: never }));
    expect(outcome.code).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('throws a cancellation (not a page failure) when the caller aborts', async () => {
    const s = await server((req, res) => {
      if (req.url === '/robots.txt') res.writeHead(404).end();
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('run stopped')), 100);
    await expect(fetcher(PRIVATE_OK).fetch({ url: `${s.url}/slow` }, { signal: controller.signal })).rejects.toMatchObject({ code: 'LF_ERR_CANCELLED' });
  });

  it('refuses loopback addresses by default and opens them with LEADFINDER_FETCH_ALLOW_PRIVATE=1', async () => {
    const s = await server((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>secret</p>'));
    expect(failed(await fetcher().fetch({ url: `${s.url}/` }, { signal: never })).code).toBe('private_address');
    expect(failed(await fetcher().fetch({ url: `http://localhost:${s.port}/` }, { signal: never })).code).toBe('private_address');
    expect(failed(await fetcher().fetch({ url: `http://[::ffff:127.0.0.1]:${s.port}/` }, { signal: never })).code).toBe('private_address');
    expect(s.requests.filter((r) => r === '/')).toEqual([]);
    expect(page(await fetcher(PRIVATE_OK).fetch({ url: `${s.url}/` }, { signal: never })).text).toBe('secret');
  });

  it('connects LEADFINDER_FETCH_RESOLVE hosts to the pinned address, keeping hostname and Host header', async () => {
    let host = '';
    const s = await server((req, res) => {
      host = req.headers.host ?? '';
      if (req.url === '/robots.txt') return res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Alpha</title><p>Alpha news page</p>');
    });
    // A pin is checked like any address: to loopback only with LEADFINDER_FETCH_ALLOW_PRIVATE.
    const pin = { LEADFINDER_FETCH_RESOLVE: `alpha-news.test:${s.port}:127.0.0.1` };
    expect(failed(await fetcher(pin).fetch({ url: `http://alpha-news.test:${s.port}/story` }, { signal: never })).code).toBe('private_address');
    expect(s.requests).toEqual([]);
    const f = fetcher({ ...pin, ...PRIVATE_OK });
    const p = page(await f.fetch({ url: `http://alpha-news.test:${s.port}/story` }, { signal: never }));
    expect(p.finalUrl).toBe(`http://alpha-news.test:${s.port}/story`);
    expect(p.title).toBe('Alpha');
    expect(host).toBe(`alpha-news.test:${s.port}`);
  });

  // Redirect hops to private addresses: see adapters/undici/guarded-agent.test.ts.

  it('stops after five redirects and refuses non-http schemes', async () => {
    const s = await server((req, res) => {
      if (req.url === '/robots.txt') return res.writeHead(404).end();
      if (req.url === '/file') return res.writeHead(302, { location: 'file:///etc/passwd' }).end();
      const n = Number(req.url?.slice(1) || 0);
      res.writeHead(302, { location: `/${n + 1}` }).end();
    });
    const f = fetcher(PRIVATE_OK);
    expect(failed(await f.fetch({ url: `${s.url}/0` }, { signal: never })).code).toBe('too_many_redirects');
    expect(s.requests.filter((r) => r !== '/robots.txt')).toHaveLength(6);
    expect(failed(await f.fetch({ url: `${s.url}/file` }, { signal: never })).code).toBe('bad_url');
    expect(failed(await f.fetch({ url: 'ftp://example.com/x' }, { signal: never })).code).toBe('bad_url');
    expect(failed(await f.fetch({ url: 'not a url' }, { signal: never })).code).toBe('bad_url');
  });

  it('respects robots.txt, fetching it once per origin', async () => {
    const s = await server((req, res) => {
      if (req.url === '/robots.txt') {
        return res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: leadfinder\nDisallow: /private/\n\nUser-agent: *\nDisallow: /');
      }
      res.writeHead(200, { 'content-type': 'text/html' }).end('<p>open page</p>');
    });
    const f = fetcher(PRIVATE_OK);
    const blocked = failed(await f.fetch({ url: `${s.url}/private/x` }, { signal: never }));
    expect(blocked.code).toBe('robots');
    expect(page(await f.fetch({ url: `${s.url}/public` }, { signal: never })).text).toBe('open page');
    expect(s.requests.filter((r) => r === '/robots.txt')).toHaveLength(1);
    expect(s.requests).not.toContain('/private/x');
  });

  it('never has more than LEADFINDER_FETCH_PER_HOST requests open on one host', async () => {
    let open = 0;
    let most = 0;
    const s = await server((req, res) => {
      if (req.url === '/robots.txt') return res.writeHead(404).end();
      open++;
      most = Math.max(most, open);
      setTimeout(() => {
        open--;
        res.writeHead(200, { 'content-type': 'text/html' }).end('<p>ok</p>');
      }, 60);
    });
    const f = fetcher({ ...PRIVATE_OK, LEADFINDER_FETCH_PER_HOST: '2' });
    const outcomes = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => f.fetch({ url: `${s.url}/p${i}` }, { signal: never })));
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(most).toBe(2);
  });

  it('reports unsupported content types and HTTP errors as outcomes', async () => {
    const s = await server((req, res) => {
      if (req.url === '/robots.txt') return res.writeHead(404).end();
      if (req.url === '/doc.pdf') return res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4');
      res.writeHead(404, { 'content-type': 'text/html' }).end('<p>gone</p>');
    });
    const f = fetcher(PRIVATE_OK);
    const pdf = failed(await f.fetch({ url: `${s.url}/doc.pdf` }, { signal: never }));
    expect(pdf).toMatchObject({ code: 'unsupported_type' });
    expect(pdf.reason).toContain('application/pdf');
    expect(failed(await f.fetch({ url: `${s.url}/missing` }, { signal: never }))).toMatchObject({ code: 'http_status', reason: 'HTTP 404' });
  });

  it('reports a refused connection as a network failure', async () => {
    const s = await server(() => {});
    const port = s.port;
    await s.close();
    expect(failed(await fetcher(PRIVATE_OK).fetch({ url: `http://127.0.0.1:${port}/` }, { signal: never })).code).toBe('network');
  });
});
