import { afterAll, beforeAll, expect, it } from 'vitest';
import { assertLedgerInvariants } from '@leadfinder/platform';
import { createInMemoryTelemetry, type InMemoryTelemetry } from '@leadfinder/platform/telemetry';
import { bearer, startHarness } from '../../test/harness.js';
import type { Harness } from '../../test/harness.js';

let h: Harness;
let telemetry: InMemoryTelemetry;

beforeAll(async () => {
  // Registers the W3C propagator and an async-hooks context manager, as the telemetry start-up does.
  telemetry = createInMemoryTelemetry();
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
  await telemetry.shutdown();
});

it('carries the trace context of the accepting request in the run and its work message', async () => {
  const { apiKey } = await h.createAccount(10);
  const res = await h.app.inject({ method: 'POST', url: '/v1/searches', headers: bearer(apiKey), payload: { q: 'fintech startups' } });
  const id = res.json().id;
  const message = h.enqueued.find((e) => e.runId === id);
  expect(message?.headers.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/);
  expect((await h.deps.store.runs.get(id))?.trace).toEqual(message?.headers);
});

it.each(['store.runs.insert', 'work.enqueue'])('gives the hold back through the ledger when %s fails after the reservation', async (fault) => {
  const account = await h.createAccount(10);
  h.faults.add(fault);
  try {
    const res = await h.app.inject({ method: 'POST', url: '/v1/searches', headers: bearer(account.apiKey), payload: { q: 'fintech startups' } });
    expect(res.statusCode).toBe(500);
  } finally {
    h.faults.delete(fault);
  }
  const entries = await h.deps.store.ledger.list(account.id);
  const runId = entries.find((e) => e.kind === 'hold')!.runId;
  // The hold, a charge of 0 and the release: the account and its ledger agree.
  expect(entries.filter((e) => e.runId === runId).map((e) => [e.kind, e.micros]).sort()).toEqual([['charge', 0], ['hold', 5_000_000], ['release', 5_000_000]]);
  await assertLedgerInvariants(h.deps.store, account.id);
  // A run that was recorded ends `error`, settled; one whose insert failed leaves no record.
  const run = await h.deps.store.runs.get(runId!);
  if (fault === 'work.enqueue') expect(run).toMatchObject({ status: 'error', chargeMicrousd: 0, settled: true });
  else expect(run).toBeNull();
});
