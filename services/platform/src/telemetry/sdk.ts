import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { once } from 'node:events';
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPMetricExporter as OTLPJsonMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as OTLPProtoMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import type { MetricReader } from '@opentelemetry/sdk-metrics';
import { NoopSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Config, Role } from '../config.js';
import type { Logger } from '../logger.js';
import { createInstrumentations } from './instrumentations.js';
import { OtlpBatchSpanProcessor } from './otlp-batch-processor.js';
import { OtlpJsonSpanBatch } from './otlp-json.js';
import { OtlpProtoSpanBatch } from './otlp-proto.js';
import { createOtlpTraceTransport } from './otlp-transport.js';
import { createServerMetricsProducer } from './server-metrics-producer.js';
import { createDefaultSampler } from './sampler.js';

export interface TelemetryOptions {
  /**
   * `service.name` resource attribute.
   * @default config.OTEL_SERVICE_NAME, else `leadfinder-<role>`
   */
  serviceName?: string;
  /** The role this process plays, recorded as the `leadfinder.role` resource attribute. */
  role: Role;
  logger: Logger;
  /**
   * Only the OTLP endpoint, protocol and service name, the sampler settings, and the Prometheus port (with
   * `HOST`, where it listens) are read. Unset protocol: `http/protobuf`; unset read ratio: 0.1.
   */
  config: Pick<Config, 'OTEL_EXPORTER_OTLP_ENDPOINT' | 'OTEL_SERVICE_NAME'>
    & Partial<Pick<Config, 'OTEL_EXPORTER_OTLP_PROTOCOL' | 'OTEL_TRACES_SAMPLER' | 'LEADFINDER_TRACES_READ_RATIO' | 'LEADFINDER_METRICS_PORT' | 'HOST'>>;
  /**
   * Port of the Prometheus `/metrics` listener, overriding `config.LEADFINDER_METRICS_PORT`; 0 picks a free
   * one (tests). Unset and not configured: no listener.
   */
  metricsPort?: number;
  /**
   * How often metrics are pushed when exporting.
   * @default 15000
   */
  metricExportIntervalMs?: number;
}

export interface TelemetryHandle {
  /** The bound port of the Prometheus `/metrics` listener, or null when there is none. */
  metricsPort: number | null;
  /** Flushes pending spans and metrics, then uninstalls the global providers. */
  shutdown(): Promise<void>;
}

/**
 * Installs the OpenTelemetry Node SDK for this process: W3C trace-context propagation, the
 * AsyncLocalStorage context manager (the SDK default) and a tracer provider. Traces and metrics are
 * exported over OTLP/HTTP only when `OTEL_EXPORTER_OTLP_ENDPOINT` is set; otherwise spans are still
 * created (so log lines carry trace ids and trace context still propagates) but go nowhere.
 * Call once, from `main.ts`, before building the app.
 */
export async function startTelemetry(options: TelemetryOptions): Promise<TelemetryHandle> {
  const { role, logger, config } = options;
  const serviceName = options.serviceName ?? config.OTEL_SERVICE_NAME ?? `leadfinder-${role}`;
  const endpoint = config.OTEL_EXPORTER_OTLP_ENDPOINT?.replace(/\/+$/, '');
  const metricsPort = options.metricsPort ?? config.LEADFINDER_METRICS_PORT;
  const json = config.OTEL_EXPORTER_OTLP_PROTOCOL === 'http/json';
  const readers: MetricReader[] = [];
  // HTTP and gRPC server durations are kept outside the SDK's instruments (server-metrics.ts: a record
  // through the SDK hashes its attribute set, per request) and handed to every reader by this producer.
  // With no reader they are not kept at all.
  const serverMetrics = endpoint || metricsPort !== undefined ? createServerMetricsProducer() : undefined;
  const metricProducers = serverMetrics ? [serverMetrics.producer] : [];
  if (endpoint) {
    const url = `${endpoint}/v1/metrics`;
    readers.push(new PeriodicExportingMetricReader({
      exporter: json ? new OTLPJsonMetricExporter({ url }) : new OTLPProtoMetricExporter({ url }),
      exportIntervalMillis: options.metricExportIntervalMs ?? 15_000,
      metricProducers,
    }));
  }
  // The exporter's own server is not started: ours binds HOST, reports the real port and fails start-up
  // with one clear line when the port is taken.
  const prometheus = metricsPort === undefined ? undefined : new PrometheusExporter({ preventServerStart: true, metricProducers });
  if (prometheus) readers.push(prometheus);

  const sdk = new NodeSDK({
    resource: resourceFromAttributes({ 'service.name': serviceName, 'leadfinder.role': role }),
    textMapPropagator: new W3CTraceContextPropagator(),
    // A NoopSpanProcessor still makes the SDK install a real tracer provider (it skips providers with no
    // processor at all), which is what gives log lines real trace ids when nothing is exported.
    spanProcessors: endpoint
      // Spans are written by our own encoders (otlp-proto.ts, otlp-json.ts: less CPU per span than the official
      // serializers), each span as it ends, so the processor holds bytes rather than span objects
      // (otlp-batch-processor.ts).
      ? [json
        ? new OtlpBatchSpanProcessor(createOtlpTraceTransport(`${endpoint}/v1/traces`, 'json'), () => new OtlpJsonSpanBatch())
        : new OtlpBatchSpanProcessor(createOtlpTraceTransport(`${endpoint}/v1/traces`, 'protobuf'), () => new OtlpProtoSpanBatch())]
      : [new NoopSpanProcessor()],
    // A standard OTEL_TRACES_SAMPLER is built by the SDK itself (with OTEL_TRACES_SAMPLER_ARG).
    ...(config.OTEL_TRACES_SAMPLER ? {} : { sampler: createDefaultSampler(config.LEADFINDER_TRACES_READ_RATIO ?? 0.1) }),
    metricReaders: readers,
    // Logs go to stdout as JSON (pino); an empty list keeps the SDK from defaulting to an OTLP log exporter.
    logRecordProcessors: [],
    // Enabled by start(): modules loaded after this (the MongoDB driver is imported only once telemetry
    // runs, see services/cli/src/serve/adapters.ts) are patched; undici is observed through its
    // diagnostics channels whenever it loads.
    instrumentations: createInstrumentations(),
  });
  sdk.start();
  let metricsServer: Server | undefined;
  let boundMetricsPort: number | null = null;
  if (prometheus && metricsPort !== undefined) {
    try {
      metricsServer = await serveMetrics(prometheus, config.HOST ?? '127.0.0.1', metricsPort);
    } catch (error) {
      await sdk.shutdown().catch(() => undefined);
      serverMetrics?.stop();
      uninstallGlobals();
      throw error;
    }
    const address = metricsServer.address();
    boundMetricsPort = typeof address === 'object' && address ? address.port : metricsPort;
  }
  logger.info('telemetry started', {
    serviceName, role, exporting: endpoint !== undefined, protocol: endpoint ? (json ? 'http/json' : 'http/protobuf') : null,
    sampler: config.OTEL_TRACES_SAMPLER ?? `reads at ${config.LEADFINDER_TRACES_READ_RATIO ?? 0.1}`, metricsPort: boundMetricsPort,
  });

  let stopped = false;
  return {
    metricsPort: boundMetricsPort,
    async shutdown() {
      if (stopped) return;
      stopped = true;
      if (metricsServer) {
        const server = metricsServer;
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await closed;
      }
      try {
        await sdk.shutdown();
      } catch (err) {
        // A collector that is down must not block process exit; the spans are lost either way.
        logger.warn('telemetry shutdown failed', { error: err instanceof Error ? err.message : String(err) });
      } finally {
        serverMetrics?.stop();
        uninstallGlobals();
      }
    },
  };
}

function uninstallGlobals(): void {
  trace.disable();
  metrics.disable();
  propagation.disable();
  context.disable();
}

/** A listener of its own answering `GET /metrics` in the Prometheus text format (and 404 otherwise). */
async function serveMetrics(exporter: PrometheusExporter, host: string, port: number): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path === '/metrics' && (req.method === 'GET' || req.method === 'HEAD')) {
      exporter.getMetricsRequestHandler(req, res);
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' }).end('{"detail":"Not Found"}');
  });
  // Scrapes are short; a client that keeps a connection open must not hold shutdown.
  server.keepAliveTimeout = 5_000;
  server.listen(port, host);
  try {
    await Promise.race([once(server, 'listening'), once(server, 'error').then(([e]) => Promise.reject(e as Error))]);
  } catch (error) {
    throw new MetricsListenError(host, port, error);
  }
  return server;
}

/** The Prometheus listener could not bind; `cause` is the listen error (EADDRINUSE, EACCES, …). */
export class MetricsListenError extends Error {
  override readonly name = 'MetricsListenError';
  constructor(readonly host: string, readonly port: number, cause: unknown) {
    const code = (cause as NodeJS.ErrnoException).code;
    super(`LEADFINDER_METRICS_PORT: cannot listen on ${host}:${port}${code ? ` (${code})` : ''}`, { cause });
  }
}
