import { createHmac, timingSafeEqual } from 'node:crypto';
import { CreatedWebhookEndpoint, WebhookDeliveryList, WebhookEndpointList, WebhookSecret } from './wire.js';
import type { WebhookDelivery, WebhookEndpoint, WebhookEventType } from './wire.js';
import type { HttpCore } from './http.js';

/** `/api/webhooks` (a session token as the credential, like `keys`). */
export interface WebhooksApi {
  /** Register a default endpoint; the answer holds its signing secret, shown this once (and on rotation). */
  createEndpoint(url: string, events?: WebhookEventType[]): Promise<CreatedWebhookEndpoint>;
  listEndpoints(): Promise<WebhookEndpoint[]>;
  deleteEndpoint(id: string): Promise<void>;
  rotateEndpointSecret(id: string): Promise<string>;
  /** The secret that signs deliveries to a search's own `webhook.url`. */
  requestSecret(): Promise<string>;
  rotateRequestSecret(): Promise<string>;
  /** The 100 newest deliveries (of one run when given): status, attempts, last error. */
  deliveries(options?: { runId?: string }): Promise<WebhookDelivery[]>;
}

export function webhooksApi(http: HttpCore): WebhooksApi {
  const endpoint = (id: string) => `/api/webhooks/endpoints/${encodeURIComponent(id)}`;
  return {
    createEndpoint: (url, events) =>
      http.request('/api/webhooks/endpoints', CreatedWebhookEndpoint, { method: 'POST', body: events ? { url, events } : { url } }),
    listEndpoints: async () => (await http.request('/api/webhooks/endpoints', WebhookEndpointList)).endpoints,
    deleteEndpoint: async (id) => {
      await http.request(endpoint(id), null, { method: 'DELETE' });
    },
    rotateEndpointSecret: async (id) => (await http.request(`${endpoint(id)}/rotate-secret`, WebhookSecret, { method: 'POST' })).secret,
    requestSecret: async () => (await http.request('/api/webhooks/request-secret', WebhookSecret)).secret,
    rotateRequestSecret: async () => (await http.request('/api/webhooks/request-secret/rotate', WebhookSecret, { method: 'POST' })).secret,
    deliveries: async (options = {}) =>
      (await http.request(`/api/webhooks/deliveries${options.runId ? `?run=${encodeURIComponent(options.runId)}` : ''}`, WebhookDeliveryList)).deliveries,
  };
}

/** A delivery that failed verification: wrong or missing signature, or a timestamp out of tolerance. */
export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}

/** The body of a delivery: `data` is the run record (`search.finished`) or the `progress` event. */
export interface WebhookPayload {
  type: WebhookEventType;
  timestamp: string;
  data: unknown;
}

/**
 * Verify a delivery as a receiver should (Standard Webhooks): the `webhook-signature` list holds a `v1,`
 * HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>` under the secret, and the timestamp is within
 * `toleranceS` of now (replays of old deliveries are refused). Pass the raw body, not a re-serialised one.
 * Deduplicate on `webhook-id`: a delivery may arrive more than once.
 */
export function verifyWebhook(options: {
  secret: string;
  headers: Record<string, string | string[] | undefined> | Headers;
  body: string;
  toleranceS?: number;
  now?: () => number;
}): WebhookPayload {
  const header = (name: string): string => {
    const value = options.headers instanceof Headers ? options.headers.get(name) : options.headers[name];
    const text = Array.isArray(value) ? value.join(' ') : value;
    if (!text) throw new WebhookVerificationError(`missing ${name}`);
    return text;
  };
  const id = header('webhook-id');
  const timestamp = header('webhook-timestamp');
  const seconds = Number(timestamp);
  const nowS = Math.floor((options.now ?? Date.now)() / 1000);
  if (!Number.isInteger(seconds) || Math.abs(nowS - seconds) > (options.toleranceS ?? 300)) {
    throw new WebhookVerificationError('webhook-timestamp outside the tolerance');
  }
  const key = Buffer.from(options.secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${options.body}`).digest();
  const matches = header('webhook-signature').split(' ').some((entry) => {
    const [version, signature] = entry.split(',', 2);
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookVerificationError('no matching signature');
  return JSON.parse(options.body) as WebhookPayload;
}
