import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RunRecord, RunList } from '@leadfinder/wire';
import { bearer, startHarness } from '../../test/harness.js';
import type { Harness } from '../../test/harness.js';

let h: Harness;
let key: string;
let accountId: string;

beforeAll(async () => {
  h = await startHarness();
  const account = await h.createAccount(100_000);
  key = account.apiKey;
  accountId = account.id;
});
afterAll(async () => h.close());

const post = (payload: unknown, headers: Record<string, string> = bearer(key)) =>
  h.app.inject({ method: 'POST', url: '/v1/searches', headers, payload: payload as object });
const postRaw = (body: string, headers: Record<string, string> = {}) =>
  h.app.inject({ method: 'POST', url: '/v1/searches', headers: { ...bearer(key), 'content-type': 'application/json', ...headers }, body });

async function runCount(token = key): Promise<number> {
  const res = await h.app.inject({ method: 'GET', url: '/v1/searches', headers: bearer(token) });
  return res.json().runs.length;
}

describe('POST /v1/searches validation', () => {
  it.each([
    ['2 characters', 'ab', 422],
    ['3 characters', 'abc', 202],
    ['2000 characters', 'x'.repeat(2000), 202],
    ['2001 characters', 'x'.repeat(2001), 422],
    ['two spaces (length rule first)', '  ', 422],
    ['three spaces', '   ', 400],
  ].map(([label, q, status]) => ({ label, q: q as string, status: status as number })))('q of $label answers $status', async ({ q, status }) => {
    const res = await post({ q });
    expect(res.statusCode).toBe(status);
    if (status === 400) expect(res.json()).toEqual({ detail: 'Empty query' });
    if (status === 422) {
      const [issue] = res.json().detail;
      expect(issue.loc).toEqual(['body', 'q']);
      expect(issue.type).toBe(q.length < 3 ? 'string_too_short' : 'string_too_long');
    }
    if (status === 202) expect(Object.keys(res.json()).sort()).toEqual(['id', 'status']);
  });

  it('answers 422 missing when q is absent, and for an empty body', async () => {
    const res = await post({ target: 5 });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ detail: [{ loc: ['body', 'q'], msg: 'Field required', type: 'missing' }] });
    const empty = await postRaw('');
    expect(empty.statusCode).toBe(422);
    expect(empty.json().detail[0]).toMatchObject({ loc: ['body'], type: 'missing' });
  });

  it.each([
    ['0', 0, 422, 'greater_than_equal'],
    ['1', 1, 202, null],
    ['500', 500, 202, null],
    ['501', 501, 422, 'less_than_equal'],
    ['2.5', 2.5, 422, 'int_from_float'],
    ['"7"', '7', 422, 'int_type'],
  ].map(([label, target, status, type]) => ({ label, target, status, type })))('target $label answers $status', async ({ target, status, type }) => {
    const res = await post({ q: 'fintech startups', target });
    expect(res.statusCode).toBe(status);
    if (type) expect(res.json().detail).toEqual([expect.objectContaining({ loc: ['body', 'target'], type })]);
  });

  it('accepts target 5.0 written as a JSON float and stores 5', async () => {
    const res = await postRaw('{"q":"fintech startups","target":5.0}');
    expect(res.statusCode).toBe(202);
    const run = await h.app.inject({ method: 'GET', url: `/v1/searches/${res.json().id}`, headers: bearer(key) });
    expect(run.json().target).toBe(5);
  });

  it('defaults target to 50, speed to advanced and relax to true', async () => {
    const res = await post({ q: 'fintech startups' });
    const run = (await h.app.inject({ method: 'GET', url: `/v1/searches/${res.json().id}`, headers: bearer(key) })).json();
    expect(run).toMatchObject({ target: 50, speed: 'advanced', relax: true, sites: '' });
  });

  it('reads any speed other than fast as advanced', async () => {
    for (const [speed, stored] of [['fast', 'fast'], ['turbo', 'advanced'], ['FAST', 'advanced'], ['', 'advanced']]) {
      const res = await post({ q: 'fintech startups', speed });
      expect(res.statusCode).toBe(202);
      const run = (await h.app.inject({ method: 'GET', url: `/v1/searches/${res.json().id}`, headers: bearer(key) })).json();
      expect(run.speed).toBe(stored);
    }
  });

  it('refuses a relax that is not a JSON boolean with 422 bool_type', async () => {
    const res = await post({ q: 'fintech startups', relax: 'false' });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toEqual([{ loc: ['body', 'relax'], msg: 'Input should be a valid boolean', type: 'bool_type' }]);
  });

  it('accepts 20 sites and refuses 21 with a 422 naming sites', async () => {
    const sites = (n: number) => Array.from({ length: n }, (_, i) => `site${i}.com`).join(',');
    expect((await post({ q: 'fintech startups', sites: sites(20) })).statusCode).toBe(202);
    const res = await post({ q: 'fintech startups', sites: sites(21) });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail[0].loc).toEqual(['body', 'sites']);
  });

  it('ignores unknown body fields', async () => {
    expect((await post({ q: 'fintech startups', colour: 'blue', apiKey: 'x' })).statusCode).toBe(202);
  });

  it('answers malformed JSON with 422 json_invalid at loc body', async () => {
    const res = await postRaw('{"q": "abc",');
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ detail: [{ loc: ['body'], msg: 'JSON decode error', type: 'json_invalid' }] });
  });

  it('answers a JSON array body with 422 at loc body', async () => {
    const res = await postRaw('["abc"]');
    expect(res.statusCode).toBe(422);
    expect(res.json().detail[0]).toMatchObject({ loc: ['body'], type: 'model_attributes_type' });
  });

  it('answers a body over 1 MiB with 413 and a non-JSON body with 415', async () => {
    const big = await postRaw(JSON.stringify({ q: 'abc', pad: 'x'.repeat(1025 * 1024) }));
    expect(big.statusCode).toBe(413);
    expect(typeof big.json().detail).toBe('string');
    const text = await h.app.inject({ method: 'POST', url: '/v1/searches', headers: { ...bearer(key), 'content-type': 'text/plain' }, body: 'q=abc' });
    expect(text.statusCode).toBe(415);
    expect(typeof text.json().detail).toBe('string');
  });

  it('accepts 10,000 exclude entries in one body (well over the 64 KiB other routes take)', async () => {
    const domains = Array.from({ length: 10_000 }, (_, i) => `excluded-company-number-${i}.example.com`);
    const body = JSON.stringify({ q: 'fintech startups', target: 1, exclude: { domains } });
    expect(body.length).toBeGreaterThan(400 * 1024);
    const res = await postRaw(body);
    expect(res.statusCode).toBe(202);
    // Other routes keep the 64 KiB limit.
    const other = await h.app.inject({
      method: 'POST', url: '/v1/searches/run_unknown/stop', headers: { ...bearer(key), 'content-type': 'application/json' },
      body: JSON.stringify({ pad: 'x'.repeat(65 * 1024) }),
    });
    expect(other.statusCode).toBe(413);
  });

  it('accepts a JSON content type with a charset parameter', async () => {
    const res = await postRaw('{"q":"fintech startups"}', { 'content-type': 'application/json; charset=utf-8' });
    expect(res.statusCode).toBe(202);
  });

  it('writes no run row and reserves nothing for 400 and 422 refusals', async () => {
    const fresh = await h.createAccount(10);
    for (const body of [{ q: 'ab' }, { q: '   ' }, { q: 'abc', target: 0 }, { q: 'abc', relax: 1 }]) {
      expect([400, 422]).toContain((await post(body, bearer(fresh.apiKey))).statusCode);
    }
    expect(await runCount(fresh.apiKey)).toBe(0);
    const account = await h.deps.store.accounts.get(fresh.id);
    expect(account).toMatchObject({ heldMicrousd: 0, availableMicrousd: 10_000_000 });
  });

  it('accepts any q of 3 to 2000 characters with a non-space character (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 3, maxLength: 2000 }).filter((s) => s.trim() !== ''), async (q) => {
        const res = await post({ q });
        expect(res.statusCode).toBe(202);
      }),
      { numRuns: 40 },
    );
  });

  it('refuses q shorter than 3 or longer than 2000 with 422, and whitespace-only q of valid length with 400 (property)', async () => {
    const short = fc.string({ maxLength: 2 });
    const long = fc.string({ minLength: 2001, maxLength: 2100 });
    const blank = fc.array(fc.constantFrom(' ', '\t', '\n'), { minLength: 3, maxLength: 50 }).map((a) => a.join(''));
    await fc.assert(fc.asyncProperty(fc.oneof(short, long), async (q) => { expect((await post({ q })).statusCode).toBe(422); }), { numRuns: 30 });
    await fc.assert(fc.asyncProperty(blank, async (q) => { expect((await post({ q })).json()).toEqual({ detail: "Empty query" }); }), { numRuns: 20 });
  });

  it('accepts exactly the integer targets from 1 to 500 (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.double({ noNaN: true, noDefaultInfinity: true })), async (target) => {
        const ok = Number.isInteger(target) && target >= 1 && target <= 500;
        expect((await post({ q: 'fintech startups', target })).statusCode).toBe(ok ? 202 : 422);
      }),
      { numRuns: 60 },
    );
  });
});

describe('POST /v1/searches acceptance and money', () => {
  it('answers 202 with exactly id and status, holds 5.00 USD and enqueues the run', async () => {
    const acct = await h.createAccount(12);
    const before = h.clock.now();
    const res = await post({ q: 'biotech companies in Basel' }, bearer(acct.apiKey));
    expect(res.statusCode).toBe(202);
    const body = res.json();
    expect(body).toEqual({ id: expect.stringMatching(/^[0-9a-f]{32}$/), status: 'running' });
    expect(h.enqueued.map((e) => e.runId)).toContain(body.id);
    expect(await h.deps.store.accounts.get(acct.id)).toMatchObject({ heldMicrousd: 5_000_000, availableMicrousd: 7_000_000 });
    const run = (await h.app.inject({ method: 'GET', url: `/v1/searches/${body.id}`, headers: bearer(acct.apiKey) })).json();
    expect(RunRecord.parse(run)).toMatchObject({ status: 'running', where: 'queued', usdDisplay: '$0.00', result: null, query: 'biotech companies in Basel' });
    const deadline = Date.parse(run.deadlineAt);
    expect(run.deadlineAt).toMatch(/Z$/);
    expect(deadline - before).toBeGreaterThanOrEqual(9000 * 1000 - 1000);
    expect(deadline - before).toBeLessThanOrEqual(9000 * 1000 + 5000);
  });

  it('refuses with the exact 402 body when the balance cannot cover the reservation, and lists the error row', async () => {
    const acct = await h.createAccount('7.5');
    expect((await post({ q: 'first search' }, bearer(acct.apiKey))).statusCode).toBe(202);
    const res = await post({ q: 'second search' }, bearer(acct.apiKey));
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({
      detail: {
        error: 'insufficient_balance',
        message: expect.any(String),
        availableMicrousd: 2_500_000,
        availableUsd: '2.50',
        heldMicrousd: 5_000_000,
        neededMicrousd: 5_000_000,
        neededUsd: '5.00',
      },
    });
    expect(res.json().detail.message.length).toBeGreaterThan(10);
    const list = RunList.parse((await h.app.inject({ method: 'GET', url: '/v1/searches', headers: bearer(acct.apiKey) })).json());
    expect(list.runs.map((r) => [r.query, r.status])).toEqual([['second search', 'error'], ['first search', 'running']]);
    expect(list.runs[0]!.usdDisplay).toBe('$0.00');
    expect(await h.deps.store.accounts.get(acct.id)).toMatchObject({ heldMicrousd: 5_000_000, availableMicrousd: 2_500_000 });
    const row = await h.deps.store.runs.get(list.runs[0]!.id);
    expect(row).toMatchObject({ holdMicrousd: 0, chargeMicrousd: 0, settled: true, status: 'error' });
    expect(await h.deps.events.read(row!.id, 0)).toEqual([]);
  });

  it('answers 500 with the reservation text when the reservation cannot be opened', async () => {
    const acct = await h.createAccount(10);
    h.faults.add('billing.reserve');
    try {
      const res = await post({ q: 'fintech startups' }, bearer(acct.apiKey));
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ detail: 'The reservation for this search could not be opened.' });
    } finally {
      h.faults.delete('billing.reserve');
    }
    expect(await runCount(acct.apiKey)).toBe(0);
  });

  it.each(['store.runs.insert', 'work.enqueue'])('releases the hold and answers 500 when %s fails after the reservation', async (fault) => {
    const acct = await h.createAccount(10);
    h.faults.add(fault);
    try {
      const res = await post({ q: 'fintech startups' }, bearer(acct.apiKey));
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ detail: 'Internal server error' });
    } finally {
      h.faults.delete(fault);
    }
    expect(await h.deps.store.accounts.get(acct.id)).toMatchObject({ heldMicrousd: 0, availableMicrousd: 10_000_000, balanceMicrousd: 10_000_000 });
    const list = (await h.app.inject({ method: 'GET', url: '/v1/searches', headers: bearer(acct.apiKey) })).json();
    expect(list.runs.filter((r: { status: string }) => r.status === 'running')).toEqual([]);
  });
});

describe('authentication on /v1', () => {
  it.each([
    ['no header', {}],
    ['an empty bearer', { authorization: 'Bearer ' }],
    ['the scheme alone', { authorization: 'Bearer' }],
    ['another scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
  ])('answers 401 Missing credentials for %s', async (_label, headers) => {
    const res = await post({ q: 'ab' }, headers);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ detail: 'Missing credentials' });
  });

  it.each([
    ['an unknown API key', 'lf_live_' + 'A'.repeat(40)],
    ['a malformed API key', 'lf_live_short'],
    ['a random token', 'not-a-credential'],
    ['a forged session token', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl'],
  ])('answers 401 Invalid credentials for %s', async (_label, token) => {
    const res = await post({ q: 'fintech startups' }, bearer(token));
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ detail: 'Invalid credentials' });
  });

  it('accepts a session token on /v1', async () => {
    const acct = await h.createAccount(10);
    expect((await post({ q: 'fintech startups' }, bearer(acct.sessionToken))).statusCode).toBe(202);
  });

  it('answers 403 Account disabled for a closed account, by key and by session', async () => {
    const acct = await h.createAccount(10);
    await h.app.inject({ method: 'POST', url: `/admin/accounts/${acct.id}/close`, headers: bearer('test-admin-token-0123456789-abcdefghij') });
    for (const token of [acct.apiKey, acct.sessionToken]) {
      const res = await h.app.inject({ method: 'GET', url: '/v1/searches', headers: bearer(token) });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ detail: 'Account disabled' });
    }
  });

  it("answers 401 Invalid credentials for a deleted account's key", async () => {
    const acct = await h.createAccount(10);
    await h.app.inject({ method: 'DELETE', url: `/admin/accounts/${acct.id}`, headers: bearer('test-admin-token-0123456789-abcdefghij') });
    const res = await post({ q: 'fintech startups' }, bearer(acct.apiKey));
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ detail: 'Invalid credentials' });
  });

  it('answers 500 Internal server error when the credential lookup fails', async () => {
    h.faults.add('store.keys.findByPrefix');
    try {
      const res = await post({ q: 'fintech startups' });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ detail: 'Internal server error' });
    } finally {
      h.faults.delete('store.keys.findByPrefix');
    }
  });

  it('records when an API key was last used, to the minute', async () => {
    const acct = await h.createAccount(10);
    const lastUsed = async () =>
      (await h.app.inject({ method: 'GET', url: '/api/keys', headers: bearer(acct.sessionToken) })).json().keys[0].lastUsedAt as string | null;
    const use = () => h.app.inject({ method: 'GET', url: '/v1/searches', headers: bearer(acct.apiKey) });
    expect(await lastUsed()).toBeNull();
    await use();
    const first = await lastUsed();
    expect(first).toEqual(expect.any(String));
    // Within the minute the recorded time stands (no durable write per request)…
    h.clock.advance(30_000);
    await use();
    expect(await lastUsed()).toBe(first);
    // …after it, the next use is recorded.
    h.clock.advance(31_000);
    await use();
    expect(Date.parse((await lastUsed())!) - Date.parse(first!)).toBeGreaterThanOrEqual(61_000);
  });
});

describe('reading runs', () => {
  it('lists the caller’s 50 newest runs, newest first, without result', async () => {
    const acct = await h.createAccount(1000);
    const ids: string[] = [];
    for (let i = 0; i < 52; i++) {
      const res = await post({ q: `search number ${i}` }, bearer(acct.apiKey));
      ids.push(res.json().id);
    }
    const other = await h.createAccount(10);
    await post({ q: 'someone else' }, bearer(other.apiKey));
    const list = (await h.app.inject({ method: 'GET', url: '/v1/searches', headers: bearer(acct.apiKey) })).json();
    expect(RunList.parse(list).runs).toHaveLength(50);
    expect(list.runs.map((r: { id: string }) => r.id)).toEqual(ids.slice(2).reverse());
    expect(list.runs.every((r: object) => !('result' in r))).toBe(true);
  });

  it('answers a foreign, missing or malformed id with the identical 404', async () => {
    const mine = await h.createAccount(10);
    const theirs = await h.createAccount(10);
    const foreignId = (await post({ q: 'their search' }, bearer(theirs.apiKey))).json().id;
    const answers = await Promise.all(
      [foreignId, '0'.repeat(32), 'not-an-id', foreignId.toUpperCase()].map((id) =>
        h.app.inject({ method: 'GET', url: `/v1/searches/${id}`, headers: bearer(mine.apiKey) }),
      ),
    );
    for (const res of answers) {
      expect(res.statusCode).toBe(404);
      expect(res.body).toBe('{"detail":"Unknown search."}');
    }
  });

  it('checks credentials before looking a run up', async () => {
    const res = await h.app.inject({ method: 'GET', url: `/v1/searches/${'0'.repeat(32)}` });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ detail: 'Missing credentials' });
  });

  it('returns result as the final event of a terminal run', async () => {
    const id = (await post({ q: 'fintech startups' })).json().id;
    const final = { type: 'final' as const, at: new Date().toISOString(), runId: id, table: [], target: 50, met: false, filters: [], stopped: false, stopped_at: null };
    // As the coordinator ends a run: terminal, then settled.
    await h.deps.billing.endRun((await h.deps.store.runs.get(id))!, null, {
      status: 'done', where: 'done', spendMicrousd: 12_300, chargeMicrousd: 12_300, usdDisplay: '$0.0123', stopReason: null, result: final, finishedAt: new Date().toISOString(),
    });
    const run = RunRecord.parse((await h.app.inject({ method: 'GET', url: `/v1/searches/${id}`, headers: bearer(key) })).json());
    expect(run).toMatchObject({ status: 'done', usdDisplay: '$0.0123', result: final });
  });

  it('shows a run as running until its hold is settled, then ended with its charge (a terminal run has released its hold)', async () => {
    const account = await h.createAccount(20);
    const id = (await post({ q: 'fintech startups' }, bearer(account.apiKey))).json().id;
    const final = { type: 'final' as const, at: new Date().toISOString(), runId: id, table: [], target: 50, met: false, filters: [], stopped: false, stopped_at: null };
    const finishedAt = new Date().toISOString();
    // The first of ending's two writes: the record is terminal, the settlement not yet made.
    await h.deps.store.runs.finish(id, null, {
      status: 'done', where: 'done', spendMicrousd: 12_300, chargeMicrousd: 12_300, usdDisplay: '$0.0123', stopReason: null, result: final, finishedAt,
    });
    const read = async () => ({
      run: RunRecord.parse((await h.app.inject({ method: 'GET', url: `/v1/searches/${id}`, headers: bearer(account.apiKey) })).json()),
      listed: (await h.app.inject({ method: 'GET', url: '/v1/searches', headers: bearer(account.apiKey) })).json().runs[0],
      held: (await h.deps.store.accounts.get(account.id))!.heldMicrousd,
    });
    const between = await read();
    expect(between.held).toBe(5_000_000);
    expect(between.run).toMatchObject({ status: 'running', result: null, finishedAt: null, stopReason: null });
    expect(between.listed).toMatchObject({ id, status: 'running', finishedAt: null });
    const stop = await h.app.inject({ method: 'POST', url: `/v1/searches/${id}/stop`, headers: bearer(account.apiKey) });
    expect(stop.json()).toEqual({ id, status: 'running', stopRequested: true });

    // The second: what the reconciler (or the coordinator, a moment later) does.
    await h.deps.billing.settle((await h.deps.store.runs.get(id))!);
    const after = await read();
    expect(after.held).toBe(0);
    expect(after.run).toMatchObject({ status: 'done', usdDisplay: '$0.0123', result: final, finishedAt });
    expect(after.listed).toMatchObject({ id, status: 'done', finishedAt });
  });

  it('shows the spend so far as usdDisplay while the run is running (the latest cost event)', async () => {
    const id = (await post({ q: 'fintech startups' })).json().id;
    const claimed = (await h.deps.store.runs.claim(id, 'coordinator-1', 15_000, Date.now()))!;
    // What the coordinator persists right before it emits `cost` with usd 0.05.
    expect(await h.deps.store.runs.progress(id, claimed.lease, { spendMicrousd: 50_000 }, Date.now())).toBe(true);
    const run = RunRecord.parse((await h.app.inject({ method: 'GET', url: `/v1/searches/${id}`, headers: bearer(key) })).json());
    expect(run).toMatchObject({ status: 'running', usdDisplay: '$0.05' });
    const list = (await h.app.inject({ method: 'GET', url: '/v1/searches', headers: bearer(key) })).json() as { runs: { id: string; usdDisplay: string }[] };
    expect(list.runs.find((r) => r.id === id)?.usdDisplay).toBe('$0.05');
  });
});

describe('POST /v1/searches/{id}/stop', () => {
  it('raises the flag of a running run and reports running', async () => {
    const id = (await post({ q: 'fintech startups' })).json().id;
    const res = await h.app.inject({ method: 'POST', url: `/v1/searches/${id}/stop`, headers: bearer(key) });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ id, status: 'running', stopRequested: true });
    expect(await h.deps.stops.isRaised(id)).toBe(true);
    const again = await h.app.inject({ method: 'POST', url: `/v1/searches/${id}/stop`, headers: { ...bearer(key), 'content-type': 'application/json' } });
    expect(again.statusCode).toBe(202);
  });

  it('stops with no body under any content type, or none (spec §4.4: no body)', async () => {
    const types = [undefined, 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/octet-stream', 'application/json; charset=utf-8'];
    for (const type of types) {
      const id = (await post({ q: 'fintech startups' })).json().id;
      const headers = type ? { ...bearer(key), 'content-type': type } : bearer(key);
      const res = await h.app.inject({ method: 'POST', url: `/v1/searches/${id}/stop`, headers, payload: '' });
      expect({ type, status: res.statusCode }).toEqual({ type, status: 202 });
      expect(await h.deps.stops.isRaised(id)).toBe(true);
    }
  });

  it('still refuses a stop that carries a non-JSON body with 415', async () => {
    const id = (await post({ q: 'fintech startups' })).json().id;
    const res = await h.app.inject({ method: 'POST', url: `/v1/searches/${id}/stop`, headers: { ...bearer(key), 'content-type': 'text/plain' }, payload: 'please stop' });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ detail: 'Unsupported Media Type' });
  });

  it('answers a terminal run with its terminal status and raises nothing', async () => {
    const id = (await post({ q: 'fintech startups' })).json().id;
    await h.deps.billing.endRun((await h.deps.store.runs.get(id))!, null, {
      status: 'stopped', where: 'round 1', spendMicrousd: 0, chargeMicrousd: 0, usdDisplay: '$0.00', stopReason: null, result: null, finishedAt: new Date().toISOString(),
    });
    const res = await h.app.inject({ method: 'POST', url: `/v1/searches/${id}/stop`, headers: bearer(key) });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ id, status: 'stopped', stopRequested: true });
    expect(h.raised).not.toContain(id);
  });

  it("answers another account's run with 404 Unknown search.", async () => {
    const other = await h.createAccount(10);
    const id = (await post({ q: 'fintech startups' })).json().id;
    const res = await h.app.inject({ method: 'POST', url: `/v1/searches/${id}/stop`, headers: bearer(other.apiKey) });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Unknown search.' });
    expect(h.raised).not.toContain(id);
  });
});

it('uses the account id of the caller for the runs it creates', async () => {
  const id = (await post({ q: 'fintech startups' })).json().id;
  expect((await h.deps.store.runs.get(id))?.accountId).toBe(accountId);
});
