/**
 * Issue 18 item 5 on the distributed stack: `serve --role` edge and coordinator over a dedicated nats-server
 * (JetStream) and FerretDB/MongoDB, searching the bundled sample corpus. `max_usd_per_row` travels through
 * the MongoDB run record to the coordinator: the run ends `stopped` with `final.stop_reason`, its cost
 * events carry per_row_usd and projected_usd through JetStream, and the hold is settled to the charge.
 */
import { describe, expect, it } from 'vitest';
import { accountMoney, distributedServers } from './distributed-harness.js';
import { edgeAndCoordinator } from './edge-coordinator-stack.js';
import { createAccount } from '../support/server-process.js';
import { eventsOf, searchApi, type SearchBody } from '../support/search-api.js';

const SUITE = 'test/e2e/row-cost-distributed.test.ts';
const Q = 'fintech startups in Berlin';

const servers = await distributedServers(SUITE);

describe.skipIf(!servers.ready)('spend per row and max_usd_per_row over NATS JetStream and MongoDB', () => {
  const stack = edgeAndCoordinator(servers, 'row-cost');

  it('a tiny max_usd_per_row ends the run stopped with its reason; cost events carry per row figures; the hold is settled to the charge', async () => {
    const account = await createAccount(stack.edgeUrl(), stack.adminToken, 100);
    const api = searchApi(stack.edgeUrl(), account.apiKey);
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
