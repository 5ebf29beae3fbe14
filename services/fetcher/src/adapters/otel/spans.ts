import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import type { Span } from '@opentelemetry/api';
import { suppressTracing } from '@opentelemetry/core';
import { CancelledError, tracer } from '@leadfinder/platform';
import type { FetchOutcome, SearchResponse } from '@leadfinder/wire';

/**
 * The fetcher's spans: one per page opened (`fetch.page`) and one per search-provider call (`search`).
 * Each replaces the HTTP client spans under it (robots.txt, redirect hops, result pages), which the undici
 * instrumentation would otherwise add per request: the span says what was fetched and how it ended, and
 * a run's span count does not multiply by the hops of every page.
 */

const TRACER = 'leadfinder.fetcher';

/** How a page fetch ended, as the span and the `leadfinder.fetch.outcomes` metric say it: `ok` or the failure code. */
export const FETCH_OUTCOME = 'leadfinder.fetch.outcome';

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}

/** `2xx` … `5xx` for an HTTP status. */
export function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}

/**
 * Runs `fn` in a span named `name`, with tracing suppressed below it. A cancellation (the run stopped)
 * is how calls are meant to end then: an attribute, not a span error.
 */
async function traced<T>(name: string, attributes: Record<string, string>, fn: () => Promise<T>, describe: (result: T, span: Span) => void): Promise<T> {
  // Only inside a trace (a Fetch or Search call, a run's stage): a fetcher used on its own starts no root traces.
  if (!trace.getSpan(context.active())) return fn();
  return tracer(TRACER).startActiveSpan(name, { kind: SpanKind.CLIENT, attributes }, async (span) => {
    try {
      const result = await context.with(suppressTracing(context.active()), fn);
      describe(result, span);
      return result;
    } catch (error) {
      if (error instanceof CancelledError) span.setAttribute(FETCH_OUTCOME, 'cancelled');
      else {
        if (error instanceof Error) span.recordException(error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      }
      throw error;
    } finally {
      span.end();
    }
  });
}

/** A page the fetcher opened, with what answered it: `status` when an HTTP answer came. */
export interface PageFetchResult {
  outcome: FetchOutcome;
  status?: number;
  /** `corpus` (a local page source) or `http`. */
  source: 'corpus' | 'http';
}

/**
 * `fetch.page`: the URL's host (`server.address`), the outcome (`ok` or the failure code: `robots`,
 * `timeout`, `http_status`, `private_address` …), the HTTP status and its class, the final host after
 * redirects, and where the page came from.
 */
export function tracePageFetch(url: string, fn: () => Promise<PageFetchResult>): Promise<FetchOutcome> {
  return traced('fetch.page', { 'server.address': hostOf(url) }, fn, (result, span) => {
    span.setAttribute(FETCH_OUTCOME, result.outcome.ok ? 'ok' : result.outcome.code);
    span.setAttribute('leadfinder.fetch.source', result.source);
    if (result.status !== undefined) {
      span.setAttribute('http.response.status_code', result.status);
      span.setAttribute('leadfinder.fetch.status_class', statusClass(result.status));
    }
    if (result.outcome.ok) {
      const finalHost = hostOf(result.outcome.page.finalUrl);
      if (finalHost && finalHost !== hostOf(url)) span.setAttribute('leadfinder.fetch.final_host', finalHost);
    }
  }).then((result) => result.outcome);
}

/** `search`: which provider answered (`leadfinder.search.provider`) and how many results it gave. */
export function traceSearch(provider: string, fn: () => Promise<SearchResponse>): Promise<SearchResponse> {
  return traced('search', { 'leadfinder.search.provider': provider }, fn, (response, span) => {
    span.setAttribute('leadfinder.search.result_count', response.hits.length);
  });
}
