/**
 * @leadfinder/platform/embedded: the in-process adapters `npm start` runs on (store and event log in the
 * data dir, work queue and stop flags in memory). Imported only by the composition root and tests.
 */
export { createEmbeddedStore, DataDirError } from './adapters/embedded/store.js';
export { createEmbeddedEventLog } from './adapters/embedded/event-log.js';
export { createInProcessWorkQueue, createInProcessStopFlags } from './adapters/embedded/work-queue.js';
export { createEmbeddedIdempotencyStore } from './adapters/embedded/idempotency-store.js';
export { createEmbeddedWebhookStore } from './adapters/embedded/webhook-store.js';
export type { EmbeddedWebhookStoreOptions } from './adapters/embedded/webhook-store.js';
export type { EmbeddedIdempotencyStoreOptions } from './adapters/embedded/idempotency-store.js';
export type { EmbeddedStoreOptions } from './adapters/embedded/store.js';
export type { EmbeddedEventLogOptions } from './adapters/embedded/event-log.js';
