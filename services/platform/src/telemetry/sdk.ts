import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor, NoopSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Config, Role } from '../config.js';
import type { Logger } from '../logger.js';

export interface TelemetryOptions {
  /**
   * `service.name` resource attribute.
   * @default config.OTEL_SERVICE_NAME, else `leadfinder-<role>`
   */
  serviceName?: string;
  /** The role this process plays, recorded as the `leadfinder.role` resource attribute. */
  role: Role;
  logger: Logger;
  /** Only `OTEL_EXPORTER_OTLP_ENDPOINT` and `OTEL_SERVICE_NAME` are read. */
  config: Pick<Config, 'OTEL_EXPORTER_OTLP_ENDPOINT' | 'OTEL_SERVICE_NAME'>;
  /**
   * How often metrics are pushed when exporting.
   * @default 15000
   */
  metricExportIntervalMs?: number;
}

export interface TelemetryHandle {
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

  const sdk = new NodeSDK({
    resource: resourceFromAttributes({ 'service.name': serviceName, 'leadfinder.role': role }),
    textMapPropagator: new W3CTraceContextPropagator(),
    // A NoopSpanProcessor still makes the SDK install a real tracer provider (it skips providers with no
    // processor at all), which is what gives log lines real trace ids when nothing is exported.
    spanProcessors: endpoint
      ? [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint}/v1/traces` }))]
      : [new NoopSpanProcessor()],
    metricReaders: endpoint
      ? [new PeriodicExportingMetricReader({
          exporter: new OTLPMetricExporter({ url: `${endpoint}/v1/metrics` }),
          exportIntervalMillis: options.metricExportIntervalMs ?? 15_000,
        })]
      : [],
    // Logs go to stdout as JSON (pino); an empty list keeps the SDK from defaulting to an OTLP log exporter.
    logRecordProcessors: [],
    instrumentations: [],
  });
  sdk.start();
  logger.info('telemetry started', { serviceName, role, exporting: endpoint !== undefined });

  let stopped = false;
  return {
    async shutdown() {
      if (stopped) return;
      stopped = true;
      try {
        await sdk.shutdown();
      } catch (err) {
        // A collector that is down must not block process exit; the spans are lost either way.
        logger.warn('telemetry shutdown failed', { error: err instanceof Error ? err.message : String(err) });
      } finally {
        trace.disable();
        metrics.disable();
        propagation.disable();
        context.disable();
      }
    },
  };
}
