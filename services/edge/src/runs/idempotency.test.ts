import { afterAll, beforeAll, describe } from 'vitest';
import { ADMIN_TOKEN, startHarness } from '../../test/harness.js';
import type { Harness } from '../../test/harness.js';
import { idempotencySuite } from '../../test/idempotency-suite.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

describe('Idempotency-Key on POST /v1/searches, embedded store', () => {
  idempotencySuite(() => ({ apps: [h.app], store: h.deps.store, clock: h.clock, createAccount: h.createAccount, adminToken: ADMIN_TOKEN }), { concurrency: 200 });
});
