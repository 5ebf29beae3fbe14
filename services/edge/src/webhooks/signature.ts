import { createHmac, randomBytes } from 'node:crypto';

/** A Standard Webhooks secret: `whsec_` and the base64 of 24 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/**
 * The `webhook-signature` value (Standard Webhooks v1): `v1,` and the base64 HMAC-SHA256, keyed with the
 * secret's bytes (the base64 after `whsec_`), of `<webhook-id>.<webhook-timestamp>.<body>`.
 */
export function signWebhook(secret: string, id: string, timestampS: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampS}.${body}`).digest('base64')}`;
}
