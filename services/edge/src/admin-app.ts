import type { FastifyInstance } from 'fastify';
import type { EdgeDeps } from './deps.js';
import { createEdgeFastify } from './http/fastify-app.js';
import { adminRoutes } from './routes/admin.js';

/**
 * The admin API (`/admin/*`, including `/admin/openapi.json`) alone, for its own listener
 * (LEADFINDER_ADMIN_PORT): a deployment exposes the public port through its Ingress and keeps this one
 * inside the cluster. Same handlers, error bodies and headers as when it shares the public app.
 */
export async function buildAdminApp(deps: EdgeDeps, adminToken: string): Promise<FastifyInstance> {
  const app = createEdgeFastify(deps);
  await app.register(adminRoutes(deps, adminToken), { prefix: '/admin' });
  return app;
}
