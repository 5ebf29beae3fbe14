import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpanKind } from '@opentelemetry/api';
import { tracer } from '@leadfinder/platform';
import { createInMemoryTelemetry, type InMemoryTelemetry } from '@leadfinder/platform/telemetry';
import { recordSkippedSuite, serverUrl, uniqueName } from '@leadfinder/testkit';

// The instrumentations are enabled before the MongoDB driver loads (imported below, not at the top), as
// the service does: startTelemetry runs first, the MongoDB adapter is imported afterwards.
const telemetry: InMemoryTelemetry = createInMemoryTelemetry({ instrumentations: true });
const mongoUrl = await serverUrl('mongodb');
if (!mongoUrl) recordSkippedSuite('services/platform/test/instrumentations.mongo.int.test.ts', 'mongodb');

const page = createServer((req, res) => {
  res.writeHead(req.url === '/missing' ? 404 : 200, { 'content-type': 'text/html' }).end('<h1>hello</h1>');
});
let base = '';
beforeAll(async () => {
  await new Promise<void>((r) => page.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => page.close(() => r()));
  await telemetry.shutdown();
});

describe('official instrumentations', () => {
  it('a fetch through undici (global fetch and undici.request) is a CLIENT span under the caller, with host and status', async () => {
    telemetry.reset();
    const { request } = await import('undici');
    const parent = await tracer('test').startActiveSpan('open pages', async (span) => {
      await (await fetch(`${base}/page`)).text();
      await (await request(`${base}/missing`)).body.text();
      span.end();
      return span;
    });
    const clients = telemetry.spans().filter((s) => s.kind === SpanKind.CLIENT);
    expect(clients).toHaveLength(2);
    for (const span of clients) {
      expect(span.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
      expect(span.attributes['server.address']).toBe('127.0.0.1');
      expect(span.attributes['http.request.method']).toBe('GET');
    }
    expect(clients.map((s) => s.attributes['http.response.status_code']).sort()).toEqual([200, 404]);
    expect(clients.map((s) => s.attributes['url.full'])).toContain(`${base}/page`);
  });

  it.skipIf(!mongoUrl)('a MongoDB command is a CLIENT span under the caller, naming collection and operation but no values', async () => {
    telemetry.reset();
    const { MongoClient } = await import('mongodb');
    const client = new MongoClient(mongoUrl!);
    await client.connect();
    const db = uniqueName('instr').toLowerCase();
    try {
      await tracer('test').startActiveSpan('store write', async (span) => {
        await client.db(db).collection('runs').insertOne({ _id: 'run_1' as never, query: 'secret-ish user query' });
        await client.db(db).collection('runs').findOne({ _id: 'run_1' as never });
        span.end();
      });
      const commands = telemetry.spans().filter((s) => s.attributes['db.system'] === 'mongodb');
      expect(commands.map((s) => s.attributes['db.operation'])).toEqual(expect.arrayContaining(['insert', 'find']));
      const parent = telemetry.spans().find((s) => s.name === 'store write')!;
      for (const span of commands) {
        expect(span.kind).toBe(SpanKind.CLIENT);
        expect(span.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
        expect(span.attributes['db.mongodb.collection']).toBe('runs');
        expect(JSON.stringify(span.attributes)).not.toContain('secret-ish');
      }
    } finally {
      await client.db(db).dropDatabase().catch(() => undefined);
      await client.close();
    }
  });
});
