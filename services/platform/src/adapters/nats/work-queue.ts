import type { Logger } from '../../logger.js';
import type { StopFlags, WorkQueue } from '../../ports/work-queue.js';
import type { NatsHandle } from './connection.js';

export interface NatsWorkOptions {
  nats: NatsHandle;
  logger: Logger;
  /** @default 'RUN_WORK' */
  stream?: string;
  /** @default 'leadfinder_stops' */
  stopBucket?: string;
}
/** JetStream work queue (STUB: being implemented). */
export async function createNatsWorkQueue(_options: NatsWorkOptions): Promise<WorkQueue> {
  throw new Error('not implemented yet');
}
/** JetStream KV stop flags (STUB: being implemented). */
export async function createNatsStopFlags(_options: NatsWorkOptions): Promise<StopFlags> {
  throw new Error('not implemented yet');
}
