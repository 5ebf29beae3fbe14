import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createSessionSigner } from './sessions.js';

const SECRET = 'session-secret-for-these-tests-0123456789';
const key = new TextEncoder().encode(SECRET);
const clock = { now: () => Date.parse('2030-01-01T00:00:00.000Z') };
const nowS = Math.floor(clock.now() / 1000);

/** A token signed with the right secret, issuer and audience, with only the claims given. */
function forge(claims: { sub?: string; iat?: number; exp?: number; sv?: unknown }) {
  const { sub, iat, exp, sv } = claims;
  let jwt = new SignJWT(sv === undefined ? {} : { sv }).setProtectedHeader({ alg: 'HS256' }).setIssuer('leadfinder').setAudience('leadfinder-session');
  if (sub !== undefined) jwt = jwt.setSubject(sub);
  if (iat !== undefined) jwt = jwt.setIssuedAt(iat);
  if (exp !== undefined) jwt = jwt.setExpirationTime(exp);
  return jwt.sign(key);
}

describe('session tokens', () => {
  const signer = createSessionSigner({ secret: SECRET, ttlSeconds: 3600, clock });

  it('carry the account and its session version', async () => {
    expect(await signer.verify(await signer.issue('acct_1', 3))).toEqual({ accountId: 'acct_1', sessionVersion: 3 });
    expect(await signer.verify(await signer.issue('acct_1'))).toEqual({ accountId: 'acct_1', sessionVersion: 0 });
  });

  it('are refused without exp, iat or sub, even when signed with the secret', async () => {
    expect(await signer.verify(await forge({ sub: 'acct_1', iat: nowS, exp: nowS + 60 }))).toEqual({ accountId: 'acct_1', sessionVersion: 0 });
    expect(await signer.verify(await forge({ sub: 'acct_1', iat: nowS }))).toBeNull();
    expect(await signer.verify(await forge({ sub: 'acct_1', exp: nowS + 60 }))).toBeNull();
    expect(await signer.verify(await forge({ iat: nowS, exp: nowS + 60 }))).toBeNull();
    expect(await signer.verify(await forge({ sub: 'acct_1', iat: nowS, exp: nowS + 60, sv: 'x' }))).toBeNull();
  });

  it('are refused once expired', async () => {
    expect(await signer.verify(await forge({ sub: 'acct_1', iat: nowS - 7200, exp: nowS - 3600 }))).toBeNull();
  });
});
