import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import type { ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { createInstrumentations } from './instrumentations.js';
import { createServerMetricsProducer } from './server-metrics-producer.js';

/** Collects on demand only: tests read metrics synchronously after the fact. */
class ManualMetricReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

export interface InMemoryTelemetry {
  /** Spans ended so far, in end order. */
  spans(): ReadableSpan[];
  /** Forgets the spans recorded so far. */
  reset(): void;
  /** Current values of every instrument. */
  collectMetrics(): Promise<ResourceMetrics>;
  /** Uninstalls the global providers, propagator and context manager. */
  shutdown(): Promise<void>;
}

/** Uninstalls the global providers, propagator and context manager, whoever installed them. */
function disableGlobals(): void {
  trace.disable();
  metrics.disable();
  propagation.disable();
  context.disable();
}

/**
 * Installs global OpenTelemetry providers that keep spans and metrics in memory (tests). Same propagator
 * and context manager as `startTelemetry`, so trace context behaves as in production. Test files share
 * worker processes: whatever an earlier file left installed (a failed hook that never shut down) is
 * uninstalled first, since the API keeps the first provider registered and ignores later ones.
 */
export function createInMemoryTelemetry(options: {
  /**
   * Also enable the instrumentations production runs (undici, mongodb, http, runtime); a module they
   * patch (the MongoDB driver) must be imported after this call.
   * @default false
   */
  instrumentations?: boolean;
} = {}): InMemoryTelemetry {
  disableGlobals();
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  tracerProvider.register({ propagator: new W3CTraceContextPropagator() });
  const serverMetrics = createServerMetricsProducer();
  const reader = new ManualMetricReader({ metricProducers: [serverMetrics.producer] });
  const meterProvider = new MeterProvider({ readers: [reader] });
  metrics.setGlobalMeterProvider(meterProvider);
  const unregister = options.instrumentations
    ? registerInstrumentations({ instrumentations: createInstrumentations(), tracerProvider, meterProvider })
    : () => undefined;
  return {
    spans: () => exporter.getFinishedSpans(),
    reset: () => exporter.reset(),
    async collectMetrics() {
      const { resourceMetrics } = await reader.collect();
      return resourceMetrics;
    },
    async shutdown() {
      unregister();
      await Promise.allSettled([tracerProvider.shutdown(), meterProvider.shutdown()]);
      serverMetrics.stop();
      disableGlobals();
    },
  };
}
