/** Telemetry: OpenTelemetry setup, trace-context helpers, semantic-convention attributes, metrics. */
export { startTelemetry } from './sdk.js';
export { tracer, meter, injectTraceContext, withExtractedContext } from './context.js';
export { rpcAttributes, messagingAttributes, genAiAttributes } from './semconv.js';
export { createLeadfinderMetrics } from './metrics.js';
export { createInMemoryTelemetry } from './testing.js';
export type { TelemetryOptions, TelemetryHandle } from './sdk.js';
export type { RpcAttributeInput, MessagingAttributeInput, MessagingOperation, GenAiAttributeInput } from './semconv.js';
export type { LeadfinderMetrics, FetchOutcomeLabel } from './metrics.js';
export type { InMemoryTelemetry } from './testing.js';
