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
let telemetry: InMemoryTelemetry;

beforeAll(async () => {
  telemetry = createInMemoryTelemetry();
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
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
  telemetry.reset();
});

const Reply = z.object({ answer: z.string() });
const ok = (answer: string, prompt: number, completion: number) => ({
  status: 200,
  body: { choices: [{ message: { content: JSON.stringify({ answer }) } }], usage: { prompt_tokens: prompt, completion_tokens: completion } },
});
const client = () => createChatClient({ baseUrl, model: 'stub-model', backoffBaseMs: 1, maxAttempts: 2, logger: silentLogger });

describe('chat client tracing', () => {
  it('records one gen_ai CLIENT span per completion with the model and token usage, retries included', async () => {
    replies = [{ status: 503, body: {} }, ok('yes', 120, 30)];
    const result = await client().complete('probe', Reply, 'system', 'user', new AbortController().signal);
    expect(result.value.answer).toBe('yes');

    const spans = telemetry.spans().filter((s) => s.attributes['gen_ai.system'] === 'openai');
    expect(spans).toHaveLength(1);
    const span = spans[0]!;
    expect(span.name).toBe('chat stub-model');
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'stub-model',
      'gen_ai.usage.input_tokens': 120,
      'gen_ai.usage.output_tokens': 30,
    });
  });

  it('marks the span failed when the completion fails for good', async () => {
    replies = [{ status: 500, body: {} }, { status: 500, body: {} }];
    await expect(client().complete('probe', Reply, 'system', 'user', new AbortController().signal)).rejects.toThrow(/failed after 2 tries/);
    const span = telemetry.spans().find((s) => s.attributes['gen_ai.system'] === 'openai');
    expect(span?.status.code).toBe(SpanStatusCode.ERROR);
    expect(span?.attributes['gen_ai.usage.input_tokens']).toBeUndefined();
  });
});
