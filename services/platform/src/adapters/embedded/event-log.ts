import type { Clock } from '../../context.js';
import type { Logger } from '../../logger.js';
import type { EventLog } from '../../ports/event-log.js';

export interface EmbeddedEventLogOptions {
  dataDir: string;
  logger: Logger;
  clock?: Clock;
  /** @default EVENT_RETENTION_MS (24 h) */
  retentionMs?: number;
}
/** Embedded event log (STUB: being implemented). */
export async function createEmbeddedEventLog(_options: EmbeddedEventLogOptions): Promise<EventLog> {
  throw new Error('not implemented yet');
}
