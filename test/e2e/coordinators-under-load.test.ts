import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueName } from '@leadfinder/testkit';
import { accountMoney, apiClient, createAccount, distributedServers, dropTestDatabase, readEventStream, startNatsServer, startRole, waitUntil } from './distributed-harness.js';
import type { Proc, RoleProc } from './distributed-harness.js';

/**
 * Many runs at once on two coordinators (issue 19 item 3), each role its own process over a dedicated
 * nats-server and FerretDB/MongoDB, on the sample corpus, with a short lease (1 s renewals) so that a
 * store slower than a renewal period shows. Every run must end `done`, followed over its event stream to
 * its tail, and no coordinator may lose a lease or see a run it was not driving come back to it. At 50
 * runs on FerretDB the code before this lost leases (runs ended `interrupted`) and bounced runs between
 * the coordinators every 250 ms; `npm run bench -- --only coord` measures the 50-run figure.
 */
const SUITE = 'test/e2e/coordinators-under-load.test.ts';
const RUNS = 16;
const ADMIN = 'e2e-admin-token-0123456789abcdefghijkl';
const QUERY = 'startups based in Berlin';

const { mongoUrl, natsBin, ready: serversReady } = await distributedServers(SUITE);

describe.skipIf(!serversReady)('coordinators under load', () => {
  const dbName = uniqueName('lf_e2e_load');
  const tmpRoot = mkdtempSync(join(tmpdir(), 'lf-load-'));
  const procs: Proc[] = [];
  let nats: Proc & { url: string };
  let edge: RoleProc;
  let coordinators: RoleProc[] = [];
  const started = <T extends Proc>(p: T): T => (procs.push(p), p);
  const dataDir = (name: string) => mkdtempSync(join(tmpRoot, `${name}-`));

  beforeAll(async () => {
    nats = started(await startNatsServer(natsBin, join(tmpRoot, 'jetstream')));
    const common = {
      LEADFINDER_MONGODB_URL: mongoUrl!, LEADFINDER_MONGODB_DB: dbName, LEADFINDER_NATS_URL: nats.url,
      LEADFINDER_SESSION_SECRET: 'e2e-load-session-secret-0123456789abcdef', LEADFINDER_ADMIN_TOKEN: ADMIN,
      LEADFINDER_LEASE_TTL_MS: '3000', LEADFINDER_STREAMS_PER_ACCOUNT: '100', LEADFINDER_RATE_LIMIT_PER_MIN: '100000',
    };
    const [filter, fetcher] = await Promise.all([
      startRole('filter', 'filter', { ...common, LEADFINDER_DATA_DIR: dataDir('filter') }).then(started),
      startRole('fetcher', 'fetcher', { ...common, LEADFINDER_DATA_DIR: dataDir('fetcher') }).then(started),
    ]);
    const [coordinatorsStarted, edgeStarted] = await Promise.all([
      Promise.all(['coordinator-a', 'coordinator-b'].map((n) => startRole(n, 'coordinator', {
        ...common, LEADFINDER_DATA_DIR: dataDir(n), LEADFINDER_LOG_LEVEL: 'info',
        LEADFINDER_FETCHER_ADDR: `127.0.0.1:${fetcher.grpcPort}`, LEADFINDER_FILTER_ADDR: `127.0.0.1:${filter.grpcPort}`,
        // Every run in flight at once.
        LEADFINDER_COORDINATOR_CONCURRENCY: String(RUNS / 2),
      }).then(started))),
      startRole('edge', 'edge', { ...common, LEADFINDER_DATA_DIR: dataDir('edge') }).then(started),
    ]);
    coordinators = coordinatorsStarted;
    edge = edgeStarted;
  }, 120_000);

  afterAll(async () => {
    await Promise.allSettled(procs.filter((p) => p !== nats).map((p) => p.stop(5000)));
    await nats?.stop(5000);
    await dropTestDatabase(mongoUrl, dbName);
    rmSync(tmpRoot, { recursive: true, force: true });
  }, 60_000);

  it(`ends all ${RUNS} runs started at once done, with no lease lost and no run handed between coordinators`, async () => {
    const account = await createAccount(edge.url!, ADMIN, 1000);
    const api = apiClient(edge.url!, account.apiKey);
    const t0 = Date.now();
    const ids = await Promise.all(Array.from({ length: RUNS }, () => api.start(QUERY, 20)));
    const streams = await Promise.all(ids.map((id) => readEventStream(edge.url!, id, account.apiKey, 100_000)));
    const wallMs = Date.now() - t0;
    for (const frames of streams) expect(frames.map((f) => f.event.type).slice(-4)).toEqual(['final', 'cost', 'usage', 'done']);
    const runs = await Promise.all(ids.map((id) => api.run(id)));
    expect(runs.map((r) => r.status)).toEqual(ids.map(() => 'done'));

    const lines = coordinators.flatMap((c) => c.output().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { msg: string; runId?: string; why?: string }));
    const claimed = lines.filter((l) => l.msg === 'run claimed');
    console.info(`${RUNS} runs at once on two coordinators: all done in ${wallMs} ms; claims ${claimed.length}`);
    expect(lines.filter((l) => l.msg === 'run lease lost')).toEqual([]);
    expect(lines.filter((l) => l.msg === 'run requeued')).toEqual([]);
    // Each run claimed once, by one coordinator, and both coordinators drove some.
    expect(claimed.map((l) => l.runId).sort()).toEqual([...ids].sort());
    expect(new Set(coordinators.filter((c) => c.output().includes('"msg":"run claimed"')).map((c) => c.name)).size).toBe(2);
    // Money: nothing left held once every run is settled (a stream may close on the terminal record, a
    // moment before its settlement lands).
    await waitUntil('every hold released', async () => ((await accountMoney(edge.url!, ADMIN, account.id)).heldMicrousd === 0 ? true : undefined), 15_000);
  }, 150_000);
});
