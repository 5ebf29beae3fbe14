import { request } from 'node:http';
import type { Agent } from 'node:http';
import type { Host } from './host.js';

/** Small HTTP helpers over the public API and the admin API (real HTTP on 127.0.0.1). */

export interface Account {
  id: string;
  apiKey: string;
}

export async function createAccount(host: Host, balanceUsd: number): Promise<Account> {
  const res = await fetch(`${host.url}/admin/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${host.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ balanceUsd }),
  });
  if (res.status !== 201) throw new Error(`POST /admin/accounts answered ${res.status}: ${await res.text()}`);
  const body = (await res.json()) as { id: string; apiKey: string };
  return { id: body.id, apiKey: body.apiKey };
}

export interface SearchBody {
  q: string;
  target?: number;
  speed?: string;
  relax?: boolean;
  sites?: string;
}

export async function startSearch(url: string, apiKey: string, body: SearchBody): Promise<string> {
  const res = await fetch(`${url}/v1/searches`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 202) throw new Error(`POST /v1/searches answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

export interface RunRecord {
  id: string;
  status: string;
  usdDisplay: string;
  where: string;
  result: { table: unknown[]; met: boolean } | null;
}

export async function getRun(url: string, apiKey: string, id: string): Promise<RunRecord> {
  const res = await fetch(`${url}/v1/searches/${id}`, { headers: { authorization: `Bearer ${apiKey}` } });
  if (res.status !== 200) throw new Error(`GET /v1/searches/{id} answered ${res.status}`);
  return (await res.json()) as RunRecord;
}

export async function stopSearch(url: string, apiKey: string, id: string): Promise<{ status: string }> {
  const res = await fetch(`${url}/v1/searches/${id}/stop`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}` } });
  if (res.status !== 202) throw new Error(`POST /v1/searches/{id}/stop answered ${res.status}`);
  return (await res.json()) as { status: string };
}

export const TERMINAL = new Set(['done', 'stopped', 'budget_exhausted', 'interrupted', 'error']);

/** One parsed SSE frame: the `data:` JSON with its `id:`. */
export interface Frame {
  seq: number;
  event: { type: string; [key: string]: unknown };
}

/**
 * Opens `GET /v1/searches/{id}/events` and calls `onFrame` per frame (with the receipt time); resolves
 * once the response headers arrived, with `ended` resolving when the server closes the stream.
 */
export function openEventStream(
  url: string,
  apiKey: string,
  id: string,
  onFrame: (frame: Frame, receivedAt: number) => void,
  options: { agent?: Agent; signal?: AbortSignal } = {},
): Promise<{ ended: Promise<void>; close(): void }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/v1/searches/${id}/events`, {
      headers: { authorization: `Bearer ${apiKey}`, accept: 'text/event-stream' },
      agent: options.agent,
      signal: options.signal,
    });
    req.on('error', reject);
    req.on('response', (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        reject(new Error(`GET /v1/searches/{id}/events answered ${res.statusCode}`));
        return;
      }
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk: string) => {
        const receivedAt = performance.timeOrigin + performance.now();
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let seq = 0;
          let data = '';
          for (const line of block.split('\n')) {
            if (line.startsWith('id: ')) seq = Number(line.slice(4));
            else if (line.startsWith('data: ')) data += line.slice(6);
          }
          if (data) onFrame({ seq, event: JSON.parse(data) as Frame['event'] }, receivedAt);
        }
      });
      const ended = new Promise<void>((done) => {
        res.on('end', () => done());
        res.on('close', () => done());
        res.on('error', () => done());
      });
      resolve({ ended, close: () => req.destroy() });
    });
    req.end();
  });
}

/** Runs `fn` over `items` with at most `limit` in flight. */
export async function inPool<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  });
  await Promise.all(workers);
  return out;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
