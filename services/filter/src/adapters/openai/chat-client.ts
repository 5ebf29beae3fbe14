import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { fetch } from 'undici';
import { z } from 'zod';
import { CancelledError, UpstreamError, genAiAttributes, sleep, tracer, type Logger } from '@leadfinder/platform';
import type { ReasonerUsage } from '@leadfinder/wire';

export interface ChatClientOptions {
  /** e.g. https://api.openai.com/v1 — `/chat/completions` is appended. */
  baseUrl: string;
  apiKey?: string | undefined;
  model: string;
  /** Most requests in flight at once. @default 4 */
  concurrency?: number;
  /** Tries per call, including the first. @default 4 */
  maxAttempts?: number;
  /** First backoff step in ms; doubles per try, with full jitter. @default 500 */
  backoffBaseMs?: number;
  logger: Logger;
}

export interface ChatResult<T> {
  value: T;
  usage: ReasonerUsage;
}

const Completion = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable() }) })).min(1),
  usage: z.object({ prompt_tokens: z.number().int(), completion_tokens: z.number().int() }).partial().optional(),
});

class Retryable extends Error {
  constructor(message: string, readonly retryAfterMs: number | null) {
    super(message);
  }
}

/** Retry-After as seconds or an HTTP date. */
function retryAfter(header: string | null): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/** A counting semaphore, so a run's burst of verify calls cannot exceed the provider's limits. */
function limiter(max: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active >= max) await new Promise<void>((resolve) => waiting.push(resolve));
    active += 1;
    try {
      return await task();
    } finally {
      active -= 1;
      waiting.shift()?.();
    }
  };
}

/** Strict JSON-schema output from a zod schema (OpenAI wants no `$schema` key). */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema) as Record<string, unknown>;
  return rest;
}

/**
 * One structured chat completion: POST {baseUrl}/chat/completions with a strict JSON schema, the reply
 * parsed and validated with the same zod schema. Retries 429, 5xx, network errors and unparseable replies
 * with exponential backoff and jitter (Retry-After wins when given); aborts with the caller's signal.
 */
export function createChatClient(options: ChatClientOptions) {
  const run = limiter(options.concurrency ?? 4);
  const maxAttempts = options.maxAttempts ?? 4;
  const base = options.backoffBaseMs ?? 500;
  const url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;

  async function once<T>(name: string, schema: z.ZodType<T>, system: string, user: string, signal: AbortSignal): Promise<ChatResult<T>> {
    let response;
    try {
      response = await fetch(url, {
        method: 'POST',
        signal,
        headers: {
          'content-type': 'application/json',
          ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
        },
        body: JSON.stringify({
          model: options.model,
          messages: [
            { role: 'system', content: system },
            { role: 'user', content: user },
          ],
          response_format: { type: 'json_schema', json_schema: { name, strict: true, schema: jsonSchemaOf(schema) } },
        }),
      });
    } catch (error) {
      if (signal.aborted) throw error;
      throw new Retryable(`network error: ${(error as Error).message}`, null);
    }
    const body = await response.text();
    if (response.status === 429 || response.status >= 500) {
      throw new Retryable(`HTTP ${response.status}`, retryAfter(response.headers.get('retry-after')));
    }
    if (!response.ok) throw new UpstreamError('llm', `chat completion refused: HTTP ${response.status}`);
    const completion = Completion.safeParse(JSON.parse(body));
    if (!completion.success) throw new Retryable('malformed completion', null);
    const content = completion.data.choices[0]!.message.content ?? '';
    let parsed: unknown;
    try {
      parsed = JSON.parse(content);
    } catch {
      throw new Retryable('reply is not JSON', null);
    }
    const value = schema.safeParse(parsed);
    if (!value.success) throw new Retryable(`reply does not match ${name}`, null);
    return {
      value: value.data,
      usage: {
        calls: 1,
        inputTokens: completion.data.usage?.prompt_tokens ?? 0,
        outputTokens: completion.data.usage?.completion_tokens ?? 0,
      },
    };
  }

  /** One CLIENT span per completion (retries included), with gen_ai.* attributes and the token usage. */
  function traced<T>(name: string, call: () => Promise<ChatResult<T>>): Promise<ChatResult<T>> {
    return tracer('leadfinder.llm').startActiveSpan(`chat ${options.model}`, {
      kind: SpanKind.CLIENT,
      attributes: {
        ...genAiAttributes({ system: 'openai', model: options.model }),
        'gen_ai.operation.name': 'chat',
        'leadfinder.llm.task': name,
      },
    }, async (span) => {
      try {
        const result = await call();
        span.setAttributes(genAiAttributes({
          system: 'openai', model: options.model,
          inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens,
        }));
        return result;
      } catch (error) {
        if (error instanceof Error) span.recordException(error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
        throw error;
      } finally {
        span.end();
      }
    });
  }

  return {
    complete<T>(name: string, schema: z.ZodType<T>, system: string, user: string, signal: AbortSignal): Promise<ChatResult<T>> {
      return traced(name, () => run(async () => {
        let last: Retryable | null = null;
        for (let attempt = 1; attempt <= maxAttempts; attempt++) {
          if (signal.aborted) throw new CancelledError('llm call aborted', { cause: signal.reason });
          try {
            return await once(name, schema, system, user, signal);
          } catch (error) {
            if (!(error instanceof Retryable)) {
              if (signal.aborted) throw new CancelledError('llm call aborted', { cause: signal.reason });
              throw error;
            }
            last = error;
            if (attempt === maxAttempts) break;
            const backoff = Math.random() * base * 2 ** (attempt - 1);
            const wait = error.retryAfterMs ?? backoff;
            options.logger.warn('llm call will be retried', { name, attempt, reason: error.message, waitMs: Math.round(wait) });
            await sleep(wait, signal).catch((reason: unknown) => {
              throw new CancelledError('llm call aborted', { cause: reason });
            });
          }
        }
        throw new UpstreamError('llm', `chat completion failed after ${maxAttempts} tries: ${last?.message ?? 'unknown'}`, { retryable: true });
      }));
    },
  };
}

export type ChatClient = ReturnType<typeof createChatClient>;
