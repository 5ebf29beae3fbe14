import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedgerInvariants, silentLogger } from '@leadfinder/platform';
import { createEmbeddedStore } from '@leadfinder/platform/embedded';
import { createMongoStore } from '@leadfinder/platform/mongo';
import type { Store } from '@leadfinder/platform';
import { recordSkippedSuite, serverUrl, uniqueName } from '@leadfinder/testkit';
import { microsToUsdDisplay } from '@leadfinder/wire';
import { createAccount, startServerProcess } from '../support/server-process.js';
import type { ServerProcess } from '../support/server-process.js';
import { readEventStream, TERMINAL, waitUntil } from './distributed-harness.js';
import type { Frame, RunView } from './distributed-harness.js';
import { accountMoney, call, costEvents, lastCostMicros, startHeldWeb, usdString, watchAccount } from './money-harness.js';
import type { HeldWeb, Money } from './money-harness.js';

/**
 * Billing ledger, proven through the real HTTP API of real `leadfinder serve` processes, once per storage
 * adapter (embedded file; MongoDB wire on FerretDB): whatever order requests arrive in and wherever a
 * process dies, the books balance to the micro-USD.
 *
 * Runs are kept in flight by a loopback fake web whose article pages can be held: a held run sits in
 * "round 1 · opening pages" with its search spend persisted and announced, and cannot settle, so the
 * account's balance is constant while the test fires requests at it.
 */

const SUITE = 'test/e2e/money.test.ts';
const ADMIN = 'money-e2e-admin-token-0123456789abcdef';
const QUERY = 'AI startups in Berlin that raised a seed round in the last year';
const RESERVATION = 5_000_000;
const LEASE_TTL_MS = 3000;
const HELD_WHERE = 'round 1 · opening pages';

const mongoUrl = await serverUrl('mongodb');
if (!mongoUrl) recordSkippedSuite(SUITE, 'mongodb');

/** How one server process keeps its runs, accounts and ledger. */
interface StorageAdapter {
  name: string;
  skip: boolean;
  /** Storage env of one server; `server` names it, so each server has its own books. */
  env(server: string): Record<string, string>;
  /** Opens the books of a stopped server directly. */
  openStore(server: string, dataDir: string): Promise<Store>;
  dropAll(): Promise<void>;
}

const embedded: StorageAdapter = {
  name: 'embedded',
  skip: false,
  env: () => ({}),
  openStore: (_server, dataDir) => createEmbeddedStore({ dataDir: join(dataDir, 'store'), logger: silentLogger }),
  dropAll: async () => undefined,
};

function mongo(url: string | null): StorageAdapter {
  const dbs = new Map<string, string>();
  const db = (server: string) => {
    if (!dbs.has(server)) dbs.set(server, uniqueName(`lf_money_${server}`));
    return dbs.get(server)!;
  };
  return {
    name: 'MongoDB-wire (FerretDB)',
    skip: !url,
    env: (server) => ({ LEADFINDER_MONGODB_URL: url!, LEADFINDER_MONGODB_DB: db(server) }),
    openStore: (server) => createMongoStore({ url: url!, dbName: db(server), logger: silentLogger }),
    async dropAll() {
      if (!url) return;
      const client = new MongoClient(url);
      await Promise.allSettled([...dbs.values()].map((name) => client.db(name).dropDatabase()));
      await client.close();
    },
  };
}

type ServerName = 'main' | 'crash' | 'ceiling' | 'hold';

interface ServerNode {
  env: Record<string, string>;
  dataDir: string;
  proc: ServerProcess;
  /** Accounts opened on this server, checked at rest at the end. */
  accounts: string[];
}

interface Account {
  id: string;
  apiKey: string;
}

const isoOrder = (runs: { createdAt: string }[]) => runs.every((r, i) => i === 0 || runs[i - 1]!.createdAt >= r.createdAt);

function describeMoney(storage: StorageAdapter): void {
  describe.skipIf(storage.skip)(`the books balance through the HTTP API on ${storage.name} storage`, () => {
    const nodes = {} as Record<ServerName, ServerNode>;
    const tmpRoot = mkdtempSync(join(tmpdir(), 'lf-money-'));
    /** What each accepted run must be charged (its last `cost` event), for the check at rest. */
    const expectedCharge = new Map<string, number>();
    let web: HeldWeb;

    const start = async (name: ServerName, env: Record<string, string>, dataDir?: string) => {
      const dir = dataDir ?? mkdtempSync(join(tmpRoot, `${name}-`));
      const fullEnv = { ...storage.env(name), LEADFINDER_ADMIN_TOKEN: ADMIN, ...env };
      const proc = await startServerProcess({ env: fullEnv, dataDir: dir });
      nodes[name] = { env: fullEnv, dataDir: dir, proc, accounts: nodes[name]?.accounts ?? [] };
      return nodes[name];
    };
    const openAccount = async (name: ServerName, usd: number): Promise<Account> => {
      const account = await createAccount(nodes[name].proc.url, ADMIN, usd);
      nodes[name].accounts.push(account.id);
      return account;
    };
    const money = (name: ServerName, account: Account): Promise<Money> => accountMoney(nodes[name].proc.url, ADMIN, account.id);
    const getRun = async (name: ServerName, account: Account, id: string): Promise<RunView & { createdAt: string }> => {
      const r = await call(nodes[name].proc.url, account.apiKey, 'GET', `/v1/searches/${id}`);
      if (r.status !== 200) throw new Error(`GET run ${id}: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body as RunView & { createdAt: string };
    };
    const post = (name: ServerName, account: Account, target: number) =>
      call(nodes[name].proc.url, account.apiKey, 'POST', '/v1/searches', { q: QUERY, target });
    const startRun = async (name: ServerName, account: Account, target: number): Promise<string> => {
      const r = await post(name, account, target);
      if (r.status !== 202) throw new Error(`POST /v1/searches: ${r.status} ${JSON.stringify(r.body)}`);
      return (r.body as { id: string }).id;
    };
    /**
     * Polls each run not yet terminal every 300 ms (gently: on FerretDB every GET is a few store
     * round trips, and an API-key request also records the key's use) until all are terminal.
     */
    const waitAllTerminal = async (name: ServerName, account: Account, ids: string[], timeoutMs: number) => {
      const ends = new Map<string, { run: RunView; at: number }>();
      await waitUntil(`${ids.length} runs to end`, async () => {
        for (const id of ids.filter((i) => !ends.has(i))) {
          const run = await getRun(name, account, id);
          if (TERMINAL.has(run.status)) ends.set(id, { run, at: Date.now() });
        }
        return ends.size === ids.length ? true : undefined;
      }, timeoutMs, undefined, 300);
      return ids.map((id) => ends.get(id)!);
    };
    const events = (name: ServerName, account: Account, id: string): Promise<Frame[]> =>
      readEventStream(nodes[name].proc.url, id, account.apiKey, 20_000);
    const output = (name: ServerName) => nodes[name].proc.output().slice(-4000);

    beforeAll(async () => {
      const t0 = Date.now();
      web = await startHeldWeb();
      const onFakeWeb = {
        LEADFINDER_SEARCH: 'searxng', LEADFINDER_SEARXNG_URL: web.searxngUrl,
        LEADFINDER_FETCH_ALLOW_PRIVATE: '1', LEADFINDER_FETCH_RESOLVE: web.resolveEntry,
        // A held page must stay held for as long as a test waits on it (up to 30 s): with the 15 s default, a
        // run that reached its pages first gave them up while the others were still on their way, and moved on
        // to screening before the kill (seen once under a moved clock).
        LEADFINDER_FETCH_TIMEOUT_MS: '120000',
      };
      await Promise.all([
        // Runs on the fake web, whose pages can be held.
        start('main', onFakeWeb),
        // The same with a short lease, so a killed process's runs lapse fast. Kept apart from `main`:
        // on a loaded FerretDB a 3 s lease can lapse under 24 busy runs, and this suite is about money.
        start('crash', { ...onFakeWeb, LEADFINDER_LEASE_TTL_MS: String(LEASE_TTL_MS) }),
        // Sample-corpus runs spend about 0.04 USD: a 0.02 ceiling ends them mid-run.
        start('ceiling', { LEADFINDER_SPEND_CEILING_USD: '0.02' }),
        // A ceiling far above the 5.00 hold and prices that would spend more than 5.00 on the sample
        // corpus: only the hold can end these runs.
        start('hold', { LEADFINDER_SPEND_CEILING_USD: '50', LEADFINDER_PRICE_SEARCH_USD: '0.5', LEADFINDER_PRICE_PAGE_USD: '1.25' }),
      ]);
      console.info(`[${storage.name}] four servers ready in ${Date.now() - t0} ms`);
      // Four starts at once, beside other test files on two cores: start-up gets room of its own; no
      // assertion waits on it.
    }, 120_000);

    afterAll(async () => {
      web?.releasePages();
      await Promise.allSettled(Object.values(nodes).map((n) => n.proc.stop()));
      await web?.close();
      await storage.dropAll();
      rmSync(tmpRoot, { recursive: true, force: true });
    }, 60_000);

    it('accepts exactly floor(123.45 / 5.00) = 24 of 200 concurrent searches, refuses the rest with the §2.4 body and a terminal error row, and charges each run its last cost', async () => {
      const t0 = Date.now();
      const account = await openAccount('main', 123.45);
      web.holdPages();
      const watch = watchAccount(nodes.main.proc.url, ADMIN, account.id);
      let acceptedIds: string[] = [];
      let stoppedIds: string[] = [];
      let tAnswered = 0;
      try {
        const answers = await Promise.all(Array.from({ length: 200 }, () => post('main', account, 1)));
        tAnswered = Date.now();

        const accepted = answers.filter((a) => a.status === 202);
        const refused = answers.filter((a) => a.status === 402);
        expect(answers.filter((a) => a.status !== 202 && a.status !== 402).map((a) => `${a.status} ${JSON.stringify(a.body)}`)).toEqual([]);
        expect(accepted).toHaveLength(24);
        expect(refused).toHaveLength(176);
        acceptedIds = accepted.map((a) => (a.body as { id: string }).id);
        for (const a of accepted) expect(Object.keys(a.body as object).sort()).toEqual(['id', 'status']);
        // No run can settle while its pages are held, so every refusal saw balance 123.45 and 24 holds.
        for (const r of refused) {
          expect(r.body).toEqual({
            detail: {
              error: 'insufficient_balance',
              message: expect.stringMatching(/\S/),
              availableMicrousd: 3_450_000,
              availableUsd: '3.45',
              heldMicrousd: 24 * RESERVATION,
              neededMicrousd: RESERVATION,
              neededUsd: '5.00',
            },
          });
          const d = (r.body as { detail: { availableMicrousd: number; availableUsd: string } }).detail;
          expect(d.availableUsd).toBe(usdString(d.availableMicrousd));
        }
        expect(await money('main', account)).toEqual({ balanceMicrousd: 123_450_000, heldMicrousd: 120_000_000, availableMicrousd: 3_450_000 });

        // Every 402 wrote a terminal `error` row (all 176 are counted at rest); the list shows the newest 50.
        const list = await call(nodes.main.proc.url, account.apiKey, 'GET', '/v1/searches');
        expect(list.status).toBe(200);
        const listed = (list.body as { runs: (RunView & { createdAt: string; query: string })[] }).runs;
        expect(listed).toHaveLength(50);
        expect(isoOrder(listed)).toBe(true);
        const refusedRows = listed.filter((r) => !acceptedIds.includes(r.id));
        expect(refusedRows.length).toBeGreaterThanOrEqual(50 - 24);
        for (const row of refusedRows) {
          expect(row).toMatchObject({ status: 'error', usdDisplay: '$0.00', query: QUERY });
          expect('result' in row).toBe(false);
        }
        for (const row of listed.filter((r) => acceptedIds.includes(r.id))) expect(row.status).toBe('running');
        // A refusal row's event stream answers at once with no frames.
        expect(await events('main', account, refusedRows[0]!.id)).toEqual([]);

        // The coordinator drives some runs (held at their pages); stop the ones still queued, so the
        // books see both ends: runs that finish and runs stopped before they began.
        const waiting = await waitUntil('every accepted run to be queued or held at its pages', async () => {
          const runs = await Promise.all(acceptedIds.map((id) => getRun('main', account, id)));
          const held = runs.filter((r) => r.where === HELD_WHERE);
          return held.length > 0 && runs.every((r) => r.where === HELD_WHERE || r.where === 'queued') ? runs : undefined;
        }, 30_000, undefined, 300);
        stoppedIds = waiting.filter((r) => r.where === 'queued').map((r) => r.id);
        for (const id of stoppedIds) {
          const stop = await call(nodes.main.proc.url, account.apiKey, 'POST', `/v1/searches/${id}/stop`);
          expect(stop).toEqual({ status: 202, body: { id, status: 'running', stopRequested: true } });
        }
      } finally {
        web.releasePages();
      }

      const ends = await waitAllTerminal('main', account, acceptedIds, 90_000);
      const tDone = Date.now();
      let charged = 0;
      for (const { run } of ends) {
        const frames = await events('main', account, run.id);
        const tail = frames.slice(-4).map((f) => f.event);
        expect(tail.map((e) => e.type)).toEqual(['final', 'cost', 'usage', 'done']);
        expect(run.result).toEqual(tail[0]);
        if (stoppedIds.includes(run.id)) {
          expect(run.status, output('main')).toBe('stopped');
          expect(tail[0]).toMatchObject({ stopped: true });
          expect(tail[1]).toMatchObject({ stage: 'Stopped' });
          expect(tail[3]).toMatchObject({ stopped: true });
        } else {
          expect(run.status, output('main')).toBe('done');
          expect(lastCostMicros(frames)).toBeGreaterThan(0);
        }
        const charge = lastCostMicros(frames);
        expect(charge).toBeLessThanOrEqual(RESERVATION);
        expect(run.usdDisplay).toMatch(/^\$\d+\.\d{2,4}$/);
        expect(run.usdDisplay).toBe(microsToUsdDisplay(charge));
        expectedCharge.set(run.id, charge);
        charged += charge;
      }
      const seen = await watch.stop();
      expect(seen.violations).toEqual([]);
      expect(seen.samples.length).toBeGreaterThan(0);
      const after = await money('main', account);
      expect(after).toEqual({ balanceMicrousd: 123_450_000 - charged, heldMicrousd: 0, availableMicrousd: 123_450_000 - charged });
      console.info(`[${storage.name}] 200 POSTs answered in ${tAnswered - t0} ms; ${24 - stoppedIds.length} runs done and ${stoppedIds.length} stopped ${tDone - tAnswered} ms later; charged ${charged} µUSD; ${seen.samples.length} account samples`);
    }, 150_000);

    it('ends runs at the 0.02 USD spend ceiling `budget_exhausted` with the partial tail, never announcing more than 0.02, charged exactly the last cost', async () => {
      const account = await openAccount('ceiling', 20);
      const ids = await Promise.all([0, 1, 2].map(() => startRun('ceiling', account, 5)));
      const ends = await waitAllTerminal('ceiling', account, ids, 30_000);
      let charged = 0;
      for (const { run } of ends) {
        expect(run.status, output('ceiling')).toBe('budget_exhausted');
        const frames = await events('ceiling', account, run.id);
        const tail = frames.slice(-4).map((f) => f.event);
        expect(tail.map((e) => e.type)).toEqual(['final', 'cost', 'usage', 'done']);
        expect(tail[0]).toMatchObject({ stopped: true });
        expect(tail[1]).toMatchObject({ stage: 'Budget exhausted' });
        expect(tail[3]).toMatchObject({ stopped: true });
        expect(run.result).toEqual(tail[0]);
        for (const cost of costEvents(frames)) expect(cost.usd).toBeLessThanOrEqual(0.02);
        const charge = lastCostMicros(frames);
        expect(charge).toBeGreaterThan(0);
        expect(run.usdDisplay).toBe(microsToUsdDisplay(charge));
        expectedCharge.set(run.id, charge);
        charged += charge;
      }
      expect(await money('ceiling', account)).toEqual({ balanceMicrousd: 20_000_000 - charged, heldMicrousd: 0, availableMicrousd: 20_000_000 - charged });
      console.info(`[${storage.name}] ceiling runs charged ${ends.map(({ run }) => run.usdDisplay).join(', ')}`);
    }, 60_000);

    it('ends a run whose 5.00 balance runs out `budget_exhausted` at no more than its hold, though the ceiling is 50, and the account never goes negative', async () => {
      const account = await openAccount('hold', 5);
      const watch = watchAccount(nodes.hold.proc.url, ADMIN, account.id, 10);
      const id = await startRun('hold', account, 50);
      const { run } = (await waitAllTerminal('hold', account, [id], 30_000))[0]!;
      const seen = await watch.stop();
      expect(run.status, output('hold')).toBe('budget_exhausted');
      const frames = await events('hold', account, id);
      const tail = frames.slice(-4).map((f) => f.event);
      expect(tail.map((e) => e.type)).toEqual(['final', 'cost', 'usage', 'done']);
      expect(tail[0]).toMatchObject({ stopped: true });
      expect(tail[1]).toMatchObject({ stage: 'Budget exhausted' });
      expect(tail[3]).toMatchObject({ stopped: true });
      expect(run.result).toEqual(tail[0]);
      for (const cost of costEvents(frames)) expect(cost.usd).toBeLessThanOrEqual(5);
      const charge = lastCostMicros(frames);
      expect(charge).toBeGreaterThan(0);
      expect(charge).toBeLessThanOrEqual(RESERVATION);
      expect(run.usdDisplay).toBe(microsToUsdDisplay(charge));
      expectedCharge.set(id, charge);
      expect(seen.violations).toEqual([]);
      const after = await money('hold', account);
      expect(after).toEqual({ balanceMicrousd: RESERVATION - charge, heldMicrousd: 0, availableMicrousd: RESERVATION - charge });
      // What is left cannot cover another reservation: the next search is refused with the true figures.
      const again = await post('hold', account, 1);
      expect(again.status).toBe(402);
      expect(again.body).toMatchObject({ detail: { error: 'insufficient_balance', availableMicrousd: RESERVATION - charge, heldMicrousd: 0 } });
      console.info(`[${storage.name}] hold-bounded run charged ${run.usdDisplay} (${frames.length} events)`);
    }, 60_000);

    it('ends runs of a SIGKILLed server `interrupted` with `where` within the lease TTL of a restart on the same books, charged their persisted spend, holds released', async () => {
      const bystander = await openAccount('crash', 7.5);
      const account = await openAccount('crash', 20);
      web.holdPages();
      let ids: string[] = [];
      let killedAt = 0;
      try {
        ids = await Promise.all([0, 1, 2].map(() => startRun('crash', account, 1)));
        await waitUntil('all three runs to be opening pages', async () => {
          const runs = await Promise.all(ids.map((id) => getRun('crash', account, id)));
          return runs.every((r) => r.where === HELD_WHERE) ? true : undefined;
        }, 30_000, undefined, 200);
        killedAt = Date.now();
        await nodes.crash.proc.kill();
      } finally {
        web.releasePages();
      }
      await start('crash', nodes.crash.env, nodes.crash.dataDir);
      const readyAt = Date.now();

      const ends = await waitAllTerminal('crash', account, ids, LEASE_TTL_MS + 15_000);
      let charged = 0;
      for (const { run, at } of ends) {
        expect(run.status, output('crash')).toBe('interrupted');
        expect(run.where, output('crash')).toBe(HELD_WHERE);
        expect(run.result).toBeNull();
        expect(run.stopReason).toBeNull();
        // The lease lapses a TTL after its last renewal; the new reaper looks every TTL/3 (+ polling).
        expect(at - Math.max(readyAt, killedAt + LEASE_TTL_MS)).toBeLessThan(LEASE_TTL_MS);
        const costs = costEvents(await events('crash', account, run.id));
        // Search spend was persisted and announced before the pages were held; page spend counted in
        // memory died with the process. The interruption charges exactly the persisted, announced figure.
        expect(costs.length).toBeGreaterThanOrEqual(2);
        expect(costs.at(-1)!.stage).toBe('Interrupted');
        expect(costs.at(-1)!.usd).toBe(costs.at(-2)!.usd);
        const charge = Math.round(costs.at(-1)!.usd * 1_000_000);
        expect(charge).toBeGreaterThan(0);
        expect(run.usdDisplay).toBe(microsToUsdDisplay(charge));
        expectedCharge.set(run.id, charge);
        charged += charge;
        console.info(`[${storage.name}] killed run interrupted ${at - killedAt} ms after the kill (restart ready after ${readyAt - killedAt} ms), charged ${run.usdDisplay}`);
      }
      expect(await money('crash', account)).toEqual({ balanceMicrousd: 20_000_000 - charged, heldMicrousd: 0, availableMicrousd: 20_000_000 - charged });
      // An account with no run in flight came through the crash untouched.
      expect(await money('crash', bystander)).toEqual({ balanceMicrousd: 7_500_000, heldMicrousd: 0, availableMicrousd: 7_500_000 });
      // Room for the restart (a whole server start) on a loaded machine; the bound checked is the lease TTL after it.
    }, 120_000);

    it('at rest, every account satisfies the ledger invariants and every run is settled at its last cost', async () => {
      await Promise.all(Object.values(nodes).map((n) => n.proc.stop({ keepData: true })));
      let runsChecked = 0;
      let refusalRows = 0;
      for (const [name, node] of Object.entries(nodes)) {
        const store = await storage.openStore(name, node.dataDir);
        try {
          for (const accountId of node.accounts) {
            expect(await checkLedgerInvariants(store, accountId), `${name} ${accountId}`).toEqual([]);
            const account = (await store.accounts.get(accountId))!;
            expect(await store.accounts.listHolds(account.id)).toEqual({});
            for (const run of await store.runs.listRecent(accountId, 1000)) {
              runsChecked += 1;
              expect(TERMINAL.has(run.status)).toBe(true);
              expect(run.settled).toBe(true);
              if (run.holdMicrousd === 0) {
                refusalRows += 1;
                expect(run).toMatchObject({ status: 'error', chargeMicrousd: 0, result: null });
              } else {
                expect(run.chargeMicrousd, run.id).toBe(expectedCharge.get(run.id));
                // An interrupted run is charged its persisted spend.
                if (run.status === 'interrupted') expect(run.chargeMicrousd).toBe(run.spendMicrousd);
              }
            }
          }
        } finally {
          await store.close();
        }
      }
      // 200 POSTs + 3 ceiling runs + the hold-bounded run and its refused successor + 3 killed runs.
      expect(runsChecked).toBe(200 + 3 + 2 + 3);
      expect(refusalRows).toBe(176 + 1);
    }, 60_000);
  });
}

describeMoney(embedded);
describeMoney(mongo(mongoUrl));
