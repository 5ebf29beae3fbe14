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
   * Marks the run's log complete: written once the run record is terminal, after every event of the
   * run. The marker takes a seq but is no event: `read` never returns it and clients never see it;
   * `follow` ends on it. Idempotent per run (a second call returns the first marker's seq).
   */
  end(runId: string): Promise<number>;
  /**
   * The run's events with seq > afterSeq, then live ones as they are appended, until the run's end
   * marker (see `end`) or until `signal` aborts; either way the iterator returns without throwing. The
   * marker ends it whatever the cursor: also one at or past the marker's seq (a resume with a cursor from
   * elsewhere), which gets none of the run's events. A run whose log has no marker (it ended before markers
   * were written) is followed until `signal` aborts.
   */
  follow(runId: string, afterSeq: number, signal: AbortSignal): AsyncIterable<SequencedEvent>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** 24 hours (spec §6 rule 5). */
export const EVENT_RETENTION_MS = 24 * 60 * 60 * 1000;
