/**
 * @leadfinder/edge: the public HTTP API (spec §4–§7), key management, the admin API, probes and the
 * OpenAPI document, as one Fastify app built from ports.
 *
 * @example
 * const sessions = createSessionSigner({ secret: config.LEADFINDER_SESSION_SECRET!, ttlSeconds: config.LEADFINDER_SESSION_TTL_S });
 * const app = await buildEdgeApp({ config, logger, clock, ids, store, events, work, stops, billing, sessions });
 * await app.listen({ host: config.HOST, port: config.PORT });
 */
export { buildEdgeApp } from './app.js';
export { buildAdminApp } from './admin-app.js';
export { createSessionSigner } from './auth/sessions.js';
export { buildOpenApiDocument } from './openapi/document.js';
export { MAX_KEEPALIVE_MS } from './routes/events.js';
export { createWebPlugin, CONTENT_SECURITY_POLICY, signInMethod } from './web/index.js';

export type { EdgeDeps, EdgeOptions } from './deps.js';
export type { SessionSigner, SessionSignerOptions } from './auth/sessions.js';
export type { SignInMethod, WebOptions } from './web/index.js';
export { createWebhookService, newWebhookSecret, signWebhook } from './webhooks/index.js';
export type { WebhookService, WebhookServiceDeps } from './webhooks/index.js';
