import { request } from 'undici';
import type { Agent } from 'undici';
import { createGuardedAgent, PrivateAddressError } from '@leadfinder/fetcher';
import type { Clock, Config, Logger, WebhookDeliveryDoc, WebhookStore } from '@leadfinder/platform';
import { newWebhookSecret, signWebhook, signingSecrets } from './signature.js';

/** One attempt gets this long for the whole exchange (Standard Webhooks suggests a short timeout). */
const ATTEMPT_TIMEOUT_MS = 15_000;
/** The pause between attempts doubles up to this. */
const MAX_PAUSE_MS = 60 * 60 * 1000;

export type AttemptOutcome = { settled: true } | { settled: false; retryInMs: number };

export interface WebhookSender {
  /** One attempt of a pending delivery: settled (delivered, failed for good, or nothing to do), or retry later. */
  attempt(deliveryId: string): Promise<AttemptOutcome>;
  close(): Promise<void>;
}

export interface WebhookSenderDeps {
  config: Pick<Config, 'LEADFINDER_WEBHOOK_ALLOW_PRIVATE' | 'LEADFINDER_WEBHOOK_RETRY_BASE_MS'>;
  logger: Logger;
  clock: Clock;
  webhooks: WebhookStore;
}

/**
 * Sends deliveries over the fetcher's SSRF-guarded agent (every address a target resolves to is checked
 * before connecting; loopback only with LEADFINDER_WEBHOOK_ALLOW_PRIVATE). A 2xx answer delivers; any
 * other answer, a redirect included, or a connection problem is retried with exponential backoff until the
 * delivery's 24 h have passed (the injected clock), then it is failed. Each attempt is recorded.
 */
export function createWebhookSender(deps: WebhookSenderDeps): WebhookSender {
  const agent: Agent = createGuardedAgent({ allowPrivate: deps.config.LEADFINDER_WEBHOOK_ALLOW_PRIVATE, resolve: [] });

  /** The secrets signing this attempt (two during a rotation's overlap), or null when the endpoint is gone. */
  async function secretsOf(delivery: WebhookDeliveryDoc, now: number): Promise<string[] | null> {
    const holder = delivery.endpointId === null
      ? await deps.webhooks.requestSecret(delivery.accountId, newWebhookSecret())
      : await deps.webhooks.endpoints.get(delivery.endpointId);
    return holder ? signingSecrets(holder, now) : null;
  }

  /** POST the delivery once; null when it was delivered, else why not (kept as `lastError`). */
  async function post(delivery: WebhookDeliveryDoc, secrets: string[], now: number): Promise<{ error: string | null; permanent: boolean }> {
    const timestamp = Math.floor(now / 1000);
    try {
      const answer = await request(delivery.url, {
        method: 'POST',
        dispatcher: agent,
        body: delivery.body,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'leadfinder-webhooks/1',
          'webhook-id': delivery.id,
          'webhook-timestamp': String(timestamp),
          // Space-separated signatures, one per secret (Standard Webhooks): a receiver accepts any that matches.
          'webhook-signature': secrets.map((secret) => signWebhook(secret, delivery.id, timestamp, delivery.body)).join(' '),
        },
        signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      });
      await answer.body.dump();
      if (answer.statusCode >= 200 && answer.statusCode < 300) return { error: null, permanent: false };
      return { error: `HTTP ${answer.statusCode}`, permanent: false };
    } catch (error) {
      if (error instanceof PrivateAddressError) return { error: `refused: ${error.host} resolves to a private address`, permanent: true };
      const e = error as { code?: string; message?: string; cause?: { code?: string } };
      return { error: e.cause?.code ?? e.code ?? e.message ?? String(error), permanent: false };
    }
  }

  return {
    async attempt(deliveryId) {
      const delivery = await deps.webhooks.deliveries.get(deliveryId);
      // Delivered or failed already (a queue message delivered twice), or gone: nothing to do.
      if (!delivery || delivery.status !== 'pending') return { settled: true };
      const now = deps.clock.now();
      const secrets = await secretsOf(delivery, now);
      const attempts = delivery.attempts + 1;
      if (secrets === null) {
        await deps.webhooks.deliveries.update(deliveryId, { status: 'failed', attempts, lastError: 'endpoint deleted', nextAttemptAt: null });
        return { settled: true };
      }
      const { error, permanent } = await post(delivery, secrets, now);
      if (error === null) {
        await deps.webhooks.deliveries.update(deliveryId, { status: 'delivered', attempts, deliveredAt: new Date(deps.clock.now()).toISOString(), nextAttemptAt: null });
        return { settled: true };
      }
      const pause = Math.min(MAX_PAUSE_MS, deps.config.LEADFINDER_WEBHOOK_RETRY_BASE_MS * 2 ** (attempts - 1));
      if (permanent || now + pause >= delivery.expiresAt) {
        deps.logger.warn('webhook delivery failed for good', { deliveryId, runId: delivery.runId, attempts, lastError: error });
        await deps.webhooks.deliveries.update(deliveryId, { status: 'failed', attempts, lastError: error, nextAttemptAt: null });
        return { settled: true };
      }
      await deps.webhooks.deliveries.update(deliveryId, { attempts, lastError: error, nextAttemptAt: new Date(now + pause).toISOString() });
      return { settled: false, retryInMs: pause };
    },
    close: () => agent.close(),
  };
}
