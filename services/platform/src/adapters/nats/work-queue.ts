import {
  AckPolicy, DeliverPolicy, JetStreamApiError, RetentionPolicy, StorageType, type Consumer, type ConsumerConfig, type JsMsg,
} from '@nats-io/jetstream';
import { headers as natsHeaders } from '@nats-io/transport-node';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api';
import type { Context } from '@opentelemetry/api';
import { sleep } from '../../context.js';
import { InvalidArgumentError, UnavailableError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { WorkItem, WorkQueue, WorkSubscription } from '../../ports/work-queue.js';
import { createWorkSubscription, once, SubscriptionRegistry } from '../../work/subscription.js';
import { tracer } from '../../telemetry/context.js';
import { messagingAttributes } from '../../telemetry/semconv.js';
import type { NatsHandle } from './connection.js';
import { ensureStream, isSubjectToken, nanos } from './streams.js';
import type { NatsWorkOptions } from './work-options.js';

export type { NatsWorkOptions } from './work-options.js';

/** A pull lasts this long; it bounds how long `stop()` waits for a pull in progress. */
const PULL_EXPIRES_MS = 1_000;
/** Pause after a failed pull (server restarting, consumer being recreated) before the next one. */
const PULL_RETRY_MS = 1_000;

interface WorkMessage {
  runId: string;
}

const TRACER = 'leadfinder.nats';

/** The trace context carried by `headers`, else the active one. */
function parentOf(headers: Record<string, string>): Context {
  const carried = propagation.extract(ROOT_CONTEXT, headers);
  return trace.getSpanContext(carried) ? carried : context.active();
}

/**
 * JetStream work queue: a work-queue-retention stream and one durable pull consumer shared by all
 * coordinators. The unacked message is the dispatch lease: `ack_wait` = `ackWaitMs`, `working()` is an
 * in-progress ack, and an item whose holder died is redelivered with a higher delivery count.
 */
export async function createNatsWorkQueue(options: NatsWorkOptions): Promise<WorkQueue> {
  const queue = new NatsWorkQueue(options);
  await queue.start();
  return queue;
}

class NatsWorkQueue implements WorkQueue {
  private readonly nats: NatsHandle;
  private readonly logger: Logger;
  private readonly stream: string;
  private readonly subject: string;
  private readonly durable: string;
  private readonly subscriptions = new SubscriptionRegistry();

  constructor(options: NatsWorkOptions) {
    this.nats = options.nats;
    this.logger = options.logger.child({ component: 'work-queue', adapter: 'nats' });
    this.stream = options.stream ?? 'RUN_WORK';
    this.subject = options.subject ?? 'work.runs';
    this.durable = options.durable ?? 'coordinators';
  }

  async start(): Promise<void> {
    await ensureStream(
      this.nats.jsm,
      { name: this.stream, subjects: [this.subject], retention: RetentionPolicy.Workqueue, storage: StorageType.File },
      this.logger,
    );
  }

  /**
   * Publishes inside a PRODUCER span whose context replaces the caller's in the message headers, so the
   * consumer's spans hang under this publish. Its parent is the run's trace when `headers` carry one (a
   * re-enqueue by a coordinator continues the run's trace, not whatever span is active there), else the
   * active context.
   */
  async enqueue(runId: string, headers: Record<string, string>): Promise<void> {
    if (!isSubjectToken(runId)) throw new InvalidArgumentError(`invalid run id ${JSON.stringify(runId)}`, 'runId');
    const parent = parentOf(headers);
    const span = tracer(TRACER).startSpan(`publish ${this.subject}`, {
      kind: SpanKind.PRODUCER,
      attributes: { ...messagingAttributes({ destination: this.subject, operation: 'publish' }), 'leadfinder.run_id': runId },
    }, parent);
    const carrier: Record<string, string> = { ...headers };
    propagation.inject(trace.setSpan(parent, span), carrier);
    const h = natsHeaders();
    for (const [key, value] of Object.entries(carrier)) h.set(key, value);
    const body: WorkMessage = { runId };
    try {
      const ack = await this.nats.js.publish(this.subject, JSON.stringify(body), { headers: h });
      span.setAttribute('messaging.message.id', String(ack.seq));
    } catch (err) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: String(err) });
      throw new UnavailableError('nats', `enqueue failed: ${String(err)}`, { cause: err });
    } finally {
      span.end();
    }
  }

  consume(options: { ackWaitMs: number; maxInFlight: number }): WorkSubscription {
    let consumer: Promise<Consumer> | undefined;
    const subscription = createWorkSubscription({
      maxInFlight: options.maxInFlight,
      pull: async (signal, release) => {
        while (!signal.aborted) {
          try {
            consumer ??= this.ensureConsumer(options);
            const msg = await (await consumer).next({ expires: PULL_EXPIRES_MS });
            if (!msg) continue;
            if (signal.aborted) {
              // Stopped while this pull was out: hand the message straight back rather than let it sit out its ack wait.
              msg.nak();
              break;
            }
            return this.toItem(msg, release);
          } catch (err) {
            consumer = undefined;
            if (signal.aborted) break;
            this.logger.warn('work queue: pull failed; retrying', { err: String(err) });
            // A stopping subscriber does not sit out the pause: it ends when the signal aborts.
            await sleep(PULL_RETRY_MS, signal).catch(() => undefined);
          }
        }
        return undefined;
      },
    });
    return this.subscriptions.track(subscription);
  }

  async ping(): Promise<void> {
    await this.nats.jsm.streams.info(this.stream).catch((err: unknown) => {
      throw new UnavailableError('nats', `work stream ${this.stream} unavailable: ${String(err)}`, { cause: err });
    });
  }

  async close(): Promise<void> {
    await this.subscriptions.stopAll();
  }

  /** Creates the shared durable consumer, or updates its ack wait when this replica asks for another. */
  private async ensureConsumer(options: { ackWaitMs: number; maxInFlight: number }): Promise<Consumer> {
    const config: Partial<ConsumerConfig> = {
      durable_name: this.durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: nanos(options.ackWaitMs),
      max_ack_pending: Math.max(1000, options.maxInFlight),
      // Never give up on a run: a run that keeps failing is ended by the coordinator, not dropped here.
      max_deliver: -1,
      filter_subject: this.subject,
    };
    try {
      await this.nats.jsm.consumers.add(this.stream, config);
    } catch (err) {
      if (!(err instanceof JetStreamApiError)) throw err;
      await this.nats.jsm.consumers.update(this.stream, this.durable, {
        ack_wait: config.ack_wait!,
        max_ack_pending: config.max_ack_pending!,
        max_deliver: config.max_deliver!,
      });
    }
    return this.nats.js.consumers.get(this.stream, this.durable);
  }

  private toItem(msg: JsMsg, release: () => void): WorkItem {
    const body = msg.json<WorkMessage>();
    const headers: Record<string, string> = {};
    for (const key of msg.headers?.keys() ?? []) headers[key] = msg.headers!.get(key);
    // The pull that delivered it, child of the publish: a CLIENT span, as the messaging conventions have
    // a pull-based `receive`; the CONSUMER span of the delivery is the coordinator's `process`, its
    // sibling, also parented on the headers. A redelivery says after how many attempts. (Not back-dated
    // to the server's store time: server and process clocks need not agree.)
    tracer(TRACER).startSpan(`receive ${this.subject}`, {
      kind: SpanKind.CLIENT,
      attributes: {
        ...messagingAttributes({ destination: this.subject, operation: 'receive' }),
        'messaging.message.id': String(msg.seq),
        'messaging.consumer.group.name': this.durable,
        'messaging.nats.delivery_count': msg.info.deliveryCount,
        'leadfinder.run_id': body.runId,
      },
    }, parentOf(headers)).end();
    const settle = once(release);
    return {
      runId: body.runId,
      headers,
      deliveryCount: msg.info.deliveryCount,
      working: async () => msg.working(),
      ack: async () => {
        settle();
        // ackAck waits for the server to confirm, so a returned ack really removed the item.
        await msg.ackAck();
      },
      nak: async (delayMs?: number) => {
        settle();
        msg.nak(delayMs);
      },
    };
  }
}
