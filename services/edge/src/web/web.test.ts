import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { ADMIN_TOKEN, startHarness } from '../../test/harness.js';
import type { Harness } from '../../test/harness.js';
import type { Logger } from '@leadfinder/platform';
import { RunEvent } from '@leadfinder/wire';
import { createWebPlugin, CONTENT_SECURITY_POLICY, accountIdFor } from './index.js';

function cookieFrom(setCookie: string | string[] | undefined, name: string): { value: string; attributes: string } | null {
  for (const line of ([] as string[]).concat(setCookie ?? [])) {
    if (line.startsWith(`${name}=`)) return { value: decodeURIComponent(line.slice(name.length + 1).split(';')[0]!), attributes: line };
  }
  return null;
}

/** Every line the web plugin logs, for assertions. */
const logged: { level: string; message: string; meta: Record<string, unknown> }[] = [];
const recordingLogger: Logger = {
  debug: (message, meta = {}) => void logged.push({ level: 'debug', message, meta }),
  info: (message, meta = {}) => void logged.push({ level: 'info', message, meta }),
  warn: (message, meta = {}) => void logged.push({ level: 'warn', message, meta }),
  error: (message, meta = {}) => void logged.push({ level: 'error', message, meta }),
  child: () => recordingLogger,
};

function webHarness(env: Record<string, string> = {}): Promise<Harness> {
  return startHarness({
    env,
    webFactory: (deps) => createWebPlugin({
      config: deps.config, logger: recordingLogger, clock: deps.clock, store: deps.store, billing: deps.billing,
      sessions: deps.sessions, secret: 'test-session-secret-of-sufficient-length', allowInsecureOidc: true,
    }),
  });
}

describe('web page with the development sign-in enabled', () => {
  let h: Harness;
  beforeAll(async () => { h = await webHarness({ LEADFINDER_DEV_SIGNIN: '1', LEADFINDER_WELCOME_BALANCE_USD: '25' }); });
  afterAll(async () => { await h.close(); });

  it('serves the app at / and /?panel=keys with a strict Content-Security-Policy', async () => {
    for (const url of ['/', '/?panel=keys']) {
      const res = await h.app.inject({ url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
      expect(res.body).toContain('<script type="module" src="/app.js">');
      expect(res.body).not.toMatch(/<script>(?!<)/);
    }
    expect((await h.app.inject({ url: '/app.js' })).headers['content-type']).toContain('javascript');
  });

  it('signs in with the development sign-in: an httpOnly SameSite cookie, a funded account, a session for the page', async () => {
    const before = await h.app.inject({ url: '/auth/session' });
    expect(before.json()).toEqual({ signedIn: false, signInMethod: 'development' });

    const res = await h.app.inject({ method: 'POST', url: '/auth/dev-signin', payload: { email: 'Ada@Example.com' } });
    expect(res.statusCode).toBe(200);
    const cookie = cookieFrom(res.headers['set-cookie'], 'lf_session')!;
    expect(cookie.attributes).toMatch(/HttpOnly/);
    expect(cookie.attributes).toMatch(/SameSite=Lax/);
    expect(cookie.attributes).not.toMatch(/Secure/); // plain http on loopback

    const session = (await h.app.inject({ url: '/auth/session', headers: { cookie: `lf_session=${cookie.value}` } })).json();
    expect(session).toMatchObject({ signedIn: true, email: 'Ada@Example.com', status: 'active' });
    // The page's header shows the available balance (the welcome balance, nothing held yet).
    expect(session).toMatchObject({ availableMicrousd: 25_000_000, availableUsd: '$25.00', heldUsd: '$0.00' });
    expect(session.sessionToken).toMatch(/^eyJ/);

    // The session token works on /api/keys, as the page uses it.
    const keys = await h.app.inject({ method: 'POST', url: '/api/keys', headers: { authorization: `Bearer ${session.sessionToken}` }, payload: { name: 'from the page' } });
    expect(keys.statusCode).toBe(201);
    const account = await h.deps.store.accounts.get(session.accountId);
    expect(account!.balanceMicrousd).toBe(25_000_000);

    // Signing in again finds the same account and does not fund it twice.
    const again = await h.app.inject({ method: 'POST', url: '/auth/dev-signin', payload: { email: 'ada@example.com' } });
    const second = (await h.app.inject({ url: '/auth/session', headers: { cookie: `lf_session=${cookieFrom(again.headers['set-cookie'], 'lf_session')!.value}` } })).json();
    expect(second.accountId).toBe(session.accountId);
    expect((await h.deps.store.accounts.get(session.accountId))!.balanceMicrousd).toBe(25_000_000);
  });

  it('refuses a malformed email and a closed account', async () => {
    const bad = await h.app.inject({ method: 'POST', url: '/auth/dev-signin', payload: { email: 'not an email' } });
    expect(bad.statusCode).toBe(422);
    await h.app.inject({ method: 'POST', url: '/auth/dev-signin', payload: { email: 'closed@example.com' } });
    await h.deps.store.accounts.close(accountIdFor('dev:closed@example.com'));
    const closed = await h.app.inject({ method: 'POST', url: '/auth/dev-signin', payload: { email: 'closed@example.com' } });
    expect(closed.statusCode).toBe(403);
  });

  async function signIn(email: string, remoteAddress = '127.0.0.1') {
    const res = await h.app.inject({ method: 'POST', url: '/auth/dev-signin', remoteAddress, payload: { email } });
    const cookie = cookieFrom(res.headers['set-cookie'], 'lf_session');
    const session = cookie ? (await h.app.inject({ url: '/auth/session', headers: { cookie: `lf_session=${cookie.value}` } })).json() : null;
    return { status: res.statusCode, body: res.json(), cookie: cookie?.value ?? '', session };
  }
  const v1 = (token: string) => h.app.inject({ url: '/v1/searches', headers: { authorization: `Bearer ${token}` } });

  it('signs out everywhere: every earlier session token is refused, a new sign-in works', async () => {
    const first = await signIn('revoke@example.com', '127.0.0.21');
    const second = await signIn('revoke@example.com', '127.0.0.21');
    expect((await v1(first.session.sessionToken)).statusCode).toBe(200);
    const out = await h.app.inject({ method: 'POST', url: '/auth/signout-everywhere', headers: { cookie: `lf_session=${second.cookie}` } });
    expect(out.statusCode).toBe(200);
    for (const old of [first, second]) {
      expect((await v1(old.session.sessionToken)).statusCode).toBe(401);
      const keys = await h.app.inject({ url: '/api/keys', headers: { authorization: `Bearer ${old.session.sessionToken}` } });
      expect([keys.statusCode, keys.json()]).toEqual([401, { detail: 'Invalid token' }]);
      expect((await h.app.inject({ url: '/auth/session', headers: { cookie: `lf_session=${old.cookie}` } })).json().signedIn).toBe(false);
    }
    const again = await signIn('revoke@example.com', '127.0.0.21');
    expect((await v1(again.session.sessionToken)).statusCode).toBe(200);
    expect((await h.app.inject({ method: 'POST', url: '/auth/signout-everywhere' })).statusCode).toBe(401);
  });

  it('never brings a deleted account back: old tokens stay dead, sign-in is refused, no second welcome top-up', async () => {
    const before = await signIn('deleted@example.com', '127.0.0.22');
    const id = before.session.accountId as string;
    const deleted = await h.app.inject({ method: 'DELETE', url: `/admin/accounts/${id}`, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(deleted.statusCode).toBe(204);
    const after = await signIn('deleted@example.com', '127.0.0.22');
    expect([after.status, after.body]).toEqual([403, { detail: 'Account is deleted' }]);
    expect(after.cookie).toBe('');
    expect((await v1(before.session.sessionToken)).statusCode).toBe(401);
    expect(await h.deps.store.accounts.get(id)).toBeNull();
    expect((await h.deps.store.ledger.list(id)).filter((e) => e.kind === 'topup')).toHaveLength(1);
  });

  it('logs every development sign-in with the account id, not the email', async () => {
    const { session } = await signIn('logged@example.com', '127.0.0.23');
    const line = logged.find((l) => l.message === 'development sign-in' && l.meta.accountId === session.accountId);
    expect(line).toMatchObject({ level: 'warn', meta: { ip: '127.0.0.23' } });
    expect(JSON.stringify(logged)).not.toContain('logged@example.com');
  });

  it('limits development sign-ins per client address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push((await h.app.inject({ method: 'POST', url: '/auth/dev-signin', remoteAddress: '127.0.0.9', payload: { email: `flood${i}@example.com` } })).statusCode);
    }
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    const refused = await h.app.inject({ method: 'POST', url: '/auth/dev-signin', remoteAddress: '127.0.0.9', payload: { email: 'more@example.com' } });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json()).toEqual({ detail: 'Too many sign-ins; try again shortly' });
  });

  it('signs out by clearing the cookie', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/auth/signout' });
    const cookie = cookieFrom(res.headers['set-cookie'], 'lf_session')!;
    expect(cookie.value).toBe('');
    expect(cookie.attributes).toMatch(/Max-Age=0/);
  });
});

describe('CSV export of the web page', () => {
  let h: Harness;
  beforeAll(async () => { h = await webHarness(); });
  afterAll(async () => { await h.close(); });

  it('writes a UTF-8 BOM, a verdict and a reason column per filter, and neutralises formula cells', async () => {
    const served = await h.app.inject({ url: '/csv.js' });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toContain('javascript');
    // The very file the page imports, loaded as a module.
    const csv = (await import(`data:text/javascript,${encodeURIComponent(served.body)}`)) as { toCsv(rows: unknown[], filters: unknown[]): string };
    const filters = [{ index: 1, title: 'Based in Berlin', criterion: 'based in Berlin' }, { index: 2, title: '=Raised €1m', criterion: 'raised' }];
    const verdict = (index: number, rationale: string, verification: string, relaxed = false) => ({ index, title: '', rationale, rationale_mode: 'rules', verification, relaxed, passages: [] });
    const row = (name: string, details: string) => ({
      name, entity_type: 'company', details, intent_signal: '+1 555 0100', rationale: '@SUM(A1:A9)',
      source_urls: ['https://a.example/', 'https://b.example/x'], relaxed: [], round: 1,
      by_filter: [verdict(1, 'The page says “Berlin”.', 'stated'), verdict(2, '-2+3', 'inferred', true)],
    });
    const text = csv.toCsv([row('=HYPERLINK("http://evil.example","click")', '-2+3'), row('Acme GmbH', '\t=cmd|calc')], filters);
    expect(text.startsWith('\uFEFF')).toBe(true);
    const lines = text.slice(1).trimEnd().split('\r\n');
    expect(lines[0]).toBe(`name,type,details,intent signal,Based in Berlin: verdict,Based in Berlin: why,'=Raised €1m: verdict,'=Raised €1m: why,sources,loosened filters`);
    expect(lines[1]).toBe(`"'=HYPERLINK(""http://evil.example"",""click"")",company,'-2+3,'+1 555 0100,stated on the page,The page says “Berlin”.,inferred (loosened filter),'-2+3,"https://a.example/\nhttps://b.example/x",`);
    expect(lines[2]!.startsWith(`Acme GmbH,company,'\t=cmd|calc,`)).toBe(true);
    // No cell of the export starts with a formula character.
    const cells = lines.flatMap((l) => l.split(',')).map((c) => c.replace(/^"/, ''));
    expect(cells.filter((c) => /^[=+\-@\t]/.test(c))).toEqual([]);
  });
});

describe('the run as the web page tells it (run-model.js)', () => {
  let h: Harness;
  type View = { rounds: { round: number; candidates: number; filters: { title: string; checked: number; passed: number | null; dropped: number | null; relaxed: { to: string; recovered: number } | null }[] }[]; rows: unknown[]; status: string; step: string; where: string; usd: number | null; final: unknown };
  let model: {
    newView(id: string, record: object): View;
    applyEvent(v: View, event: object): string | null;
    endSentence(v: View): string;
  };
  beforeAll(async () => {
    h = await webHarness();
    const served = await h.app.inject({ url: '/run-model.js' });
    expect(served.headers['content-type']).toContain('javascript');
    model = await import(`data:text/javascript,${encodeURIComponent(served.body)}`);
  });
  afterAll(async () => { await h.close(); });

  const stamp = { at: '2026-01-01T00:00:00.000Z', runId: 'a'.repeat(32) };
  const filters = [{ index: 1, title: 'Based in Berlin', criterion: 'The company is based in Berlin.' }, { index: 2, title: 'Raised a seed round', criterion: 'The company raised a seed round.' }];
  const verdict = (index: number, title: string) => ({ index, title, rationale: 'r', rationale_mode: 'rules', verification: 'stated', relaxed: false, passages: [] });
  const row = (name: string) => ({ name, entity_type: 'company', details: 'd', intent_signal: '', discovery_rationale: '', rationale: 'r', source_urls: ['https://a.example/'], supporting_passages: [], by_filter: [verdict(1, 'Based in Berlin'), verdict(2, 'Raised a seed round')], status: 'passed', round: 1 });
  /** Feeds events through the wire schema first, so the page is tested against payloads the server can send. */
  function play(v: View, events: object[]): (string | null)[] {
    return events.map((e) => model.applyEvent(v, RunEvent.parse({ ...stamp, ...e })));
  }
  const funnel = (round: number, candidates: number, steps: [number, number][]) => [
    { type: 'funnel_open', round, candidates, filters },
    ...steps.flatMap(([passed, dropped], i) => [
      { type: 'funnel_filter_start', round, index: i + 1, title: filters[i]!.title, candidates: passed + dropped },
      { type: 'funnel_filter_done', round, index: i + 1, title: filters[i]!.title, passed, dropped },
    ]),
  ];

  it('counts each round of the funnel and says which filter dropped most when the target is missed', () => {
    const v = model.newView('a'.repeat(32), { query: 'q', target: 10 });
    const said = play(v, [
      { type: 'status', where: 'planning', message: 'Planning the research' },
      { type: 'plan', entity_type: 'company', filters, queries: ['q'], date_range: null, sites: [], page_types: [], target: 10, speed: 'advanced', relax: true },
      ...funnel(1, 25, [[20, 5], [5, 15]]),
      ...funnel(2, 15, [[12, 3], [4, 8]]),
      { type: 'final', table: Array.from({ length: 9 }, (_, i) => row(`Row ${i}`)), target: 10, met: false, filters, stopped: false, stopped_at: null },
      { type: 'cost', stage: 'Done', usd: 0.0123 },
      { type: 'done' },
    ]);
    expect(said.filter(Boolean)).toEqual(['Planning the research', 'Plan ready: looking for companies that pass 2 filters.', 'Round 1: 25 candidates found', 'Round 2: 15 candidates found']);
    expect(v.rounds.map((r) => [r.candidates, ...r.filters.map((f) => [f.checked, f.passed, f.dropped])])).toEqual([[25, [25, 20, 5], [20, 5, 15]], [15, [15, 12, 3], [12, 4, 8]]]);
    expect(v.usd).toBe(0.0123);
    v.status = 'done';
    expect(model.endSentence(v)).toBe('9 of 10 found: the target was missed. “Raised a seed round” dropped 23 of 32 candidates.');
  });

  it('gives a 0-of-10 run a reason, marks a loosened filter, and words stops, spend limits and failures', () => {
    const v = model.newView('a'.repeat(32), { query: 'q', target: 10 });
    const said = play(v, [
      ...funnel(1, 40, [[31, 9], [0, 31]]),
      { type: 'filter_relaxed', round: 1, index: 2, title: 'Raised a seed round', original_criterion: 'raised a seed round', criterion: 'raised money', rechecked: 31, recovered: 0 },
    ]);
    expect(said.at(-1)).toBe('Loosened “Raised a seed round”: raised money');
    expect(v.rounds[0]!.filters[1]!.relaxed).toMatchObject({ to: 'raised money', recovered: 0 });
    v.status = 'done';
    expect(model.endSentence(v)).toBe('0 of 10 found: the target was missed. “Raised a seed round” dropped 31 of 31 candidates.');
    const stopped = model.newView('a'.repeat(32), { target: 50 });
    play(stopped, [{ type: 'final', table: Array.from({ length: 8 }, (_, i) => row(`S${i}`)), target: 50, met: false, filters, stopped: true, stopped_at: 'Searching' }]);
    stopped.status = 'stopped';
    expect(model.endSentence(stopped)).toBe('Stopped at 8 of 50. The rows that passed every filter are kept.');
    stopped.status = 'budget_exhausted';
    expect(model.endSentence(stopped)).toBe('The spend limit was reached at 8 of 50. The rows that passed every filter are kept.');
    const failed = model.newView('a'.repeat(32), { target: 5 });
    play(failed, [{ type: 'error', message: 'The search provider could not be reached.' }]);
    failed.status = 'error';
    const stoppedEarly = model.newView('a'.repeat(32), { target: 50 });
    stoppedEarly.status = 'stopped';
    expect(model.endSentence(stoppedEarly)).toBe('Stopped at 0 of 50.');
    expect(model.endSentence(failed)).toBe('The search failed: The search provider could not be reached. No rows were found.');
    const refused = model.newView('a'.repeat(32), { target: 5 });
    Object.assign(refused, { status: 'error', where: 'refused: insufficient balance' });
    expect(model.endSentence(refused)).toBe('Not started: the available balance could not cover the 5.00 USD a search holds while it runs.');
    const empty = model.newView('a'.repeat(32), { target: 5 });
    play(empty, [{ type: 'funnel_open', round: 1, candidates: 0, filters }]);
    empty.status = 'done';
    expect(model.endSentence(empty)).toBe('0 of 5 found: the pages searched named no candidates.');
  });
});

describe('web page without an identity provider or the development sign-in (the default)', () => {
  let h: Harness;
  beforeAll(async () => { h = await webHarness(); });
  afterAll(async () => { await h.close(); });

  it('offers no sign-in, says so, and refuses the development sign-in', async () => {
    expect((await h.app.inject({ url: '/auth/session' })).json()).toEqual({ signedIn: false, signInMethod: 'none' });
    const res = await h.app.inject({ method: 'POST', url: '/auth/dev-signin', payload: { email: 'victim@example.com' } });
    expect(res.statusCode).toBe(404);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await h.deps.store.accounts.get(accountIdFor('dev:victim@example.com'))).toBeNull();
    const page = await h.app.inject({ url: '/' });
    expect(page.body).toContain('No sign-in is configured on this server.');
  });
});

/** A loopback OpenID provider: discovery, JWKS, and a token endpoint that checks the PKCE verifier. */
async function startIdentityProvider(clientId: string) {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  const codes = new Map<string, { challenge: string; nonce: string; sub: string }>();
  let issuer = '';
  let nonceOverride: string | null = null;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url!, issuer);
    const json = (status: number, body: unknown) => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(JSON.stringify(body)); };
    if (url.pathname === '/.well-known/openid-configuration') {
      return json(200, {
        issuer, authorization_endpoint: `${issuer}/authorize`, token_endpoint: `${issuer}/token`, jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'], subject_types_supported: ['public'], id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'], token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      });
    }
    if (url.pathname === '/jwks') return json(200, { keys: [jwk] });
    if (url.pathname === '/token' && req.method === 'POST') {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', async () => {
        const form = new URLSearchParams(body);
        const grant = codes.get(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        const challenge = createHash('sha256').update(verifier).digest('base64url');
        if (!grant || grant.challenge !== challenge) return json(400, { error: 'invalid_grant' });
        codes.delete(form.get('code')!);
        const idToken = await new SignJWT({ nonce: nonceOverride ?? grant.nonce, email: 'grace@example.com' })
          .setProtectedHeader({ alg: 'RS256', kid: 'k1' }).setIssuer(issuer).setAudience(clientId).setSubject(grant.sub)
          .setIssuedAt().setExpirationTime('5m').sign(privateKey);
        json(200, { access_token: 'at', token_type: 'Bearer', expires_in: 300, id_token: idToken });
      });
      return;
    }
    json(404, {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const address = server.address();
  issuer = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    issuer,
    /** What the provider does when the user approves: a code bound to the request's PKCE challenge and nonce. */
    approve(authorizeUrl: string, sub: string): string {
      const u = new URL(authorizeUrl);
      const code = randomBytes(8).toString('hex');
      codes.set(code, { challenge: u.searchParams.get('code_challenge')!, nonce: u.searchParams.get('nonce')!, sub });
      return code;
    },
    replyWithNonce(nonce: string | null) { nonceOverride = nonce; },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('web sign-in through OpenID Connect', () => {
  let h: Harness;
  let idp: Awaited<ReturnType<typeof startIdentityProvider>>;
  beforeAll(async () => {
    idp = await startIdentityProvider('leadfinder-web');
    h = await webHarness({ LEADFINDER_OIDC_ISSUER: idp.issuer, LEADFINDER_OIDC_CLIENT_ID: 'leadfinder-web', LEADFINDER_OIDC_CLIENT_SECRET: 's3cret', LEADFINDER_PUBLIC_URL: 'https://leadfinder.example' });
  });
  afterAll(async () => { await h.close(); await idp.close(); });

  async function begin() {
    const res = await h.app.inject({ url: '/auth/signin' });
    expect(res.statusCode).toBe(302);
    const location = res.headers.location as string;
    const signin = cookieFrom(res.headers['set-cookie'], 'lf_signin')!;
    return { location, signin };
  }

  it('redirects to the provider with PKCE (S256), state and nonce, and offers no development sign-in', async () => {
    const { location, signin } = await begin();
    const u = new URL(location);
    expect(u.origin + u.pathname).toBe(`${idp.issuer}/authorize`);
    expect(u.searchParams.get('code_challenge_method')).toBe('S256');
    expect(u.searchParams.get('state')).toBeTruthy();
    expect(u.searchParams.get('nonce')).toBeTruthy();
    expect(u.searchParams.get('redirect_uri')).toBe('https://leadfinder.example/auth/callback');
    expect(signin.attributes).toMatch(/HttpOnly/);
    expect(signin.attributes).toMatch(/Secure/); // public URL is https
    expect((await h.app.inject({ method: 'POST', url: '/auth/dev-signin', payload: { email: 'x@example.com' } })).statusCode).toBe(404);
  });

  it('completes sign-in on the callback and sets a secure httpOnly session cookie', async () => {
    const { location, signin } = await begin();
    const code = idp.approve(location, 'user-42');
    const state = new URL(location).searchParams.get('state')!;
    const res = await h.app.inject({ url: `/auth/callback?code=${code}&state=${state}`, headers: { cookie: `lf_signin=${signin.value}` } });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/?panel=keys');
    const session = cookieFrom(res.headers['set-cookie'], 'lf_session')!;
    expect(session.attributes).toMatch(/HttpOnly/);
    expect(session.attributes).toMatch(/Secure/);
    const me = (await h.app.inject({ url: '/auth/session', headers: { cookie: `lf_session=${session.value}` } })).json();
    expect(me).toMatchObject({ signedIn: true, signInMethod: 'oidc', email: 'grace@example.com', accountId: accountIdFor(`oidc:${idp.issuer}:user-42`) });
    // No welcome balance unless the operator sets one.
    expect((await h.deps.store.accounts.get(me.accountId))!.balanceMicrousd).toBe(0);
  });

  it('refuses a callback whose state does not match', async () => {
    const { location, signin } = await begin();
    const code = idp.approve(location, 'user-43');
    const res = await h.app.inject({ url: `/auth/callback?code=${code}&state=forged`, headers: { cookie: `lf_signin=${signin.value}` } });
    expect(res.statusCode).toBe(400);
    expect(cookieFrom(res.headers['set-cookie'], 'lf_session')).toBeNull();
  });

  it('refuses an ID token whose nonce does not match', async () => {
    const { location, signin } = await begin();
    const code = idp.approve(location, 'user-44');
    const state = new URL(location).searchParams.get('state')!;
    idp.replyWithNonce('someone-elses-nonce');
    try {
      const res = await h.app.inject({ url: `/auth/callback?code=${code}&state=${state}`, headers: { cookie: `lf_signin=${signin.value}` } });
      expect(res.statusCode).toBe(400);
    } finally {
      idp.replyWithNonce(null);
    }
  });

  it('refuses a callback without the sign-in cookie it started with', async () => {
    const res = await h.app.inject({ url: '/auth/callback?code=x&state=y' });
    expect(res.statusCode).toBe(400);
  });
});
