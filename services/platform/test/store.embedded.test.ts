import { readFileSync } from 'node:fs';
import { appendFile, chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createBilling, silentLogger } from '@leadfinder/platform';
import { createEmbeddedStore, DataDirError } from '@leadfinder/platform/embedded';
import { describeBillingContract, describeStoreContract, makeRun, type MeteredStore } from './store-contract.js';

const dirs: string[] = [];
async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'lf-store-'));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

const makeStore = async () => createEmbeddedStore({ dataDir: await freshDir(), logger: silentLogger });
/** The embedded store's traffic is its journal: lines and bytes written so far. */
async function makeMeteredStore(): Promise<MeteredStore> {
  const dataDir = await freshDir();
  const store = await createEmbeddedStore({ dataDir, logger: silentLogger });
  return {
    ...store,
    traffic() {
      const text = readFileSync(join(dataDir, 'store.jsonl'), 'utf8');
      return { requests: text.split('\n').length - 1, bytes: Buffer.byteLength(text) };
    },
  };
}
describeStoreContract('embedded', makeMeteredStore);
describeBillingContract('embedded', makeStore);

describe('embedded store on disk', () => {
  it('keeps runs, accounts, ledger entries and keys across a restart', async () => {
    const dataDir = await freshDir();
    const first = await createEmbeddedStore({ dataDir, logger: silentLogger });
    const billing = createBilling({ store: first, clock: { now: () => 0 }, logger: silentLogger });
    await first.accounts.create({ id: 'acc_a', email: null, createdAt: '2030-01-01T00:00:00.000Z' });
    await billing.topup('acc_a', 20_000_000, 'k1');
    const run = makeRun();
    await billing.reserve('acc_a', run.id, 5_000_000);
    await first.runs.insert(run);
    await first.runs.claim(run.id, 'coord-1', 10_000, 0);
    await first.close();

    const second = await createEmbeddedStore({ dataDir, logger: silentLogger });
    expect(await second.accounts.get('acc_a')).toMatchObject({ balanceMicrousd: 20_000_000, heldMicrousd: 5_000_000 });
    expect((await second.runs.get(run.id))?.lease).toMatchObject({ owner: 'coord-1', epoch: 1 });
    expect((await second.ledger.list('acc_a')).map((e) => e.key)).toEqual(['topup:acc_a:k1', `hold:${run.id}`]);
    // Idempotency survives the restart too.
    expect(await second.accounts.topup('acc_a', 20_000_000, 'k1', 'x')).toMatchObject({ balanceMicrousd: 20_000_000 });
    await second.close();
  });

  it('keeps its folder 0700 and its file 0600 (also after a compaction), tightening ones left open', async () => {
    const mode = async (path: string) => (await stat(path)).mode & 0o777;
    const dataDir = join(await freshDir(), 'store');
    await mkdir(dataDir, { mode: 0o755 });
    await chmod(dataDir, 0o755);
    await writeFile(join(dataDir, 'store.jsonl'), '', { mode: 0o644 });
    await chmod(join(dataDir, 'store.jsonl'), 0o644);
    const store = await createEmbeddedStore({ dataDir, logger: silentLogger });
    await store.accounts.create({ id: 'acc_a', email: 'a@example.com', createdAt: 'x' });
    await store.close();
    expect(await mode(dataDir)).toBe(0o700);
    expect(await mode(join(dataDir, 'store.jsonl'))).toBe(0o600);
    const compacted = await createEmbeddedStore({ dataDir, logger: silentLogger, compactAfterLines: 0 });
    await compacted.close();
    expect(await mode(join(dataDir, 'store.jsonl'))).toBe(0o600);
  });

  it('keeps tombstones and session versions across a restart and a compaction', async () => {
    const dataDir = await freshDir();
    const first = await createEmbeddedStore({ dataDir, logger: silentLogger });
    await first.accounts.create({ id: 'acc_gone', email: null, createdAt: 'x' });
    await first.accounts.delete('acc_gone');
    await first.accounts.create({ id: 'acc_kept', email: null, createdAt: 'x' });
    await first.accounts.revokeSessions('acc_kept');
    await first.close();
    for (const compactAfterLines of [10_000, 0]) {
      const again = await createEmbeddedStore({ dataDir, logger: silentLogger, compactAfterLines });
      await expect(again.accounts.create({ id: 'acc_gone', email: null, createdAt: 'y' })).rejects.toMatchObject({ code: 'LF_ERR_CONFLICT' });
      expect(await again.accounts.get('acc_kept')).toMatchObject({ sessionVersion: 1 });
      await again.close();
    }
  });

  it('has every change a reader can see in its file already, so a process killed then loses none of them', async () => {
    const dataDir = await freshDir();
    const store = await createEmbeddedStore({ dataDir, logger: silentLogger });
    const run = makeRun();
    await store.runs.insert(run);
    const { lease } = (await store.runs.claim(run.id, 'coord-1', 10_000, 0))!;
    // Two progress writes in a row, neither awaited: the first one's disk sync is still in flight when the
    // second is made (a run moving on while the disk is slow). A poll sees the second at once...
    const writes = [
      store.runs.progress(run.id, lease, { where: 'round 1 · screening' }, 1),
      store.runs.progress(run.id, lease, { where: 'round 1 · opening pages' }, 2),
    ];
    expect((await store.runs.get(run.id))?.where).toBe('round 1 · opening pages');
    // ...and a process killed (SIGKILL) right after that poll keeps what the OS has: the file as it is now.
    const copy = join(await freshDir(), 'store.jsonl');
    await writeFile(copy, readFileSync(join(dataDir, 'store.jsonl')));
    await Promise.all(writes);
    await store.close();
    const reopened = await createEmbeddedStore({ dataDir: dirname(copy), logger: silentLogger });
    expect((await reopened.runs.get(run.id))?.where).toBe('round 1 · opening pages');
    await reopened.close();
  });

  it('ignores a last line torn by a crash and keeps appending cleanly after it', async () => {
    const dataDir = await freshDir();
    const first = await createEmbeddedStore({ dataDir, logger: silentLogger });
    await first.accounts.create({ id: 'acc_a', email: null, createdAt: 'x' });
    await first.close();
    await appendFile(join(dataDir, 'store.jsonl'), '{"c":"accounts","id":"acc_b","doc":{"id":');

    const second = await createEmbeddedStore({ dataDir, logger: silentLogger });
    expect(await second.accounts.get('acc_b')).toBeNull();
    await second.accounts.create({ id: 'acc_c', email: null, createdAt: 'x' });
    await second.close();
    const third = await createEmbeddedStore({ dataDir, logger: silentLogger });
    expect((await third.accounts.get('acc_a'))?.id).toBe('acc_a');
    expect((await third.accounts.get('acc_c'))?.id).toBe('acc_c');
    await third.close();
  });

  it('compacts a long journal on start-up without losing state', async () => {
    const dataDir = await freshDir();
    const first = await createEmbeddedStore({ dataDir, logger: silentLogger });
    await first.accounts.create({ id: 'acc_a', email: null, createdAt: 'x' });
    for (let i = 0; i < 30; i++) await first.accounts.topup('acc_a', 1, `k${i}`, 'x');
    await first.close();
    const second = await createEmbeddedStore({ dataDir, logger: silentLogger, compactAfterLines: 10 });
    expect((await second.accounts.get('acc_a'))?.balanceMicrousd).toBe(30);
    await second.close();
    expect((await readFile(join(dataDir, 'store.jsonl'), 'utf8')).trim().split('\n')).toHaveLength(1);
  });

  it('refuses a data dir it cannot write with an error naming the path', async () => {
    const parent = await freshDir();
    const notADir = join(parent, 'file');
    await writeFile(notADir, 'x');
    const error = await createEmbeddedStore({ dataDir: join(notADir, 'data'), logger: silentLogger }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataDirError);
    expect((error as Error).message).toContain(join(notADir, 'data'));

    if (process.getuid?.() !== 0) {
      const readOnly = join(parent, 'ro');
      await createEmbeddedStore({ dataDir: readOnly, logger: silentLogger }).then((s) => s.close());
      await chmod(readOnly, 0o500);
      await expect(createEmbeddedStore({ dataDir: readOnly, logger: silentLogger })).rejects.toBeInstanceOf(DataDirError);
      await chmod(readOnly, 0o700);
    }
  });
});
