import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../logger.js';
import type { AccountDoc, Store } from '../../ports/store.js';
import { createEmbeddedStore } from './store.js';

const dirs: string[] = [];
async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'lf-accounts-'));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

const open = (dataDir: string, compactAfterLines?: number) =>
  createEmbeddedStore({ dataDir, logger: silentLogger, ...(compactAfterLines ? { compactAfterLines } : {}) });
const runId = (i: number) => i.toString(16).padStart(32, '0');
/** The account with its open holds, as one plain object to compare. */
const plain = async (store: Store, id: string): Promise<(AccountDoc & { holds: Record<string, number> }) | null> => {
  const doc = await store.accounts.get(id);
  return doc ? { ...doc, holds: await store.accounts.listHolds(id) } : null;
};

async function busyAccount(store: Store): Promise<void> {
  await store.accounts.create({ id: 'acc_a', email: 'a@example.com', createdAt: '2030-01-01T00:00:00.000Z' });
  await store.accounts.topup('acc_a', 1_000_000_000, 'k1', 'x');
  for (let i = 0; i < 150; i++) await store.accounts.reserve('acc_a', runId(i), 5_000_000);
  for (let i = 0; i < 150; i += 3) await store.accounts.settle('acc_a', runId(i), 1_000_000);
}

describe('embedded accounts', () => {
  it('writes a reservation as a short journal line however many holds the account already has', async () => {
    const dataDir = await freshDir();
    const store = await open(dataDir);
    await busyAccount(store);
    await store.close();
    const lines = (await readFile(join(dataDir, 'store.jsonl'), 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(2 + 150 + 50);
    expect(Math.max(...lines.slice(2).map((l) => l.length))).toBeLessThan(300);
  });

  it('comes back after a restart, and after compaction, exactly as it was left', async () => {
    const dataDir = await freshDir();
    const first = await open(dataDir);
    await busyAccount(first);
    await first.accounts.create({ id: 'acc_b', email: null, createdAt: 'x' });
    await first.accounts.close('acc_b');
    const before = { a: await plain(first, 'acc_a'), b: await plain(first, 'acc_b') };
    expect(Object.keys(before.a!.holds)).toHaveLength(100);
    expect(before.a).toMatchObject({ balanceMicrousd: 950_000_000, heldMicrousd: 500_000_000, availableMicrousd: 450_000_000 });
    await first.close();

    const second = await open(dataDir);
    expect({ a: await plain(second, 'acc_a'), b: await plain(second, 'acc_b') }).toEqual(before);
    // A replayed top-up key and a replayed reservation still change nothing.
    await second.accounts.topup('acc_a', 1_000_000_000, 'k1', 'x');
    expect(await second.accounts.reserve('acc_a', runId(1), 5_000_000)).toMatchObject({ ok: true });
    expect(await plain(second, 'acc_a')).toEqual(before.a);
    // A run whose hold was settled holds nothing again, after a restart too.
    expect(await second.accounts.reserve('acc_a', runId(0), 5_000_000)).toMatchObject({ ok: true, holdMicrousd: 5_000_000 });
    expect(await plain(second, 'acc_a')).toEqual(before.a);
    await second.close();

    const compacted = await open(dataDir, 10);
    expect({ a: await plain(compacted, 'acc_a'), b: await plain(compacted, 'acc_b') }).toEqual(before);
    expect(await compacted.accounts.reserve('acc_a', runId(0), 5_000_000)).toMatchObject({ ok: true, holdMicrousd: 5_000_000 });
    expect(await plain(compacted, 'acc_a')).toEqual(before.a);
    await compacted.close();
    expect((await readFile(join(dataDir, 'store.jsonl'), 'utf8')).trim().split('\n')).toHaveLength(2);
  });

  it('reads journals that hold whole account documents', async () => {
    const dataDir = await freshDir();
    const record = {
      id: 'acc_old', email: null, status: 'active', balanceMicrousd: 20, heldMicrousd: 5, availableMicrousd: 15,
      holds: { [runId(1)]: 5 }, createdAt: 'x', topupKeys: ['k1'],
    };
    await appendFile(join(dataDir, 'store.jsonl'), JSON.stringify({ c: 'accounts', id: 'acc_old', doc: record }) + '\n');
    const store = await open(dataDir);
    expect(await store.accounts.settle('acc_old', runId(1), 2)).toEqual({ applied: true, holdMicrousd: 5 });
    expect(await store.accounts.topup('acc_old', 7, 'k1', 'x')).toMatchObject({ balanceMicrousd: 18 });
    await store.close();
    const again = await open(dataDir);
    expect(await plain(again, 'acc_old')).toMatchObject({ balanceMicrousd: 18, heldMicrousd: 0, availableMicrousd: 18, holds: {} });
    await again.close();
  });

  it('hands out accounts and holds that later changes do not alter', async () => {
    const store = await open(await freshDir());
    await store.accounts.create({ id: 'acc_a', email: null, createdAt: 'x' });
    await store.accounts.topup('acc_a', 1_000_000_000, 'k1', 'x');
    await store.accounts.reserve('acc_a', runId(0), 5);
    const early = await store.accounts.get('acc_a');
    const earlyHolds = await store.accounts.listHolds('acc_a');
    const reserved = await store.accounts.reserve('acc_a', runId(1), 5);
    for (let i = 2; i < 300; i++) await store.accounts.reserve('acc_a', runId(i), 5);
    for (let i = 0; i < 300; i += 2) await store.accounts.settle('acc_a', runId(i), 0);
    expect(earlyHolds).toEqual({ [runId(0)]: 5 });
    expect(early!.heldMicrousd).toBe(5);
    expect(reserved).toMatchObject({ ok: true, holdMicrousd: 5, account: { heldMicrousd: 10 } });
    const holds = await store.accounts.listHolds('acc_a');
    expect(Object.keys(holds)).toHaveLength(150);
    expect((await store.accounts.get('acc_a'))!.heldMicrousd).toBe(750);
    // A caller may edit its copies without touching the store's.
    holds[runId(1)] = 99;
    early!.balanceMicrousd = 1;
    expect((await store.accounts.listHolds('acc_a'))[runId(1)]).toBe(5);
    expect((await store.accounts.get('acc_a'))!.balanceMicrousd).toBe(1_000_000_000);
    await store.close();
  });

  it('journals a lease renewal as a short line, not the run', async () => {
    const dataDir = await freshDir();
    const store = await open(dataDir);
    const run = {
      id: runId(7), accountId: 'acc_a', query: 'q'.repeat(2000), target: 10, speed: 'advanced' as const, relax: true, sites: '',
      status: 'running' as const, where: 'queued', spendMicrousd: 0, holdMicrousd: 5, chargeMicrousd: null, settled: false,
      usdDisplay: '$0.00', stopReason: null, deadlineAt: 'z', createdAt: 'x', updatedAt: 'x', finishedAt: null, result: null,
      lease: null, started: false, trace: {},
    };
    await store.runs.insert(run);
    const claimed = await store.runs.claim(run.id, 'coord-1', 1000, 0);
    const size = async () => (await readFile(join(dataDir, 'store.jsonl'), 'utf8')).length;
    const before = await size();
    const renewed = await store.runs.renew(run.id, claimed!.lease, 1000, 500);
    expect(renewed).toEqual({ owner: 'coord-1', epoch: 1, expiresAt: 1500 });
    expect((await size()) - before).toBeLessThan(200);
    await store.close();
    const again = await open(dataDir);
    expect((await again.runs.get(run.id))!.lease).toEqual(renewed);
    expect(await again.runs.claim(run.id, 'coord-2', 1000, 1499)).toBeNull();
    await again.close();
  });
});
