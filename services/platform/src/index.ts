/**
 * @leadfinder/platform: configuration, errors, logging, telemetry, the ports every role depends on and
 * their adapters (embedded, MongoDB, NATS JetStream, gRPC).
 *
 * @example
 * import { loadConfig, createLogger } from '@leadfinder/platform';
 * const config = loadConfig();
 * const logger = createLogger({ level: config.LEADFINDER_LOG_LEVEL });
 */
export { ConfigSchema, ConfigError, Role, loadConfig, searchProvider } from './config.js';
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
