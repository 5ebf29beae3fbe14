import type { Instrumentation } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { MongoDBInstrumentation } from '@opentelemetry/instrumentation-mongodb';
import { RuntimeNodeInstrumentation } from '@opentelemetry/instrumentation-runtime-node';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';

/**
 * The official OpenTelemetry instrumentations every role runs (issue 22: no time without spans under it):
 * - undici: page fetches, search-provider and LLM calls (fetch and undici.request), as CLIENT spans with
 *   `url.full`, `server.address` and the status; seen through undici's diagnostics channels, so load order
 *   does not matter. Request and response headers are never recorded (API keys travel in them).
 * - mongodb: one CLIENT span per command with the statement's shape only (values replaced by `?`); only
 *   under a parent span, so lease renewals and pool chatter outside any request or run stay silent.
 * - http: outgoing `node:http` calls (the OIDC client; the OTLP exporter's own calls are excluded by the
 *   exporter). Incoming requests are left to the edge's Fastify hooks and the gRPC interceptors, which
 *   know the route and method: a second SERVER span per request would only double the count.
 * - runtime-node: event-loop delay and utilisation, heap and GC (`nodejs.eventloop.*`, `v8js.*`).
 * NATS has no official instrumentation; its spans are made by hand in the NATS adapters.
 */
export function createInstrumentations(): Instrumentation[] {
  return [
    new UndiciInstrumentation(),
    new MongoDBInstrumentation({ requireParentSpan: true }),
    // Incoming requests are not patched at all: an *ignored* incoming request would run its handler with
    // tracing suppressed, silencing every span under it (the run's whole accept path).
    new HttpInstrumentation({ disableIncomingRequestInstrumentation: true, requireParentforOutgoingSpans: true }),
    new RuntimeNodeInstrumentation(),
  ];
}
