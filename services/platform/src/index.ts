/**
 * @leadfinder/platform: configuration, errors, logging, clock, the ports every role depends on, the
 * billing rules and the telemetry API. Driver-free: the adapters are subpath exports (see the end).
 *
 * @example
 * import { loadConfig, createLogger } from '@leadfinder/platform';
 * const config = loadConfig();
 * const logger = createLogger({ level: config.LEADFINDER_LOG_LEVEL });
 */
export { ConfigSchema, ConfigError, Role, devSignInRefusal, isLoopbackHost, loadConfig, redactCredentials, searchProvider } from './config.js';
export {
  LeadfinderError, NotFoundError, InvalidArgumentError, UnavailableError, DeadlineExceededError, CancelledError,
  LeaseLostError, UpstreamError, InternalError, assertNever,
} from './errors.js';
export { createLogger, silentLogger } from './logger.js';
export { systemClock, randomIds, sleep } from './context.js';
export { EVENT_RETENTION_MS } from './ports/index.js';
export { idempotencyScope } from './ports/idempotency.js';
export { createInMemoryIdempotencyStore } from './idempotency/memory-store.js';

export type { Config } from './config.js';
export type { ErrorCode, LeadfinderErrorOptions } from './errors.js';
export type { Logger } from './logger.js';
export type { Clock, Ids, ServiceContext } from './context.js';
export type * from './ports/index.js';

export { createBilling } from './billing/billing.js';
export { checkLedgerInvariants, assertLedgerInvariants } from './billing/invariants.js';
export type { Billing, BillingOptions, BillingStep, ReserveResult } from './billing/billing.js';

// Telemetry through the OpenTelemetry API only: spans and metrics are no-ops until the composition root
// starts the SDK (`@leadfinder/platform/telemetry`).
export { tracer, meter, injectTraceContext, withExtractedContext } from './telemetry/context.js';
export { rpcAttributes, messagingAttributes } from './telemetry/semconv.js';
export { createLeadfinderMetrics } from './telemetry/metrics.js';
export { recordHttpServerRequest, recordRpcServerCall, HTTP_SERVER_DURATION_BUCKETS_S, RPC_SERVER_DURATION_BUCKETS_MS } from './telemetry/server-metrics.js';
export type { HttpServerRequest, RpcServerCall } from './telemetry/server-metrics.js';
export type { RpcAttributeInput, MessagingAttributeInput, MessagingOperation } from './telemetry/semconv.js';
export type { LeadfinderMetrics, FetchOutcomeLabel } from './telemetry/metrics.js';

// The adapters sit behind subpath exports that only the composition root (services/cli/src/serve/) and
// tests import, so a role loads no driver it does not use:
//   @leadfinder/platform/embedded  in-process store, event log, work queue and stop flags
//   @leadfinder/platform/mongo     store on a MongoDB-wire server
//   @leadfinder/platform/nats      event log, work queue and stop flags on NATS JetStream
//   @leadfinder/platform/grpc      fetcher and filter clients and server
//   @leadfinder/platform/telemetry the OpenTelemetry SDK
