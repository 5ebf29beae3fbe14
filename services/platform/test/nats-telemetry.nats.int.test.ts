import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SpanKind, context, trace } from '@opentelemetry/api';
import { silentLogger, tracer, withExtractedContext } from '@leadfinder/platform';
import { connectNats, createNatsEventLog, createNatsStopFlags, createNatsWorkQueue, type NatsHandle } from '@leadfinder/platform/nats';
import { createInMemoryTelemetry, type InMemoryTelemetry } from '@leadfinder/platform/telemetry';
import { recordSkippedSuite, serverUrl, uniqueName } from '@leadfinder/testkit';

const url = await serverUrl('nats');
if (!url) recordSkippedSuite('services/platform/test/nats-telemetry.nats.int.test.ts', 'nats');

let nats: NatsHandle;
let telemetry: InMemoryTelemetry | undefined;
const cleanups: (() => Promise<unknown>)[] = [];
beforeAll(async () => {
  if (url) nats = await connectNats({ url, name: 'nats-telemetry-test', logger: silentLogger });
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
  await telemetry?.shutdown();
  telemetry = undefined;
});
afterAll(async () => {
  await nats?.close();
});

const runId = () => `run_${randomUUID().replaceAll('-', '')}`;

async function consumerCount(stream: string): Promise<number> {
  let n = 0;
  for await (const _ of nats.jsm.consumers.list(stream)) n++;
  return n;
}

describe.skipIf(!url)('NATS work queue tracing (real JetStream)', () => {
  it('a work message carries the trace end to end: PRODUCER publish, then receive and process under it', async () => {
    telemetry = createInMemoryTelemetry();
    const stream = uniqueName('WORK');
    const subject = `${stream.toLowerCase()}.runs`;
    const queue = await createNatsWorkQueue({ nats, logger: silentLogger, stream, subject });
    cleanups.push(() => nats.jsm.streams.delete(stream), () => queue.close());

    const id = runId();
    // As the edge does: the request span is active and the run's trace carrier is its context.
    const request = tracer('test').startSpan('POST /v1/searches', { kind: SpanKind.SERVER });
    await context.with(trace.setSpan(context.active(), request), async () => {
      await queue.enqueue(id, {});
    });
    request.end();

    const subscription = queue.consume({ ackWaitMs: 30_000, maxInFlight: 1 });
    cleanups.push(() => subscription.stop());
    const iterator = subscription[Symbol.asyncIterator]();
    const { value: item } = await iterator.next();
    expect(item.runId).toBe(id);
    // Another process (the coordinator) continues from the headers alone.
    const processSpan = withExtractedContext(item.headers, () => tracer('test').startSpan('process', { kind: SpanKind.CONSUMER }));
    processSpan.end();
    await item.ack();

    const spans = telemetry.spans();
    const publish = spans.find((s) => s.name === `publish ${subject}`)!;
    const receive = spans.find((s) => s.name === `receive ${subject}`)!;
    expect(publish.kind).toBe(SpanKind.PRODUCER);
    // Pull-based receive is a CLIENT span in the messaging conventions; the delivery's CONSUMER span is `process`.
    expect(receive.kind).toBe(SpanKind.CLIENT);
    const traceId = request.spanContext().traceId;
    expect(publish.spanContext().traceId).toBe(traceId);
    expect(publish.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    expect(receive.spanContext().traceId).toBe(traceId);
    expect(receive.parentSpanContext?.spanId).toBe(publish.spanContext().spanId);
    expect(processSpan.spanContext().traceId).toBe(traceId);
    expect(spans.find((s) => s.name === 'process')?.parentSpanContext?.spanId).toBe(publish.spanContext().spanId);
    expect(item.headers.traceparent).toBe(`00-${traceId}-${publish.spanContext().spanId}-01`);
    expect(publish.attributes).toMatchObject({
      'messaging.system': 'nats', 'messaging.destination.name': subject, 'messaging.operation': 'publish', 'leadfinder.run_id': id,
    });
    expect(receive.attributes).toMatchObject({ 'messaging.operation': 'receive', 'messaging.nats.delivery_count': 1, 'leadfinder.run_id': id });
    expect(Number(receive.attributes['messaging.message.id'])).toBeGreaterThan(0);
  });

  it('a re-enqueue from elsewhere continues the trace carried in the headers, not the active span', async () => {
    telemetry = createInMemoryTelemetry();
    const stream = uniqueName('WORK');
    const subject = `${stream.toLowerCase()}.runs`;
    const queue = await createNatsWorkQueue({ nats, logger: silentLogger, stream, subject });
    cleanups.push(() => nats.jsm.streams.delete(stream), () => queue.close());
    const original = tracer('test').startSpan('original request');
    const carrier = { traceparent: `00-${original.spanContext().traceId}-${original.spanContext().spanId}-01` };
    original.end();
    const unrelated = tracer('test').startSpan('reconciler sweep');
    await context.with(trace.setSpan(context.active(), unrelated), () => queue.enqueue(runId(), carrier));
    unrelated.end();
    const publish = telemetry.spans().find((s) => s.name === `publish ${subject}`)!;
    expect(publish.spanContext().traceId).toBe(original.spanContext().traceId);
    expect(publish.parentSpanContext?.spanId).toBe(original.spanContext().spanId);
  });
});

describe.skipIf(!url)('NATS leaves nothing behind per run (real JetStream)', () => {
  it('50 stop-flag waits (25 raised, 25 ended by their run) leave no consumer on the KV stream, and waits still wake', async () => {
    const bucket = uniqueName('stops');
    const stops = await createNatsStopFlags({ nats, logger: silentLogger, stopBucket: bucket });
    cleanups.push(() => nats.jsm.streams.delete(`KV_${bucket}`), () => stops.close());
    const woke: boolean[] = [];
    for (let i = 0; i < 50; i++) {
      const id = runId();
      const run = new AbortController();
      const waiting = stops.wait(id, run.signal);
      if (i % 2 === 0) {
        await stops.raise(id);
      } else {
        run.abort();
      }
      woke.push(await waiting);
    }
    expect(woke.filter(Boolean)).toHaveLength(25);
    expect(await consumerCount(`KV_${bucket}`)).toBe(0);
  });

  it('a flag raised before the wait began ends it at once', async () => {
    const bucket = uniqueName('stops');
    const stops = await createNatsStopFlags({ nats, logger: silentLogger, stopBucket: bucket });
    cleanups.push(() => nats.jsm.streams.delete(`KV_${bucket}`), () => stops.close());
    const id = runId();
    await stops.raise(id);
    expect(await stops.wait(id, new AbortController().signal)).toBe(true);
    expect(await consumerCount(`KV_${bucket}`)).toBe(0);
  });

  it('50 follow/close cycles on the event log leave no consumer on the events stream', async () => {
    const stream = uniqueName('EVENTS');
    const log = await createNatsEventLog({ nats, logger: silentLogger, stream, subjectPrefix: stream.toLowerCase() });
    cleanups.push(() => nats.jsm.streams.delete(stream), () => log.close());
    for (let i = 0; i < 50; i++) {
      const id = runId();
      await log.append(id, { type: 'status', at: '2026-01-01T00:00:00.000Z', runId: id, where: 'planning', message: 'Planning the research' }, `${id}:1`);
      const stop = new AbortController();
      for await (const event of log.follow(id, 0, stop.signal)) {
        expect(event.seq).toBeGreaterThan(0);
        // The SSE route ends a follow when its run is done or the client goes away: it stops iterating.
        break;
      }
      stop.abort();
    }
    // Deletion is asked for as each follow ends; give the server a moment to act on the last ones.
    const deadline = Date.now() + 5_000;
    let left = await consumerCount(stream);
    while (left > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      left = await consumerCount(stream);
    }
    expect(left).toBe(0);
  });
});
