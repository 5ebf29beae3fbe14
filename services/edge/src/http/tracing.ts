import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api';
import type { Span } from '@opentelemetry/api';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { recordHttpServerRequest, tracer } from '@leadfinder/platform';
import type { Logger } from '@leadfinder/platform';

/**
 * One SERVER span per HTTP request (conventions §16: Fastify hooks at the edge), child of a W3C
 * `traceparent` the client sent, else a new trace root. The span opens in `onRequest` and closes in
 * `onResponse` (or `onRequestAbort`).
 *
 * Fastify hooks cannot wrap what follows them in `context.with` (the body is parsed on the request
 * stream's own async context), so route handlers are wrapped instead, via `onRoute`, to run with the
 * request's span active: spans and trace carriers made in a handler (the run's `trace`, the work
 * message headers) then belong to this request's trace.
 *
 * As each request ends it is also logged, one line (method, route, path without the query, status,
 * duration, trace_id, span_id: never headers, query strings or bodies, which carry keys, tokens and
 * cookies), and timed into `http.server.request.duration`. Health probes log at debug: a kubelet
 * probing every few seconds would otherwise drown the lines worth reading.
 *
 * Install before any route is registered.
 */
export function installRequestTracing(app: FastifyInstance, options: { logger: Logger }): void {
  const log = options.logger.child({ component: 'http' });
  const spans = new WeakMap<FastifyRequest, Span>();
  /** performance.now() at onRequest: an aborted request has no reply.elapsedTime worth reading. */
  const startedAt = new WeakMap<FastifyRequest, number>();

  app.addHook('onRoute', (route) => {
    const handler = route.handler;
    route.handler = function traced(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
      const span = spans.get(request);
      if (!span) return handler.call(this, request, reply);
      return context.with(trace.setSpan(context.active(), span), () => handler.call(this, request, reply));
    } as RouteHandlerMethod;
  });

  app.addHook('onRequest', (request, _reply, done) => {
    const route = request.routeOptions.url;
    const parent = propagation.extract(ROOT_CONTEXT, request.headers);
    const span = tracer('leadfinder.http').startSpan(route ? `${request.method} ${route}` : request.method, {
      kind: SpanKind.SERVER,
      attributes: {
        'http.request.method': request.method,
        'url.path': pathOf(request.url),
        'url.scheme': request.protocol,
        ...(route ? { 'http.route': route } : {}),
        ...(request.headers['user-agent'] ? { 'user_agent.original': request.headers['user-agent'] } : {}),
      },
    }, parent);
    spans.set(request, span);
    startedAt.set(request, performance.now());
    done();
  });

  const finish = (request: FastifyRequest, statusCode: number | null, elapsedMs: number) => {
    const span = spans.get(request);
    if (!span) return;
    spans.delete(request);
    if (statusCode !== null) {
      span.setAttribute('http.response.status_code', statusCode);
      // Server spans are errors on 5xx only; a 4xx is the client's mistake, answered correctly.
      if (statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    } else {
      span.setStatus({ code: SpanStatusCode.ERROR, message: 'request aborted by the client' });
    }
    span.end();
    const route = request.routeOptions.url;
    const { traceId, spanId } = span.spanContext();
    const line = {
      method: request.method,
      route: route ?? null,
      path: pathOf(request.url),
      status: statusCode,
      duration_ms: Math.round(elapsedMs * 10) / 10,
      trace_id: traceId,
      span_id: spanId,
    };
    const message = statusCode === null ? 'request aborted' : 'request';
    if (route === '/healthz' || route === '/readyz') log.debug(message, line);
    else if (statusCode === null || statusCode >= 500) log.warn(message, line);
    else log.info(message, line);
    // An aborted request has no status; 499 is the usual stand-in (nginx), so aborts still count.
    recordHttpServerRequest({ method: request.method, route, statusCode: statusCode ?? 499, scheme: request.protocol, durationS: elapsedMs / 1000 });
  };

  app.addHook('onResponse', (request, reply, done) => {
    finish(request, reply.statusCode, reply.elapsedTime);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    const started = startedAt.get(request);
    finish(request, null, started === undefined ? 0 : performance.now() - started);
    done();
  });
}

/** The path without the query string (which may carry tokens). */
function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}
