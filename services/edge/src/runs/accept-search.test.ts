import { afterAll, beforeAll, expect, it } from 'vitest';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { bearer, startHarness } from '../../test/harness.js';
import type { Harness } from '../../test/harness.js';

let h: Harness;
let provider: NodeTracerProvider;

beforeAll(async () => {
  // Registers the W3C propagator and an async-hooks context manager, as the telemetry start-up does.
  provider = new NodeTracerProvider();
  provider.register();
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
  await provider.shutdown();
});

it('carries the trace context of the accepting request in the run and its work message', async () => {
  const { apiKey } = await h.createAccount(10);
  const res = await h.app.inject({ method: 'POST', url: '/v1/searches', headers: bearer(apiKey), payload: { q: 'fintech startups' } });
  const id = res.json().id;
  const message = h.enqueued.find((e) => e.runId === id);
  expect(message?.headers.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/);
  expect((await h.deps.store.runs.get(id))?.trace).toEqual(message?.headers);
});
