import type { RunEvent, SequencedEvent } from '@leadfinder/wire';

/**
 * Event log port: one ordered log for all runs; sequence numbers start at 1 and only rise, shared
 * across runs (so within a run they rise but are not contiguous). Adapters: embedded (file in the data
 * dir) and NATS JetStream (stream RUN_EVENTS, subject `runs.<id>.events`, the stream sequence is the seq,
 * `Nats-Msg-Id` de-duplicates). Events expire after the retention (24 h).
 */
export interface EventLog {
  /**
   * Append one event of a run. `dedupeId` is unique per logical event (e.g. `${runId}:${n}`): a second
   * append with the same id returns the first one's seq and writes nothing.
   */
  append(runId: string, event: RunEvent, dedupeId: string): Promise<number>;
  /** The run's events with seq > afterSeq, in order, at most `limit`. */
  read(runId: string, afterSeq: number, limit?: number): Promise<SequencedEvent[]>;
  /**
   * The run's events with seq > afterSeq, then live ones as they are appended. Never ends by itself;
   * ends when `signal` aborts (the iterator then returns without throwing).
   */
  follow(runId: string, afterSeq: number, signal: AbortSignal): AsyncIterable<SequencedEvent>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** 24 hours (spec §6 rule 5). */
export const EVENT_RETENTION_MS = 24 * 60 * 60 * 1000;
