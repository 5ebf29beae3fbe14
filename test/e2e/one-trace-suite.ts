import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SpanKind } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCoordinator, type Coordinator } from '@leadfinder/coordinator';
import { buildEdgeApp, createSessionSigner } from '@leadfinder/edge';
import { createFetcher, createSearchProvider, writeSampleCorpus, type Fetcher } from '@leadfinder/fetcher';
import { createFilter, createRuleReasoner } from '@leadfinder/filter';
import { createBilling, loadConfig, randomIds, silentLogger, systemClock } from '@leadfinder/platform';
import { createEmbeddedEventLog, createEmbeddedStore, createInProcessStopFlags } from '@leadfinder/platform/embedded';
import { createGrpcFetcherClient, createGrpcFilterClient, startGrpcServer } from '@leadfinder/platform/grpc';
import { createInMemoryTelemetry } from '@leadfinder/platform/telemetry';
import type { EventLog, StopFlags, Store, WorkQueue } from '@leadfinder/platform';
import type { Closable, GrpcServerHandle } from '@leadfinder/platform/grpc';
import type { InMemoryTelemetry } from '@leadfinder/platform/telemetry';
import type { WorkSource } from '@leadfinder/coordinator';
import type { FastifyInstance } from 'fastify';

/**
 * One trace per run (design "Observability"): the four roles in one process but wired as in distributed
 * mode — fetcher and filter behind real gRPC servers on loopback, the coordinator calling them through
 * gRPC clients, the edge listening on a real socket, the run handed over by the work queue `transport`
 * makes — with in-memory OpenTelemetry exporters. With one tracer provider for all roles, each span's
 * role is told by its kind, name and attributes.
 */

/** The work queue between edge and coordinator, and how the coordinator labels it. */
export interface WorkTransport {
  work: WorkQueue;
  source: WorkSource;
  close(): Promise<void>;
}

const FETCHER_SERVICE = 'leadfinder.fetcher.v1.FetcherService';
const FILTER_SERVICE = 'leadfinder.filter.v1.FilterService';
const ADMIN_TOKEN = 'tracing-test-admin-token-0123456789';
const QUERY = 'AI startups in Berlin that raised a seed round in the last year';

/** The whole suite over the work queue `makeTransport` opens (called once, after telemetry is installed). */
export function describeOneTracePerRun(label: string, makeTransport: () => Promise<WorkTransport>): void {
  let telemetry: InMemoryTelemetry;
  let dataDir: string;
  let fetcher: Fetcher;
  let grpcServers: GrpcServerHandle[] = [];
  let clients: Closable[] = [];
  let ports: { store: Store; events: EventLog; stops: StopFlags };
  let coordinator: Coordinator;
  let edge: FastifyInstance;
  let baseUrl: string;
  let transport: WorkTransport | undefined;

  beforeAll(async () => {
    // Installed first: instruments and tracers bind to the global providers when the roles are built.
    telemetry = createInMemoryTelemetry();
    dataDir = await mkdtemp(join(tmpdir(), 'lf-tracing-'));
    const corpusDir = join(dataDir, 'corpus');
    await writeSampleCorpus(corpusDir, new Date());
    const config = loadConfig({
      LEADFINDER_DATA_DIR: dataDir,
      LEADFINDER_ADMIN_TOKEN: ADMIN_TOKEN,
      LEADFINDER_SESSION_SECRET: 'tracing-test-session-secret-of-sufficient-length',
      LEADFINDER_RATE_LIMIT_PER_MIN: '10000',
    });
    const logger = silentLogger;

    // fetcher and filter roles, each behind its own gRPC server.
    fetcher = createFetcher({ config, logger, provider: createSearchProvider(config, { corpusDir }) });
    const filter = createFilter({ reasoner: createRuleReasoner(), logger, clock: systemClock });
    const fetcherServer = await startGrpcServer({ port: 0, host: '127.0.0.1', services: { fetcher }, logger, drainMs: 1000 });
    const filterServer = await startGrpcServer({ port: 0, host: '127.0.0.1', services: { filter }, logger, drainMs: 1000 });
    grpcServers = [fetcherServer, filterServer];
    const fetcherClient = createGrpcFetcherClient({ address: `127.0.0.1:${fetcherServer.port}`, logger });
    const filterClient = createGrpcFilterClient({ address: `127.0.0.1:${filterServer.port}`, logger });
    clients = [fetcherClient, filterClient];

    // Shared state: embedded adapters (the transport of trace context is what is under test, not storage).
    const store = await createEmbeddedStore({ dataDir, logger });
    const events = await createEmbeddedEventLog({ dataDir, logger });
    transport = await makeTransport();
    const work = transport.work;
    const stops = createInProcessStopFlags();
    const billing = createBilling({ store, clock: systemClock, logger });
    ports = { store, events, stops };

    coordinator = createCoordinator({
      config, logger, clock: systemClock, store, events, work, stops, billing,
      fetcher: fetcherClient, filter: filterClient, instanceId: 'coordinator-tracing', shutdownGraceMs: 500,
      workSource: transport.source,
    });
    await coordinator.start();

    edge = await buildEdgeApp({
      config, logger, clock: systemClock, ids: randomIds, store, events, work, stops, billing,
      sessions: createSessionSigner({ secret: config.LEADFINDER_SESSION_SECRET!, ttlSeconds: 3600, clock: systemClock }),
    });
    await edge.listen({ port: 0, host: '127.0.0.1' });
    const address = edge.server.address();
    if (!address || typeof address === 'string') throw new Error('edge is not listening on a TCP port');
    baseUrl = `http://127.0.0.1:${address.port}`;
  });

  afterAll(async () => {
    await edge?.close();
    await coordinator?.stop();
    for (const client of clients) client.close();
    await Promise.allSettled(grpcServers.map((s) => s.stop()));
    await fetcher?.close();
    if (ports) {
      await Promise.allSettled([ports.events.close(), ports.stops.close()]);
      await ports.store.close().catch(() => undefined);
    }
    await transport?.close();
    await telemetry?.shutdown();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  async function http(method: string, path: string, token: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  }

  async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000): Promise<T> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Sum of a counter's data points whose attributes include `match`. */
  function counterSum(metrics: ResourceMetrics, name: string, match: Record<string, string> = {}): number {
    let sum = 0;
    for (const scope of metrics.scopeMetrics) {
      for (const metric of scope.metrics) {
        if (metric.descriptor.name !== name) continue;
        for (const point of metric.dataPoints) {
          if (Object.entries(match).every(([k, v]) => point.attributes[k] === v)) sum += point.value as number;
        }
      }
    }
    return sum;
  }

  function histogramStages(metrics: ResourceMetrics, name: string): Set<string> {
    const stages = new Set<string>();
    for (const scope of metrics.scopeMetrics) {
      for (const metric of scope.metrics) {
        if (metric.descriptor.name !== name) continue;
        for (const point of metric.dataPoints) stages.add(String(point.attributes['stage']));
      }
    }
    return stages;
  }

  describe(`one trace per run across edge, coordinator, fetcher and filter (${label})`, () => {
    let runId: string;
    let runSpan: ReadableSpan;

    beforeAll(async () => {
      const created = await fetch(`${baseUrl}/admin/accounts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ balanceUsd: 25 }),
      });
      expect(created.status).toBe(201);
      const { apiKey } = (await created.json()) as { apiKey: string };

      telemetry.reset();
      const accepted = await http('POST', '/v1/searches', apiKey, { q: QUERY, target: 3 });
      expect(accepted.status).toBe(202);
      runId = accepted.json['id'] as string;

      const finished = await waitFor('the run to end', async () => {
        const { json } = await http('GET', `/v1/searches/${runId}`, apiKey);
        return json['status'] === 'running' ? undefined : json;
      });
      expect(finished['status']).toBe('done');
      // The run span ends once the tail is written and the hold settled; the process span after the ack.
      runSpan = await waitFor('the run span', () => telemetry.spans().find((s) => s.name === 'leadfinder.run' && s.attributes['leadfinder.run_id'] === runId));
      await waitFor('the work item span', () => telemetry.spans().find((s) => s.kind === SpanKind.CONSUMER && s.attributes['leadfinder.run_id'] === runId));
    }, 30_000);

    it('puts the POST, the work message, the run, its stages and every gRPC call into fetcher and filter in one trace', () => {
      const spans = telemetry.spans();
      const post = spans.find((s) => s.kind === SpanKind.SERVER && s.name === 'POST /v1/searches');
      expect(post, 'edge server span of the POST').toBeDefined();
      const traceId = post!.spanContext().traceId;
      const inTrace = spans.filter((s) => s.spanContext().traceId === traceId);

      // coordinator: the work item's process span and the run span, both in the POST's trace.
      const processSpan = inTrace.find((s) => s.kind === SpanKind.CONSUMER && s.attributes['leadfinder.run_id'] === runId);
      expect(processSpan, 'coordinator process span').toBeDefined();
      expect(runSpan.spanContext().traceId).toBe(traceId);
      expect(runSpan.parentSpanContext?.spanId).toBe(processSpan!.spanContext().spanId);
      // Port calls run inside the stage that made them: the Plan call is a child of the `planning` stage span.
      const planning = inTrace.find((s) => s.attributes['leadfinder.stage'] === 'plan');
      expect(planning?.parentSpanContext?.spanId).toBe(runSpan.spanContext().spanId);
      const planCall = inTrace.find((s) => s.kind === SpanKind.CLIENT && s.attributes['rpc.method'] === 'Plan');
      expect(planCall?.parentSpanContext?.spanId).toBe(planning!.spanContext().spanId);

      // gRPC: the coordinator's client spans and the fetcher's and filter's server spans.
      const rpc = (kind: SpanKind, service: string) => inTrace.filter((s) => s.kind === kind && s.attributes['rpc.service'] === service);
      for (const service of [FETCHER_SERVICE, FILTER_SERVICE]) {
        expect(rpc(SpanKind.CLIENT, service).length, `${service} client spans`).toBeGreaterThan(0);
        expect(rpc(SpanKind.SERVER, service).length, `${service} server spans`).toBeGreaterThan(0);
      }
      // Searches are calls of their own; page fetches are batched on their stage span (`round N · opening
      // pages`, with counts), their per-page Fetch calls unsampled, so a run's spans grow with rounds, not pages.
      const fetcherServerMethods = new Set(rpc(SpanKind.SERVER, FETCHER_SERVICE).map((s) => s.attributes['rpc.method']));
      expect(fetcherServerMethods).toEqual(new Set(['Search']));
      const opening = inTrace.filter((s) => s.attributes['leadfinder.stage'] === 'open');
      expect(opening.length, 'opening pages stage spans').toBeGreaterThan(0);
      expect(opening.reduce((n, s) => n + Number(s.attributes['leadfinder.open.pages'] ?? 0), 0)).toBeGreaterThan(0);
      expect(new Set(rpc(SpanKind.SERVER, FILTER_SERVICE).map((s) => s.attributes['rpc.method']))).toContain('Plan');

      // Every span of the run that the coordinator or the research roles made is in this one trace.
      const elsewhere = spans.filter((s) => s.spanContext().traceId !== traceId && (s.attributes['rpc.system'] === 'grpc' || s.attributes['leadfinder.run_id'] === runId || s.attributes['leadfinder.stage'] !== undefined));
      expect(elsewhere.map((s) => s.name)).toEqual([]);

      // One connected tree: each span's parent is in the trace, except the POST's (the trace root).
      const ids = new Set(inTrace.map((s) => s.spanContext().spanId));
      const orphans = inTrace.filter((s) => s !== post && !ids.has(s.parentSpanContext?.spanId ?? ''));
      expect(orphans.map((s) => s.name)).toEqual([]);
      expect(post!.parentSpanContext).toBeUndefined();
    });

    it('labels spans with the HTTP, RPC and messaging semantic conventions', () => {
      const spans = telemetry.spans();
      const post = spans.find((s) => s.kind === SpanKind.SERVER && s.name === 'POST /v1/searches')!;
      expect(post.attributes).toMatchObject({
        'http.request.method': 'POST',
        'http.route': '/v1/searches',
        'url.path': '/v1/searches',
        'http.response.status_code': 202,
      });

      const grpcServer = spans.find((s) => s.kind === SpanKind.SERVER && s.attributes['rpc.service'] === FILTER_SERVICE)!;
      expect(grpcServer.attributes).toMatchObject({ 'rpc.system': 'grpc', 'rpc.method': expect.any(String), 'rpc.grpc.status_code': 0 });
      const grpcClient = spans.find((s) => s.kind === SpanKind.CLIENT && s.attributes['rpc.service'] === FETCHER_SERVICE)!;
      expect(grpcClient.attributes).toMatchObject({ 'rpc.system': 'grpc', 'rpc.method': 'Search' });

      const processSpan = spans.find((s) => s.kind === SpanKind.CONSUMER && s.attributes['leadfinder.run_id'] === runId)!;
      expect(processSpan.attributes).toMatchObject({
        'messaging.system': transport!.source.system,
        'messaging.operation': 'process',
        'messaging.destination.name': transport!.source.destination,
      });
      expect(runSpan.attributes).toMatchObject({ 'leadfinder.run.status': 'done' });
    });

    it('counts the run as done with its spend, rows, stage latencies and fetch outcomes', async () => {
      const metrics = await telemetry.collectMetrics();
      expect(counterSum(metrics, 'leadfinder.runs', { status: 'done' })).toBe(1);
      expect(counterSum(metrics, 'leadfinder.spend_microusd')).toBeGreaterThan(0);
      expect(counterSum(metrics, 'leadfinder.rows')).toBeGreaterThan(0);
      expect(counterSum(metrics, 'leadfinder.fetch.outcomes', { outcome: 'ok' })).toBeGreaterThan(0);
      const stages = histogramStages(metrics, 'leadfinder.stage.duration');
      for (const stage of ['plan', 'search', 'screen', 'open', 'extract']) expect(stages, stage).toContain(stage);
    });
  });
}
