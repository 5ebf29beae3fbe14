import type { Logger } from '../../logger.js';
import type { Store } from '../../ports/store.js';

export interface MongoStoreOptions {
  url: string;
  dbName: string;
  logger: Logger;
}
/** MongoDB store through the official driver (STUB: being implemented). */
export async function createMongoStore(_options: MongoStoreOptions): Promise<Store> {
  throw new Error('not implemented yet');
}
