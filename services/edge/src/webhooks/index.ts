export { createWebhookService } from './service.js';
export type { WebhookService, WebhookServiceDeps } from './service.js';
export { SECRET_OVERLAP_MS, newWebhookSecret, signWebhook, signingSecrets } from './signature.js';
export { assertSearchWebhook, webhookUrlProblem } from './targets.js';
