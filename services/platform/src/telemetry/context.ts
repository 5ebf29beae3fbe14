import { ROOT_CONTEXT, context, metrics, propagation, trace } from '@opentelemetry/api';
import type { Meter, Tracer } from '@opentelemetry/api';

/**
 * Thin accessors over the global OpenTelemetry API. They resolve the provider at call time, never at
 * module load, so whichever provider `startTelemetry` (or a test's `createInMemoryTelemetry`) installed
 * is the one used.
 */

const tracers = new Map<string, Tracer>();
let tracersOf: unknown;

/** The tracer of one instrumentation scope (a module or adapter name such as `leadfinder.grpc`). */
export function tracer(name: string): Tracer {
  // Called for every span: the API's tracers are kept per name. The global provider object changes when
  // telemetry is uninstalled (trace.disable()), which drops them; until a provider is installed they are
  // proxies that pick it up when it is.
  const provider = trace.getTracerProvider();
  if (provider !== tracersOf) {
    tracers.clear();
    tracersOf = provider;
  }
  let found = tracers.get(name);
  if (!found) {
    found = provider.getTracer(name);
    tracers.set(name, found);
  }
  return found;
}

/** The meter of one instrumentation scope. */
export function meter(name: string): Meter {
  return metrics.getMeter(name);
}

/**
 * The active trace context as W3C headers (`traceparent`, `tracestate`), for a gRPC metadata map, a
 * NATS header set or a work message. Empty when no span is active.
 */
export function injectTraceContext(): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}

/**
 * Runs `fn` inside the trace context carried by `carrier` (W3C headers received from a peer), so spans
 * started in `fn` join the caller's trace. A carrier without valid headers runs `fn` in a fresh root.
 */
export function withExtractedContext<T>(carrier: Record<string, string | string[] | undefined>, fn: () => T): T {
  return context.with(propagation.extract(ROOT_CONTEXT, carrier), fn);
}
