/** @leadfinder/platform/mongo: the store on a MongoDB-wire server. Imported only by the composition root and tests. */
export { connectMongo } from './adapters/mongo/client.js';
export type { MongoConnectOptions } from './adapters/mongo/client.js';
export { createMongoStore } from './adapters/mongo/store.js';
export type { MongoStoreOptions } from './adapters/mongo/store.js';
export { createMongoIdempotencyStore } from './adapters/mongo/idempotency-store.js';
export type { MongoIdempotencyStoreOptions } from './adapters/mongo/idempotency-store.js';
export { createMongoWebhookStore } from './adapters/mongo/webhook-store.js';
export type { MongoWebhookStoreOptions } from './adapters/mongo/webhook-store.js';
