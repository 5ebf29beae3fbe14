/**
 * @leadfinder/platform/nats: the event log, work queue and stop flags on NATS JetStream. Imported only by
 * the composition root and tests.
 */
export { connectNats } from './adapters/nats/connection.js';
export { createNatsEventLog } from './adapters/nats/event-log.js';
export { createNatsWorkQueue } from './adapters/nats/work-queue.js';
export { createNatsStopFlags } from './adapters/nats/stop-flags.js';
export type { NatsHandle } from './adapters/nats/connection.js';
export type { NatsEventLogOptions } from './adapters/nats/event-log.js';
export type { NatsWorkOptions } from './adapters/nats/work-options.js';
