import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { SignJWT, jwtVerify } from 'jose';
import { z } from 'zod';
import { LeadfinderError } from '@leadfinder/platform';
import { microsToUsdDisplay } from '@leadfinder/wire';
import type { AccountDoc, Billing, Clock, Config, Logger, Store } from '@leadfinder/platform';
import type { SessionSigner } from '../auth/sessions.js';
import { createRateLimiter } from '../http/rate-limit.js';
import { readCookie, serializeCookie } from './cookies.js';
import { createOidcFlow } from './oidc.js';
import type { OidcFlow, PendingSignIn } from './oidc.js';

export interface WebOptions {
  config: Config;
  logger: Logger;
  clock: Clock;
  store: Store;
  billing: Billing;
  sessions: SessionSigner;
  /** Signs the short-lived sign-in cookie (state, nonce, PKCE verifier); the session secret serves. */
  secret: string;
  /** Tests: a loopback identity provider over http. */
  allowInsecureOidc?: boolean;
}

const SESSION_COOKIE = 'lf_session';
const SIGNIN_COOKIE = 'lf_signin';
const STATIC_DIR = fileURLToPath(new URL('./static/', import.meta.url));

/**
 * A strict policy: only our own script and style, no inline code, no framing. The page talks only to
 * this origin.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'",
  "font-src 'self'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
].join('; ');

const STATIC_FILES: Record<string, string> = {
  '/': 'index.html',
  '/app.js': 'app.js',
  '/app.css': 'app.css',
  '/csv.js': 'csv.js',
  '/run-model.js': 'run-model.js',
};
const TYPES: Record<string, string> = { html: 'text/html; charset=utf-8', js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8' };

/** Stable account id for an identity, so signing in again finds the same account. */
export function accountIdFor(identity: string): string {
  return `acct_${createHash('sha256').update(identity).digest('hex').slice(0, 24)}`;
}

const DevSignIn = z.object({ email: z.string().trim().email().max(254) });

/** Development sign-ins per client address per minute: enough for a person, not for a script. */
const DEV_SIGNINS_PER_MIN = 10;

/** Which sign-in the page offers: OpenID Connect, the development one (explicitly enabled), or none. */
export type SignInMethod = 'oidc' | 'development' | 'none';

export function signInMethod(config: Config): SignInMethod {
  if (config.LEADFINDER_OIDC_ISSUER && config.LEADFINDER_OIDC_CLIENT_ID) return 'oidc';
  return config.LEADFINDER_DEV_SIGNIN ? 'development' : 'none';
}

/**
 * The web page (`GET /`, `/?panel=keys`) and its sign-in: OpenID Connect when LEADFINDER_OIDC_* is set,
 * a development sign-in that says so only when LEADFINDER_DEV_SIGNIN enables it, else none (the page says
 * that no sign-in is configured). The session is an httpOnly SameSite cookie holding our session
 * token; the page reads a copy through `/auth/session` to call the API with an Authorization header.
 */
export function createWebPlugin(options: WebOptions): FastifyPluginAsync {
  const { config, clock } = options;
  const publicUrl = (config.LEADFINDER_PUBLIC_URL ?? `http://${config.HOST}:${config.PORT}`).replace(/\/+$/, '');
  const secure = publicUrl.startsWith('https:');
  const signinKey = createHash('sha256').update(`signin:${options.secret}`).digest();
  const oidc: OidcFlow | null = config.LEADFINDER_OIDC_ISSUER && config.LEADFINDER_OIDC_CLIENT_ID
    ? createOidcFlow({
        issuer: config.LEADFINDER_OIDC_ISSUER,
        clientId: config.LEADFINDER_OIDC_CLIENT_ID,
        clientSecret: config.LEADFINDER_OIDC_CLIENT_SECRET,
        redirectUri: `${publicUrl}/auth/callback`,
        allowInsecure: options.allowInsecureOidc,
      })
    : null;
  const method = signInMethod(config);
  const devSignIns = createRateLimiter({ perMinute: DEV_SIGNINS_PER_MIN, clock });
  const cache = new Map<string, Buffer>();

  async function staticFile(reply: FastifyReply, name: string) {
    let body = cache.get(name);
    if (!body) {
      body = await readFile(STATIC_DIR + name);
      cache.set(name, body);
    }
    return reply
      .header('content-type', TYPES[name.split('.').pop()!] ?? 'application/octet-stream')
      .header('cache-control', 'no-cache')
      .send(body);
  }

  async function startSession(reply: FastifyReply, accountId: string) {
    const account = await options.store.accounts.get(accountId);
    const token = await options.sessions.issue(accountId, account?.sessionVersion ?? 0);
    reply.header('set-cookie', serializeCookie(SESSION_COOKIE, token, { maxAgeS: config.LEADFINDER_SESSION_TTL_S, secure }));
  }

  /**
   * The account for an identity, created on first sign-in with the operator's welcome balance (none by
   * default). Null when it exists but is closed, or was deleted (its id is never handed out again).
   */
  async function accountFor(identity: string, email: string | null): Promise<string | null> {
    const id = accountIdFor(identity);
    const existing = await options.store.accounts.get(id);
    if (existing) return existing.status === 'active' ? id : null;
    try {
      await options.store.accounts.create({ id, email, createdAt: new Date(clock.now()).toISOString() });
    } catch (error) {
      if (!(LeadfinderError.is(error) && error.code === 'LF_ERR_CONFLICT')) throw error;
      // Either two first sign-ins raced (the other one created it), or the id belongs to a deleted
      // account (a tombstone), which is never brought back.
      const raced = await options.store.accounts.get(id);
      return raced?.status === 'active' ? id : null;
    }
    const welcome = config.LEADFINDER_WELCOME_BALANCE_USD;
    if (welcome > 0) await options.billing.topup(id, welcome, `welcome:${id}`);
    return id;
  }

  /** The cookie's session when it is valid and not revoked (signed out everywhere, account deleted). */
  async function sessionAccount(request: FastifyRequest): Promise<{ token: string; account: AccountDoc } | null> {
    const token = readCookie(request.headers.cookie, SESSION_COOKIE);
    if (!token) return null;
    const session = await options.sessions.verify(token);
    if (!session) return null;
    const account = await options.store.accounts.get(session.accountId);
    if (!account || account.sessionVersion !== session.sessionVersion) return null;
    return { token, account };
  }

  return async (app) => {
    // Security headers on every page response of this plugin.
    app.addHook('onSend', async (_request, reply) => {
      reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
      reply.header('x-content-type-options', 'nosniff');
      reply.header('referrer-policy', 'no-referrer');
      reply.header('x-frame-options', 'DENY');
    });

    for (const [path, file] of Object.entries(STATIC_FILES)) {
      app.get(path, async (_request, reply) => staticFile(reply, file));
    }

    app.get('/auth/session', async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const session = await sessionAccount(request);
      const base = { signInMethod: method };
      if (!session) return { signedIn: false, ...base };
      const { account } = session;
      // The page's header shows what a new search can draw on: the balance minus what runs in flight hold.
      return {
        signedIn: true, ...base, accountId: account.id, email: account.email, status: account.status,
        sessionToken: session.token,
        availableMicrousd: account.availableMicrousd, availableUsd: microsToUsdDisplay(account.availableMicrousd),
        heldUsd: microsToUsdDisplay(account.heldMicrousd),
      };
    });

    app.post('/auth/dev-signin', async (request, reply) => {
      if (method !== 'development') return reply.code(404).send({ detail: 'Not Found' });
      const wait = devSignIns.take(`ip:${request.ip}`);
      if (wait !== null) return reply.code(429).header('retry-after', String(wait)).send({ detail: 'Too many sign-ins; try again shortly' });
      const parsed = DevSignIn.safeParse(request.body ?? {});
      if (!parsed.success) return reply.code(422).send({ detail: [{ loc: ['body', 'email'], msg: 'Enter an email address', type: 'value_error' }] });
      const accountId = await accountFor(`dev:${parsed.data.email.toLowerCase()}`, parsed.data.email);
      if (!accountId) return reply.code(403).send({ detail: 'Account is deleted' });
      await startSession(reply, accountId);
      // Every password-less sign-in leaves a trace (the account id, not the email).
      options.logger.warn('development sign-in', { accountId, ip: request.ip });
      return { signedIn: true };
    });

    app.get('/auth/signin', async (_request, reply) => {
      if (!oidc) return reply.redirect('/?panel=keys');
      try {
        const { url, pending } = await oidc.begin();
        const sealed = await new SignJWT({ ...pending }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('10m').sign(signinKey);
        reply.header('set-cookie', serializeCookie(SIGNIN_COOKIE, sealed, { maxAgeS: 600, secure }));
        return reply.redirect(url);
      } catch (error) {
        options.logger.warn('identity provider unreachable', { error: String(error) });
        return reply.code(502).type('text/plain').send('The identity provider could not be reached. Try again shortly.');
      }
    });

    app.get('/auth/callback', async (request, reply) => {
      if (!oidc) return reply.code(404).send({ detail: 'Not Found' });
      const sealed = readCookie(request.headers.cookie, SIGNIN_COOKIE);
      reply.header('set-cookie', serializeCookie(SIGNIN_COOKIE, '', { maxAgeS: 0, secure }));
      let pending: PendingSignIn;
      try {
        const { payload } = await jwtVerify(sealed ?? '', signinKey, { algorithms: ['HS256'] });
        pending = payload as unknown as PendingSignIn;
      } catch {
        return reply.code(400).type('text/plain').send('This sign-in link has expired or was not started here. Start again from the sign-in button.');
      }
      try {
        const identity = await oidc.finish(new URL(request.url, publicUrl), pending);
        const accountId = await accountFor(`oidc:${identity.issuer}:${identity.subject}`, identity.email);
        if (!accountId) return reply.code(403).type('text/plain').send('This account is closed.');
        await startSession(reply, accountId);
        return reply.redirect('/?panel=keys');
      } catch (error) {
        options.logger.warn('sign-in refused', { error: String(error) });
        return reply.code(400).type('text/plain').send('Sign-in failed: the identity provider response did not check out (state, nonce or code).');
      }
    });

    app.post('/auth/signout', async (_request, reply) => {
      reply.header('set-cookie', serializeCookie(SESSION_COOKIE, '', { maxAgeS: 0, secure }));
      return { signedIn: false };
    });

    // Revokes every session token of the account (every browser, every copied token), then signs out.
    app.post('/auth/signout-everywhere', async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const session = await sessionAccount(request);
      if (!session) return reply.code(401).send({ detail: 'Not signed in' });
      await options.store.accounts.revokeSessions(session.account.id);
      options.logger.info('signed out everywhere', { accountId: session.account.id });
      reply.header('set-cookie', serializeCookie(SESSION_COOKIE, '', { maxAgeS: 0, secure }));
      return { signedIn: false };
    });
  };
}
