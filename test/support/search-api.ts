/**
 * The public search API of one server as one account, with raw fetch (no SDK), for end-to-end tests:
 * start a search, poll it, stop it, and read its whole event stream.
 */
import type { FinalEvent, RunEvent } from '@leadfinder/wire';

export interface RunRecord {
  id: string;
  status: string;
  query: string;
  where: string;
  usdDisplay: string;
  stopReason: string | null;
  result: FinalEvent | null;
}

export interface SearchBody {
  q: string;
  target?: number;
  speed?: string;
  relax?: boolean;
  sites?: string;
}

export const TERMINAL_STATUSES = new Set(['done', 'stopped', 'budget_exhausted', 'interrupted', 'error']);

export interface SearchApi {
  start(body: SearchBody): Promise<string>;
  run(id: string): Promise<RunRecord>;
  stop(id: string): Promise<{ status: number; body: Record<string, unknown> }>;
  /** Polls until terminal (throws after `timeoutMs`). */
  waitTerminal(id: string, timeoutMs?: number, pollMs?: number): Promise<RunRecord>;
  /** Every event of the run, read from the SSE stream until the service closes it. */
  events(id: string, timeoutMs?: number): Promise<RunEvent[]>;
}

export function searchApi(baseUrl: string, credential: string): SearchApi {
  const auth = { authorization: `Bearer ${credential}` };
  const call = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${baseUrl}${path}`, {
      method,
      headers: body === undefined ? auth : { ...auth, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await r.text();
    return { status: r.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> };
  };
  const api: SearchApi = {
    async start(body) {
      const r = await call('POST', '/v1/searches', body);
      if (r.status !== 202) throw new Error(`POST /v1/searches: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body.id as string;
    },
    async run(id) {
      const r = await call('GET', `/v1/searches/${id}`);
      if (r.status !== 200) throw new Error(`GET /v1/searches/${id}: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body as unknown as RunRecord;
    },
    stop: (id) => call('POST', `/v1/searches/${id}/stop`),
    async waitTerminal(id, timeoutMs = 30_000, pollMs = 100) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const run = await api.run(id);
        if (TERMINAL_STATUSES.has(run.status)) return run;
        if (Date.now() > deadline) throw new Error(`run ${id} still ${run.status} (where: ${run.where}) after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, pollMs));
      }
    },
    async events(id, timeoutMs = 30_000) {
      const r = await fetch(`${baseUrl}/v1/searches/${id}/events`, { headers: auth, signal: AbortSignal.timeout(timeoutMs) });
      if (r.status !== 200) throw new Error(`events of ${id}: ${r.status} ${await r.text()}`);
      const text = await r.text();
      const events: RunEvent[] = [];
      for (const block of text.replace(/\r\n/g, '\n').split('\n\n')) {
        const data = block
          .split('\n')
          .filter((l) => l.startsWith('data:'))
          .map((l) => l.slice(5).trimStart())
          .join('\n');
        if (data) events.push(JSON.parse(data) as RunEvent);
      }
      return events;
    },
  };
  return api;
}

/** Events of one type, typed. */
export function eventsOf<T extends RunEvent['type']>(events: readonly RunEvent[], type: T): Extract<RunEvent, { type: T }>[] {
  return events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);
}
