import { createHash } from 'node:crypto';
import { idempotencyScope, sleep } from '@leadfinder/platform';
import type { AccountDoc, IdempotencyRecord, IdempotencyStore } from '@leadfinder/platform';
import type { EdgeDeps } from '../deps.js';
import { UnprocessableError, badRequest, conflict } from '../http/errors.js';

/** Stripe's window: a key answers with its run for 24 h (injected clock), then may start a new one. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** Set on every answer to a request that carried a key: `true` when it names a run started earlier. */
export const REPLAYED_HEADER = 'idempotent-replayed';
export const KEY_REUSED = 'Idempotency-Key was already used with a different request body.';
export const KEY_INVALID = 'Idempotency-Key must be 1 to 255 printable ASCII characters.';
export const KEY_IN_FLIGHT = 'A request with this Idempotency-Key is still being processed; retry shortly.';

/** How long a duplicate waits for the first request with its key to start the run, before 409. */
const WAIT_FOR_FIRST_MS = 30_000;

type IdempotencyDeps = Pick<EdgeDeps, 'clock' | 'ids' | 'logger' | 'store'> & { idempotency: IdempotencyStore };

/** The header's value, or null without one; a malformed key is 400 (permanent for the same request). */
export function readIdempotencyKey(headers: Record<string, string | string[] | undefined>): string | null {
  const raw = headers[IDEMPOTENCY_HEADER];
  if (raw === undefined) return null;
  const key = Array.isArray(raw) ? raw.join(',') : raw;
  if (!/^[\x21-\x7e]([\x20-\x7e]{0,253}[\x21-\x7e])?$/.test(key)) throw badRequest(KEY_INVALID);
  return key;
}

/** SHA-256 of the body in canonical JSON (keys sorted), so key order and spacing do not make it "different". */
export function requestFingerprint(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Start a run at most once per (account, key) and 24 h: the first request commits the key's record
 * (one unique insert) and starts its run under the run id named in it; every other request with the key
 * answers with that run once it exists, or 422 when its body differs. When the first request starts
 * nothing (a refusal or a failure: 400, 402, 500), the key is released, so a retry with it can start the
 * run. `start` is the normal acceptance, given the run id to use.
 */
export async function acceptIdempotently(
  deps: IdempotencyDeps,
  account: AccountDoc,
  key: string,
  fingerprint: string,
  start: (runId: string) => Promise<{ id: string }>,
): Promise<{ id: string; replayed: boolean }> {
  // Duplicates arriving at this process while one is being handled share its outcome instead of each
  // claiming and polling the store (correctness does not rest on this: other processes go to the store).
  const flights = inFlightOf(deps.idempotency);
  const flight = `${idempotencyScope(account.id, key)}:${fingerprint}`;
  const shared = flights.get(flight);
  if (shared) return { id: (await shared).id, replayed: true };
  const own = claimAndStart(deps, account, key, fingerprint, start);
  flights.set(flight, own);
  try {
    return await own;
  } finally {
    flights.delete(flight);
  }
}

const flightsByStore = new WeakMap<IdempotencyStore, Map<string, Promise<{ id: string; replayed: boolean }>>>();
function inFlightOf(store: IdempotencyStore): Map<string, Promise<{ id: string; replayed: boolean }>> {
  let flights = flightsByStore.get(store);
  if (!flights) flightsByStore.set(store, (flights = new Map()));
  return flights;
}

async function claimAndStart(
  deps: IdempotencyDeps,
  account: AccountDoc,
  key: string,
  fingerprint: string,
  start: (runId: string) => Promise<{ id: string }>,
): Promise<{ id: string; replayed: boolean }> {
  for (;;) {
    const now = deps.clock.now();
    const mine: IdempotencyRecord = {
      accountId: account.id, key, fingerprint, runId: deps.ids.runId(),
      createdAt: new Date(now).toISOString(), expiresAt: now + IDEMPOTENCY_WINDOW_MS,
    };
    const claim = await deps.idempotency.claim(mine, now);
    if (claim.won) {
      try {
        return { ...(await start(mine.runId)), replayed: false };
      } catch (error) {
        await deps.idempotency.release(mine).catch((e: unknown) =>
          deps.logger.error('idempotency key could not be released; it expires on its own', { runId: mine.runId, err: String(e) }));
        throw error;
      }
    }
    const held = claim.record;
    if (held.fingerprint !== fingerprint) throw new UnprocessableError(KEY_REUSED);
    const outcome = await waitForFirst(deps, held);
    if (outcome === 'started') return { id: held.runId, replayed: true };
    // 'released': the first request started nothing; this one tries to claim the key itself.
  }
}

/** Wait until the run named by `held` exists (started) or the key was released (the first request failed). */
async function waitForFirst(deps: IdempotencyDeps, held: IdempotencyRecord): Promise<'started' | 'released'> {
  const giveUpAt = Date.now() + WAIT_FOR_FIRST_MS;
  for (let pauseMs = 5; ; pauseMs = Math.min(pauseMs * 2, 200)) {
    const run = await deps.store.runs.get(held.runId);
    // A run with a hold was accepted; a 402 refusal row (no hold) started nothing and frees the key.
    if (run && run.accountId === held.accountId && run.holdMicrousd > 0) return 'started';
    const current = await deps.idempotency.find(held.accountId, held.key, deps.clock.now());
    if (current?.runId !== held.runId) return 'released';
    if (Date.now() >= giveUpAt) throw conflict(KEY_IN_FLIGHT);
    await sleep(pauseMs);
  }
}
