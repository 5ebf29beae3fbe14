/**
 * Issue 18's request options on the distributed stack: `serve --role` edge and coordinator over a dedicated
 * nats-server (JetStream) and FerretDB/MongoDB, searching the bundled sample corpus. Each option travels
 * through the MongoDB run record to the coordinator and its effect comes back through JetStream and the
 * store. One stack for the three (each test opens an account of its own): a stack costs about 2.5
 * CPU-seconds to start.
 */
import { describe, expect, it } from 'vitest';
import { normaliseName, type FinalEvent } from '@leadfinder/wire';
import { accountMoney, distributedServers } from './distributed-harness.js';
import { edgeAndCoordinator } from './edge-coordinator-stack.js';
import { createAccount } from '../support/server-process.js';
import { eventsOf, searchApi, type SearchBody } from '../support/search-api.js';

const SUITE = 'test/e2e/request-options-distributed.test.ts';
const Q = 'fintech startups in Berlin';

const servers = await distributedServers(SUITE);

describe.skipIf(!servers.ready)('request options over NATS JetStream and MongoDB', () => {
  const stack = edgeAndCoordinator(servers, 'request-options');
  const newApi = async () => {
    const account = await createAccount(stack.edgeUrl(), stack.adminToken, 100);
    return { account, api: searchApi(stack.edgeUrl(), account.apiKey) };
  };

  /**
   * Item 3: a second run with `exclude.runs: [first]` returns no row of the first (its rows are read back
   * from the MongoDB store by the edge), counts them excluded and reports an expected one of them as an
   * `excluded` miss; the funnel events carry their running counts.
   */
  it('a second run with exclude.runs: [first] returns none of the first run\'s rows', async () => {
    const { api } = await newApi();
    const first = await api.waitTerminal(await api.start({ q: Q, target: 3 }), 120_000);
    expect(first.status).toBe('done');
    const firstRows = first.result!.table;
    expect(firstRows.length).toBeGreaterThanOrEqual(1);

    const body: SearchBody & { exclude: { runs: string[] }; expected: string[] } = {
      q: Q, target: 3, exclude: { runs: [first.id] }, expected: [firstRows[0]!.name],
    };
    const secondId = await api.start(body);
    const events = await api.events(secondId, 120_000);
    const second = await api.waitTerminal(secondId, 120_000);
    expect(second.status).toBe('done');
    const final = second.result as FinalEvent;
    expect(final.table.length).toBeGreaterThanOrEqual(1);
    const firstNames = new Set(firstRows.map((r) => normaliseName(r.name)));
    for (const row of final.table) expect(firstNames.has(normaliseName(row.name))).toBe(false);
    expect(final.excluded).toBeGreaterThanOrEqual(firstRows.length);
    expect(final.expected_missed).toEqual([{ expected: firstRows[0]!.name, reason: 'excluded', name: expect.any(String) }]);
    const done = eventsOf(events, 'funnel_filter_done');
    expect(done.length).toBeGreaterThan(0);
    for (const e of done) expect(e.run_counts!.in).toBe(e.run_counts!.passed + e.run_counts!.dropped);
  }, 300_000);

  /**
   * Items 4 and 7: `near_misses` and `keep_unclear` come back in the record's `result` and on the stream,
   * none of them in `table`; a run without them has neither field.
   */
  it('near_misses and keep_unclear reach the coordinator and come back in the record; absent without them', async () => {
    // Company size is a filter the sample corpus leaves unclear for some candidates, on any day (a query on
    // recent funding did not once the corpus's rounds moved with the clock); without loosening, every near
    // miss's loosened verdict is unknown.
    const q = 'fintech startups in Berlin with more than 50 employees';
    const { api } = await newApi();
    const body: SearchBody & { relax: boolean; near_misses: boolean; keep_unclear: boolean } = { q, target: 3, relax: false, near_misses: true, keep_unclear: true };
    const [withId, plainId] = await Promise.all([api.start(body), api.start({ q, target: 3, relax: false })]);
    const events = await api.events(withId, 120_000);
    const [run, plain] = await Promise.all([api.waitTerminal(withId, 120_000), api.waitTerminal(plainId, 120_000)]);
    expect(run.status).toBe('done');
    const final = run.result as FinalEvent;
    const tableNames = new Set(final.table.map((r) => r.name));
    const last = [...new Map(eventsOf(events, 'funnel_filter_done').map((e) => [e.index, e.run_counts!] as const)).values()];
    expect(last.reduce((n, c) => n + c.dropped, 0)).toBeGreaterThan(3);
    expect(final.near_misses).toHaveLength(3);
    for (const m of final.near_misses!) {
      expect(final.filters.map((f) => f.index)).toContain(m.filter.index);
      expect(m.rationale).toMatch(/\S/);
      expect(tableNames.has(m.name)).toBe(false);
    }
    expect(final.unclear).toHaveLength(last.reduce((n, c) => n + c.unclear, 0));
    expect(final.unclear!.length).toBeGreaterThan(0);
    for (const u of final.unclear!) expect(tableNames.has(u.name)).toBe(false);
    expect(eventsOf(events, 'final')[0]!.near_misses).toEqual(final.near_misses);
    expect(plain.status).toBe('done');
    expect(plain.result!.table.map((r) => r.name)).toEqual(final.table.map((r) => r.name));
    expect(plain.result).not.toHaveProperty('near_misses');
    expect(plain.result).not.toHaveProperty('unclear');
  }, 300_000);

  /**
   * Item 5: `max_usd_per_row` ends the run `stopped` with `final.stop_reason`, its cost events carry
   * per_row_usd and projected_usd, and the hold is settled to the charge.
   */
  it('a tiny max_usd_per_row ends the run stopped with its reason; cost events carry per row figures; the hold is settled to the charge', async () => {
    const { account, api } = await newApi();
    const body: SearchBody & { max_usd_per_row: number } = { q: Q, target: 40, max_usd_per_row: 0.000001 };
    const id = await api.start(body);
    const events = await api.events(id, 120_000);
    const run = await api.waitTerminal(id, 120_000);
    expect(run.status).toBe('stopped');
    expect(run.result!.stopped).toBe(true);
    expect(run.result!.stop_reason).toBe('max_usd_per_row');
    const rows = run.result!.table.length;
    expect(rows).toBeGreaterThan(0);
    const costs = eventsOf(events, 'cost');
    expect(costs[0]!.per_row_usd).toBeNull();
    const tail = costs.at(-1)!;
    expect(tail.stage).toBe('Stopped');
    const micros = (usd: number) => Math.round(usd * 1_000_000);
    expect(micros(tail.per_row_usd!)).toBe(Math.round(micros(tail.usd) / rows));
    expect(micros(tail.projected_usd!)).toBe(Math.round((micros(tail.usd) * 40) / rows));
    const money = await accountMoney(stack.edgeUrl(), stack.adminToken, account.id);
    expect(money.heldMicrousd).toBe(0);
    expect(money.balanceMicrousd).toBe(100 * 1_000_000 - micros(tail.usd));
  }, 200_000);
});
