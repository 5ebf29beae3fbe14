/**
 * @leadfinder/platform: configuration, errors, logging, telemetry, the ports every role depends on and
 * their adapters (embedded, MongoDB, NATS JetStream, gRPC).
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

export type { Config } from './config.js';
export type { ErrorCode, LeadfinderErrorOptions } from './errors.js';
export type { Logger } from './logger.js';
export type { Clock, Ids, ServiceContext } from './context.js';
export type * from './ports/index.js';

// Adapters (factories return port interfaces).
export { createEmbeddedStore, DataDirError } from './adapters/embedded/store.js';
export { createMongoStore } from './adapters/mongo/store.js';
export { createEmbeddedEventLog } from './adapters/embedded/event-log.js';
export { createInProcessWorkQueue, createInProcessStopFlags } from './adapters/embedded/work-queue.js';
export { connectNats } from './adapters/nats/connection.js';
export { createNatsEventLog } from './adapters/nats/event-log.js';
export { createNatsWorkQueue, createNatsStopFlags } from './adapters/nats/work-queue.js';
export { createBilling } from './billing/billing.js';
export { checkLedgerInvariants, assertLedgerInvariants } from './billing/invariants.js';
export type { EmbeddedStoreOptions } from './adapters/embedded/store.js';
export type { MongoStoreOptions } from './adapters/mongo/store.js';
export type { EmbeddedEventLogOptions } from './adapters/embedded/event-log.js';
export type { NatsHandle } from './adapters/nats/connection.js';
export type { NatsEventLogOptions } from './adapters/nats/event-log.js';
export type { NatsWorkOptions } from './adapters/nats/work-queue.js';
export type { Billing, BillingOptions, BillingStep, ReserveResult } from './billing/billing.js';

// gRPC adapters for the fetcher and filter ports (distributed mode) and telemetry.
export {
  createGrpcFetcherClient, createGrpcFilterClient, DEFAULT_FETCHER_DEADLINE_MS, DEFAULT_FILTER_DEADLINE_MS,
  FETCHER_SERVICE, FILTER_SERVICE,
} from './adapters/grpc/clients.js';
export { startGrpcServer } from './adapters/grpc/server.js';
export {
  startTelemetry, tracer, meter, injectTraceContext, withExtractedContext, rpcAttributes, messagingAttributes,
  genAiAttributes, createLeadfinderMetrics, createInMemoryTelemetry,
} from './telemetry/index.js';
export type { Closable } from './adapters/grpc/clients.js';
export type { GrpcClientOptions, RetryOptions } from './adapters/grpc/channel.js';
export type { GrpcServerOptions, GrpcServerHandle } from './adapters/grpc/server.js';
export type { RpcCall, RpcInterceptor, RpcNext } from './adapters/grpc/interceptors.js';
export type {
  TelemetryOptions, TelemetryHandle, RpcAttributeInput, MessagingAttributeInput, MessagingOperation, GenAiAttributeInput,
  LeadfinderMetrics, FetchOutcomeLabel, InMemoryTelemetry,
} from './telemetry/index.js';
