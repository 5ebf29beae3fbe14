/**
 * Issue 18 items 3, 4 and 6 through the HTTP API of a real embedded server on the bundled sample corpus:
 * "give me more, not the ones I have" (a second run with `exclude.runs` returns no row of the first), the
 * funnel's running counts on `funnel_filter_done`, and `expected` recall with the reason of each miss.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normaliseName, type FinalEvent } from '@leadfinder/wire';
import { createAccount, startServerProcess, type ServerProcess } from '../support/server-process.js';
import { eventsOf, searchApi, type SearchBody } from '../support/search-api.js';

const ADMIN = 'exclusions-admin-token-0123456789abcdef';
const Q = 'fintech startups in Berlin';

async function post(url: string, key: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await fetch(`${url}/v1/searches`, {
    method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

describe('exclusions across runs, funnel counts and expected, on embedded', () => {
  let server: ServerProcess;
  let apiKey: string;
  let otherKey: string;
  beforeAll(async () => {
    server = await startServerProcess({ env: { LEADFINDER_ADMIN_TOKEN: ADMIN } });
    apiKey = (await createAccount(server.url, ADMIN, 100)).apiKey;
    otherKey = (await createAccount(server.url, ADMIN, 100)).apiKey;
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('a second run with exclude.runs: [first] returns none of the first run\'s rows, and says how many it excluded', async () => {
    const api = searchApi(server.url, apiKey);
    const first = await api.waitTerminal(await api.start({ q: Q, target: 3 }), 90_000);
    expect(first.status).toBe('done');
    const firstRows = first.result!.table;
    expect(firstRows.length).toBeGreaterThanOrEqual(1);

    const body: SearchBody & { exclude: { runs: string[] }; expected: string[] } = {
      q: Q, target: 3, exclude: { runs: [first.id] }, expected: firstRows.map((r) => r.name),
    };
    const secondId = await api.start(body);
    const events = await api.events(secondId, 90_000);
    const second = await api.waitTerminal(secondId, 90_000);
    const final = second.result as FinalEvent;
    // "Give me more, not the ones I have": the second run still finds rows, other ones.
    expect(second.status).toBe('done');
    expect(final.table.length).toBeGreaterThanOrEqual(1);
    const firstNames = new Set(firstRows.map((r) => normaliseName(r.name)));
    const firstDomains = new Set(firstRows.map((r) => r.domain).filter(Boolean));
    for (const row of final.table) {
      expect(firstNames.has(normaliseName(row.name))).toBe(false);
      if (row.domain) expect(firstDomains.has(row.domain)).toBe(false);
    }
    // The same query meets the first run's entities again: each is excluded, not verified.
    expect(final.excluded).toBeGreaterThanOrEqual(firstRows.length);
    expect(final.expected_found).toEqual([]);
    expect(final.expected_missed!.map((m) => [m.expected, m.reason])).toEqual(firstRows.map((r) => [r.name, 'excluded']));

    // Every funnel_filter_done carries the filter's counts over the run; the last of each adds up.
    const done = eventsOf(events, 'funnel_filter_done');
    expect(done.length).toBeGreaterThan(0);
    for (const e of done) {
      const c = e.run_counts!;
      expect(c.in).toBe(c.passed + c.dropped);
      expect(c.unclear).toBeLessThanOrEqual(c.dropped);
    }
    const lastOf = new Map(done.map((e) => [e.index, e] as const));
    for (const [index, e] of lastOf) {
      expect(e.run_counts!.passed).toBe(done.filter((d) => d.index === index).reduce((n, d) => n + d.passed, 0));
    }
  }, 200_000);

  it('another account\'s run id reads as unknown (400, nothing started); too many entries is a 400 that says so', async () => {
    const api = searchApi(server.url, apiKey);
    const mine = await api.waitTerminal(await api.start({ q: Q, target: 1 }), 90_000);
    const foreign = await post(server.url, otherKey, { q: Q, exclude: { runs: [mine.id] } });
    expect(foreign.status).toBe(400);
    expect(foreign.body.detail).toBe(`Unknown run in exclude.runs: ${mine.id}`);
    const missing = await post(server.url, apiKey, { q: Q, exclude: { runs: ['0'.repeat(32)] } });
    expect(missing).toEqual({ status: 400, body: { detail: `Unknown run in exclude.runs: ${'0'.repeat(32)}` } });
    const others = (await (await fetch(`${server.url}/v1/searches`, { headers: { authorization: `Bearer ${otherKey}` } })).json()) as { runs: unknown[] };
    expect(others.runs).toEqual([]);

    // Short entries, so the count (not the 64 KiB body limit) is what refuses it.
    const tooMany = await post(server.url, apiKey, { q: Q, exclude: { names: Array.from({ length: 9_000 }, () => 'x'), runs: Array.from({ length: 1_001 }, () => 'r') } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.detail).toMatch(/exclude has 10001 entries .*at most 10000/);
    const wrongType = await post(server.url, apiKey, { q: Q, exclude: { names: 'Acme' } });
    expect(wrongType.status).toBe(422);
  }, 200_000);
});
