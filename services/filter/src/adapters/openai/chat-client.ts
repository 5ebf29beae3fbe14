import { SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api';
import { fetch } from 'undici';
import { z } from 'zod';
import { CancelledError, UpstreamError, sleep, tracer, type Logger } from '@leadfinder/platform';
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

const TRACER = 'leadfinder.llm';

export interface ChatResult<T> {
  value: T;
  usage: ReasonerUsage;
}

const Completion = z.object({
  id: z.string().optional(),
  model: z.string().optional(),
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable() }), finish_reason: z.string().nullable().optional() })).min(1),
  usage: z.object({ prompt_tokens: z.number().int(), completion_tokens: z.number().int() }).partial().optional(),
});

/** What the provider said about its answer, for the span (gen_ai.response.*). */
interface ResponseFacts {
  id?: string | undefined;
  model?: string | undefined;
  finishReason?: string | null | undefined;
}

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

/**
 * A counting semaphore, so a run's burst of verify calls cannot exceed the provider's limits. A freed
 * slot is handed straight to the longest waiter (no newcomer can slip in between); a waiter whose signal
 * aborts leaves the queue.
 */
function limiter(max: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else active -= 1;
  };
  return {
    /** Calls that would wait now (every slot taken): how many are queued already. */
    queued: () => (active >= max ? waiting.length + 1 : 0),
    async acquire(signal: AbortSignal): Promise<() => void> {
      if (active < max) {
        active += 1;
        return release;
      }
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          const at = waiting.indexOf(take);
          if (at >= 0) waiting.splice(at, 1);
          reject(new CancelledError('llm call aborted', { cause: signal.reason }));
        };
        const take = () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        };
        if (signal.aborted) return onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
        waiting.push(take);
      });
      return release;
    },
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
  const concurrency = options.concurrency ?? 4;
  const limit = limiter(concurrency);
  const maxAttempts = options.maxAttempts ?? 4;
  const base = options.backoffBaseMs ?? 500;
  const url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;

  async function once<T>(name: string, schema: z.ZodType<T>, system: string, user: string, signal: AbortSignal): Promise<ChatResult<T> & { response: ResponseFacts }> {
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
      response: { id: completion.data.id, model: completion.data.model, finishReason: completion.data.choices[0]!.finish_reason },
      usage: {
        calls: 1,
        inputTokens: completion.data.usage?.prompt_tokens ?? 0,
        outputTokens: completion.data.usage?.completion_tokens ?? 0,
      },
    };
  }

  const endpoint = new URL(url);
  const server = {
    'server.address': endpoint.hostname,
    'server.port': Number(endpoint.port) || (endpoint.protocol === 'https:' ? 443 : 80),
  };
  /** The request side of the gen_ai semantic conventions (v1.37+: `gen_ai.provider.name`, not `gen_ai.system`). */
  const requestAttributes = {
    'gen_ai.provider.name': 'openai',
    'gen_ai.operation.name': 'chat',
    'gen_ai.request.model': options.model,
    'gen_ai.output.type': 'json',
    ...server,
  };

  function failed(span: Span, error: unknown): void {
    if (error instanceof CancelledError) {
      // The run stopped: how calls are meant to end then, not a failure.
      span.setAttribute('leadfinder.llm.cancelled', true);
      return;
    }
    span.setAttribute('error.type', error instanceof UpstreamError ? 'upstream' : error instanceof Error ? error.name : 'error');
    if (error instanceof Error) span.recordException(error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
  }

  /**
   * A concurrency slot. When every slot is taken the wait is its own span (`llm.slot_wait`), before
   * and apart from the completion's, so the completion's span measures the provider alone; a free slot
   * makes no span.
   */
  async function slot(name: string, signal: AbortSignal): Promise<() => void> {
    const ahead = limit.queued();
    if (ahead === 0) return limit.acquire(signal);
    return tracer(TRACER).startActiveSpan('llm.slot_wait', {
      kind: SpanKind.INTERNAL,
      attributes: { ...requestAttributes, 'leadfinder.llm.task': name, 'leadfinder.llm.concurrency': concurrency, 'leadfinder.llm.queued_ahead': ahead - 1 },
    }, async (span) => {
      try {
        return await limit.acquire(signal);
      } catch (error) {
        failed(span, error);
        throw error;
      } finally {
        span.end();
      }
    });
  }

  /**
   * One CLIENT span per completion, `chat <model>` (retries and their backoff included: `leadfinder.llm.attempts`),
   * with the gen_ai request, response and usage attributes.
   */
  function traced<T>(name: string, call: (attempted: () => void) => Promise<ChatResult<T> & { response: ResponseFacts }>): Promise<ChatResult<T>> {
    return tracer(TRACER).startActiveSpan(`chat ${options.model}`, {
      kind: SpanKind.CLIENT,
      attributes: { ...requestAttributes, 'leadfinder.llm.task': name },
    }, async (span) => {
      let attempts = 0;
      try {
        const { response, ...result } = await call(() => (attempts += 1));
        span.setAttributes({
          'gen_ai.usage.input_tokens': result.usage.inputTokens,
          'gen_ai.usage.output_tokens': result.usage.outputTokens,
          ...(response.model ? { 'gen_ai.response.model': response.model } : {}),
          ...(response.id ? { 'gen_ai.response.id': response.id } : {}),
          ...(response.finishReason ? { 'gen_ai.response.finish_reasons': [response.finishReason] } : {}),
        });
        return result;
      } catch (error) {
        failed(span, error);
        throw error;
      } finally {
        span.setAttribute('leadfinder.llm.attempts', attempts);
        span.end();
      }
    });
  }

  return {
    async complete<T>(name: string, schema: z.ZodType<T>, system: string, user: string, signal: AbortSignal): Promise<ChatResult<T>> {
      if (signal.aborted) throw new CancelledError('llm call aborted', { cause: signal.reason });
      const release = await slot(name, signal);
      try {
        return await traced(name, async (attempted) => {
          let last: Retryable | null = null;
          for (let attempt = 1; attempt <= maxAttempts; attempt++) {
            if (signal.aborted) throw new CancelledError('llm call aborted', { cause: signal.reason });
            try {
              attempted();
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
        });
      } finally {
        release();
      }
    },
  };
}

export type ChatClient = ReturnType<typeof createChatClient>;
