import type { Logger } from '../../logger.js';
import type { StopFlags, WorkQueue } from '../../ports/work-queue.js';

/** In-process work queue (STUB: being implemented). */
export function createInProcessWorkQueue(_options: { logger: Logger }): WorkQueue {
  throw new Error('not implemented yet');
}
/** In-process stop flags (STUB: being implemented). */
export function createInProcessStopFlags(): StopFlags {
  throw new Error('not implemented yet');
}
