/**
 * Issue 18 items 3, 4 and 6 through the HTTP API of a real embedded server on the bundled sample corpus:
 * "give me more, not the ones I have" (a second run with `exclude.runs` returns no row of the first), the
 * funnel's running counts on `funnel_filter_done`, and `expected` recall with the reason of each miss.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normaliseName, type FinalEvent } from '@leadfinder/wire';
import { createAccount } from '../support/server-process.js';
import { embeddedServer, SHARED_SERVER_ADMIN_TOKEN, type EmbeddedServer } from '../support/shared-server.js';
import { eventsOf, searchApi, type SearchBody } from '../support/search-api.js';

const ADMIN = SHARED_SERVER_ADMIN_TOKEN;
const Q = 'fintech startups in Berlin';

async function post(url: string, key: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await fetch(`${url}/v1/searches`, {
    method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

describe('exclusions across runs, funnel counts and expected, on embedded', () => {
  let server: EmbeddedServer;
  let apiKey: string;
  let otherKey: string;
  beforeAll(async () => {
    server = await embeddedServer();
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

  it('another account\'s run id is treated as unknown (accepted, excludes nothing); too many entries is a 400 that says so', async () => {
    const api = searchApi(server.url, apiKey);
    const mine = await api.waitTerminal(await api.start({ q: Q, target: 1 }), 90_000);
    // Another account naming my run is answered exactly like naming a run that does not exist: accepted,
    // and it excludes nothing (so the answer never tells whether my run exists).
    const other = searchApi(server.url, otherKey);
    const mineRows = mine.result!.table;
    expect(mineRows.length).toBe(1);
    const [foreign, missing] = await Promise.all([
      post(server.url, otherKey, { q: Q, target: 1, exclude: { runs: [mine.id] } }),
      post(server.url, otherKey, { q: Q, target: 1, exclude: { runs: ['0'.repeat(32)] } }),
    ]);
    expect([foreign.status, missing.status]).toEqual([202, 202]);
    const [foreignRun, missingRun] = await Promise.all([other.waitTerminal(foreign.body.id as string, 90_000), other.waitTerminal(missing.body.id as string, 90_000)]);
    expect(foreignRun.result!.excluded).toBe(0);
    expect(missingRun.result!.excluded).toBe(0);
    expect(foreignRun.result!.table.map((r) => r.name)).toEqual(mineRows.map((r) => r.name));

    // Short entries, so the count (not the 64 KiB body limit) is what refuses it.
    const tooMany = await post(server.url, apiKey, { q: Q, exclude: { names: Array.from({ length: 9_000 }, () => 'x'), runs: Array.from({ length: 1_001 }, () => 'r') } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.detail).toMatch(/exclude has 10001 entries .*at most 10000/);
    const wrongType = await post(server.url, apiKey, { q: Q, exclude: { names: 'Acme' } });
    expect(wrongType.status).toBe(422);
  }, 200_000);
});
