import type { FastifyPluginAsync } from 'fastify';
import type { EdgeDeps } from '../deps.js';

/** `/healthz`: the process answers. `/readyz`: every dependency answers (operator contract). */
export function healthRoutes(deps: EdgeDeps): FastifyPluginAsync {
  return async (app) => {
    app.get('/healthz', async () => ({ status: 'ok' as const }));
    app.get('/readyz', async (_request, reply) => {
      const checks = [deps.store.ping(), deps.events.ping(), deps.work.ping(), deps.ready ? deps.ready() : Promise.resolve()];
      const results = await Promise.allSettled(checks);
      const failed = results.findIndex((r) => r.status === 'rejected');
      if (failed >= 0) {
        deps.logger.warn('not ready', { dependency: ['store', 'events', 'work', 'ready'][failed] });
        return reply.code(503).send({ detail: 'Not ready' });
      }
      return { status: 'ok' as const };
    });
  };
}
