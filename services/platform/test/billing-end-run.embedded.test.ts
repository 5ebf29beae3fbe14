import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { silentLogger } from '@leadfinder/platform';
import { createEmbeddedStore } from '@leadfinder/platform/embedded';
import { describeEndRunContract } from './billing-end-run-contract.js';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

describeEndRunContract('embedded', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'lf-end-run-'));
  dirs.push(dir);
  return createEmbeddedStore({ dataDir: dir, logger: silentLogger });
});
