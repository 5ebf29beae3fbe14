/**
 * Issue 18 items 4 and 7 on the distributed stack: `serve --role` edge and coordinator over a dedicated
 * nats-server (JetStream) and FerretDB/MongoDB, searching the bundled sample corpus. The request flags
 * travel through the MongoDB run record to the coordinator: `near_misses` and `keep_unclear` come back in
 * the record's `result` and on the stream, none of them in `table`; a run without them has neither field.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordSkippedSuite, serverUrl, serversRequired, uniqueName } from '@leadfinder/testkit';
import type { FinalEvent } from '@leadfinder/wire';
import { startNatsServer, startRole } from './distributed-harness.js';
import type { Proc, RoleProc } from './distributed-harness.js';
import { createAccount } from '../support/server-process.js';
import { eventsOf, searchApi, type SearchBody } from '../support/search-api.js';

const SUITE = 'test/e2e/near-misses-distributed.test.ts';
const ADMIN = 'e2e-near-misses-admin-token-0123456789';
// Company size is a filter the sample corpus leaves unclear for some candidates, on any day (a query on
// recent funding did not once the corpus's rounds moved with the clock); without loosening, every near
// miss's loosened verdict is unknown.
const Q = 'fintech startups in Berlin with more than 50 employees';

const mongoUrl = await serverUrl('mongodb');
const natsBin = process.env.LEADFINDER_TEST_NATS_BIN ?? join(process.env.HOME ?? '/root', 'go', 'bin', 'nats-server');
const natsAvailable = existsSync(natsBin);
if (!mongoUrl) recordSkippedSuite(SUITE, 'mongodb');
if (!natsAvailable) {
  if (serversRequired()) throw new Error(`nats-server not found at ${natsBin} (set LEADFINDER_TEST_NATS_BIN), but LEADFINDER_TEST_REQUIRE_SERVERS=1`);
  recordSkippedSuite(SUITE, 'nats');
}

describe.skipIf(!mongoUrl || !natsAvailable)('near misses and unclear verdicts over NATS JetStream and MongoDB', () => {
  const dbName = uniqueName('lf_e2e_near');
  const tmpRoot = mkdtempSync(join(tmpdir(), 'lf-near-misses-dist-'));
  const procs: Proc[] = [];
  let nats: Proc & { url: string };
  let edge: RoleProc;
  const started = <T extends Proc>(p: T): T => (procs.push(p), p);
  const dataDir = (name: string) => mkdtempSync(join(tmpRoot, `${name}-`));

  beforeAll(async () => {
    nats = started(await startNatsServer(natsBin, join(tmpRoot, 'jetstream')));
    const common = {
      LEADFINDER_MONGODB_URL: mongoUrl!, LEADFINDER_MONGODB_DB: dbName, LEADFINDER_NATS_URL: nats.url,
      LEADFINDER_SESSION_SECRET: 'e2e-near-misses-session-secret-01234567', LEADFINDER_ADMIN_TOKEN: ADMIN,
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

  it('near_misses and keep_unclear reach the coordinator and come back in the record; absent without them', async () => {
    const account = await createAccount(edge.url!, ADMIN, 100);
    const api = searchApi(edge.url!, account.apiKey);
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
