import type { Logger } from '../../logger.js';
import type { NatsHandle } from './connection.js';

/** Where the work queue and the stop flags live in JetStream (both read it; neither imports the other). */
export interface NatsWorkOptions {
  nats: NatsHandle;
  logger: Logger;
  /** @default 'RUN_WORK' */
  stream?: string;
  /** Subject the work messages are published on. @default 'work.runs' */
  subject?: string;
  /** Durable pull consumer shared by every coordinator replica. @default 'coordinators' */
  durable?: string;
  /** @default 'leadfinder_stops' */
  stopBucket?: string;
}
