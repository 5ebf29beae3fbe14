import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { once } from 'node:events';
import { recordHttpServerRequest } from '@leadfinder/platform';
import type { Logger } from '@leadfinder/platform';
import { StartupError } from './adapters.js';

/**
 * /healthz (process up) and /readyz (dependencies reachable, not draining) for the roles that serve no
 * public HTTP: coordinator, fetcher, filter. Kubernetes probes and operators use it. The answers are the
 * edge's, byte for byte (routes/health.ts): 200 `{"status":"ok"}`, or 503 `{"detail":"Not ready"}` with
 * the reason kept out of the body, so one probe or dashboard reads every role alike.
 */
export async function startHealthServer(options: { host: string; port: number; ready: () => Promise<boolean>; logger?: Logger }): Promise<{ port: number; stop(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    // Probes are this listener's whole traffic: timed like the edge's requests, so a slow /readyz
    // (a store or NATS round trip) shows on the same dashboard panel.
    const startedAt = performance.now();
    res.once('finish', () => {
      const route = req.url === '/healthz' || req.url === '/readyz' ? req.url : undefined;
      recordHttpServerRequest({ method: req.method ?? 'GET', route, statusCode: res.statusCode, scheme: 'http', durationS: (performance.now() - startedAt) / 1000 });
    });
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
    };
    const notReady = (error?: unknown) => {
      if (error !== undefined) options.logger?.warn('not ready', { error: String(error) });
      reply(503, { detail: 'Not ready' });
    };
    if (req.url === '/healthz') return reply(200, { status: 'ok' });
    if (req.url === '/readyz') {
      options.ready().then((ok) => (ok ? reply(200, { status: 'ok' }) : notReady()), (error: unknown) => notReady(error));
      return;
    }
    reply(404, { detail: 'Not Found' });
  });
  server.listen(options.port, options.host);
  try {
    await Promise.race([once(server, 'listening'), once(server, 'error').then(([e]) => Promise.reject(e))]);
  } catch (error) {
    throw listenError(error, options.host, options.port, 'LEADFINDER_HEALTH_PORT');
  }
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : options.port,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** One clear line for the usual listen failures. */
export function listenError(error: unknown, host: string, port: number, variable: string): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return new StartupError(`${variable}: cannot listen on ${host}:${port}: address already in use`);
  if (code === 'EACCES') return new StartupError(`${variable}: cannot listen on ${host}:${port}: permission denied`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return new StartupError(`HOST: cannot listen on ${host}:${port}: address not available`);
  return error instanceof Error ? error : new Error(String(error));
}
