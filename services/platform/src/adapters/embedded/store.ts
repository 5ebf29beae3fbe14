import type { Logger } from '../../logger.js';
import type { Store } from '../../ports/store.js';

export interface EmbeddedStoreOptions {
  /** Folder of the database file; created when missing. */
  dataDir: string;
  logger: Logger;
}
/** Embedded store: a database file in the data dir (STUB: being implemented). */
export async function createEmbeddedStore(_options: EmbeddedStoreOptions): Promise<Store> {
  throw new Error('not implemented yet');
}
