/**
 * Issue 18 item 3 on the distributed stack: `serve --role` edge and coordinator over a dedicated nats-server
 * (JetStream) and FerretDB/MongoDB, searching the bundled sample corpus. A second run with
 * `exclude.runs: [first]` returns no row of the first (its rows are read back from the MongoDB store by the
 * edge), counts them excluded and reports an expected one of them as an `excluded` miss; the funnel
 * events carry their running counts through JetStream.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordSkippedSuite, serverUrl, serversRequired, uniqueName } from '@leadfinder/testkit';
import { normaliseName, type FinalEvent } from '@leadfinder/wire';
import { startNatsServer, startRole } from './distributed-harness.js';
import type { Proc, RoleProc } from './distributed-harness.js';
import { createAccount } from '../support/server-process.js';
import { eventsOf, searchApi, type SearchBody } from '../support/search-api.js';

const SUITE = 'test/e2e/exclusions-distributed.test.ts';
const ADMIN = 'e2e-exclusions-admin-token-0123456789ab';
const Q = 'fintech startups in Berlin';

const mongoUrl = await serverUrl('mongodb');
const natsBin = process.env.LEADFINDER_TEST_NATS_BIN ?? join(process.env.HOME ?? '/root', 'go', 'bin', 'nats-server');
const natsAvailable = existsSync(natsBin);
if (!mongoUrl) recordSkippedSuite(SUITE, 'mongodb');
if (!natsAvailable) {
  if (serversRequired()) throw new Error(`nats-server not found at ${natsBin} (set LEADFINDER_TEST_NATS_BIN), but LEADFINDER_TEST_REQUIRE_SERVERS=1`);
  recordSkippedSuite(SUITE, 'nats');
}

describe.skipIf(!mongoUrl || !natsAvailable)('exclusions across runs over NATS JetStream and MongoDB', () => {
  const dbName = uniqueName('lf_e2e_excl');
  const tmpRoot = mkdtempSync(join(tmpdir(), 'lf-exclusions-dist-'));
  const procs: Proc[] = [];
  let nats: Proc & { url: string };
  let edge: RoleProc;
  const started = <T extends Proc>(p: T): T => (procs.push(p), p);
  const dataDir = (name: string) => mkdtempSync(join(tmpRoot, `${name}-`));

  beforeAll(async () => {
    nats = started(await startNatsServer(natsBin, join(tmpRoot, 'jetstream')));
    const common = {
      LEADFINDER_MONGODB_URL: mongoUrl!, LEADFINDER_MONGODB_DB: dbName, LEADFINDER_NATS_URL: nats.url,
      LEADFINDER_SESSION_SECRET: 'e2e-exclusions-session-secret-0123456789', LEADFINDER_ADMIN_TOKEN: ADMIN,
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

  it('a second run with exclude.runs: [first] returns none of the first run\'s rows', async () => {
    const account = await createAccount(edge.url!, ADMIN, 100);
    const api = searchApi(edge.url!, account.apiKey);
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
