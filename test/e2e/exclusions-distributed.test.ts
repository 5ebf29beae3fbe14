/**
 * Issue 18 item 3 on the distributed stack: `serve --role` edge and coordinator over a dedicated nats-server
 * (JetStream) and FerretDB/MongoDB, searching the bundled sample corpus. A second run with
 * `exclude.runs: [first]` returns no row of the first (its rows are read back from the MongoDB store by the
 * edge), counts them excluded and reports an expected one of them as an `excluded` miss; the funnel
 * events carry their running counts through JetStream.
 */
import { describe, expect, it } from 'vitest';
import { normaliseName, type FinalEvent } from '@leadfinder/wire';
import { distributedServers } from './distributed-harness.js';
import { edgeAndCoordinator } from './edge-coordinator-stack.js';
import { createAccount } from '../support/server-process.js';
import { eventsOf, searchApi, type SearchBody } from '../support/search-api.js';

const SUITE = 'test/e2e/exclusions-distributed.test.ts';
const Q = 'fintech startups in Berlin';

const servers = await distributedServers(SUITE);

describe.skipIf(!servers.ready)('exclusions across runs over NATS JetStream and MongoDB', () => {
  const stack = edgeAndCoordinator(servers, 'exclusions');

  it('a second run with exclude.runs: [first] returns none of the first run\'s rows', async () => {
    const account = await createAccount(stack.edgeUrl(), stack.adminToken, 100);
    const api = searchApi(stack.edgeUrl(), account.apiKey);
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
});
