export { createWebhookService } from './service.js';
export type { WebhookService, WebhookServiceDeps } from './service.js';
export { newWebhookSecret, signWebhook } from './signature.js';
export { assertSearchWebhook, webhookUrlProblem } from './targets.js';
