import { z } from 'zod';

/**
 * Signed webhooks (Standard Webhooks): what a search request or an account may ask to be sent, and the
 * records of endpoints and deliveries. `search.finished` (the run's terminal state with the record
 * `GET /v1/searches/{id}` answers) is sent by default; `search.progress` (each `progress` event) on request.
 */
export const WEBHOOK_EVENT_TYPES = ['search.finished', 'search.progress'] as const;
export const WebhookEventType = z.enum(WEBHOOK_EVENT_TYPES);
export type WebhookEventType = z.infer<typeof WebhookEventType>;

/** An http(s) URL of at most 2048 characters, without credentials (they would end up in logs and records). */
export const WebhookUrl = z
  .string()
  .max(2048)
  .refine((u) => /^https?:$/.test(parsedUrl(u)?.protocol ?? ''), { message: 'must be an http or https URL' })
  .refine((u) => parsedUrl(u)?.username === '' && parsedUrl(u)?.password === '', { message: 'must not carry credentials' });

function parsedUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

const events = z.array(WebhookEventType).min(1).max(WEBHOOK_EVENT_TYPES.length).optional();

/** `webhook` of `POST /v1/searches`: this run's events also go to `url`. */
export const SearchWebhook = z.object({ url: WebhookUrl, events });
export type SearchWebhook = z.infer<typeof SearchWebhook>;

export const CreateWebhookEndpointRequest = z.object({ url: WebhookUrl, events });
export type CreateWebhookEndpointRequest = z.infer<typeof CreateWebhookEndpointRequest>;

export const WebhookEndpoint = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(WebhookEventType),
  createdAt: z.string(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

/** A signing secret: `whsec_` and the base64 of 24 random bytes (Standard Webhooks). */
export const WebhookSecretValue = z.string().regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/);

/** The answer of creating an endpoint: the secret is shown here (and by a rotation) only. */
export const CreatedWebhookEndpoint = WebhookEndpoint.extend({ secret: WebhookSecretValue });
export type CreatedWebhookEndpoint = z.infer<typeof CreatedWebhookEndpoint>;

export const WebhookEndpointList = z.object({ endpoints: z.array(WebhookEndpoint) });
export type WebhookEndpointList = z.infer<typeof WebhookEndpointList>;

/** A secret as answered by a rotation or by the request-webhook secret route. */
export const WebhookSecret = z.object({ secret: WebhookSecretValue });
export type WebhookSecret = z.infer<typeof WebhookSecret>;

export const WebhookDeliveryStatus = z.enum(['pending', 'delivered', 'failed']);
export type WebhookDeliveryStatus = z.infer<typeof WebhookDeliveryStatus>;

export const WebhookDelivery = z.object({
  /** The `webhook-id` header: the same on every attempt, so a receiver can deduplicate. */
  id: z.string(),
  runId: z.string(),
  /** The registered endpoint, or null for the request's own `webhook.url`. */
  endpointId: z.string().nullable(),
  url: z.string(),
  type: WebhookEventType,
  status: WebhookDeliveryStatus,
  attempts: z.number().int(),
  /** The last failure (an HTTP status or a connection problem), null when none. */
  lastError: z.string().nullable(),
  createdAt: z.string(),
  /** When the next attempt is due while pending, else null. */
  nextAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryList = z.object({ deliveries: z.array(WebhookDelivery) });
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryList>;
