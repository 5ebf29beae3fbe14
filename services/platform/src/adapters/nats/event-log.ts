import type { Logger } from '../../logger.js';
import type { EventLog } from '../../ports/event-log.js';
import type { NatsHandle } from './connection.js';

export interface NatsEventLogOptions {
  nats: NatsHandle;
  logger: Logger;
  /** @default 'RUN_EVENTS' */
  stream?: string;
  /** @default 'runs' (subjects `<prefix>.<runId>.events`) */
  subjectPrefix?: string;
  /** @default EVENT_RETENTION_MS */
  retentionMs?: number;
}
/** JetStream event log (STUB: being implemented). */
export async function createNatsEventLog(_options: NatsEventLogOptions): Promise<EventLog> {
  throw new Error('not implemented yet');
}
