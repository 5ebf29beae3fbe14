import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import type { Context, Span } from '@opentelemetry/api';
import { LeadfinderError, messagingAttributes, tracer, withExtractedContext } from '@leadfinder/platform';
import type { Clock, LeadfinderMetrics, WorkItem } from '@leadfinder/platform';
import { formatWhere, type FetchOutcome, type RoundStep, type Where } from '@leadfinder/wire';
import type { ResearchInterceptor } from './research-port.js';

/**
 * The coordinator's share of the run's one trace (design "Observability"): a messaging `process` span
 * per work item, child of the edge's context carried in the message headers; a run span per drive; and
 * one span per pipeline stage, following the run's `where`. Port calls run inside the current stage's
 * context, so the gRPC client spans (and through their metadata the fetcher/filter server spans) join.
 */

const TRACER = 'leadfinder.coordinator';

/** Where work items come from, for the messaging attributes. */
export interface WorkSource {
  /** `nats` (JetStream work queue) or `inprocess` (embedded queue). */
  system: string;
  /** Subject / queue name, e.g. `work.runs`. */
  destination: string;
}

function endWith(span: Span, error: unknown, message = error instanceof Error ? error.message : String(error)): void {
  if (error instanceof Error) span.recordException(error);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

/**
 * Why a drive ended. Only `error` is a span error: a stop, the budget, the deadline, a lost lease or a
 * shutdown are how runs are meant to end when they happen, so they are the `leadfinder.run.end_reason`
 * attribute, and alerts on span errors fire on failures alone.
 */
export type RunEndReason = 'done' | 'stopped' | 'budget_exhausted' | 'deadline' | 'error' | 'lease_lost' | 'shutdown';
export const END_REASON_ATTRIBUTE = 'leadfinder.run.end_reason';

/** How a drive ended, for its spans; `error` and `message` (the failure, for operators) when it failed. */
export interface RunEnding {
  reason: RunEndReason;
  error?: unknown;
  message?: string;
}

/** Marks the run span with how the drive ended: the reason always, an error status only for `error`. */
export function markRunEnd(span: Span, ending: RunEnding): void {
  span.setAttribute(END_REASON_ATTRIBUTE, ending.reason);
  if (ending.reason === 'error') span.setStatus({ code: SpanStatusCode.ERROR, message: ending.message ?? String(ending.error) });
}

async function inActiveSpan<T>(span: Span, parent: Context, fn: (span: Span) => Promise<T>): Promise<T> {
  try {
    return await context.with(trace.setSpan(parent, span), () => fn(span));
  } catch (error) {
    endWith(span, error);
    throw error;
  } finally {
    span.end();
  }
}

/** Handles one work item inside a CONSUMER `process` span joined to the producer's trace. */
export function traceWorkItem<T>(item: WorkItem, source: WorkSource, fn: () => Promise<T>): Promise<T> {
  return withExtractedContext(item.headers, () => {
    const parent = context.active();
    const span = tracer(TRACER).startSpan(`process ${source.destination}`, {
      kind: SpanKind.CONSUMER,
      attributes: {
        ...messagingAttributes({ destination: source.destination, operation: 'process' }),
        'messaging.system': source.system,
        'messaging.message.delivery_count': item.deliveryCount,
        'leadfinder.run_id': item.runId,
      },
    }, parent);
    return inActiveSpan(span, parent, () => fn());
  });
}

/** One drive of a run, as the `leadfinder.run` span; `fn` runs with it active. */
export function traceRun<T>(runId: string, fn: (span: Span) => Promise<T>): Promise<T> {
  const parent = context.active();
  const span = tracer(TRACER).startSpan('leadfinder.run', {
    kind: SpanKind.INTERNAL,
    attributes: { 'leadfinder.run_id': runId },
  }, parent);
  return inActiveSpan(span, parent, fn);
}

/**
 * A reaper's interruption of a run nobody drives, as a span of the run's own trace (the edge's context
 * is kept on the run record), so its log lines lead to that trace.
 */
export function traceInterruption<T>(runId: string, carrier: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  return withExtractedContext(carrier, () => {
    const parent = context.active();
    const span = tracer(TRACER).startSpan('leadfinder.run.interrupt', {
      kind: SpanKind.INTERNAL,
      attributes: { 'leadfinder.run_id': runId },
    }, parent);
    return inActiveSpan(span, parent, () => fn());
  });
}

/** Low-cardinality stage name of a `where` (the metric label): plan, search, screen, open, extract, funnel. */
export function stageOf(where: Where): { stage: string; round: number | null } {
  switch (where.stage) {
    case 'planning': return { stage: 'plan', round: null };
    case 'queued': case 'done': return { stage: where.stage, round: null };
    case 'filter': return { stage: 'funnel', round: where.round };
    case 'round': return { stage: ROUND_STEP_STAGE[where.step], round: where.round };
  }
}

const ROUND_STEP_STAGE: Record<RoundStep, string> = {
  searching: 'search', screening: 'screen', 'opening pages': 'open', extracting: 'extract',
};

/**
 * Stage spans of one drive. `enter(where)` ends the current stage (recording its duration) and opens
 * the next as a child of the run span; `inStage` (an interceptor on the research port) runs every call
 * inside whichever stage is current when it is made. Create it while the run span is active.
 */
export class StageTrace {
  private readonly parent = context.active();
  private current: { span: Span; stage: string; startedAt: number } | null = null;

  constructor(private readonly metrics: LeadfinderMetrics, private readonly clock: Clock) {}

  enter(where: Where): void {
    this.end();
    const { stage, round } = stageOf(where);
    const span = tracer(TRACER).startSpan(formatWhere(where), {
      kind: SpanKind.INTERNAL,
      attributes: { 'leadfinder.stage': stage, ...(round === null ? {} : { 'leadfinder.round': round }) },
    }, this.parent);
    this.current = { span, stage, startedAt: this.clock.now() };
  }

  /**
   * Ends the current stage. `ending`: the drive ended in it, for that reason (an attribute); a failure
   * also marks the stage failed, with the exception.
   */
  end(ending?: RunEnding): void {
    const current = this.current;
    if (!current) return;
    this.current = null;
    if (ending) {
      current.span.setAttribute(END_REASON_ATTRIBUTE, ending.reason);
      if (ending.reason === 'error') endWith(current.span, ending.error, ending.message);
    }
    current.span.end();
    this.metrics.stageDuration(current.stage, this.clock.now() - current.startedAt);
  }

  /** The active context for a call made now: the current stage, else the run span. */
  private callContext(): Context {
    return this.current ? trace.setSpan(this.parent, this.current.span) : this.parent;
  }

  /** Runs each research call inside whichever stage is current when it is made. */
  readonly inStage: ResearchInterceptor = (call, next) => context.with(this.callContext(), () => next(call));
}

/**
 * Counts page fetches by outcome. A call that threw counts as `timeout` (its per-call deadline passed) or
 * `network`; one ended by the run itself (`runSignal`) is not counted.
 */
export function countFetchOutcomes(metrics: LeadfinderMetrics, runSignal: AbortSignal): ResearchInterceptor {
  return async (call, next) => {
    if (call.name !== 'fetcher.fetch') return next(call);
    try {
      const outcome = (await next(call)) as FetchOutcome;
      metrics.fetchOutcome(outcome.ok ? 'ok' : outcome.code);
      return outcome;
    } catch (error) {
      if (!runSignal.aborted) {
        const timedOut = call.signal.aborted || (LeadfinderError.is(error) && error.code === 'LF_ERR_DEADLINE_EXCEEDED');
        metrics.fetchOutcome(timedOut ? 'timeout' : 'network');
      }
      throw error;
    }
  };
}
