/**
 * Issue 18 items 4 and 7 on the distributed stack: `serve --role` edge and coordinator over a dedicated
 * nats-server (JetStream) and FerretDB/MongoDB, searching the bundled sample corpus. The request flags
 * travel through the MongoDB run record to the coordinator: `near_misses` and `keep_unclear` come back in
 * the record's `result` and on the stream, none of them in `table`; a run without them has neither field.
 */
import { describe, expect, it } from 'vitest';
import type { FinalEvent } from '@leadfinder/wire';
import { distributedServers } from './distributed-harness.js';
import { edgeAndCoordinator } from './edge-coordinator-stack.js';
import { createAccount } from '../support/server-process.js';
import { eventsOf, searchApi, type SearchBody } from '../support/search-api.js';

const SUITE = 'test/e2e/near-misses-distributed.test.ts';
// Company size is a filter the sample corpus leaves unclear for some candidates, on any day (a query on
// recent funding did not once the corpus's rounds moved with the clock); without loosening, every near
// miss's loosened verdict is unknown.
const Q = 'fintech startups in Berlin with more than 50 employees';

const servers = await distributedServers(SUITE);

describe.skipIf(!servers.ready)('near misses and unclear verdicts over NATS JetStream and MongoDB', () => {
  const stack = edgeAndCoordinator(servers, 'near-misses');

  it('near_misses and keep_unclear reach the coordinator and come back in the record; absent without them', async () => {
    const account = await createAccount(stack.edgeUrl(), stack.adminToken, 100);
    const api = searchApi(stack.edgeUrl(), account.apiKey);
    const body: SearchBody & { relax: boolean; near_misses: boolean; keep_unclear: boolean } = { q: Q, target: 3, relax: false, near_misses: true, keep_unclear: true };
    const [withId, plainId] = await Promise.all([api.start(body), api.start({ q: Q, target: 3, relax: false })]);
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
});
