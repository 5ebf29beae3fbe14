import { SignJWT, jwtVerify } from 'jose';
import { systemClock } from '@leadfinder/platform';
import type { Clock } from '@leadfinder/platform';

/**
 * Session tokens (`eyJ…`): HS256 JWTs we sign after sign-in, `sub` = account id, `exp` = issue time +
 * LEADFINDER_SESSION_TTL_S. They carry no other authority.
 */
export interface SessionSigner {
  issue(accountId: string): Promise<string>;
  /** The account id of a valid, unexpired token we signed; null for anything else. */
  verify(token: string): Promise<string | null>;
}

export interface SessionSignerOptions {
  /** HMAC secret; at least 32 bytes of entropy is advisable. */
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
    async issue(accountId) {
      const nowS = Math.floor(clock.now() / 1000);
      return new SignJWT({})
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
        });
        return typeof payload.sub === 'string' && payload.sub.length > 0 ? payload.sub : null;
      } catch {
        return null;
      }
    },
  };
}
