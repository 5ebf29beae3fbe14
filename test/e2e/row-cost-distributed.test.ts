/**
 * Issue 18 item 5 on the distributed stack: `serve --role` edge and coordinator over a dedicated nats-server
 * (JetStream) and FerretDB/MongoDB, searching the bundled sample corpus. `max_usd_per_row` travels through
 * the MongoDB run record to the coordinator: the run ends `stopped` with `final.stop_reason`, its cost
 * events carry per_row_usd and projected_usd through JetStream, and the hold is settled to the charge.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordSkippedSuite, serverUrl, serversRequired, uniqueName } from '@leadfinder/testkit';
import { accountMoney, startNatsServer, startRole } from './distributed-harness.js';
import type { Proc, RoleProc } from './distributed-harness.js';
import { createAccount } from '../support/server-process.js';
import { eventsOf, searchApi, type SearchBody } from '../support/search-api.js';

const SUITE = 'test/e2e/row-cost-distributed.test.ts';
const ADMIN = 'e2e-row-cost-admin-token-0123456789ab';
const Q = 'fintech startups in Berlin';

const mongoUrl = await serverUrl('mongodb');
const natsBin = process.env.LEADFINDER_TEST_NATS_BIN ?? join(process.env.HOME ?? '/root', 'go', 'bin', 'nats-server');
const natsAvailable = existsSync(natsBin);
if (!mongoUrl) recordSkippedSuite(SUITE, 'mongodb');
if (!natsAvailable) {
  if (serversRequired()) throw new Error(`nats-server not found at ${natsBin} (set LEADFINDER_TEST_NATS_BIN), but LEADFINDER_TEST_REQUIRE_SERVERS=1`);
  recordSkippedSuite(SUITE, 'nats');
}

describe.skipIf(!mongoUrl || !natsAvailable)('spend per row and max_usd_per_row over NATS JetStream and MongoDB', () => {
  const dbName = uniqueName('lf_e2e_rowcost');
  const tmpRoot = mkdtempSync(join(tmpdir(), 'lf-row-cost-dist-'));
  const procs: Proc[] = [];
  let nats: Proc & { url: string };
  let edge: RoleProc;
  const started = <T extends Proc>(p: T): T => (procs.push(p), p);
  const dataDir = (name: string) => mkdtempSync(join(tmpRoot, `${name}-`));

  beforeAll(async () => {
    nats = started(await startNatsServer(natsBin, join(tmpRoot, 'jetstream')));
    const common = {
      LEADFINDER_MONGODB_URL: mongoUrl!, LEADFINDER_MONGODB_DB: dbName, LEADFINDER_NATS_URL: nats.url,
      LEADFINDER_SESSION_SECRET: 'e2e-row-cost-session-secret-0123456789', LEADFINDER_ADMIN_TOKEN: ADMIN,
    };
    // A coordinator with the fetcher and filter in process (no addresses given), searching the sample corpus.
    started(await startRole('coordinator', 'coordinator', { ...common, LEADFINDER_DATA_DIR: dataDir('coordinator'), LEADFINDER_LOG_LEVEL: 'info' }));
    edge = started(await startRole('edge', 'edge', { ...common, LEADFINDER_DATA_DIR: dataDir('edge') }));
  }, 120_000);

  afterAll(async () => {
    await Promise.allSettled(procs.filter((p) => p !== nats).map((p) => p.stop(5000)));
    await nats?.stop(5000);
    if (mongoUrl) {
      const client = new MongoClient(mongoUrl);
      await client.db(dbName).dropDatabase().catch(() => undefined);
      await client.close();
    }
    rmSync(tmpRoot, { recursive: true, force: true });
  }, 60_000);

  it('a tiny max_usd_per_row ends the run stopped with its reason; cost events carry per row figures; the hold is settled to the charge', async () => {
    const account = await createAccount(edge.url!, ADMIN, 100);
    const api = searchApi(edge.url!, account.apiKey);
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
    const money = await accountMoney(edge.url!, ADMIN, account.id);
    expect(money.heldMicrousd).toBe(0);
    expect(money.balanceMicrousd).toBe(100 * 1_000_000 - micros(tail.usd));
  }, 200_000);
});
