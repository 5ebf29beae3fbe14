import { SpanKind, SpanStatusCode, TraceFlags, context, trace } from '@opentelemetry/api';
import type { Attributes, Context, Span } from '@opentelemetry/api';
import { LeadfinderError, messagingAttributes, tracer, withExtractedContext } from '@leadfinder/platform';
import type { Clock, LeadfinderMetrics, WorkItem } from '@leadfinder/platform';
import { formatWhere, type FetchOutcome, type RoundStep, type Where } from '@leadfinder/wire';
import type { ResearchCall, ResearchCallName, ResearchInterceptor, ResearchMethods } from './research-port.js';

/**
 * The coordinator's share of the run's one trace (design "Observability"): a messaging `process` span
 * per work item, child of the edge's context carried in the message headers; a run span per drive; and
 * one span per pipeline stage, following the run's `where`. Port calls run inside the current stage's
 * context, so the gRPC client spans (and through their metadata the fetcher/filter server spans) join.
 *
 * Coverage: the run span's time is under its children end to end: `run.start` (the run marked started),
 * the stage spans back to back, then `run.settle` (tail, billing.endRun, end marker) or `run.release`
 * (nothing written). The run's own store writes and event appends run inside whichever of these is
 * current, so the port spans below them say what the time went on.
 *
 * Volume: spans grow with rounds and filters, not pages or candidates. Verification is one call per
 * candidate and filter, so each filter's batch is one `funnel.verify` span (the filter, k of m; the
 * candidates; passed, dropped, unclear) and the calls under it are made unsampled: their spans (the gRPC
 * client and server pair, an LLM call) are not recorded, while their trace id still reaches the filter
 * role's log lines. Opening pages and extracting from them are one call per page, made only in their own
 * stage, so that stage's span is their batch: the calls run unsampled under it (no `fetch.page`, no
 * gRPC `Fetch`/`Extract` pairs) and the span carries what they did (`leadfinder.open.*`: pages, hosts,
 * ok and failed by kind, a `page.failed` event per failure up to a cap; `leadfinder.extract.*`: pages,
 * failed, empty, candidates).
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

/** Marks `span` with how the drive ended: the reason always, an error status only for `error`. */
export function markRunEnd(span: Span, ending: RunEnding): void {
  span.setAttribute(END_REASON_ATTRIBUTE, ending.reason);
  if (ending.reason === 'error') span.setStatus({ code: SpanStatusCode.ERROR, message: ending.message ?? String(ending.error) });
}

/**
 * What the run span says it worked on (attributes `leadfinder.run.*`): the rows asked for, the rows it
 * returned, its spend and its charge in integer micro-USD (as the `usage` event's `spend_microusd`).
 */
export const RUN_ATTRIBUTES = {
  target: 'leadfinder.run.target',
  rows: 'leadfinder.run.rows',
  status: 'leadfinder.run.status',
  spend: 'leadfinder.run.spend_microusd',
  charge: 'leadfinder.run.charge_microusd',
} as const;

/**
 * Runs `fn` in a child span `name` of the active context (active during `fn`, so port calls nest under
 * it). A failure is not judged here: `ending` (given what `fn` threw) says whether it is an error.
 */
export async function traceStep<T>(name: string, attributes: Attributes, fn: (span: Span) => Promise<T>, ending?: (thrown: unknown) => RunEnding): Promise<T> {
  return tracer(TRACER).startActiveSpan(name, { kind: SpanKind.INTERNAL, attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      markEnding(span, ending ? ending(error) : { reason: 'error', error });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** The drive ended inside `span`: the reason as an attribute, and for a failure the error and exception. */
function markEnding(span: Span, ending: RunEnding): void {
  span.setAttribute(END_REASON_ATTRIBUTE, ending.reason);
  if (ending.reason === 'error') endWith(span, ending.error, ending.message);
}

/** `ctx` with its span context marked not sampled: spans started under it are not recorded (same trace id). */
function unsampled(ctx: Context): Context {
  const spanContext = trace.getSpanContext(ctx);
  return spanContext ? trace.setSpanContext(ctx, { ...spanContext, traceFlags: TraceFlags.NONE }) : ctx;
}

/**
 * Research calls made once per candidate or per page: traced by the batch span around them (a verify
 * batch, the opening or extracting stage), not one by one.
 */
const BATCHED: ReadonlySet<ResearchCallName> = new Set<ResearchCallName>(['filter.verify', 'fetcher.fetch', 'filter.extract']);

/** `page.failed` events one opening stage records at most; the counts cover the rest. */
const MAX_PAGE_FAILURE_EVENTS = 20;

/** How a page fetch ended: `ok`, a fetch failure code, or (it threw) `timeout`, `network` or `cancelled`. */
type PageOutcome = string;

/**
 * What the per-page calls of one stage did, by page (the last attempt of a retried call decides), put on
 * the stage span when it ends.
 */
class PageTally {
  private readonly opened = new Map<string, PageOutcome>();
  private openAttempts = 0;
  private readonly extracted = new Map<string, number | 'failed'>();
  private extractAttempts = 0;

  fetched(url: string, outcome: PageOutcome): void {
    this.openAttempts += 1;
    this.opened.set(url, outcome);
  }

  extractedFrom(url: string, candidates: number | 'failed'): void {
    this.extractAttempts += 1;
    this.extracted.set(url, candidates);
  }

  /** Counts on `span`, and one `page.failed` event (host, outcome) per page that could not be opened. */
  writeTo(span: Span): void {
    if (this.openAttempts > 0) {
      const byOutcome = new Map<PageOutcome, number>();
      for (const outcome of this.opened.values()) byOutcome.set(outcome, (byOutcome.get(outcome) ?? 0) + 1);
      const hosts = new Set([...this.opened.keys()].map(hostOf));
      const ok = byOutcome.get('ok') ?? 0;
      span.setAttributes({
        'leadfinder.open.pages': this.opened.size,
        'leadfinder.open.attempts': this.openAttempts,
        'leadfinder.open.hosts': hosts.size,
        'leadfinder.open.ok': ok,
        'leadfinder.open.failed': this.opened.size - ok,
      });
      for (const [outcome, n] of byOutcome) if (outcome !== 'ok') span.setAttribute(`leadfinder.open.failed.${outcome}`, n);
      let events = 0;
      for (const [url, outcome] of this.opened) {
        if (outcome === 'ok') continue;
        if (events++ >= MAX_PAGE_FAILURE_EVENTS) break;
        span.addEvent('page.failed', { 'server.address': hostOf(url), 'leadfinder.fetch.outcome': outcome });
      }
    }
    if (this.extractAttempts > 0) {
      const results = [...this.extracted.values()];
      const counts = results.filter((r): r is number => r !== 'failed');
      span.setAttributes({
        'leadfinder.extract.pages': this.extracted.size,
        'leadfinder.extract.attempts': this.extractAttempts,
        'leadfinder.extract.failed': results.length - counts.length,
        'leadfinder.extract.empty': counts.filter((n) => n === 0).length,
        'leadfinder.extract.candidates': counts.reduce((a, b) => a + b, 0),
      });
    }
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return '(invalid)';
  }
}

/**
 * How a fetch attempt that threw ended: its own timeout or a deadline error is `timeout`, the run's
 * signal (stop, deadline, lease loss) is `cancelled`, anything else `network`.
 */
function thrownFetchOutcome(error: unknown, signal: AbortSignal): PageOutcome {
  if (signal.aborted) return signal.reason instanceof DOMException && signal.reason.name === 'TimeoutError' ? 'timeout' : 'cancelled';
  return LeadfinderError.is(error) && error.code === 'LF_ERR_DEADLINE_EXCEEDED' ? 'timeout' : 'network';
}

/** One filter's verification of a batch of candidates (`funnel.verify`). */
export interface VerifyBatch {
  round: number;
  /** Position of the filter, 1-based, of `filterCount`. */
  filter: number;
  filterCount: number;
  candidates: number;
  /** A recheck of dropped candidates with the loosened filter. */
  relaxed: boolean;
}

/** Verdicts of a batch: `dropped` counts every candidate that did not pass, `unclear` those of them left unclear. */
export interface VerifyCounts {
  passed: number;
  dropped: number;
  unclear: number;
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
  private current: { span: Span; stage: string; startedAt: number; pages: PageTally } | null = null;
  private batch: Span | null = null;

  constructor(private readonly metrics: LeadfinderMetrics, private readonly clock: Clock) {}

  enter(where: Where): void {
    // One instant ends a stage and starts the next, so no sliver between them is left uncovered. It is
    // read from the clock the SDK stamps spans with (Date.now(), not the injected clock, which a test
    // may shift), so these times line up with every other span's.
    const at = Date.now();
    this.end(undefined, at);
    const { stage, round } = stageOf(where);
    const span = tracer(TRACER).startSpan(formatWhere(where), {
      kind: SpanKind.INTERNAL,
      startTime: at,
      attributes: { 'leadfinder.stage': stage, ...(round === null ? {} : { 'leadfinder.round': round }) },
    }, this.parent);
    this.current = { span, stage, startedAt: this.clock.now(), pages: new PageTally() };
  }

  /**
   * Ends the current stage. `ending`: the drive ended in it, for that reason (an attribute); a failure
   * also marks the stage failed, with the exception.
   */
  end(ending?: RunEnding, at?: number): void {
    const current = this.current;
    if (!current) return;
    this.current = null;
    current.pages.writeTo(current.span);
    if (ending) markEnding(current.span, ending);
    current.span.end(at);
    this.metrics.stageDuration(current.stage, this.clock.now() - current.startedAt);
  }

  /** Low-cardinality name of the current stage (the metric label), null before the first. */
  get stage(): string | null {
    return this.current?.stage ?? null;
  }

  /** The active context for a call made now: the open verify batch, else the current stage, else the run span. */
  private callContext(): Context {
    const span = this.batch ?? this.current?.span;
    return span ? trace.setSpan(this.parent, span) : this.parent;
  }

  /** Runs `fn` inside the current stage (store writes and event appends of the stage nest under it). */
  within<T>(fn: () => Promise<T>): Promise<T> {
    return context.with(this.callContext(), fn);
  }

  /**
   * One filter's verification of a batch of candidates, as one `funnel.verify` span under the current
   * stage; the per-candidate calls made meanwhile run under it, unsampled. `ending` classifies a throw.
   */
  async verifyBatch<T>(batch: VerifyBatch, fn: () => Promise<T>, count: (result: T) => VerifyCounts, ending: (thrown: unknown) => RunEnding): Promise<T> {
    const span = tracer(TRACER).startSpan('funnel.verify', {
      kind: SpanKind.INTERNAL,
      attributes: {
        'leadfinder.round': batch.round,
        'leadfinder.filter.index': batch.filter,
        'leadfinder.filter.count': batch.filterCount,
        'leadfinder.filter.relaxed': batch.relaxed,
        'leadfinder.verify.candidates': batch.candidates,
      },
    }, this.callContext());
    this.batch = span;
    try {
      const result = await fn();
      const counts = count(result);
      span.setAttributes({
        'leadfinder.verify.passed': counts.passed,
        'leadfinder.verify.dropped': counts.dropped,
        'leadfinder.verify.unclear': counts.unclear,
      });
      return result;
    } catch (error) {
      markEnding(span, ending(error));
      throw error;
    } finally {
      if (this.batch === span) this.batch = null;
      span.end();
    }
  }

  /**
   * Runs each research call inside whichever stage (or verify batch) is current when it is made; a call
   * made per candidate or per page runs unsampled, its time covered by the batch span, and a page's
   * outcome is tallied on the stage it was made in.
   */
  readonly inStage: ResearchInterceptor = (call, next) => {
    const ctx = this.callContext();
    if (!BATCHED.has(call.name)) return context.with(ctx, () => next(call));
    const run = () => context.with(unsampled(ctx), () => next(call));
    const pages = this.current?.pages;
    if (!pages) return run();
    if (call.name === 'fetcher.fetch') return tallyFetch(pages, call, run);
    if (call.name === 'filter.extract') return tallyExtract(pages, call, run);
    return run();
  };
}

async function tallyFetch(pages: PageTally, call: ResearchCall, run: () => Promise<unknown>): Promise<unknown> {
  const { url } = call.request as ResearchMethods['fetcher.fetch']['request'];
  try {
    const outcome = (await run()) as FetchOutcome;
    pages.fetched(url, outcome.ok ? 'ok' : outcome.code);
    return outcome;
  } catch (error) {
    pages.fetched(url, thrownFetchOutcome(error, call.signal));
    throw error;
  }
}

async function tallyExtract(pages: PageTally, call: ResearchCall, run: () => Promise<unknown>): Promise<unknown> {
  const { page } = call.request as ResearchMethods['filter.extract']['request'];
  try {
    const response = (await run()) as ResearchMethods['filter.extract']['response'];
    pages.extractedFrom(page.url, response.candidates.length);
    return response;
  } catch (error) {
    pages.extractedFrom(page.url, 'failed');
    throw error;
  }
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
