import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import type { EdgeDeps } from '../deps.js';
import { installErrorHandler } from './errors.js';
import { serverOptions } from './server-options.js';
import { installRequestTracing } from './tracing.js';
import { BODY_LIMIT_BYTES, installJsonBodyParser } from './validation.js';

/**
 * A Fastify instance with what every edge listener shares (the public app and the admin listener):
 * body limit, timeouts, draining on close, private JSON answers, request tracing, the one error
 * handler and the JSON body parser. Routes are the caller's.
 */
export function createEdgeFastify(deps: EdgeDeps): FastifyInstance {
  const app = Fastify({
    logger: false,
    bodyLimit: BODY_LIMIT_BYTES,
    // In-flight requests finish on close(); new ones get 503 while draining.
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true },
    ...serverOptions({ requestTimeoutMs: deps.options?.requestTimeoutMs, idleTimeoutMs: deps.options?.idleTimeoutMs }),
  });
  // API answers are private and typed: never cached by a proxy or browser, never content-sniffed. (The
  // web page plugin sets its own caching for static files.)
  app.addHook('onSend', async (_request, reply) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('application/json')) {
      reply.header('x-content-type-options', 'nosniff');
      reply.header('cache-control', 'no-store');
    }
  });
  // First, so every route (and every auth refusal) is traced, timed and logged. Fastify's own logger
  // stays off: the request line comes from installRequestTracing through the platform logger.
  installRequestTracing(app, { logger: deps.logger });
  installErrorHandler(app, deps.logger);
  installJsonBodyParser(app);
  app.decorateRequest('caller', null);
  return app;
}
