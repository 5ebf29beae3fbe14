import type { z } from 'zod';
import { ProtocolError, TransportError, errorFromResponse } from './errors.js';

export interface HttpOptions {
  baseUrl: string;
  credential: string;
  /** Per-request timeout, headers and body included. @default 30000 */
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Pause before the one retry of a 500. @default 250 */
  retryDelayMs?: number;
}

export interface RequestOptions {
  method?: string;
  body?: unknown;
  signal?: AbortSignal;
  timeoutMs?: number;
  headers?: Record<string, string>;
  /** Retry a 500 once, as spec §7 allows. @default true */
  retry500?: boolean;
  /** Called with the headers of every answer, before its status is judged. */
  onHeaders?: (headers: Headers) => void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * JSON over HTTP with the spec's retry rules: a 500 once, a 429 after Retry-After (up to 3 times),
 * nothing else. Every answer is checked against the wire schema the server uses.
 */
export class HttpCore {
  readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;
  constructor(readonly options: HttpOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetchImpl = options.fetch ?? fetch;
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return { authorization: `Bearer ${this.options.credential}`, accept: 'application/json', ...extra };
  }

  /** A JSON call whose answer must match `schema` (a 204 answers undefined without a schema check). */
  async request<S extends z.ZodType>(path: string, schema: S | null, options: RequestOptions = {}): Promise<z.output<S>> {
    let retried500 = false;
    let rateLimited = 0;
    for (;;) {
      const { response, body } = await this.exchange(path, options);
      options.onHeaders?.(response.headers);
      if (response.ok) {
        if (response.status === 204 || schema === null) return undefined as z.output<S>;
        const parsed = schema.safeParse(body);
        if (!parsed.success) {
          throw new ProtocolError(`unexpected answer from ${options.method ?? 'GET'} ${path}: ${parsed.error.message}`, { cause: parsed.error });
        }
        return parsed.data;
      }
      if (response.status === 500 && options.retry500 !== false && !retried500) {
        retried500 = true;
        await sleep(this.options.retryDelayMs ?? 250);
        continue;
      }
      if (response.status === 429 && rateLimited < 3) {
        rateLimited += 1;
        await sleep((Number(response.headers.get('retry-after')) || 1) * 1000);
        continue;
      }
      throw errorFromResponse(response.status, body, response.headers.get('retry-after'), response.statusText);
    }
  }

  /** One request with its body read, both under the same timeout (a stalled body is a timeout too). */
  private async exchange(path: string, options: RequestOptions): Promise<{ response: Response; body: unknown }> {
    const { response, timeout } = await this.open(path, options);
    try {
      const text = await response.text();
      if (text === '') return { response, body: null };
      try {
        return { response, body: JSON.parse(text) as unknown };
      } catch {
        if (response.ok) throw new ProtocolError(`${options.method ?? 'GET'} ${path} answered ${response.status} with a body that is not JSON`);
        return { response, body: null };
      }
    } catch (error) {
      throw this.transportError(path, options, timeout, error);
    }
  }

  /** Open a request; the caller owns the body (used as is for the event stream). */
  async send(path: string, options: RequestOptions): Promise<Response> {
    return (await this.open(path, options)).response;
  }

  private async open(path: string, options: RequestOptions): Promise<{ response: Response; timeout: AbortSignal }> {
    const timeout = AbortSignal.timeout(options.timeoutMs ?? this.options.timeoutMs ?? 30_000);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    try {
      const response = await this.fetchImpl(`${this.baseUrl}${path}`, {
        method: options.method ?? 'GET',
        headers: this.headers({ ...(options.body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers }),
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal,
      });
      return { response, timeout };
    } catch (error) {
      throw this.transportError(path, options, timeout, error);
    }
  }

  private transportError(path: string, options: RequestOptions, timeout: AbortSignal, error: unknown): unknown {
    // The caller's own abort and our protocol complaints pass through unchanged.
    if (options.signal?.aborted || error instanceof ProtocolError) return error;
    const timedOut = timeout.aborted;
    // The full URL: "fetch failed" alone does not say which server was tried.
    const what = `${options.method ?? 'GET'} ${this.baseUrl}${path}`;
    return new TransportError(timedOut ? `${what} timed out` : `${what} failed: ${describeFailure(error)}`, timedOut, { cause: error });
  }
}

/** undici says "fetch failed" and keeps the reason (ECONNREFUSED, ENOTFOUND…) in `cause`. */
function describeFailure(error: unknown): string {
  const message = String((error as Error)?.message ?? error);
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  if (!cause) return message;
  return cause.code && !String(cause.message).includes(cause.code) ? `${cause.code} ${cause.message ?? ''}`.trim() : String(cause.message ?? message);
}
