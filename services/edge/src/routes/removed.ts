import type { FastifyPluginAsync } from 'fastify';

/**
 * The deleted endpoints (spec §9) answer 404 to every method, registered explicitly so that no
 * catch-all route (such as the web page's) can ever answer for them.
 */
const REMOVED = ['/api/runs', '/api/runs/*', '/api/search', '/api/search/*'];

export const removedRoutes: FastifyPluginAsync = async (app) => {
  for (const url of REMOVED) {
    app.all(url, async (_request, reply) => reply.code(404).send({ detail: 'Not Found' }));
  }
};
