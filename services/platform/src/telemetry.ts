/**
 * @leadfinder/platform/telemetry: the OpenTelemetry SDK (exporters, providers) and its in-memory variant
 * for tests. Roles record spans and metrics through the driver-free API the package index exports
 * (`tracer`, `meter`, …); only the composition root starts the SDK.
 */
export { startTelemetry, MetricsListenError } from './telemetry/sdk.js';
export { createInMemoryTelemetry } from './telemetry/testing.js';
export { instrumentWorkQueue, ENQUEUED_AT_HEADER } from './telemetry/work-queue-metrics.js';
export { countingLlmUsage } from './telemetry/metrics.js';
export { traceBilling, traceEventLog, traceStore, traceWorkQueue } from './telemetry/port-tracing.js';
export type { TelemetryOptions, TelemetryHandle } from './telemetry/sdk.js';
export type { InMemoryTelemetry } from './telemetry/testing.js';
