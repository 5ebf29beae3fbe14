import { DeliverPolicy, JetStreamError, StorageType, type StoredMsg } from '@nats-io/jetstream';
import { headers as natsHeaders, type MsgHdrs } from '@nats-io/transport-node';
import { context, propagation } from '@opentelemetry/api';
import type { RunEvent, SequencedEvent } from '@leadfinder/wire';
import { InvalidArgumentError, UnavailableError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { EVENT_RETENTION_MS, type EventLog } from '../../ports/event-log.js';
import type { NatsHandle } from './connection.js';
import { ensureStream, isSubjectToken, nanos } from './streams.js';

export interface NatsEventLogOptions {
  nats: NatsHandle;
  logger: Logger;
  /** @default 'RUN_EVENTS' */
  stream?: string;
  /** @default 'runs' (subjects `<prefix>.<runId>.events`) */
  subjectPrefix?: string;
  /** Stream `max_age`. @default EVENT_RETENTION_MS */
  retentionMs?: number;
  /** How long JetStream remembers a `Nats-Msg-Id` for de-duplication. @default 120000 (2 min) */
  duplicateWindowMs?: number;
}

/** Direct-get page size for reads; a page shorter than this means the end of the run's events. */
const READ_PAGE = 256;

/**
 * JetStream event log: one stream, subject `<prefix>.<runId>.events`, the stream sequence is the seq.
 * `Nats-Msg-Id` = dedupeId, so a retried append inside the duplicate window returns the first seq.
 * A run's end marker is an empty message on `<prefix>.<runId>.end`, a subject of its own so that
 * readers of `.events` (reads, and followers from before markers existed) never see it.
 * Reads use batched direct gets (no consumer to create and delete); follows use an ordered consumer
 * on both subjects of the run from `afterSeq + 1`, which delivers stored then live messages with no gaps.
 */
export async function createNatsEventLog(options: NatsEventLogOptions): Promise<EventLog> {
  const log = new NatsEventLog(options);
  await log.start();
  return log;
}

class NatsEventLog implements EventLog {
  private readonly nats: NatsHandle;
  private readonly logger: Logger;
  private readonly stream: string;
  private readonly prefix: string;
  private readonly retentionMs: number;
  private readonly duplicateWindowMs: number;
  private readonly closing = new AbortController();

  constructor(options: NatsEventLogOptions) {
    this.nats = options.nats;
    this.logger = options.logger.child({ component: 'event-log', adapter: 'nats' });
    this.stream = options.stream ?? 'RUN_EVENTS';
    this.prefix = options.subjectPrefix ?? 'runs';
    this.retentionMs = options.retentionMs ?? EVENT_RETENTION_MS;
    // The server requires duplicate_window <= max_age.
    this.duplicateWindowMs = Math.min(options.duplicateWindowMs ?? 120_000, this.retentionMs);
  }

  async start(): Promise<void> {
    await ensureStream(
      this.nats.jsm,
      {
        name: this.stream,
        subjects: [`${this.prefix}.*.events`, `${this.prefix}.*.end`],
        storage: StorageType.File,
        max_age: nanos(this.retentionMs),
        duplicate_window: nanos(this.duplicateWindowMs),
        allow_direct: true,
      },
      this.logger,
    );
  }

  async append(runId: string, event: RunEvent, dedupeId: string): Promise<number> {
    const ack = await this.nats.js
      .publish(this.subject(runId), JSON.stringify(event), { msgID: dedupeId, headers: traceHeaders() })
      .catch((err: unknown) => {
        throw new UnavailableError('nats', `event append failed: ${String(err)}`, { cause: err });
      });
    return ack.seq;
  }

  async end(runId: string): Promise<number> {
    const ack = await this.nats.js
      .publish(this.subject(runId, 'end'), undefined, { msgID: `${runId}:end` })
      .catch((err: unknown) => {
        throw new UnavailableError('nats', `run end marker append failed: ${String(err)}`, { cause: err });
      });
    return ack.seq;
  }

  async read(runId: string, afterSeq: number, limit = Number.POSITIVE_INFINITY): Promise<SequencedEvent[]> {
    const subject = this.subject(runId);
    const out: SequencedEvent[] = [];
    let from = afterSeq + 1;
    while (out.length < limit) {
      const want = Math.min(READ_PAGE, limit - out.length);
      const page = await this.page(subject, from, want);
      for (const msg of page) out.push({ seq: msg.seq, event: msg.json<RunEvent>() });
      if (page.length < want) break;
      from = page[page.length - 1]!.seq + 1;
    }
    return out;
  }

  async *follow(runId: string, afterSeq: number, signal: AbortSignal): AsyncIterable<SequencedEvent> {
    const stop = AbortSignal.any([signal, this.closing.signal]);
    if (stop.aborted) return;
    const endSubject = this.subject(runId, 'end');
    // A cursor at or past the marker's seq (a resume with a cursor from elsewhere) would never see it.
    if ((await this.page(endSubject, 1, 1)).length > 0 && (await this.page(this.subject(runId), afterSeq + 1, 1)).length === 0) return;
    // A cursor past the stream's last seq would start after a marker still to come: start at the stream's end
    // instead and skip the events up to the cursor.
    const { state } = await this.nats.jsm.streams.info(this.stream);
    const consumer = await this.nats.js.consumers.get(this.stream, {
      filter_subjects: [this.subject(runId), endSubject],
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: Math.min(afterSeq, state.last_seq) + 1,
    });
    const messages = await consumer.consume();
    const onAbort = () => messages.stop();
    stop.addEventListener('abort', onAbort, { once: true });
    try {
      for await (const msg of messages) {
        if (stop.aborted || msg.subject === endSubject) return;
        if (msg.seq <= afterSeq) continue;
        yield { seq: msg.seq, event: msg.json<RunEvent>() };
      }
    } finally {
      stop.removeEventListener('abort', onAbort);
      messages.stop();
      // Stopping only unsubscribes: the server would keep the ordered consumer for its 5-minute
      // inactivity threshold, one per stream ever followed (issue 22). Delete it now; failure is harmless.
      void consumer.delete().catch(() => undefined);
    }
  }

  async ping(): Promise<void> {
    await this.nats.jsm.streams.info(this.stream).catch((err: unknown) => {
      throw new UnavailableError('nats', `event stream ${this.stream} unavailable: ${String(err)}`, { cause: err });
    });
  }

  async close(): Promise<void> {
    // The connection belongs to the caller; ending followers is all there is to do.
    this.closing.abort();
  }

  /** The run's event subject, or its end-marker subject. */
  private subject(runId: string, kind: 'events' | 'end' = 'events'): string {
    if (!isSubjectToken(runId)) throw new InvalidArgumentError(`run id ${JSON.stringify(runId)} cannot be a subject token`, 'runId');
    return `${this.prefix}.${runId}.${kind}`;
  }

  /** Up to `batch` of the subject's messages from stream seq `from` on; none when there are none. */
  private async page(subject: string, from: number, batch: number): Promise<StoredMsg[]> {
    const msgs: StoredMsg[] = [];
    try {
      const it = await this.nats.jsm.direct.getBatch(this.stream, { seq: from, batch, next_by_subj: subject });
      for await (const msg of it) msgs.push(msg);
    } catch (err) {
      // 404 "message not found": nothing at or after `from` on this subject.
      if (!(err instanceof JetStreamError && (err as JetStreamError & { code?: unknown }).code === 404)) throw err;
    }
    return msgs;
  }
}

/** W3C trace context of the active span (nothing when no propagator is registered). */
function traceHeaders(): MsgHdrs | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  const keys = Object.keys(carrier);
  if (keys.length === 0) return undefined;
  const h = natsHeaders();
  for (const key of keys) h.set(key, carrier[key]!);
  return h;
}
