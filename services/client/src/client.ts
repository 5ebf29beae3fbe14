import { CreateSearchAccepted, CreatedKey, KeyList, RunList, RunRecord, StopAccepted, isTerminal } from './wire.js';
import type { CreateSearchRequest, KeySummary, RunListItem } from './wire.js';
import { LeadfinderApiError, TransportError } from './errors.js';
import { followRun, pause } from './follow.js';
import type { EventFollower, FollowOptions } from './follow.js';
import { HttpCore } from './http.js';
import { webhooksApi } from './webhooks.js';
import type { WebhooksApi } from './webhooks.js';

export interface ClientOptions {
  /** e.g. http://127.0.0.1:8080 */
  baseUrl: string;
  /** An API key (`lf_live_…`) or a session token (`eyJ…`; required for `keys`). */
  credential: string;
  /** Per-request timeout (not applied to event streams, which have their own silence timeout). @default 30000 */
  timeoutMs?: number;
  fetch?: typeof fetch;
  /**
   * After `createSearch` timed out: how long to keep looking in the run list for the search the server
   * may have accepted before sending it again. @default 2000
   */
  recoveryWindowMs?: number;
}

export interface CreateSearchOptions {
  signal?: AbortSignal;
  /**
   * Sent as `Idempotency-Key`: the same key with the same request within 24 h names the same run (another
   * request with it is refused with 422). Pass your own (e.g. an order id) to make a search idempotent
   * across processes; by default each call makes a random one and reuses it for its own retries.
   */
  idempotencyKey?: string;
}

export interface WaitOptions {
  /** Poll interval; the spec asks for seconds, not hundreds of milliseconds. @default 3000 */
  intervalMs?: number;
  signal?: AbortSignal;
}

export interface LeadfinderClient {
  /**
   * Start a search (`POST /v1/searches`). Every call sends an `Idempotency-Key` (yours, or a random one)
   * and every retry of the call re-sends the same key, so the server starts the search at most once. A 500
   * is retried once; 400/401/403/422 and 402 are thrown at once (402 as `InsufficientBalanceError`). After
   * a client-side timeout or dropped connection it re-sends with the key when this server has shown it
   * honours keys; otherwise (an older server, or none answered yet) it first lists recent runs (spec §4.1
   * rule 5), so it never starts and pays for a second search.
   */
  createSearch(request: CreateSearchRequest, options?: CreateSearchOptions): Promise<CreateSearchAccepted>;
  getSearch(id: string, options?: { signal?: AbortSignal }): Promise<RunRecord>;
  /** The 50 most recent runs, newest first. */
  listSearches(options?: { signal?: AbortSignal }): Promise<RunListItem[]>;
  /** Raise the stop flag. Closing an event stream never stops a run; this does. */
  stopSearch(id: string): Promise<StopAccepted>;
  /** Follow the run's events; see `EventFollower`. */
  follow(id: string, options?: FollowOptions): EventFollower;
  /** Poll `GET /v1/searches/{id}` every few seconds until terminal (fallback when streaming is not possible). */
  waitForResult(id: string, options?: WaitOptions): Promise<RunRecord>;
  /** Webhook endpoints, secrets and deliveries; needs a session token as the credential, like `keys`. */
  webhooks: WebhooksApi;
  /** Key management; needs a session token as the credential (an API key gets 401 `Invalid token`). */
  keys: {
    create(name: string): Promise<CreatedKey>;
    list(): Promise<KeySummary[]>;
    revoke(id: string): Promise<void>;
  };
}

/** Sends of one `createSearch` at most when the server honours keys (the first and its retries). */
const MAX_SENDS = 3;

/** Allowance for clock skew between this machine and the server when matching `createdAt`. */
const SKEW_MS = 60_000;

export function createClient(options: ClientOptions): LeadfinderClient {
  const http = new HttpCore({ baseUrl: options.baseUrl, credential: options.credential, timeoutMs: options.timeoutMs, fetch: options.fetch });
  const runPath = (id: string) => `/v1/searches/${encodeURIComponent(id)}`;
  const recoveryWindowMs = options.recoveryWindowMs ?? 2_000;

  /**
   * The run a request that timed out may have started: same query and settings, created since we sent
   * it. A refused (402) or failed run that charged nothing is not one to keep: sending again costs nothing
   * twice, and a repeated 402 brings back its message.
   */
  async function findSentRun(request: CreateSearchRequest, sentAt: number, signal?: AbortSignal): Promise<RunListItem | undefined> {
    const deadline = Date.now() + recoveryWindowMs;
    for (;;) {
      const { runs } = await http.request('/v1/searches', RunList, { signal });
      const match = runs.find((r) => sameSearch(r, request) && Date.parse(r.createdAt) >= sentAt - SKEW_MS);
      if (match && !(match.status === 'error' && match.usdDisplay === '$0.00')) return match;
      // The server may still be between accepting and writing the run: look again before re-sending.
      if (Date.now() >= deadline) return undefined;
      if (!(await pause(Math.min(1_000, recoveryWindowMs), signal))) return undefined;
    }
  }

  /** Whether this server answered a POST with `Idempotent-Replayed`: it honours keys (unknown until it answers). */
  let honoursKeys = false;
  const learn = (headers: Headers) => {
    if (headers.has('idempotent-replayed')) honoursKeys = true;
  };

  return {
    async createSearch(request, callOptions = {}) {
      const key = callOptions.idempotencyKey ?? globalThis.crypto.randomUUID();
      const send = () => http.request('/v1/searches', CreateSearchAccepted, {
        method: 'POST', body: request, signal: callOptions.signal, headers: { 'idempotency-key': key }, onHeaders: learn,
      });
      const sentAt = Date.now();
      for (let attempt = 1; ; attempt++) {
        try {
          return await send();
        } catch (error) {
          // 409: the first request with this key is still being accepted; it will name the run shortly.
          if (error instanceof LeadfinderApiError && error.status === 409 && honoursKeys && attempt < MAX_SENDS) {
            if (!(await pause(1_000, callOptions.signal))) throw error;
            continue;
          }
          if (!(error instanceof TransportError)) throw error;
          if (honoursKeys) {
            // The key makes a re-send safe: the server answers with the run it already started, if any.
            if (attempt < MAX_SENDS) continue;
            throw error;
          }
          // A server not known to honour keys may have accepted it: look before sending again, never pay twice.
          const existing = await findSentRun(request, sentAt, callOptions.signal);
          if (existing) return { id: existing.id, status: 'running' };
          return await send();
        }
      }
    },
    getSearch: (id, o = {}) => http.request(runPath(id), RunRecord, { signal: o.signal }),
    listSearches: async (o = {}) => (await http.request('/v1/searches', RunList, { signal: o.signal })).runs,
    stopSearch: (id) => http.request(`${runPath(id)}/stop`, StopAccepted, { method: 'POST' }),
    follow: (id, o) => followRun(http, id, o),
    async waitForResult(id, o = {}) {
      for (;;) {
        try {
          const run = await http.request(runPath(id), RunRecord, { signal: o.signal });
          if (isTerminal(run.status)) return run;
        } catch (error) {
          // A lost poll is not a lost run; refusals are final.
          if (o.signal?.aborted || !(error instanceof TransportError || (error instanceof LeadfinderApiError && error.retryable))) throw error;
        }
        if (!(await pause(o.intervalMs ?? 3_000, o.signal))) throw o.signal?.reason ?? new Error('aborted');
      }
    },
    webhooks: webhooksApi(http),
    keys: {
      create: (name) => http.request('/api/keys', CreatedKey, { method: 'POST', body: { name } }),
      list: async () => (await http.request('/api/keys', KeyList)).keys,
      revoke: async (id) => {
        await http.request(`/api/keys/${encodeURIComponent(id)}`, null, { method: 'DELETE' });
      },
    },
  };
}

/** Does the listed run carry the settings `request` would have given it (server defaults applied)? */
function sameSearch(run: RunListItem, request: CreateSearchRequest): boolean {
  return (
    run.query === request.q &&
    run.target === (request.target ?? 50) &&
    run.speed === (request.speed === 'fast' ? 'fast' : 'advanced') &&
    run.relax === (request.relax ?? true) &&
    run.sites === (request.sites ?? '')
  );
}
