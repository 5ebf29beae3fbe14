import { JetStreamApiError, type JetStreamManager, type StreamConfig } from '@nats-io/jetstream';
import type { Logger } from '../../logger.js';

/** Milliseconds to the nanoseconds JetStream configs use. */
export function nanos(ms: number): number {
  return Math.round(ms * 1_000_000);
}

/**
 * Create the stream, or bring an existing one to this config. Several replicas start at once, so a
 * concurrent create is treated as "exists". Fields the server refuses to change (storage, retention)
 * leave the stream as it is, with a warning, rather than failing start-up.
 */
export async function ensureStream(
  jsm: JetStreamManager,
  config: Partial<StreamConfig> & { name: string },
  logger: Logger,
): Promise<void> {
  try {
    await jsm.streams.add(config);
    return;
  } catch (err) {
    if (!isStreamExists(err)) throw err;
  }
  try {
    await jsm.streams.update(config.name, config);
  } catch (err) {
    logger.warn('jetstream: existing stream kept its config', { stream: config.name, err: String(err) });
  }
}

/** JetStream API error 10058: "stream name already in use with a different configuration". */
const STREAM_NAME_EXISTS = 10058;

function isStreamExists(err: unknown): boolean {
  return err instanceof JetStreamApiError && err.code === STREAM_NAME_EXISTS;
}

/** Subject tokens cannot hold '.', '*', '>' or whitespace; a run id is one token. */
export function isSubjectToken(value: string): boolean {
  return value.length > 0 && !/[.*>\s]/.test(value);
}
