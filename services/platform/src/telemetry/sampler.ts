import { SpanKind } from '@opentelemetry/api';
import type { Attributes, Context, Link } from '@opentelemetry/api';
import { AlwaysOnSampler, ParentBasedSampler, SamplingDecision, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace-base';
import type { Sampler, SamplingResult } from '@opentelemetry/sdk-trace-base';

/**
 * Routes whose GET/HEAD requests are reads an integrator repeats at volume: polling a run, listing runs,
 * following its events, and the health probes. Everything they do is in `http.server.request.duration`
 * whatever the sampler decides; their traces hold one server span and a store read.
 */
const READ_ROUTE = /^\/(v1\/|healthz$|readyz$)/;

/**
 * Root decision of the default sampler: a trace that starts with a read request (a GET or HEAD SERVER span
 * on a `READ_ROUTE`) is kept at `readRatio` (by trace id, so every process agrees); every other trace is
 * kept whole. A run's trace starts at its `POST` (or at the coordinator for a run it picks up), never at a
 * read, so runs are always sampled; a poll only hands the client the run's own `traceparent`, which does
 * not depend on the poll's span.
 */
export class ReadRequestRatioSampler implements Sampler {
  private readonly reads: Sampler;

  constructor(readonly readRatio: number) {
    this.reads = new TraceIdRatioBasedSampler(readRatio);
  }

  shouldSample(context: Context, traceId: string, spanName: string, spanKind: SpanKind, attributes: Attributes, links: Link[]): SamplingResult {
    if (spanKind === SpanKind.SERVER && isRead(attributes)) return this.reads.shouldSample(context, traceId, spanName, spanKind, attributes, links);
    return { decision: SamplingDecision.RECORD_AND_SAMPLED };
  }

  toString(): string {
    return `ReadRequestRatioSampler{readRatio=${this.readRatio}}`;
  }
}

function isRead(attributes: Attributes): boolean {
  const method = attributes['http.request.method'];
  if (method !== 'GET' && method !== 'HEAD') return false;
  const route = attributes['http.route'];
  return typeof route === 'string' && READ_ROUTE.test(route);
}

/**
 * The sampler `startTelemetry` installs unless `OTEL_TRACES_SAMPLER` names a standard one: parent-based (a
 * span follows its parent's decision, so a trace is never cut in the middle, and the coordinator's
 * deliberately unsampled per-page calls stay unsampled), with `ReadRequestRatioSampler` for roots. A
 * `readRatio` of 1 keeps every trace.
 */
export function createDefaultSampler(readRatio: number): Sampler {
  return new ParentBasedSampler({ root: readRatio >= 1 ? new AlwaysOnSampler() : new ReadRequestRatioSampler(readRatio) });
}
