import { STATUS_CODES } from 'node:http';
import type { ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyServerOptions } from 'fastify';

/**
 * Timeouts of the HTTP server, so a client cannot hold a connection open by sending slowly:
 * - a whole request (headers and body) must arrive within `requestTimeoutMs` (408 otherwise), headers
 *   within `headersTimeoutMs`; Node checks pending requests every `connectionsCheckingIntervalMs`;
 * - a connection on which nothing moves for `idleTimeoutMs` is closed (event streams send keepalives
 *   at least every 15 s, so they are never idle that long).
 */
export interface ServerTimeouts {
  /** @default 30000 */
  requestTimeoutMs?: number;
  /** @default 60000 */
  idleTimeoutMs?: number;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

type ClientError = Parameters<NonNullable<FastifyServerOptions['clientErrorHandler']>>[0];

export interface EdgeServerOptions {
  requestTimeout: number;
  connectionTimeout: number;
  keepAliveTimeout: number;
  http: ServerOptions;
  clientErrorHandler: (error: ClientError, socket: Socket) => void;
}

export function serverOptions(timeouts: ServerTimeouts = {}): EdgeServerOptions {
  const requestTimeout = timeouts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const idle = timeouts.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  return {
    requestTimeout,
    connectionTimeout: idle,
    keepAliveTimeout: Math.min(5_000, idle),
    http: {
      headersTimeout: Math.min(20_000, requestTimeout),
      requestTimeout,
      // Node checks timeouts on this interval (30 s by default, which would double a 30 s timeout).
      connectionsCheckingInterval: Math.max(50, Math.min(5_000, Math.floor(requestTimeout / 4))),
    },
    clientErrorHandler: answerClientError,
  };
}

/**
 * Requests Node's parser refuses before Fastify sees them (both Content-Length and Transfer-Encoding,
 * malformed headers, timeouts, oversized headers) get the same `{"detail": …}` body as every other error.
 */
function answerClientError(error: ClientError, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const text = STATUS_CODES[status]!;
  const body = JSON.stringify({ detail: text });
  // Only when no answer has started on this connection: otherwise a raw write would corrupt it.
  const pending = (socket as Socket & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  if (socket.writable && !pending?.headersSent) {
    socket.write(
      `HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
