import { request as httpRequest } from 'node:http';
import type { Harness } from './harness.js';
import { bearer } from './harness.js';

export interface FollowedSearch {
  id: string;
  /** What the stream sent so far, and when the server closed it (0 while open). */
  stream: { body: string; endedAt: number };
  /** Resolves when the server closes the stream. */
  ended: Promise<void>;
}

/** Starts a search on a listening harness (`base` is its URL) and follows its event stream over real HTTP. */
export async function startAndFollow(h: Harness, base: string, key: string): Promise<FollowedSearch> {
  const created = await h.app.inject({ method: 'POST', url: '/v1/searches', headers: bearer(key), payload: { q: 'fintech startups' } });
  const id = created.json().id as string;
  const stream = { body: '', endedAt: 0 };
  const ended = new Promise<void>((resolve) => {
    httpRequest(`${base}/v1/searches/${id}/events`, { headers: bearer(key) }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (c: string) => (stream.body += c));
      res.on('end', () => { stream.endedAt = Date.now(); resolve(); });
    }).end();
  });
  return { id, stream, ended };
}
