import { createServer, request as httpRequest } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What the proxy does with one request. */
export type ProxyAction =
  | { kind: 'forward' }
  /** Answer without asking the server. */
  | { kind: 'respond'; status: number; body: unknown }
  /** Forward, then hold the server's answer this long before relaying it (a client-side timeout). */
  | { kind: 'delay'; ms: number }
  /** Swallow the request: never forward, never answer (the server never saw it). */
  | { kind: 'blackhole' }
  /** Forward; relay `frames` whole SSE data frames plus half of the next, then destroy the socket. */
  | { kind: 'cut'; frames: number }
  /** Forward; relay `frames` whole SSE data frames, then end the response cleanly (a proxy closing a live stream). */
  | { kind: 'close'; frames: number }
  /** Forward; relay the headers, then nothing (keepalives included) while keeping the socket open. */
  | { kind: 'stall' };

export interface ProxiedRequest {
  n: number;
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The server's answer body when the proxy read it whole (`delay`), else null. */
  upstreamBody: string | null;
}

export interface TestProxy {
  url: string;
  requests: ProxiedRequest[];
  close(): Promise<void>;
}

/**
 * A loopback HTTP proxy between the SDK and a real server that can cut, stall, delay or answer requests,
 * to force the failures the SDK must survive. `plan` decides per request (n counts from 1).
 */
export async function startProxy(target: string, plan: (req: ProxiedRequest) => ProxyAction = () => ({ kind: 'forward' })): Promise<TestProxy> {
  const upstream = new URL(target);
  const requests: ProxiedRequest[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const record: ProxiedRequest = { n: requests.length + 1, method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, upstreamBody: null };
      requests.push(record);
      const action = plan(record);
      if (action.kind === 'blackhole') return;
      if (action.kind === 'respond') {
        res.writeHead(action.status, { 'content-type': 'application/json' }).end(JSON.stringify(action.body));
        return;
      }
      forward(req, Buffer.concat(chunks), res, action, record);
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  function forward(req: IncomingMessage, body: Buffer, res: ServerResponse, action: ProxyAction, record: ProxiedRequest): void {
    const headers = { ...req.headers, host: upstream.host };
    const up = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers }, (upRes) => {
      if (action.kind === 'delay') {
        const parts: Buffer[] = [];
        upRes.on('data', (c: Buffer) => parts.push(c));
        upRes.on('end', () => {
          record.upstreamBody = Buffer.concat(parts).toString();
          const t = setTimeout(() => {
            timers.delete(t);
            if (!res.destroyed) res.writeHead(upRes.statusCode ?? 502, upRes.headers).end(Buffer.concat(parts));
          }, action.ms);
          timers.add(t);
        });
        return;
      }
      res.writeHead(upRes.statusCode ?? 502, upRes.headers);
      res.flushHeaders();
      if (action.kind === 'stall') {
        upRes.resume(); // read and drop
        res.on('close', () => upRes.destroy());
        return;
      }
      if (action.kind === 'cut' || action.kind === 'close') {
        let buffered = '';
        let relayed = 0;
        let cutDone = false;
        upRes.on('data', (c: Buffer) => {
          if (res.destroyed || cutDone) return;
          buffered += c.toString();
          let end: number;
          while ((end = buffered.indexOf('\n\n')) !== -1) {
            const frame = buffered.slice(0, end + 2);
            buffered = buffered.slice(end + 2);
            if (!frame.includes('data:')) {
              res.write(frame); // keepalive
              continue;
            }
            if (relayed === action.frames) {
              if (action.kind === 'close') {
                upRes.destroy();
                res.end();
                return;
              }
              // Half a frame, then the line goes dead: the client must not take the half.
              // The socket dies a moment after the last write, so what was sent reaches the client.
              upRes.destroy();
              res.write(frame.slice(0, Math.floor(frame.length / 2)), () => {
                const t = setTimeout(() => res.socket?.destroy(), 50);
                timers.add(t);
              });
              cutDone = true;
              return;
            }
            res.write(frame);
            relayed += 1;
          }
        });
        upRes.on('end', () => {
          if (!cutDone) res.end();
        });
        res.on('close', () => upRes.destroy());
        return;
      }
      upRes.pipe(res);
      res.on('close', () => upRes.destroy());
    });
    up.on('error', () => res.destroy());
    up.end(body);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    async close() {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
