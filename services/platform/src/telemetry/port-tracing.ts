import { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, context, propagation, trace } from '@opentelemetry/api';
import type { Attributes, Context, Span } from '@opentelemetry/api';
import type { Billing } from '../billing/billing.js';
import type { EventLog } from '../ports/event-log.js';
import type { AccountStore, KeyStore, Ledger, RunStore, Store } from '../ports/store.js';
import type { WorkItem, WorkQueue, WorkSubscription } from '../ports/work-queue.js';
import { messagingAttributes } from './semconv.js';
import { tracer } from './context.js';

/**
 * Spans for the storage and messaging ports, wrapped around whichever adapter the composition root chose
 * (embedded files or MongoDB, in-process queue or JetStream), so a run's trace shows its store writes,
 * event appends, billing steps and work hand-over in embedded mode too. With MongoDB the driver's own
 * command spans (official instrumentation) hang under these, naming the port operation they served.
 *
 * A port call makes a span only inside a sampled trace (a request, a run): the reaper's and the
 * reconciler's periodic scans would otherwise each start a root trace of their own every few seconds.
 *
 * Volume: every call here is per run, per stage, per filter or per round (the coordinator appends events
 * per stage and filter, never per candidate), so these spans grow with rounds and filters.
 */

const TRACER = 'leadfinder.ports';
const RUN_ID = 'leadfinder.run_id';

function failed(span: Span, error: unknown): void {
  if (error instanceof Error) span.recordException(error);
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

/**
 * True inside a trace the sampler kept. In a dropped one (most polls: read requests are sampled at
 * LEADFINDER_TRACES_READ_RATIO) a child span would be dropped too, parent-based, yet still cost its
 * creation and a context switch per call; the call runs bare instead, still under the request's context.
 */
function inSampledTrace(): boolean {
  const span = trace.getSpan(context.active());
  return span !== undefined && (span.spanContext().traceFlags & TraceFlags.SAMPLED) !== 0;
}

/** Runs `fn` in an INTERNAL span named `name` inside a sampled trace; else runs it bare. */
async function traced<T>(name: string, attributes: Attributes, fn: () => Promise<T>, describe?: (result: T, span: Span) => void): Promise<T> {
  if (!inSampledTrace()) return fn();
  return tracer(TRACER).startActiveSpan(name, { kind: SpanKind.INTERNAL, attributes }, async (span) => {
    try {
      const result = await fn();
      describe?.(result, span);
      return result;
    } catch (error) {
      failed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

const run = (id: string | null | undefined): Attributes => (id ? { [RUN_ID]: id } : {});

/** `store.runs.*`, `store.accounts.*`, `store.ledger.*`, `store.keys.*` spans around a Store. */
export function traceStore(store: Store): Store {
  const r = store.runs;
  const runs: RunStore = {
    insert: (doc) => traced('store.runs.insert', run(doc.id), () => r.insert(doc)),
    get: (id) => traced('store.runs.get', run(id), () => r.get(id)),
    listRecent: (accountId, limit) => traced('store.runs.list_recent', {}, () => r.listRecent(accountId, limit)),
    claim: (id, owner, ttlMs, now) => traced('store.runs.claim', run(id), () => r.claim(id, owner, ttlMs, now),
      (out, span) => span.setAttribute('leadfinder.store.claimed', out !== null)),
    renew: (id, lease, ttlMs, now) => traced('store.runs.renew', run(id), () => r.renew(id, lease, ttlMs, now),
      (out, span) => span.setAttribute('leadfinder.store.lease_kept', out !== null)),
    progress: (id, lease, patch, now) => traced('store.runs.progress', run(id), () => r.progress(id, lease, patch, now),
      (ok, span) => span.setAttribute('leadfinder.store.lease_kept', ok)),
    finish: (id, lease, patch) => traced('store.runs.finish', { ...run(id), 'leadfinder.run.status': patch.status }, () => r.finish(id, lease, patch),
      (ok, span) => span.setAttribute('leadfinder.store.applied', ok)),
    findLapsed: (now) => traced('store.runs.find_lapsed', {}, () => r.findLapsed(now)),
    findOverdue: (nowIso) => traced('store.runs.find_overdue', {}, () => r.findOverdue(nowIso)),
    findUnclaimed: () => traced('store.runs.find_unclaimed', {}, () => r.findUnclaimed()),
    findUnsettled: () => traced('store.runs.find_unsettled', {}, () => r.findUnsettled()),
    markSettled: (id) => traced('store.runs.mark_settled', run(id), () => r.markSettled(id)),
  };
  const a = store.accounts;
  const accounts: AccountStore = {
    create: (account) => traced('store.accounts.create', {}, () => a.create(account)),
    get: (id) => traced('store.accounts.get', {}, () => a.get(id)),
    topup: (id, micros, entryKey, at) => traced('store.accounts.topup', {}, () => a.topup(id, micros, entryKey, at)),
    reserve: (id, runId, micros) => traced('store.accounts.reserve', run(runId), () => a.reserve(id, runId, micros)),
    settle: (id, runId, charge) => traced('store.accounts.settle', run(runId), () => a.settle(id, runId, charge)),
    close: (id) => traced('store.accounts.close', {}, () => a.close(id)),
    revokeSessions: (id) => traced('store.accounts.revoke_sessions', {}, () => a.revokeSessions(id)),
    delete: (id) => traced('store.accounts.delete', {}, () => a.delete(id)),
    listWithHolds: () => traced('store.accounts.list_with_holds', {}, () => a.listWithHolds()),
    listHolds: (id) => traced('store.accounts.list_holds', {}, () => a.listHolds(id)),
  };
  const l = store.ledger;
  const ledger: Ledger = {
    append: (entry) => traced('store.ledger.append', { ...run(entry.runId), 'leadfinder.ledger.kind': entry.kind }, () => l.append(entry)),
    list: (accountId) => traced('store.ledger.list', {}, () => l.list(accountId)),
  };
  const k = store.keys;
  const keys: KeyStore = {
    insert: (key) => traced('store.keys.insert', {}, () => k.insert(key)),
    findByPrefix: (prefix) => traced('store.keys.find', {}, () => k.findByPrefix(prefix)),
    listForAccount: (accountId) => traced('store.keys.list', {}, () => k.listForAccount(accountId)),
    revoke: (accountId, keyId, at) => traced('store.keys.revoke', {}, () => k.revoke(accountId, keyId, at)),
    touch: (keyId, at) => traced('store.keys.touch', {}, () => k.touch(keyId, at)),
  };
  return { runs, accounts, ledger, keys, ping: () => store.ping(), close: () => store.close() };
}

/**
 * A run's appends that follow one another within `APPEND_BATCH_GAP_MS` share one `event_log.append` span:
 * a stage's status and cost, a filter's done and the next one's start, the tail's final, cost, usage and
 * done. A long run appends hundreds of events; one span each would outnumber everything else in its trace.
 */
const APPEND_BATCH_GAP_MS = 2;

interface AppendBatch {
  span: Span;
  count: number;
  types: Set<string>;
  /** Appends of the batch still in flight. */
  pending: number;
  /** Time spent in the appends themselves (the batch's span also holds the short gaps between them). */
  appendMs: number;
  /** When the last append ended (epoch ms, the SDK's clock: performance time). */
  lastEnd: number;
  timer: NodeJS.Timeout | undefined;
}

const nowMs = () => performance.timeOrigin + performance.now();

function appendBatches() {
  const open = new Map<string, AppendBatch>();
  const close = (runId: string, batch: AppendBatch) => {
    if (open.get(runId) === batch) open.delete(runId);
    batch.span.setAttributes({
      'leadfinder.event.count': batch.count,
      'leadfinder.event.types': [...batch.types],
      'leadfinder.event.append_ms': Math.round(batch.appendMs * 1000) / 1000,
    });
    batch.span.end(batch.lastEnd);
  };
  return async function append(runId: string, type: string, write: () => Promise<number>): Promise<number> {
    if (!inSampledTrace()) return write();
    let batch = open.get(runId);
    if (!batch) {
      batch = {
        span: tracer(TRACER).startSpan('event_log.append', { kind: SpanKind.INTERNAL, attributes: run(runId) }),
        count: 0, types: new Set(), pending: 0, appendMs: 0, lastEnd: 0, timer: undefined,
      };
      open.set(runId, batch);
    }
    clearTimeout(batch.timer);
    batch.count += 1;
    batch.types.add(type);
    batch.pending += 1;
    const started = nowMs();
    const current = batch;
    try {
      return await write();
    } catch (error) {
      failed(current.span, error);
      throw error;
    } finally {
      current.pending -= 1;
      current.lastEnd = nowMs();
      current.appendMs += current.lastEnd - started;
      if (current.pending === 0) {
        current.timer = setTimeout(() => close(runId, current), APPEND_BATCH_GAP_MS);
        current.timer.unref();
      }
    }
  };
}

/**
 * `event_log.append` (batched per run, see above; with the count and types of the events),
 * `event_log.end` and `event_log.read` spans. `follow` is a stream that lives as long as a client
 * watches, not a call: it gets none.
 */
export function traceEventLog(events: EventLog): EventLog {
  const batched = appendBatches();
  return {
    append: (runId, event, dedupeId) => batched(runId, event.type, () => events.append(runId, event, dedupeId)),
    read: (runId, afterSeq, limit) => traced('event_log.read', run(runId), () => events.read(runId, afterSeq, limit),
      (out, span) => span.setAttribute('leadfinder.event.count', out.length)),
    end: (runId) => traced('event_log.end', run(runId), () => events.end(runId)),
    follow: (runId, afterSeq, signal) => events.follow(runId, afterSeq, signal),
    ping: () => events.ping(),
    close: () => events.close(),
  };
}

/** `billing.reserve`, `billing.end_run`, `billing.settle`, `billing.topup`, `billing.reconcile` spans. */
export function traceBilling(billing: Billing): Billing {
  return {
    reserve: (accountId, runId, micros) => traced('billing.reserve', { ...run(runId), 'leadfinder.billing.hold_microusd': micros },
      () => billing.reserve(accountId, runId, micros),
      (out, span) => span.setAttribute('leadfinder.billing.outcome', out.ok ? 'held' : out.reason)),
    settle: (doc) => traced('billing.settle', run(doc.id), () => billing.settle(doc)),
    endRun: (doc, lease, patch, options) => traced('billing.end_run',
      { ...run(doc.id), 'leadfinder.run.status': patch.status, 'leadfinder.billing.charge_microusd': patch.chargeMicrousd },
      () => billing.endRun(doc, lease, patch, options),
      (ended, span) => span.setAttribute('leadfinder.billing.applied', ended)),
    reconcile: () => traced('billing.reconcile', {}, () => billing.reconcile(),
      (repaired, span) => span.setAttribute('leadfinder.billing.repaired', repaired)),
    topup: (accountId, micros, entryKey) => traced('billing.topup', {}, () => billing.topup(accountId, micros, entryKey)),
  };
}

/** The trace context `headers` carry, else the active one. */
function parentOf(headers: Record<string, string>): Context {
  const carried = propagation.extract(ROOT_CONTEXT, headers);
  return trace.getSpanContext(carried) ? carried : context.active();
}

/**
 * Messaging spans for a queue whose adapter makes none (the in-process queue; JetStream's makes its own):
 * a PRODUCER `publish <destination>` span whose context replaces the caller's in the item's headers, so
 * the consumer's `process` span hangs under it, and a CLIENT `receive <destination>` span per delivery,
 * as the JetStream adapter does. `system` is the `messaging.system` (e.g. `inprocess`).
 */
export function traceWorkQueue(queue: WorkQueue, source: { system: string; destination: string }): WorkQueue {
  const attributes = (operation: 'publish' | 'receive', runId: string): Attributes => ({
    ...messagingAttributes({ destination: source.destination, operation }),
    'messaging.system': source.system,
    [RUN_ID]: runId,
  });
  const received = (item: WorkItem): WorkItem => {
    tracer(TRACER).startSpan(`receive ${source.destination}`, {
      kind: SpanKind.CLIENT,
      attributes: { ...attributes('receive', item.runId), 'messaging.message.delivery_count': item.deliveryCount },
    }, parentOf(item.headers)).end();
    return item;
  };
  return {
    async enqueue(runId, headers) {
      const parent = parentOf(headers);
      if (!trace.getSpanContext(parent)) return queue.enqueue(runId, headers);
      const span = tracer(TRACER).startSpan(`publish ${source.destination}`, { kind: SpanKind.PRODUCER, attributes: attributes('publish', runId) }, parent);
      const carrier: Record<string, string> = { ...headers };
      propagation.inject(trace.setSpan(parent, span), carrier);
      try {
        await context.with(trace.setSpan(parent, span), () => queue.enqueue(runId, carrier));
      } catch (error) {
        failed(span, error);
        throw error;
      } finally {
        span.end();
      }
    },
    consume(options): WorkSubscription {
      const subscription = queue.consume(options);
      return {
        stop: () => subscription.stop(),
        async *[Symbol.asyncIterator]() {
          for await (const item of subscription) yield received(item);
        },
      };
    },
    ping: () => queue.ping(),
    close: () => queue.close(),
  };
}
