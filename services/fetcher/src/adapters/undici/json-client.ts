import { request, type Dispatcher } from 'undici';
import { CancelledError, UnavailableError, UpstreamError } from '@leadfinder/platform';

export interface JsonGetOptions {
  /** Name of the upstream in errors and logs, e.g. "searxng". */
  upstream: string;
  headers?: Record<string, string>;
  signal: AbortSignal;
  timeoutMs: number;
  /** Defaults to undici's global dispatcher: search APIs are operator-configured, not SSRF targets. */
  dispatcher?: Dispatcher;
}

/** Socket errors raised before a request could be sent: the provider never saw it. */
const NOT_CONNECTED = new Set([
  'ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_CONNECT', 'ERR_TLS_CERT_ALTNAME_INVALID', 'CERT_HAS_EXPIRED', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'DEPTH_ZERO_SELF_SIGNED_CERT',
]);

/** True when the error (or one it wraps, e.g. an AggregateError of dual-stack attempts) is a failed connect. */
export function neverConnected(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 4; depth += 1) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NOT_CONNECTED.has(code)) return true;
    const inner = e instanceof AggregateError ? e.errors : [];
    if (inner.some((x) => neverConnected(x))) return true;
    e = e.cause;
  }
  return false;
}

/**
 * GET a JSON document from a search API. Errors are typed: caller abort → CancelledError; could not
 * connect → retryable UnavailableError (the request never reached the provider, so it is not billed);
 * timeout, other network errors, 429 and 5xx → retryable UpstreamError; other statuses and bad JSON →
 * non-retryable UpstreamError.
 */
export async function getJson(url: URL, options: JsonGetOptions): Promise<unknown> {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = AbortSignal.any([options.signal, deadline]);
  let status = 0;
  let text = '';
  try {
    const res = await request(url, {
      method: 'GET',
      headers: { accept: 'application/json', ...options.headers },
      signal,
      ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
    });
    status = res.statusCode;
    text = await res.body.text();
  } catch (err) {
    if (options.signal.aborted) throw new CancelledError(`${options.upstream} search cancelled`, { cause: options.signal.reason });
    const why = deadline.aborted ? `no answer within ${options.timeoutMs} ms` : (err as Error).message;
    if (!deadline.aborted && neverConnected(err)) {
      throw new UnavailableError(options.upstream, `${options.upstream} unreachable: ${why}`, { cause: err });
    }
    throw new UpstreamError(options.upstream, `${options.upstream} unreachable: ${why}`, { retryable: true, cause: err });
  }
  if (status < 200 || status >= 300) {
    const retryable = status === 429 || status >= 500;
    throw new UpstreamError(options.upstream, `${options.upstream} answered HTTP ${status}`, {
      retryable,
      ...(status === 429 ? { nextRetryDelayMs: 2000 } : {}),
    });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new UpstreamError(options.upstream, `${options.upstream} answered something other than JSON`, { cause: err });
  }
}
