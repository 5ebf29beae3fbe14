import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { silentLogger } from '@leadfinder/platform';
import { createInMemoryTelemetry, type InMemoryTelemetry } from '@leadfinder/platform/telemetry';
import { createChatClient } from './chat-client.js';

/** A loopback OpenAI-compatible stub answering from a queue of canned replies. */
let server: Server;
let baseUrl: string;
let replies: { status: number; body: unknown }[] = [];
/** While set, requests wait for it before they are answered (a slow provider). */
let gate: Promise<void> | null = null;
let telemetry: InMemoryTelemetry;

beforeAll(async () => {
  telemetry = createInMemoryTelemetry();
  server = createServer((req, res) => {
    req.resume();
    req.on('end', async () => {
      await gate;
      const reply = replies.shift() ?? { status: 500, body: { error: 'no canned reply' } };
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await telemetry.shutdown();
});
beforeEach(() => {
  replies = [];
  gate = null;
  telemetry.reset();
});

const Reply = z.object({ answer: z.string() });
const ok = (answer: string, prompt: number, completion: number) => ({
  status: 200,
  body: {
    id: 'chatcmpl-1', model: 'stub-model-2026', usage: { prompt_tokens: prompt, completion_tokens: completion },
    choices: [{ message: { content: JSON.stringify({ answer }) }, finish_reason: 'stop' }],
  },
});
const client = (concurrency?: number) => createChatClient({ baseUrl, model: 'stub-model', backoffBaseMs: 1, maxAttempts: 2, logger: silentLogger, ...(concurrency ? { concurrency } : {}) });
const chatSpans = () => telemetry.spans().filter((s) => s.name === 'chat stub-model');
const ms = (t: [number, number]) => t[0] * 1000 + t[1] / 1e6;

describe('chat client tracing', () => {
  it('records one gen_ai CLIENT span per completion with the model and token usage, retries included', async () => {
    replies = [{ status: 503, body: {} }, ok('yes', 120, 30)];
    const result = await client().complete('probe', Reply, 'system', 'user', new AbortController().signal);
    expect(result.value.answer).toBe('yes');

    const spans = chatSpans();
    expect(spans).toHaveLength(1);
    const span = spans[0]!;
    expect(span.kind).toBe(SpanKind.CLIENT);
    // The current gen_ai conventions: the provider is gen_ai.provider.name; the old gen_ai.system is gone.
    expect(span.attributes).toMatchObject({
      'gen_ai.provider.name': 'openai',
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'stub-model',
      'gen_ai.response.model': 'stub-model-2026',
      'gen_ai.response.id': 'chatcmpl-1',
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.usage.input_tokens': 120,
      'gen_ai.usage.output_tokens': 30,
      'server.address': '127.0.0.1',
      'leadfinder.llm.attempts': 2,
      'leadfinder.llm.task': 'probe',
    });
    expect(span.attributes['gen_ai.system']).toBeUndefined();
    // A free slot: no wait span.
    expect(telemetry.spans().filter((s) => s.name === 'llm.slot_wait')).toEqual([]);
  });

  it('records the wait for a concurrency slot as its own span, before the completion span and outside it', async () => {
    let open!: () => void;
    gate = new Promise<void>((resolve) => (open = resolve));
    replies = [ok('first', 1, 1), ok('second', 1, 1)];
    const chat = client(1);
    const signal = new AbortController().signal;
    const first = chat.complete('first', Reply, 's', 'u', signal);
    const second = chat.complete('second', Reply, 's', 'u', signal);
    await new Promise((r) => setTimeout(r, 50));
    open();
    expect((await Promise.all([first, second])).map((r) => r.value.answer)).toEqual(['first', 'second']);

    const waits = telemetry.spans().filter((s) => s.name === 'llm.slot_wait');
    expect(waits).toHaveLength(1);
    const wait = waits[0]!;
    expect(wait.attributes).toMatchObject({ 'leadfinder.llm.task': 'second', 'leadfinder.llm.concurrency': 1, 'gen_ai.request.model': 'stub-model' });
    expect(ms(wait.duration)).toBeGreaterThanOrEqual(40);
    const [firstSpan, secondSpan] = ['first', 'second'].map((task) => chatSpans().find((s) => s.attributes['leadfinder.llm.task'] === task)!);
    // The second completion starts once the wait ended (the slot came free when the first one ended).
    // Within 1 ms: the SDK starts a span at Date.now(), whole milliseconds, and ends it at that start plus
    // a high-resolution duration, so each of two times may read up to 1 ms early.
    expect(ms(secondSpan!.startTime)).toBeGreaterThan(ms(wait.endTime) - 1);
    expect(ms(wait.endTime)).toBeGreaterThan(ms(firstSpan!.endTime) - 1);
    // The completion span measures the provider alone: it holds none of the wait (it starts after it ends,
    // above). Its length is not compared with the wait's: on a loaded machine a 2 ms answer can take longer.
    expect(wait.parentSpanContext?.spanId ?? null).not.toBe(secondSpan!.spanContext().spanId);
  });

  it('leaves the slot queue when the caller gives up while waiting: no error span, the next caller gets the slot', async () => {
    let open!: () => void;
    gate = new Promise<void>((resolve) => (open = resolve));
    replies = [ok('first', 1, 1), ok('third', 1, 1)];
    const chat = client(1);
    const first = chat.complete('first', Reply, 's', 'u', new AbortController().signal);
    const stop = new AbortController();
    const second = chat.complete('second', Reply, 's', 'u', stop.signal);
    const third = chat.complete('third', Reply, 's', 'u', new AbortController().signal);
    stop.abort();
    await expect(second).rejects.toThrow(/aborted/);
    open();
    expect((await Promise.all([first, third])).map((r) => r.value.answer)).toEqual(['first', 'third']);
    const waits = telemetry.spans().filter((s) => s.name === 'llm.slot_wait');
    expect(waits.map((s) => s.attributes['leadfinder.llm.task']).sort()).toEqual(['second', 'third']);
    for (const s of waits) expect(s.status.code).not.toBe(SpanStatusCode.ERROR);
  });

  it('marks the span failed when the completion fails for good', async () => {
    replies = [{ status: 500, body: {} }, { status: 500, body: {} }];
    await expect(client().complete('probe', Reply, 'system', 'user', new AbortController().signal)).rejects.toThrow(/failed after 2 tries/);
    const span = chatSpans()[0];
    expect(span?.status.code).toBe(SpanStatusCode.ERROR);
    expect(span?.attributes['error.type']).toBe('upstream');
    expect(span?.attributes['gen_ai.usage.input_tokens']).toBeUndefined();
  });
});
