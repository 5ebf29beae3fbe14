import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { makeGenericClientConstructor, credentials } from '@grpc/grpc-js';
import type { ServiceError } from '@grpc/grpc-js';
import { service as healthService } from 'grpc-health-check';
import { SpanKind, trace } from '@opentelemetry/api';
import {
  DeadlineExceededError, InternalError, InvalidArgumentError, LeadfinderError, LeaseLostError, NotFoundError,
  UnavailableError, UpstreamError, CancelledError,
} from '../src/errors.js';
import type { ErrorCode } from '../src/errors.js';
import { silentLogger } from '../src/logger.js';
import type { CallOptions, FetcherPort, FilterPort } from '../src/ports/research.js';
import { createGrpcFetcherClient, createGrpcFilterClient } from '../src/adapters/grpc/clients.js';
import { startGrpcServer } from '../src/adapters/grpc/server.js';
import type { GrpcServerHandle } from '../src/adapters/grpc/server.js';
import { createInMemoryTelemetry } from '../src/telemetry/testing.js';
import * as fx from './grpc-fixtures.js';

/** A fake port whose behaviour each test sets; records what reached the server. */
type Behaviour = (request: unknown, options: CallOptions) => Promise<unknown>;
function fakes() {
  const state = { calls: [] as { method: string; request: unknown; signal: AbortSignal }[], behaviour: new Map<string, Behaviour>() };
  const run = (method: string, fallback: unknown) => (request: unknown, options: CallOptions) => {
    state.calls.push({ method, request, signal: options.signal });
    const b = state.behaviour.get(method);
    return b ? b(request, options) : Promise.resolve(fallback);
  };
  const fetcher = {
    search: run('search', fx.searchResponse),
    fetch: run('fetch', fx.fetchOk),
  } as FetcherPort;
  const filter = {
    plan: run('plan', { plan: fx.plan, usage: fx.usage }),
    queries: run('queries', { queries: ['q1', 'q2'], usage: fx.noUsage }),
    screen: run('screen', { scores: [{ url: 'https://sifted.eu/a', score: 0.75, pass: true }, { url: 'u', score: 0, pass: false }], usage: fx.usage }),
    extract: run('extract', { candidates: [fx.candidate, fx.candidateNoDomain], usage: fx.usage }),
    verify: run('verify', { verdict: fx.verdict, usage: fx.usage }),
    relax: run('relax', { filter: { ...fx.filter, relaxed: true }, usage: fx.usage }),
  } as FilterPort;
  return { state, fetcher, filter };
}

const signal = () => ({ signal: new AbortController().signal });
const fast = { initialBackoffMs: 10, maxBackoffMs: 20 };

describe('gRPC fetcher and filter adapters over a real loopback server', () => {
  const { state, fetcher, filter } = fakes();
  let server: GrpcServerHandle;
  let address: string;
  let fetcherClient: ReturnType<typeof createGrpcFetcherClient>;
  let filterClient: ReturnType<typeof createGrpcFilterClient>;

  beforeAll(async () => {
    server = await startGrpcServer({ port: 0, host: '127.0.0.1', services: { fetcher, filter }, logger: silentLogger, drainMs: 500 });
    address = `127.0.0.1:${server.port}`;
    fetcherClient = createGrpcFetcherClient({ address, logger: silentLogger, retry: fast });
    filterClient = createGrpcFilterClient({ address, logger: silentLogger, retry: fast });
  });
  afterAll(async () => {
    fetcherClient.close();
    filterClient.close();
    await server.stop();
  });
  afterEach(() => {
    state.calls.length = 0;
    state.behaviour.clear();
  });

  test('Search and Fetch deliver the request to the port and its answer back unchanged', async () => {
    expect(await fetcherClient.search(fx.searchRequest, signal())).toEqual(fx.searchResponse);
    expect(state.calls[0]?.request).toEqual(fx.searchRequest);
    expect(await fetcherClient.fetch({ url: fx.page.url }, signal())).toEqual(fx.fetchOk);
    state.behaviour.set('fetch', async () => fx.fetchFailed);
    expect(await fetcherClient.fetch({ url: fx.fetchFailed.url }, signal())).toEqual(fx.fetchFailed);
    expect(state.calls.map((c) => c.request)).toEqual([fx.searchRequest, { url: fx.page.url }, { url: 'http://10.0.0.1/' }]);
  });

  test('every filter RPC delivers its request and returns the port answer unchanged', async () => {
    const requests = {
      plan: { query: 'fintech startups in Berlin that raised in the last 6 months', now: '2025-06-01T00:00:00Z', sites: 'linkedin' },
      queries: { plan: fx.plan, round: 2, used: ['a'] },
      screen: { plan: fx.planNoDates, hits: fx.searchResponse.hits },
      extract: { plan: fx.planOpen, page: fx.page, round: 1 },
      verify: { plan: fx.plan, filter: fx.filter, candidate: fx.candidate, pages: [fx.page, fx.pageUndated] },
      relax: { plan: fx.plan, filter: fx.filter },
    };
    expect(await filterClient.plan(requests.plan, signal())).toEqual({ plan: fx.plan, usage: fx.usage });
    expect(await filterClient.queries(requests.queries, signal())).toEqual({ queries: ['q1', 'q2'], usage: fx.noUsage });
    expect(await filterClient.screen(requests.screen, signal())).toEqual({
      scores: [{ url: 'https://sifted.eu/a', score: 0.75, pass: true }, { url: 'u', score: 0, pass: false }], usage: fx.usage,
    });
    expect(await filterClient.extract(requests.extract, signal())).toEqual({ candidates: [fx.candidate, fx.candidateNoDomain], usage: fx.usage });
    expect(await filterClient.verify(requests.verify, signal())).toEqual({ verdict: fx.verdict, usage: fx.usage });
    expect(await filterClient.relax(requests.relax, signal())).toEqual({ filter: { ...fx.filter, relaxed: true }, usage: fx.usage });
    state.behaviour.set('relax', async () => ({ filter: null, usage: fx.noUsage }));
    expect(await filterClient.relax(requests.relax, signal())).toEqual({ filter: null, usage: fx.noUsage });
    expect(state.calls.slice(0, 6).map((c) => [c.method, c.request])).toEqual(Object.entries(requests));
  });

  test('an InvalidArgumentError thrown by the port arrives as the same typed error, not retried', async () => {
    state.behaviour.set('search', async () => { throw new InvalidArgumentError('limit too large', 'limit'); });
    const error = await fetcherClient.search(fx.searchRequest, signal()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error).toMatchObject({ code: 'LF_ERR_INVALID_ARGUMENT', message: 'limit too large', field: 'limit', retryable: false });
    expect(state.calls).toHaveLength(1);
  });

  test('an UnavailableError is retried and the call then succeeds', async () => {
    let failures = 1;
    state.behaviour.set('plan', async () => {
      if (failures-- > 0) throw new UnavailableError('llm', 'rate limited');
      return { plan: fx.planOpen, usage: fx.usage };
    });
    expect(await filterClient.plan({ query: 'q', now: '2025-06-01T00:00:00Z', sites: '' }, signal())).toEqual({ plan: fx.planOpen, usage: fx.usage });
    expect(state.calls).toHaveLength(2);
  });

  test('a port that stays unavailable is tried three times, then the typed error surfaces', async () => {
    state.behaviour.set('fetch', async () => { throw new UnavailableError('searxng', 'connection refused'); });
    const error = await fetcherClient.fetch({ url: 'https://a.test/' }, signal()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnavailableError);
    expect(error).toMatchObject({ dependency: 'searxng', message: 'connection refused', retryable: true });
    expect(state.calls).toHaveLength(3);
  });

  test.each<[ErrorCode, () => LeadfinderError]>([
    ['LF_ERR_NOT_FOUND', () => new NotFoundError('page')],
    ['LF_ERR_INVALID_ARGUMENT', () => new InvalidArgumentError('bad', 'q')],
    ['LF_ERR_UNAUTHENTICATED', () => new LeadfinderError('LF_ERR_UNAUTHENTICATED', 'who')],
    ['LF_ERR_PERMISSION_DENIED', () => new LeadfinderError('LF_ERR_PERMISSION_DENIED', 'no')],
    ['LF_ERR_INSUFFICIENT_BALANCE', () => new LeadfinderError('LF_ERR_INSUFFICIENT_BALANCE', 'poor')],
    ['LF_ERR_CONFLICT', () => new LeadfinderError('LF_ERR_CONFLICT', 'clash')],
    ['LF_ERR_UNAVAILABLE', () => new UnavailableError('llm', 'down', { retryable: false })],
    ['LF_ERR_DEADLINE_EXCEEDED', () => new DeadlineExceededError('llm too slow', { retryable: false })],
    ['LF_ERR_CANCELLED', () => new CancelledError('stopped')],
    ['LF_ERR_LEASE_LOST', () => new LeaseLostError('run42')],
    ['LF_ERR_UPSTREAM', () => new UpstreamError('brave', 'HTTP 500', { retryable: true, nextRetryDelayMs: 1500 })],
    ['LF_ERR_INTERNAL', () => new InternalError('bug')],
  ])('%s thrown by the port reaches the caller with its code, class, message and retry advice', async (code, make) => {
    const thrown = make();
    state.behaviour.set('verify', async () => { throw thrown; });
    const error = await filterClient.verify({ plan: fx.plan, filter: fx.filter, candidate: fx.candidate, pages: [] }, signal()).catch((e: unknown) => e);
    expect(LeadfinderError.is(error)).toBe(true);
    expect(Object.getPrototypeOf(error)).toBe(Object.getPrototypeOf(thrown));
    expect(error).toMatchObject({ code, message: thrown.message, retryable: thrown.retryable, nextRetryDelayMs: thrown.nextRetryDelayMs });
    // Only UNAVAILABLE that says it is retryable is retried; this one says it is not.
    expect(state.calls).toHaveLength(1);
  });

  test('a plain Error in the port arrives as an InternalError without its text', async () => {
    state.behaviour.set('queries', async () => { throw new Error('secret connection string'); });
    const error = await filterClient.queries({ plan: fx.plan, round: 1, used: [] }, signal()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalError);
    expect((error as Error).message).toBe('internal error');
  });

  test('a request breaking the wire schema is refused before reaching the port, naming the field', async () => {
    const error = await fetcherClient.search({ ...fx.searchRequest, limit: 500 }, signal()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error).toMatchObject({ field: 'limit' });
    expect(state.calls).toHaveLength(0);
  });

  test('aborting the caller signal cancels the call on the server', async () => {
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    let serverSawAbort!: (reason: unknown) => void;
    const serverAborted = new Promise((r) => (serverSawAbort = r));
    state.behaviour.set('extract', (_req, { signal: s }) => {
      started();
      return new Promise((_, reject) => s.addEventListener('abort', () => { serverSawAbort(s.reason); reject(s.reason); }));
    });
    const controller = new AbortController();
    const call = filterClient.extract({ plan: fx.plan, page: fx.page, round: 1 }, { signal: controller.signal }).catch((e: unknown) => e);
    await running;
    controller.abort(new Error('run stopped'));
    expect(await call).toBeInstanceOf(CancelledError);
    expect(await serverAborted).toBeInstanceOf(CancelledError);
  });

  test('an already aborted signal fails at once without reaching the server', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await fetcherClient.search(fx.searchRequest, { signal: controller.signal }).catch((e: unknown) => e)).toBeInstanceOf(CancelledError);
    expect(state.calls).toHaveLength(0);
  });

  test('a call outliving its deadline fails with DeadlineExceededError and the server side is told', async () => {
    const slowClient = createGrpcFetcherClient({ address, logger: silentLogger, deadlineMs: 150 });
    let serverSawAbort!: () => void;
    const serverAborted = new Promise<void>((r) => (serverSawAbort = r));
    state.behaviour.set('fetch', (_req, { signal: s }) => new Promise((_, reject) => s.addEventListener('abort', () => { serverSawAbort(); reject(s.reason); })));
    try {
      const started = Date.now();
      const error = await slowClient.fetch({ url: 'https://slow.test/' }, signal()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DeadlineExceededError);
      expect(Date.now() - started).toBeLessThan(2000);
      await serverAborted;
    } finally {
      slowClient.close();
    }
  });

  test('the health service reports SERVING for the server and each registered service', async () => {
    const Health = makeGenericClientConstructor(healthService as never, 'Health');
    const health = new Health(address, credentials.createInsecure()) as unknown as {
      check(req: { service: string }, cb: (e: ServiceError | null, r: { status: string | number }) => void): void;
      close(): void;
    };
    const check = (service: string) => new Promise<{ status: string | number } | ServiceError>((resolve) =>
      health.check({ service }, (e, r) => resolve(e ?? r)));
    try {
      for (const s of ['', 'leadfinder.fetcher.v1.FetcherService', 'leadfinder.filter.v1.FilterService']) {
        expect(await check(s)).toMatchObject({ status: 'SERVING' });
      }
      expect(await check('no.such.Service')).toMatchObject({ code: 5 });
    } finally {
      health.close();
    }
  });
});

describe('gRPC clients without a server', () => {
  test('a call to an address nobody listens on fails as UnavailableError naming the address', async () => {
    const client = createGrpcFetcherClient({ address: '127.0.0.1:1', logger: silentLogger, retry: fast, deadlineMs: 5000 });
    try {
      const error = await client.search(fx.searchRequest, signal()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnavailableError);
      expect((error as UnavailableError).dependency).toBe('127.0.0.1:1');
    } finally {
      client.close();
    }
  });
});

describe('gRPC trace propagation', () => {
  test('the server span joins the client span trace as its child', async () => {
    const telemetry = createInMemoryTelemetry();
    const { fetcher } = fakes();
    let traceIdInPort: string | undefined;
    fetcher.search = async () => {
      traceIdInPort = trace.getActiveSpan()?.spanContext().traceId;
      return fx.searchResponse;
    };
    const server = await startGrpcServer({ port: 0, host: '127.0.0.1', services: { fetcher }, logger: silentLogger });
    const client = createGrpcFetcherClient({ address: `127.0.0.1:${server.port}`, logger: silentLogger });
    try {
      await trace.getTracer('test').startActiveSpan('run', async (root) => {
        await client.search(fx.searchRequest, signal());
        root.end();
      });
      const spans = telemetry.spans();
      const clientSpan = spans.find((s) => s.kind === SpanKind.CLIENT)!;
      const serverSpan = spans.find((s) => s.kind === SpanKind.SERVER)!;
      const root = spans.find((s) => s.name === 'run')!;
      expect(clientSpan.name).toBe('leadfinder.fetcher.v1.FetcherService/Search');
      expect(clientSpan.spanContext().traceId).toBe(root.spanContext().traceId);
      expect(serverSpan.spanContext().traceId).toBe(clientSpan.spanContext().traceId);
      expect(serverSpan.parentSpanContext?.spanId).toBe(clientSpan.spanContext().spanId);
      expect(traceIdInPort).toBe(root.spanContext().traceId);
      expect(serverSpan.attributes).toMatchObject({
        'rpc.system': 'grpc', 'rpc.service': 'leadfinder.fetcher.v1.FetcherService', 'rpc.method': 'Search', 'rpc.grpc.status_code': 0,
      });
    } finally {
      client.close();
      await server.stop();
      await telemetry.shutdown();
    }
  });

  test('a failed call marks both spans with the gRPC status code', async () => {
    const telemetry = createInMemoryTelemetry();
    const { filter } = fakes();
    filter.relax = async () => { throw new InvalidArgumentError('no such filter', 'filter.index'); };
    const server = await startGrpcServer({ port: 0, host: '127.0.0.1', services: { filter }, logger: silentLogger });
    const client = createGrpcFilterClient({ address: `127.0.0.1:${server.port}`, logger: silentLogger });
    try {
      await client.relax({ plan: fx.plan, filter: fx.filter }, signal()).catch(() => undefined);
      const codes = telemetry.spans().map((s) => [s.kind, s.attributes['rpc.grpc.status_code']]);
      expect(codes).toEqual(expect.arrayContaining([[SpanKind.SERVER, 3], [SpanKind.CLIENT, 3]]));
    } finally {
      client.close();
      await server.stop();
      await telemetry.shutdown();
    }
  });
});
