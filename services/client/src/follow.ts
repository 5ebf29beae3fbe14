import { RunEvent, RunRecord, isTerminal } from './wire.js';
import type { HttpCore } from './http.js';
import { LeadfinderApiError, ProtocolError, TransportError, errorFromResponse } from './errors.js';
import { SseParser } from './sse.js';

export interface FollowOptions {
  /** Resume after this sequence (the last one you handled). @default 0 (from the start) */
  since?: number;
  /** Ends the iteration (without error) when aborted. The run itself carries on (spec §3 rule 3). */
  signal?: AbortSignal;
  /**
   * Reconnect when no byte (event or keepalive) arrives for this long. The service sends keepalives
   * while quiet, so silence means a dead connection. Time the caller spends handling an event does
   * not count. @default 45000
   */
  silenceTimeoutMs?: number;
  /** First wait before reconnecting; doubles on each failure in a row. @default 1000 */
  reconnectDelayMs?: number;
  /** Longest wait between reconnects. @default 30000 */
  maxReconnectDelayMs?: number;
  /** Give up (TransportError) after this many reconnects in a row that received nothing. @default 20 */
  maxConsecutiveFailures?: number;
}

export interface FollowedEvent {
  seq: number;
  event: RunEvent;
}

/** An async iterator over a run's events that survives drops; `run` holds the confirmed outcome at the end. */
export interface EventFollower extends AsyncIterable<FollowedEvent> {
  /** The last sequence the caller has handled (it advances when the caller asks for the next event). */
  readonly cursor: number;
  /** The terminal run record fetched after the stream closed (spec §6 rule 4); null until then. */
  readonly run: RunRecord | null;
  /** How many times the stream was re-opened after a drop, a close of a live run, or silence. */
  readonly reconnects: number;
}

const NO_TIMEOUT = 2 ** 31 - 1;

/**
 * Follow a run's event stream (spec §6): `fetch()` streaming with the Authorization header (EventSource
 * cannot send one), resuming with `Last-Event-ID` after drops and keepalive silence, advancing the cursor
 * only after the caller handled an event, and confirming the outcome with `GET /v1/searches/{id}` once
 * the server closes the stream, because stream end alone does not prove the run ended.
 */
export function followRun(http: HttpCore, id: string, options: FollowOptions = {}): EventFollower {
  const state = { cursor: options.since ?? 0, run: null as RunRecord | null, reconnects: 0 };
  const silenceMs = options.silenceTimeoutMs ?? 45_000;
  const baseDelayMs = options.reconnectDelayMs ?? 1_000;
  const maxDelayMs = options.maxReconnectDelayMs ?? 30_000;
  const maxFailures = options.maxConsecutiveFailures ?? 20;
  const runPath = `/v1/searches/${encodeURIComponent(id)}`;
  const signal = options.signal;

  /** Errors that reconnecting cannot fix end the iteration; the rest are drops. */
  const isFatal = (error: unknown) =>
    error instanceof ProtocolError || (error instanceof LeadfinderApiError && !error.retryable);

  async function* iterate(): AsyncGenerator<FollowedEvent> {
    let failures = 0;
    let lastError: unknown = null;
    for (;;) {
      if (signal?.aborted) return;
      const connection = new AbortController();
      let silenceTimer: NodeJS.Timeout | undefined;
      const disarm = () => clearTimeout(silenceTimer);
      const arm = () => {
        disarm();
        silenceTimer = setTimeout(() => connection.abort(new Error(`no data for ${silenceMs} ms`)), silenceMs);
      };
      let closedByServer = false;
      arm(); // a server that never answers the request is silent too
      try {
        const response = await http.send(`${runPath}/events`, {
          signal: signal ? AbortSignal.any([signal, connection.signal]) : connection.signal,
          timeoutMs: NO_TIMEOUT,
          headers: { accept: 'text/event-stream', ...(state.cursor > 0 ? { 'last-event-id': String(state.cursor) } : {}) },
        });
        if (!response.ok) {
          const body: unknown = await response.json().catch(() => null);
          throw errorFromResponse(response.status, body, response.headers.get('retry-after'), response.statusText);
        }
        // 204: the run is finished and we have had every event (the server's "do not reconnect").
        const reader = response.status === 204 ? null : response.body?.getReader();
        if (reader === undefined) throw new ProtocolError(`GET ${runPath}/events answered without a body`);
        if (reader === null) closedByServer = true;
        const parser = new SseParser(arm);
        const decoder = new TextDecoder();
        while (reader) {
          const { value, done } = await reader.read();
          if (done) {
            closedByServer = true;
            break;
          }
          failures = 0;
          arm();
          for (const frame of parser.push(decoder.decode(value, { stream: true }))) {
            if (frame.id === null || frame.id <= state.cursor) continue; // never hand out an event twice
            const event = parseEvent(frame.id, frame.data);
            disarm(); // the caller's handling time is not server silence
            yield { seq: frame.id, event };
            // Reaching here means the caller asked for the next event: the previous one was handled.
            state.cursor = frame.id;
            if (signal?.aborted) return;
            arm();
          }
        }
      } catch (error) {
        if (signal?.aborted) return;
        if (isFatal(error)) throw error;
        lastError = error;
      } finally {
        disarm();
        connection.abort();
      }

      if (closedByServer) {
        try {
          const run = await http.request(runPath, RunRecord, { signal });
          if (isTerminal(run.status)) {
            state.run = run;
            return;
          }
          // A live run's stream was closed (a proxy, a restarting edge): resume from the cursor.
        } catch (error) {
          if (signal?.aborted) return;
          if (isFatal(error)) throw error;
          lastError = error;
        }
      }
      failures += 1;
      if (failures > maxFailures) {
        throw new TransportError(`event stream of ${id} failed ${failures} times in a row`, false, { cause: lastError });
      }
      state.reconnects += 1;
      if (!(await pause(Math.min(maxDelayMs, baseDelayMs * 2 ** (failures - 1)), signal))) return;
    }
  }

  return {
    get cursor() { return state.cursor; },
    get run() { return state.run; },
    get reconnects() { return state.reconnects; },
    [Symbol.asyncIterator]: () => iterate(),
  };
}

function parseEvent(seq: number, data: string): RunEvent {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch (error) {
    throw new ProtocolError(`event ${seq} is not JSON`, { cause: error });
  }
  const parsed = RunEvent.safeParse(json);
  if (!parsed.success) throw new ProtocolError(`event ${seq} does not match the event schema: ${parsed.error.message}`, { cause: parsed.error });
  return parsed.data;
}

/** Sleep; false when `signal` aborted first. */
export function pause(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
