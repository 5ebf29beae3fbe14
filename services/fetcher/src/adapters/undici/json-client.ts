import { request, type Dispatcher } from 'undici';
import { CancelledError, UpstreamError } from '@leadfinder/platform';

export interface JsonGetOptions {
  /** Name of the upstream in errors and logs, e.g. "searxng". */
  upstream: string;
  headers?: Record<string, string>;
  signal: AbortSignal;
  timeoutMs: number;
  /** Defaults to undici's global dispatcher: search APIs are operator-configured, not SSRF targets. */
  dispatcher?: Dispatcher;
}

/**
 * GET a JSON document from a search API. Errors are typed: caller abort → CancelledError; timeout,
 * network, 429 and 5xx → retryable UpstreamError; other statuses and bad JSON → non-retryable.
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
