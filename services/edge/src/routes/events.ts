import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { isTailCost, type RunEvent } from '@leadfinder/wire';
import type { EdgeDeps } from '../deps.js';
import { authenticateCaller } from '../auth/authenticate.js';
import { callerOf } from '../auth/guards.js';
import { RateLimitedError, RequestValidationError, notFound } from '../http/errors.js';
import { findOwnRun, hasEnded } from '../runs/run-view.js';
import { UNKNOWN_SEARCH } from './searches.js';

/** Keepalives while quiet; proxies commonly drop idle connections after 30–60 s. */
export const MAX_KEEPALIVE_MS = 15_000;

const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
  connection: 'keep-alive',
};

/**
 * `GET /v1/searches/{id}/events` (spec §4.5, §6): frames `id: <seq>` + `data: <json>` from the cursor,
 * keepalive comments, closed once the run is terminal and the client has caught up. A running run is
 * followed until the event log's end marker, which the run's ender appends once its record is terminal
 * (`EventLog.end`); a run already terminal when the client connects has its whole log, which is sent
 * and the stream closed. Closing the stream never touches the run.
 */
export function eventRoutes(deps: EdgeDeps): FastifyPluginAsync {
  const keepaliveMs = Math.min(deps.options?.sseKeepaliveMs ?? MAX_KEEPALIVE_MS, MAX_KEEPALIVE_MS);
  const cap = deps.config.LEADFINDER_STREAMS_PER_ACCOUNT;
  // Open streams per account on this edge (a distributed deployment counts per edge).
  const open = new Map<string, number>();
  return async (app) => {
    app.get<{ Params: { id: string }; Querystring: Record<string, string | string[] | undefined> }>(
      '/searches/:id/events',
      async (request, reply) => {
        const account = callerOf(request);
        const { since, sent } = readCursor(request);
        const run = await findOwnRun(deps.store.runs, account.id, request.params.id);
        if (!run) throw notFound(UNKNOWN_SEARCH);
        // A client resuming a finished run it has caught up with gets 204: the EventSource answer for
        // "nothing more, do not reconnect" (a 200 that closes at once makes it reconnect forever). A first
        // connection without a cursor keeps the 200 that closes with no frames (operator contract, 402 row).
        if (sent && hasEnded(run) && (await deps.events.read(run.id, since, 1)).length === 0) {
          return reply.code(204).header('cache-control', 'no-store').send();
        }
        const held = open.get(account.id) ?? 0;
        if (held >= cap) throw new RateLimitedError(STREAM_RETRY_AFTER_S, `Too many open event streams: an account may hold ${cap}`);
        open.set(account.id, held + 1);
        // The credential is checked again at every keepalive: a revoked key, a closed or deleted
        // account, or a session signed out everywhere ends the stream.
        const header = request.headers.authorization;
        const stillAllowed = async (): Promise<boolean> => {
          const result = await authenticateCaller({ store: deps.store, sessions: deps.sessions, clock: deps.clock }, header);
          if (result.ok) return result.account.id === account.id;
          return result.reason === 'lookup_failed'; // a store hiccup is not a revocation
        };
        try {
          reply.hijack();
          await stream(deps, { id: run.id, terminal: hasEnded(run) }, since, keepaliveMs, reply.raw, stillAllowed);
        } finally {
          const left = (open.get(account.id) ?? 1) - 1;
          if (left > 0) open.set(account.id, left);
          else open.delete(account.id);
        }
      },
    );
  };
}

/** Retry-After of a refused stream: streams end when their runs do, so a slot frees up soon. */
const STREAM_RETRY_AFTER_S = 5;

/**
 * The cursor is the later of `?since=` and `Last-Event-ID` (both non-negative integers, else 422): a
 * standard EventSource reconnects with its original URL, `?since` included, and the newest
 * `Last-Event-ID`, so the header is the newer position whenever it is the larger one. `sent`: the client
 * gave a cursor at all. No cursor: from the start.
 */
function readCursor(request: FastifyRequest<{ Querystring: Record<string, string | string[] | undefined> }>): { since: number; sent: boolean } {
  const raw = request.query.since;
  const fromQuery = raw === undefined ? undefined : parseCursor(Array.isArray(raw) ? raw[raw.length - 1]! : raw, ['query', 'since']);
  const header = request.headers['last-event-id'];
  // The header carries the same cursor as `since` (spec §4.5), and a validation `loc` starts with body,
  // query or path (operator contract), so a bad header is reported as the query field `since`.
  const fromHeader = typeof header === 'string' && header.trim() !== '' ? parseCursor(header.trim(), ['query', 'since']) : undefined;
  if (fromQuery === undefined && fromHeader === undefined) return { since: 0, sent: false };
  return { since: Math.max(fromQuery ?? 0, fromHeader ?? 0), sent: true };
}

function parseCursor(value: string, loc: string[]): number {
  if (/^\d+$/.test(value) && Number.isSafeInteger(Number(value))) return Number(value);
  if (/^-\d+$/.test(value)) {
    throw new RequestValidationError([{ loc, msg: 'Input should be greater than or equal to 0', type: 'greater_than_equal' }]);
  }
  throw new RequestValidationError([
    { loc, msg: 'Input should be a valid integer, unable to parse string as an integer', type: 'int_parsing' },
  ]);
}

/**
 * A run whose log has no end marker (it ended before markers were written, or the marker could not be
 * appended) is closed by its record: checked this long after its tail was streamed, then at twice the
 * previous wait, until the waits reach the keepalive (which then checks at its own pace). A run with a
 * marker ends on it first (the coordinator appends it a few ms after the tail, later on a loaded store),
 * and its record is not read. One check at a time: on a slow store, checks never pile up.
 */
const UNMARKED_END_FIRST_CHECK_MS = 400;

/** The run's tail was streamed: the end marker (or the record, for an unmarked log) follows shortly. */
function endsTheRun(event: RunEvent): boolean {
  return event.type === 'done' || isTailCost(event);
}

/** Pages of a finished run's log sent per read. */
const READ_PAGE = 256;

async function stream(
  deps: EdgeDeps, run: { id: string; terminal: boolean }, since: number, keepaliveMs: number, res: ServerResponse,
  stillAllowed: () => Promise<boolean>,
): Promise<void> {
  const runId = run.id;
  const abort = new AbortController();
  const stop = () => abort.abort();
  // The client went away (or we ended): stop following; the run itself carries on.
  res.on('close', stop);
  res.writeHead(200, SSE_HEADERS);
  res.flushHeaders();

  let cursor = since;
  const write = async (chunk: string): Promise<void> => {
    if (res.destroyed || res.writableEnded) return;
    if (!res.write(chunk)) await once(res, 'drain', { signal: abort.signal }).catch(() => undefined);
  };
  const send = async (seq: number, event: RunEvent): Promise<void> => {
    await write(`id: ${seq}\ndata: ${JSON.stringify(event)}\n\n`);
    cursor = seq;
  };
  /** Fallback for a log without an end marker: an ended record (terminal and settled) and nothing after what we sent. */
  let checking = false;
  const closeIfCaughtUp = async (): Promise<void> => {
    if (checking) return;
    checking = true;
    try {
      const record = await deps.store.runs.get(runId);
      if (record && !hasEnded(record)) return;
      if ((await deps.events.read(runId, cursor, 1)).length === 0) stop();
    } catch (error) {
      deps.logger.warn('event stream check failed', { runId, err: String(error) });
    } finally {
      checking = false;
    }
  };
  let unmarkedEnd: NodeJS.Timeout | undefined;
  const expectEnd = () => {
    if (unmarkedEnd) return;
    const check = (waitMs: number) => {
      unmarkedEnd = setTimeout(() => {
        void closeIfCaughtUp();
        if (waitMs * 2 < keepaliveMs && !abort.signal.aborted) check(waitMs * 2);
      }, waitMs);
    };
    check(UNMARKED_END_FIRST_CHECK_MS);
  };

  let ticking = false;
  const timer = setInterval(() => {
    if (ticking || abort.signal.aborted) return;
    ticking = true;
    void stillAllowed()
      .then(async (allowed) => {
        if (!allowed) {
          deps.logger.info('event stream closed: credential no longer valid', { runId });
          stop();
          return;
        }
        await write(': keepalive\n\n');
        // A run that ended with neither a tail nor a marker (its process died before writing either).
        await closeIfCaughtUp();
      })
      .catch(() => undefined)
      .finally(() => {
        ticking = false;
      });
  }, keepaliveMs);

  try {
    if (run.terminal) {
      // Every event of a terminal run was written before its record turned terminal: send them, then close.
      for (;;) {
        const page = await deps.events.read(runId, cursor, READ_PAGE);
        for (const { seq, event } of page) {
          if (abort.signal.aborted) break;
          await send(seq, event);
        }
        if (page.length < READ_PAGE || abort.signal.aborted) break;
      }
    } else {
      // `follow` returns at the run's end marker: the stream is complete.
      for await (const { seq, event } of deps.events.follow(runId, since, abort.signal)) {
        await send(seq, event);
        if (endsTheRun(event)) expectEnd();
        if (abort.signal.aborted) break;
      }
    }
  } catch (error) {
    if (!abort.signal.aborted) deps.logger.error('event stream failed', { runId, err: String(error) });
  } finally {
    clearInterval(timer);
    clearTimeout(unmarkedEnd);
    res.off('close', stop);
    stop();
    if (!res.writableEnded) res.end();
  }
}
