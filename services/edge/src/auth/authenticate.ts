import { createHash } from 'node:crypto';
import type { AccountDoc, Clock, Store } from '@leadfinder/platform';
import { API_KEY_PREFIX, findKey } from './keys.js';
import type { SessionSigner } from './sessions.js';

/**
 * Credential checks as results, not exceptions: the routes decide which §7 text each reason becomes.
 * A scheme other than `Bearer` counts as no credential at all (operator contract).
 */
export interface Authenticated {
  ok: true;
  account: AccountDoc;
  /** Stable per credential (never the credential itself): the rate-limit bucket. */
  credentialId: string;
}
export type CallerFailure = 'missing' | 'invalid' | 'disabled' | 'lookup_failed';
export type SessionFailure = 'missing' | 'invalid_token' | 'unknown_user' | 'deleted' | 'lookup_failed';
export type AuthResult<R extends string> = Authenticated | { ok: false; reason: R };

export interface AuthDeps {
  store: Store;
  sessions: SessionSigner;
  clock: Clock;
}

export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer[ \t]+(.*)$/i.exec(header.trim());
  const token = match?.[1]?.trim();
  return token ? token : null;
}

/**
 * `lastUsedAt` is display data (GET /api/keys), so it is written at most once a minute per key rather
 * than on every call: a durable write per request would cost more than the request itself. It may
 * therefore lag real use by up to this long.
 */
export const KEY_USAGE_RESOLUTION_MS = 60_000;

function usageIsStale(lastUsedAt: string | null, now: number): boolean {
  if (lastUsedAt === null) return true;
  const age = now - Date.parse(lastUsedAt);
  // A clock that went back (negative age) or an unreadable date also counts as stale.
  return !(age >= 0 && age < KEY_USAGE_RESOLUTION_MS);
}

/** Search endpoints (`/v1`): an API key or a session token. */
export async function authenticateCaller(deps: AuthDeps, header: string | undefined): Promise<AuthResult<CallerFailure>> {
  const token = bearerToken(header);
  if (token === null) return { ok: false, reason: 'missing' };
  try {
    if (token.startsWith(API_KEY_PREFIX)) {
      const key = await findKey(deps.store.keys, token);
      if (!key) return { ok: false, reason: 'invalid' };
      const account = await deps.store.accounts.get(key.accountId);
      if (!account) return { ok: false, reason: 'invalid' };
      if (account.status !== 'active') return { ok: false, reason: 'disabled' };
      const now = deps.clock.now();
      if (usageIsStale(key.lastUsedAt, now)) await deps.store.keys.touch(key.id, new Date(now).toISOString());
      return { ok: true, account, credentialId: `key:${key.id}` };
    }
    const session = await deps.sessions.verify(token);
    if (session === null) return { ok: false, reason: 'invalid' };
    const account = await deps.store.accounts.get(session.accountId);
    // Signed out everywhere after this token was issued: it is dead.
    if (!account || account.sessionVersion !== session.sessionVersion) return { ok: false, reason: 'invalid' };
    if (account.status !== 'active') return { ok: false, reason: 'disabled' };
    return { ok: true, account, credentialId: sessionCredentialId(token) };
  } catch {
    return { ok: false, reason: 'lookup_failed' };
  }
}

/** Key management (`/api/keys`): session tokens only; an API key is just an invalid token here. */
export async function authenticateSession(deps: AuthDeps, header: string | undefined): Promise<AuthResult<SessionFailure>> {
  const token = bearerToken(header);
  if (token === null) return { ok: false, reason: 'missing' };
  const session = await deps.sessions.verify(token);
  if (session === null) return { ok: false, reason: 'invalid_token' };
  try {
    const account = await deps.store.accounts.get(session.accountId);
    if (!account) return { ok: false, reason: 'unknown_user' };
    if (account.sessionVersion !== session.sessionVersion) return { ok: false, reason: 'invalid_token' };
    if (account.status !== 'active') return { ok: false, reason: 'deleted' };
    return { ok: true, account, credentialId: sessionCredentialId(token) };
  } catch {
    return { ok: false, reason: 'lookup_failed' };
  }
}

function sessionCredentialId(token: string): string {
  return `session:${createHash('sha256').update(token).digest('hex').slice(0, 32)}`;
}
