import { SignJWT, jwtVerify } from 'jose';
import { systemClock } from '@leadfinder/platform';
import type { Clock } from '@leadfinder/platform';

/**
 * Session tokens (`eyJ…`): HS256 JWTs we sign after sign-in, `sub` = account id, `exp` = issue time +
 * LEADFINDER_SESSION_TTL_S, `sv` = the account's session version when issued (a token is refused once
 * the account's version moved on: sign-out everywhere). They carry no other authority.
 */
export interface SessionSigner {
  issue(accountId: string, sessionVersion?: number): Promise<string>;
  /** The account and session version of a valid, unexpired token we signed; null for anything else. */
  verify(token: string): Promise<VerifiedSession | null>;
}

export interface VerifiedSession {
  accountId: string;
  sessionVersion: number;
}

export interface SessionSignerOptions {
  /** HMAC secret; configuration requires at least 32 bytes. */
  secret: string;
  /** Lifetime of a token in seconds (LEADFINDER_SESSION_TTL_S). @default 604800 (7 days) */
  ttlSeconds?: number;
  /** @default systemClock */
  clock?: Clock;
}

const ISSUER = 'leadfinder';
const AUDIENCE = 'leadfinder-session';

export function createSessionSigner(options: SessionSignerOptions): SessionSigner {
  const key = new TextEncoder().encode(options.secret);
  const ttlS = options.ttlSeconds ?? 7 * 24 * 3600;
  const clock = options.clock ?? systemClock;
  return {
    async issue(accountId, sessionVersion = 0) {
      const nowS = Math.floor(clock.now() / 1000);
      return new SignJWT({ sv: sessionVersion })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(accountId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(nowS)
        .setExpirationTime(nowS + ttlS)
        .sign(key);
    },
    async verify(token) {
      if (!token.startsWith('eyJ')) return null;
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          issuer: ISSUER,
          audience: AUDIENCE,
          currentDate: new Date(clock.now()),
          // A token without an expiry would never lapse; one without iat or sub is not one we made.
          requiredClaims: ['exp', 'iat', 'sub'],
        });
        if (typeof payload.sub !== 'string' || payload.sub.length === 0) return null;
        // Tokens from before session versions existed carry none: version 0.
        const sv = payload.sv ?? 0;
        if (typeof sv !== 'number' || !Number.isSafeInteger(sv) || sv < 0) return null;
        return { accountId: payload.sub, sessionVersion: sv };
      } catch {
        return null;
      }
    },
  };
}
