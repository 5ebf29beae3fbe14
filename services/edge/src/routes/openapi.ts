import type { FastifyPluginAsync } from 'fastify';
import { buildOpenApiDocument } from '../openapi/document.js';

export const openApiRoutes: FastifyPluginAsync = async (app) => {
  const document = buildOpenApiDocument();
  app.get('/openapi.json', async () => document);
};
