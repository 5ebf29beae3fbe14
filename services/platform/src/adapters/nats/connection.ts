import type { Logger } from '../../logger.js';

/** Opaque handle on a NATS connection shared by the NATS adapters. */
export interface NatsHandle {
  close(): Promise<void>;
}
/** Connect to NATS with JetStream (STUB: being implemented). */
export async function connectNats(_options: { url: string; name: string; logger: Logger }): Promise<NatsHandle> {
  throw new Error('not implemented yet');
}
