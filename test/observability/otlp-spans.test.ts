/**
 * What a real edge process exports over OTLP/HTTP for one accepted search, with the SDK and
 * instrumentations exactly as `leadfinder serve` starts them: the POST, `search.accept`, the MongoDB
 * commands of the hold and the run insert (official instrumentation) and the work message's PRODUCER
 * span, all in one trace, the one the 202's `traceparent` names. This guards against instrumentation
 * that silently suppresses tracing (an ignored incoming request in @opentelemetry/instrumentation-http
 * runs its handler with tracing off) and against the driver loading before it is patched.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueName } from '@leadfinder/testkit';
import { createAccount, distributedServers, dropTestDatabase, startNatsServer, startRole } from '../e2e/distributed-harness.js';
import type { Proc, RoleProc } from '../e2e/distributed-harness.js';
import { readTraceRequest } from './otlp-collector.js';

const SUITE = 'test/observability/otlp-spans.test.ts';
const ADMIN = 'otlp-admin-token-0123456789abcdefghijkl';
const { mongoUrl, natsBin, ready: serversReady } = await distributedServers(SUITE);

/** One exported span, as OTLP/JSON carries it. */
interface OtlpSpan { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; scope: string; attributes: Record<string, unknown> }

/** An OTLP/HTTP collector on loopback that keeps every span it is sent (protobuf, the default, or JSON). */
async function startCollector(): Promise<{ url: string; spans: OtlpSpan[]; close(): Promise<void> }> {
  const spans: OtlpSpan[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const doc = readTraceRequest<{ resourceSpans: { scopeSpans: { scope: { name: string }; spans: (Omit<OtlpSpan, 'scope' | 'attributes'> & { attributes?: { key: string; value: Record<string, unknown> }[] })[] }[] }[] }>(req.headers['content-type'], Buffer.concat(chunks));
        for (const rs of doc.resourceSpans) for (const ss of rs.scopeSpans) for (const s of ss.spans) {
          const attributes = Object.fromEntries((s.attributes ?? []).map((a) => [a.key, Object.values(a.value)[0]]));
          spans.push({ ...s, scope: ss.scope.name, attributes });
        }
      }
      if (req.headers['content-type'] === 'application/x-protobuf') res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

describe.skipIf(!serversReady)('OTLP spans of a real edge process', () => {
  const tmpRoot = mkdtempSync(join(tmpdir(), 'lf-otlp-'));
  const dbName = uniqueName('lf_otlp');
  let nats: Proc & { url: string };
  let edge: RoleProc;
  let collector: Awaited<ReturnType<typeof startCollector>>;
  let traceparent = '';

  beforeAll(async () => {
    collector = await startCollector();
    // A nats-server of its own: the work message this edge publishes must not reach another suite's coordinator.
    nats = await startNatsServer(natsBin, join(tmpRoot, 'jetstream'));
    edge = await startRole('edge', 'edge', {
      LEADFINDER_MONGODB_URL: mongoUrl!, LEADFINDER_MONGODB_DB: dbName, LEADFINDER_NATS_URL: nats.url,
      LEADFINDER_SESSION_SECRET: 'otlp-session-secret-0123456789abcdefgh', LEADFINDER_ADMIN_TOKEN: ADMIN,
      LEADFINDER_DATA_DIR: mkdtempSync(join(tmpRoot, 'edge-')), OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
    });
    const { apiKey } = await createAccount(edge.url!, ADMIN, 25);
    const accepted = await fetch(`${edge.url}/v1/searches`, {
      method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ q: 'startups based in Berlin', target: 3 }),
    });
    expect(accepted.status).toBe(202);
    traceparent = accepted.headers.get('traceparent') ?? '';
    // Stopping flushes the batch span processor.
    expect(await edge.stop(10_000)).toBe(0);
  }, 120_000);

  afterAll(async () => {
    await edge?.stop(5000);
    await nats?.stop(5000);
    await collector?.close();
    await dropTestDatabase(mongoUrl, dbName);
    rmSync(tmpRoot, { recursive: true, force: true });
  });

  it('exports the POST, search.accept, its MongoDB commands and the work publish in the trace the 202 names', () => {
    expect(traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    const traceId = traceparent.split('-')[1]!;
    const inTrace = collector.spans.filter((s) => s.traceId === traceId);
    const post = inTrace.find((s) => s.name === 'POST /v1/searches');
    const accept = inTrace.find((s) => s.name === 'search.accept');
    expect(post, `spans in the trace: ${inTrace.map((s) => s.name).join(', ')}`).toBeDefined();
    expect(accept?.parentSpanId).toBe(post!.spanId);
    // The run's trace context (and so the header) is search.accept's.
    expect(traceparent.split('-')[2]).toBe(accept!.spanId);

    const mongo = inTrace.filter((s) => s.scope === '@opentelemetry/instrumentation-mongodb');
    expect(mongo.length).toBeGreaterThan(0);
    expect(new Set(mongo.map((s) => s.attributes['db.operation']))).toContain('insert');
    const ids = new Set(inTrace.map((s) => s.spanId));
    for (const s of mongo) expect(ids.has(s.parentSpanId ?? '')).toBe(true);

    const publish = inTrace.find((s) => s.name === 'publish work.runs');
    expect(publish?.kind).toBe(4); // PRODUCER in OTLP's SpanKind numbering (SPAN_KIND_PRODUCER = 4)
    expect(publish?.parentSpanId).toBe(accept!.spanId);
    expect(publish?.attributes['messaging.system']).toBe('nats');
  });
});
