/**
 * @leadfinder/client: the typed SDK for leadfinder's search API, following the spec's client rules
 * (resume with Last-Event-ID, confirm with GET after stream end, an Idempotency-Key on every create and
 * its retries, listing before re-sending to a server not known to honour keys, never retry 402 on a timer).
 *
 * @example
 * import { createClient } from '@leadfinder/client';
 * const lf = createClient({ baseUrl: 'http://127.0.0.1:8080', credential: process.env.LEADFINDER_API_KEY! });
 * const { id } = await lf.createSearch({ q: 'AI startups in Berlin that raised a seed round in the last year', target: 10 });
 * const follower = lf.follow(id);
 * for await (const { event } of follower) if (event.type === 'progress') console.log(event.have, '/', event.target);
 * console.log(follower.run?.status, follower.run?.result?.table); // confirmed with GET after the stream closed
 */
export { createClient } from './client.js';
export { followRun } from './follow.js';
export { SseParser } from './sse.js';
export { verifyWebhook, WebhookVerificationError } from './webhooks.js';
export type { WebhookPayload, WebhooksApi } from './webhooks.js';
export {
  LeadfinderApiError, InsufficientBalanceError, ValidationError, AuthenticationError, NotFoundError,
  RateLimitedError, TransportError, ProtocolError,
} from './errors.js';
export type { ClientOptions, CreateSearchOptions, LeadfinderClient, WaitOptions } from './client.js';
export type { EventFollower, FollowOptions, FollowedEvent } from './follow.js';
export type { SseFrame } from './sse.js';
export type {
  CreateSearchRequest, ResultRow, RunEvent, RunListItem, RunRecord, SearchWebhook, WebhookDelivery, WebhookEndpoint, WebhookEventType,
  ExpectedMiss, FinalEvent, SearchExclude, NearMiss, UnclearCandidate, CostEvent,
} from './wire.js';
