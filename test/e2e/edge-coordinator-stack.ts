/**
 * The distributed stack most request-feature suites need: a `serve --role` edge and a coordinator (fetcher
 * and filter in its process, searching the bundled sample corpus) over a dedicated nats-server (JetStream)
 * and a MongoDB-wire database unique to the suite. One place for the server checks, start-up and clean-up.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { uniqueName } from '@leadfinder/testkit';
import { dropTestDatabase, startNatsServer, startRole } from './distributed-harness.js';
import type { DistributedServers, Proc, RoleProc } from './distributed-harness.js';

export interface EdgeAndCoordinator {
  adminToken: string;
  /** The edge's base URL (once beforeAll has run). */
  edgeUrl(): string;
}

/**
 * Registers beforeAll/afterAll in the calling describe: starts the stack, and afterwards stops every
 * process it started, drops its database and removes its data dirs. `name` names the database and dirs.
 */
export function edgeAndCoordinator(servers: DistributedServers, name: string): EdgeAndCoordinator {
  const adminToken = `e2e-${name}-admin-${randomBytes(16).toString('hex')}`;
  const dbName = uniqueName(`lf_e2e_${name.replace(/\W/g, '_')}`);
  const tmpRoot = mkdtempSync(join(tmpdir(), `lf-${name}-dist-`));
  const procs: Proc[] = [];
  let nats: (Proc & { url: string }) | undefined;
  let edge: RoleProc | undefined;
  const started = <T extends Proc>(p: T): T => (procs.push(p), p);
  const dataDir = (role: string) => mkdtempSync(join(tmpRoot, `${role}-`));

  beforeAll(async () => {
    nats = started(await startNatsServer(servers.natsBin, join(tmpRoot, 'jetstream')));
    const common = {
      LEADFINDER_MONGODB_URL: servers.mongoUrl!, LEADFINDER_MONGODB_DB: dbName, LEADFINDER_NATS_URL: nats.url,
      LEADFINDER_SESSION_SECRET: randomBytes(32).toString('hex'), LEADFINDER_ADMIN_TOKEN: adminToken,
    };
    // Both at once (neither waits for the other to be ready); each is recorded as soon as it is up, so
    // afterAll stops it even when the other failed to start. No fetcher or filter address: the
    // coordinator runs both in its own process.
    [, edge] = await Promise.all([
      startRole('coordinator', 'coordinator', { ...common, LEADFINDER_DATA_DIR: dataDir('coordinator'), LEADFINDER_LOG_LEVEL: 'info' }).then(started),
      startRole('edge', 'edge', { ...common, LEADFINDER_DATA_DIR: dataDir('edge') }).then(started),
    ]);
  }, 120_000);

  afterAll(async () => {
    await Promise.allSettled(procs.filter((p) => p !== nats).map((p) => p.stop(5000)));
    await nats?.stop(5000);
    await dropTestDatabase(servers.mongoUrl, dbName);
    rmSync(tmpRoot, { recursive: true, force: true });
  }, 60_000);

  return {
    adminToken,
    edgeUrl: () => {
      if (!edge?.url) throw new Error('the edge is not started (edgeUrl() is for tests, after beforeAll)');
      return edge.url;
    },
  };
}
