import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import type { EdgeDeps } from './deps.js';
import { searchCallerGuard, sessionGuard } from './auth/guards.js';
import { installErrorHandler } from './http/errors.js';
import { installMethodNotAllowed } from './http/methods.js';
import { createRateLimiter } from './http/rate-limit.js';
import { installRequestTracing } from './http/tracing.js';
import { serverOptions } from './http/server-options.js';
import { BODY_LIMIT_BYTES, installJsonBodyParser } from './http/validation.js';
import { adminRoutes } from './routes/admin.js';
import { eventRoutes } from './routes/events.js';
import { healthRoutes } from './routes/health.js';
import { keyRoutes } from './routes/keys.js';
import { openApiRoutes } from './routes/openapi.js';
import { removedRoutes } from './routes/removed.js';
import { searchRoutes } from './routes/searches.js';

/**
 * The edge HTTP app: `/v1/searches*` (API key or session), `/api/keys` (session only), `/admin/*` (when
 * LEADFINDER_ADMIN_TOKEN is set and LEADFINDER_ADMIN_PORT is not), `/healthz`, `/readyz`, `/openapi.json`,
 * and the web page plugin at the root. Not listening yet: the caller does `listen()` / `close()`.
 */
export async function buildEdgeApp(deps: EdgeDeps): Promise<FastifyInstance> {
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
  // First, so every route (and every auth refusal) is traced.
  installRequestTracing(app);
  installErrorHandler(app, deps.logger);
  installJsonBodyParser(app);
  // Before any route, so it learns every path (405 with Allow for other methods on them).
  installMethodNotAllowed(app);
  app.decorateRequest('caller', null);

  const limiter = createRateLimiter({ perMinute: deps.config.LEADFINDER_RATE_LIMIT_PER_MIN, clock: deps.clock });
  const authDeps = { store: deps.store, sessions: deps.sessions, clock: deps.clock };

  await app.register(healthRoutes(deps));
  await app.register(openApiRoutes);
  await app.register(removedRoutes);

  await app.register(
    async (v1) => {
      v1.addHook('onRequest', searchCallerGuard(authDeps, limiter));
      await v1.register(searchRoutes(deps));
      await v1.register(eventRoutes(deps));
    },
    { prefix: '/v1' },
  );

  await app.register(
    async (keys) => {
      keys.addHook('onRequest', sessionGuard(authDeps, limiter));
      await keys.register(keyRoutes(deps));
    },
    { prefix: '/api/keys' },
  );

  // With LEADFINDER_ADMIN_PORT the admin API has a listener of its own (admin-app.ts), never this one.
  const adminToken = deps.config.LEADFINDER_ADMIN_TOKEN;
  if (adminToken && deps.config.LEADFINDER_ADMIN_PORT === undefined) await app.register(adminRoutes(deps, adminToken), { prefix: '/admin' });

  if (deps.web) await app.register(deps.web);
  return app;
}
