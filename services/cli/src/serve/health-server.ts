import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { once } from 'node:events';
import { StartupError } from './adapters.js';

/**
 * /healthz (process up) and /readyz (dependencies reachable, not draining) for the roles that serve no
 * public HTTP: coordinator, fetcher, filter. Kubernetes probes and operators use it.
 */
export async function startHealthServer(options: { host: string; port: number; ready: () => Promise<boolean> }): Promise<{ port: number; stop(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/healthz') return reply(200, { status: 'ok' });
    if (req.url === '/readyz') {
      options.ready().then(
        (ok) => reply(ok ? 200 : 503, { status: ok ? 'ready' : 'not ready' }),
        (error: unknown) => reply(503, { status: 'not ready', error: String(error) }),
      );
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
