import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig, type Config } from '@leadfinder/platform';

export interface LoopbackServer {
  port: number;
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** Paths requested, in order. */
  requests: string[];
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 with a random port; close() drops open sockets too. */
export async function startLoopback(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<LoopbackServer> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A parsed Config from the given environment (defaults for everything else). */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({ LEADFINDER_FETCH_TIMEOUT_MS: '3000', ...env });
}

export const never = new AbortController().signal;
