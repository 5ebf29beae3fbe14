import { request, type Dispatcher } from 'undici';
import type { Logger } from '@leadfinder/platform';
import { CancelledError } from '@leadfinder/platform';
import { decodeBody } from '../../domain/charset.js';
import { isIpLiteral, refusedAddressReason } from '../../domain/ip-address.js';
import { pageKind } from '../../domain/page-kind.js';
import { PrivateAddressError, type ResolveEntry } from './guarded-agent.js';
import { createHostLimiter } from './host-limiter.js';
import { failure, type Download } from './outcome.js';
import { createRobotsCache, ROBOTS_USER_AGENT } from './robots-cache.js';

export interface HttpPageFetcherOptions {
  /** The guarded agent (address checks happen at connect time). */
  dispatcher: Dispatcher;
  logger: Logger;
  /** Whole-fetch budget: robots check, every redirect hop and the body. */
  timeoutMs: number;
  /** Body size cap in bytes; larger bodies stop being read and give `too_large`. */
  maxBytes: number;
  /** Requests in flight per host (hostname:port). */
  perHost: number;
  allowPrivate: boolean;
  resolve: readonly ResolveEntry[];
  /** @default 5 */
  maxRedirects?: number;
  /** @default true */
  respectRobots?: boolean;
}

export interface HttpPageFetcher {
  /** Download a page following redirects. Never throws for a page failure; throws CancelledError on caller abort. */
  download(url: string, signal: AbortSignal): Promise<Download>;
}

const USER_AGENT = `Mozilla/5.0 (compatible; ${ROBOTS_USER_AGENT}/0.1; +https://leadfinder.invalid/bot)`;
const ACCEPT = 'text/html,application/xhtml+xml,text/markdown;q=0.9,text/plain;q=0.8,*/*;q=0.1';
const ROBOTS_MAX_BYTES = 512 * 1024;

class TooLarge extends Error {}

type Body = Dispatcher.ResponseData['body'];

/** Abandon a body without an unhandled 'error' event (undici emits one when destroyed mid-stream). */
function abandon(body: Body): void {
  body.on('error', () => {});
  body.destroy();
}

/** Drain a small unwanted body (redirects, errors) so the connection can be reused; abandon big ones. */
async function discard(body: Body): Promise<void> {
  body.on('error', () => {});
  await body.dump({ limit: 64 * 1024 }).catch(() => {});
}

function findCause<T>(err: unknown, type: abstract new (...args: never[]) => T): T | null {
  for (let e: unknown = err, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof type) return e;
  }
  return null;
}

function errorCode(err: unknown): string {
  for (let e: unknown = err, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return '';
}

async function readCapped(body: Body, maxBytes: number): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += (chunk as Buffer).length;
    if (total > maxBytes) {
      abandon(body);
      throw new TooLarge(`body exceeds ${maxBytes} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks, total);
}

function header(headers: Dispatcher.ResponseData['headers'], name: string): string {
  const v = headers[name];
  return (Array.isArray(v) ? v[0] : v) ?? '';
}

export function createHttpPageFetcher(options: HttpPageFetcherOptions): HttpPageFetcher {
  const { dispatcher, logger, timeoutMs, maxBytes } = options;
  const maxRedirects = options.maxRedirects ?? 5;
  const limiter = createHostLimiter(options.perHost);

  /** One request, no redirect following, holding a per-host slot until the body is read. */
  async function hop(url: URL, signal: AbortSignal, cap: number, wantBody: (status: number, contentType: string) => boolean) {
    const release = await limiter.acquire(url.host, signal);
    try {
      const res = await request(url, {
        dispatcher,
        method: 'GET',
        headers: { 'user-agent': USER_AGENT, accept: ACCEPT },
        signal,
      });
      const contentType = header(res.headers, 'content-type');
      const location = header(res.headers, 'location');
      if (!wantBody(res.statusCode, contentType)) {
        await discard(res.body);
        return { status: res.statusCode, contentType, location, bytes: null };
      }
      const length = Number(header(res.headers, 'content-length'));
      if (Number.isFinite(length) && length > cap) {
        abandon(res.body);
        throw new TooLarge(`Content-Length ${length} exceeds ${cap} bytes`);
      }
      return { status: res.statusCode, contentType, location, bytes: await readCapped(res.body, cap) };
    } finally {
      release();
    }
  }

  /** Checks a hop's URL before any connection: scheme and literal addresses. */
  function precheck(url: URL): Download | null {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return failure('bad_url', `scheme ${url.protocol} is not fetched`);
    if (!options.allowPrivate && isIpLiteral(url.hostname)) {
      const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
      const pinned = options.resolve.find((r) => r.host === url.hostname.toLowerCase() && r.port === port);
      const why = refusedAddressReason(pinned ? pinned.address : url.hostname);
      if (why) return failure('private_address', `${url.hostname} is a ${why} address`);
    }
    return null;
  }

  async function follow(start: URL, signal: AbortSignal, checkRobots: boolean, cap: number): Promise<Download> {
    let url = start;
    for (let redirects = 0; ; redirects++) {
      const refused = precheck(url);
      if (refused) return refused;
      if (checkRobots && !(await robots.allowed(url.href, signal))) {
        return failure('robots', `robots.txt of ${url.origin} disallows ${url.pathname}`);
      }
      const isRedirect = (s: number) => s >= 300 && s < 400;
      const res = await hop(url, signal, cap, (status, ct) => !isRedirect(status) && status >= 200 && status < 300 && pageKind(ct, '<', url.pathname) !== null);
      if (isRedirect(res.status) && res.location) {
        if (redirects >= maxRedirects) return failure('too_many_redirects', `more than ${maxRedirects} redirects`);
        try {
          url = new URL(res.location, url);
        } catch {
          return failure('bad_url', `redirect to an invalid URL: ${res.location}`);
        }
        continue;
      }
      if (res.status < 200 || res.status >= 300) return failure('http_status', `HTTP ${res.status}`, res.status);
      if (!res.bytes) {
        return failure('unsupported_type', `content type ${res.contentType.split(';')[0] || 'unknown'} is not a page`);
      }
      const kind = pageKind(res.contentType, new TextDecoder('latin1').decode(res.bytes.subarray(0, 64)), url.pathname);
      if (!kind) return failure('unsupported_type', `content type ${res.contentType.split(';')[0]} is not a page`);
      const body = decodeBody(res.bytes, res.contentType, kind === 'html');
      const contentType = res.contentType || (kind === 'html' ? 'text/html' : kind === 'markdown' ? 'text/markdown' : 'text/plain');
      return { ok: true, finalUrl: url.href, status: res.status, contentType, body };
    }
  }

  /** Runs `work` under the fetch deadline and turns thrown errors into outcomes (or CancelledError). */
  async function guarded(url: string, caller: AbortSignal, work: (signal: AbortSignal) => Promise<Download>): Promise<Download> {
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = AbortSignal.any([caller, deadline]);
    try {
      return await work(signal);
    } catch (err) {
      if (caller.aborted) throw new CancelledError('fetch cancelled', { cause: caller.reason });
      if (deadline.aborted) return failure('timeout', `no complete answer within ${timeoutMs} ms`);
      if (err instanceof TooLarge) return failure('too_large', err.message);
      const priv = findCause(err, PrivateAddressError);
      if (priv) return failure('private_address', priv.message);
      const code = errorCode(err);
      if (/TIMEOUT/.test(code)) return failure('timeout', `${code} fetching ${url}`);
      logger.debug('fetch failed', { url, code, err: String(err) });
      return failure('network', code ? `${code}: ${(err as Error).message}` : String((err as Error)?.message ?? err));
    }
  }

  const robots = createRobotsCache(async (robotsUrl) => {
    const result = await guarded(robotsUrl, new AbortController().signal, async (signal) => {
      const res = await follow(new URL(robotsUrl), signal, false, ROBOTS_MAX_BYTES);
      return res;
    });
    if (result.ok) return { status: result.status, body: result.body };
    // A 4xx robots.txt means "no rules"; anything else is unknown, which also allows (fail-open).
    return null;
  }, logger);

  const respectRobots = options.respectRobots ?? true;

  return {
    download(url, signal) {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return Promise.resolve(failure('bad_url', `not a URL: ${url.slice(0, 200)}`));
      }
      return guarded(url, signal, (s) => follow(parsed, s, respectRobots, maxBytes));
    },
  };
}
