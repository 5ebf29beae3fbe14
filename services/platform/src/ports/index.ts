export type * from './store.js';
export type * from './event-log.js';
export type * from './work-queue.js';
export type * from './research.js';
export type * from './idempotency.js';
export type * from './webhooks.js';
export { EVENT_RETENTION_MS } from './event-log.js';
