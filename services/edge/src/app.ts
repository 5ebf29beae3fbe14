import type { FastifyInstance } from 'fastify';
import type { EdgeDeps } from './deps.js';
import { searchCallerGuard, sessionGuard } from './auth/guards.js';
import { createEdgeFastify } from './http/fastify-app.js';
import { installMethodNotAllowed } from './http/methods.js';
import { createRateLimiter } from './http/rate-limit.js';
import { adminRoutes } from './routes/admin.js';
import { eventRoutes } from './routes/events.js';
import { healthRoutes } from './routes/health.js';
import { keyRoutes } from './routes/keys.js';
import { openApiRoutes } from './routes/openapi.js';
import { removedRoutes } from './routes/removed.js';
import { searchRoutes } from './routes/searches.js';
import { webhookRoutes } from './routes/webhooks.js';

/**
 * The edge HTTP app: `/v1/searches*` (API key or session), `/api/keys` (session only), `/admin/*` (when
 * LEADFINDER_ADMIN_TOKEN is set and LEADFINDER_ADMIN_PORT is not), `/healthz`, `/readyz`, `/openapi.json`,
 * and the web page plugin at the root. Not listening yet: the caller does `listen()` / `close()`.
 */
export async function buildEdgeApp(deps: EdgeDeps): Promise<FastifyInstance> {
  const app = createEdgeFastify(deps);
  // Before any route, so it learns every path (405 with Allow for other methods on them).
  installMethodNotAllowed(app);

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

  const webhooks = deps.webhooks;
  if (webhooks) {
    await app.register(
      async (scope) => {
        scope.addHook('onRequest', sessionGuard(authDeps, limiter));
        await scope.register(webhookRoutes(deps, webhooks));
      },
      { prefix: '/api/webhooks' },
    );
  }

  // With LEADFINDER_ADMIN_PORT the admin API has a listener of its own (admin-app.ts), never this one.
  const adminToken = deps.config.LEADFINDER_ADMIN_TOKEN;
  if (adminToken && deps.config.LEADFINDER_ADMIN_PORT === undefined) await app.register(adminRoutes(deps, adminToken), { prefix: '/admin' });

  if (deps.web) await app.register(deps.web);
  return app;
}
