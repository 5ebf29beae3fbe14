// READY
/**
 * A fake public web on one loopback port, for end-to-end tests of the SearXNG path with real fetching.
 *
 * It writes the bundled sample corpus into a temp folder and serves, on the same port:
 * - a SearXNG JSON API, `GET /search?q=&format=json&pageno=` (operator contract "SearXNG adapter"),
 *   honouring `site:` terms, with result URLs rewritten from the corpus's `https://host/path` to
 *   `http://host:<port>/path`;
 * - the pages themselves at those URLs (dispatched on the Host header), in their original HTML or
 *   Markdown, plus an allow-all robots.txt per host.
 *
 * `resolveEnv` is what the service needs to reach it: every corpus host is pinned to 127.0.0.1 through
 * LEADFINDER_FETCH_RESOLVE so row URLs keep their hostnames.
 *
 * @example
 * const web = await startFakeWeb();
 * const server = await startServerProcess({ env: { ...web.resolveEnv } });
 * // … run a search …
 * web.requests().pages; // every page URL the fetcher opened
 * await web.close();
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCorpusIndex, corpusUrlKey, writeSampleCorpus } from '@leadfinder/fetcher';
import type { CorpusIndex, CorpusPage } from '@leadfinder/fetcher';

export interface FakeWebOptions {
  /** Date the sample corpus is written relative to. @default new Date() */
  now?: Date;
  /** Results per SearXNG answer page. @default 10 */
  resultsPerPage?: number;
  /**
   * Pages and ranking to serve instead of the bundled sample corpus (e.g. test/devset's web of real
   * records); `now` is then unused.
   */
  index?: CorpusIndex;
  /**
   * Serve pages with their links (`href`/`src` attributes) to served hosts rewritten to the loopback form,
   * as result URLs are, so a link a page gives can be followed. @default false
   */
  rewriteLinks?: boolean;
}

/** One SearXNG result as served (URL already rewritten to the loopback address). */
export interface ServedResult {
  url: string;
  title: string;
  content: string;
  publishedDate: string | null;
  engine: string;
}

export interface FakeWebRequests {
  /** Every `q` received on /search, in arrival order (site: terms included). */
  searches: string[];
  /** Every search as `q` with its result page, in arrival order (the same search is one q and pageno). */
  searchPages: { q: string; pageno: number }[];
  /** Every page URL requested (served form, `http://host:port/path`), in arrival order; robots.txt excluded. */
  pages: string[];
}

export interface FakeWeb {
  /** Base URL for LEADFINDER_SEARXNG_URL, e.g. `http://127.0.0.1:41234`. */
  readonly searxngUrl: string;
  /** The loopback port everything is served on. */
  readonly port: number;
  /** LEADFINDER_SEARCH, LEADFINDER_SEARXNG_URL, LEADFINDER_FETCH_RESOLVE and LEADFINDER_FETCH_ALLOW_PRIVATE. */
  readonly resolveEnv: Record<string, string>;
  /** How many pages the corpus holds (all servable). */
  readonly pageCount: number;
  /** Folder the sample corpus was written to. */
  readonly corpusDir: string;
  /** The index the fake searches (same extraction as the service). */
  readonly index: CorpusIndex;
  /** Delay (ms) before every page answer (robots.txt included). */
  setDelay(ms: number): void;
  /** Delay (ms) before every search answer. */
  setSearchDelay(ms: number): void;
  /** Copy of the request log. */
  requests(): FakeWebRequests;
  /** Every result URL served by /search so far (served form, deduplicated, in first-served order). */
  servedResults(): string[];
  /** `https://host/path` → `http://host:port/path`. */
  servedUrl(corpusUrl: string): string;
  /** `http://host:port/path` → `https://host/path` (the corpus's own address). */
  corpusUrl(servedUrl: string): string;
  /** The corpus page served at `url` (either form), or null. */
  page(url: string): Promise<CorpusPage | null>;
  /** Forget the request log (keeps delays). */
  resetRequests(): void;
  close(): Promise<void>;
}

const ROBOTS = 'User-agent: *\nAllow: /\n';

function send(res: ServerResponse, status: number, type: string, body: string): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** SearXNG gives ISO date-times; the corpus gives YYYY-MM-DD. */
function isoDateTime(date: string | null): string | null {
  if (!date) return null;
  return /^\d{4}-\d{2}-\d{2}$/.test(date) ? `${date}T00:00:00` : date;
}

export async function startFakeWeb(options: FakeWebOptions = {}): Promise<FakeWeb> {
  const corpusDir = await mkdtemp(join(tmpdir(), 'leadfinder-fakeweb-'));
  if (!options.index) await writeSampleCorpus(corpusDir, options.now ?? new Date());
  // The corpus never changes while served: no rechecks.
  const index = options.index ?? createCorpusIndex({ dir: corpusDir, recheckMs: Number.MAX_SAFE_INTEGER });
  const pages = await index.pages();
  const hosts = [...new Set(pages.map((p) => new URL(p.url).hostname.toLowerCase()))].filter((h) => h && h !== 'corpus');
  const hostSet = new Set(hosts);
  const perPage = options.resultsPerPage ?? 10;

  let pageDelay = 0;
  let searchDelay = 0;
  let log: FakeWebRequests = { searches: [], searchPages: [], pages: [] };
  const served = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  let port = 0;

  const wait = (ms: number, res: ServerResponse): Promise<void> =>
    ms <= 0
      ? Promise.resolve()
      : new Promise((resolve) => {
          const t = setTimeout(() => {
            timers.delete(t);
            resolve();
          }, ms);
          timers.add(t);
          // A client that gives up (stop, abort) frees the wait early; the answer is then dropped.
          res.once('close', () => {
            clearTimeout(t);
            timers.delete(t);
            resolve();
          });
        });

  const servedUrl = (url: string): string => {
    const u = new URL(url);
    return `http://${u.hostname}:${port}${u.pathname}${u.search}`;
  };
  const corpusUrl = (url: string): string => {
    const u = new URL(url);
    return `https://${u.hostname}${u.pathname}${u.search}`;
  };

  async function search(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const q = url.searchParams.get('q') ?? '';
    log.searches.push(q);
    log.searchPages.push({ q, pageno: Math.max(1, Number.parseInt(url.searchParams.get('pageno') ?? '1', 10) || 1) });
    await wait(searchDelay, res);
    if (res.destroyed) return;
    // Real SearXNG answers 403 unless the json format is enabled and asked for.
    if (url.searchParams.get('format') !== 'json') return send(res, 403, 'text/plain', 'Forbidden');
    const pageno = Math.max(1, Number.parseInt(url.searchParams.get('pageno') ?? '1', 10) || 1);
    const hits = q.trim() ? await index.search({ query: q, domains: [], publishedAfter: null, page: pageno, limit: perPage }) : [];
    const results: ServedResult[] = hits.map((h) => ({
      url: servedUrl(h.url),
      title: h.title,
      content: h.snippet,
      publishedDate: isoDateTime(h.publishedAt),
      engine: 'fakeweb',
    }));
    for (const r of results) served.add(r.url);
    send(res, 200, 'application/json', JSON.stringify({ query: q, number_of_results: results.length, results }));
  }

  async function page(res: ServerResponse, host: string, url: URL): Promise<void> {
    const isRobots = url.pathname === '/robots.txt';
    const full = `http://${host}:${port}${url.pathname}${url.search}`;
    if (!isRobots) log.pages.push(full);
    await wait(pageDelay, res);
    if (res.destroyed) return;
    if (isRobots) return send(res, 200, 'text/plain; charset=utf-8', ROBOTS);
    const found = await index.page(corpusUrl(full));
    if (!found) return send(res, 404, 'text/html; charset=utf-8', '<!doctype html><title>Not found</title><p>Not found</p>');
    const body = options.rewriteLinks
      ? found.source.replace(/\b(href|src)="https?:\/\/([a-z0-9.-]+)(\/[^"]*)?"/gi, (m, attr: string, host: string, path: string | undefined) =>
          hostSet.has(host.toLowerCase()) ? `${attr}="http://${host.toLowerCase()}:${port}${path ?? '/'}"` : m)
      : found.source;
    send(res, 200, `${found.contentType}; charset=utf-8`, body);
  }

  const server = createServer((req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    const url = new URL(req.url ?? '/', 'http://fakeweb.invalid');
    const work = hostSet.has(host)
      ? page(res, host, url)
      : url.pathname === '/search' || url.pathname === '/search/'
        ? search(req, res, url)
        : Promise.resolve(send(res, 404, 'text/plain', 'Not found'));
    work.catch((err: unknown) => send(res, 500, 'text/plain', String(err)));
  });
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const searxngUrl = `http://127.0.0.1:${port}`;

  return {
    searxngUrl,
    port,
    resolveEnv: {
      LEADFINDER_SEARCH: 'searxng',
      LEADFINDER_SEARXNG_URL: searxngUrl,
      LEADFINDER_FETCH_RESOLVE: hosts.map((h) => `${h}:${port}:127.0.0.1`).join(','),
      LEADFINDER_FETCH_ALLOW_PRIVATE: '1',
    },
    pageCount: pages.length,
    corpusDir,
    index,
    setDelay(ms) {
      pageDelay = Math.max(0, ms);
    },
    setSearchDelay(ms) {
      searchDelay = Math.max(0, ms);
    },
    requests: () => ({ searches: [...log.searches], searchPages: [...log.searchPages], pages: [...log.pages] }),
    servedResults: () => [...served],
    servedUrl,
    corpusUrl,
    page: (url) => index.page(corpusUrl(url)),
    resetRequests() {
      log = { searches: [], searchPages: [], pages: [] };
      served.clear();
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
      await rm(corpusDir, { recursive: true, force: true });
    },
  };
}

/** Key for comparing URLs in either served or corpus form (host + path, no scheme/port/fragment). */
export function pageKey(url: string): string {
  try {
    const u = new URL(url);
    return corpusUrlKey(`https://${u.hostname}${u.pathname}${u.search}`);
  } catch {
    return url.trim();
  }
}
