import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import type { EdgeDeps } from './deps.js';
import { installErrorHandler } from './http/errors.js';
import { installRequestTracing } from './http/tracing.js';
import { serverOptions } from './http/server-options.js';
import { BODY_LIMIT_BYTES, installJsonBodyParser } from './http/validation.js';
import { adminRoutes } from './routes/admin.js';

/**
 * The admin API (`/admin/*`, including `/admin/openapi.json`) alone, for its own listener
 * (LEADFINDER_ADMIN_PORT): a deployment exposes the public port through its Ingress and keeps this one
 * inside the cluster. Same handlers, error bodies and headers as when it shares the public app.
 */
export async function buildAdminApp(deps: EdgeDeps, adminToken: string): Promise<FastifyInstance> {
  const app = Fastify({
    logger: false,
    bodyLimit: BODY_LIMIT_BYTES,
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true },
    ...serverOptions({ requestTimeoutMs: deps.options?.requestTimeoutMs, idleTimeoutMs: deps.options?.idleTimeoutMs }),
  });
  app.addHook('onSend', async (_request, reply) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('application/json')) {
      reply.header('x-content-type-options', 'nosniff');
      reply.header('cache-control', 'no-store');
    }
  });
  installRequestTracing(app);
  installErrorHandler(app, deps.logger);
  installJsonBodyParser(app);
  app.decorateRequest('caller', null);
  await app.register(adminRoutes(deps, adminToken), { prefix: '/admin' });
  return app;
}
