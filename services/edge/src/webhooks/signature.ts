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

/** After a rotation the old secret signs too (a second `v1,` signature) for this long, so receivers can switch. */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** The secrets that sign at `now`: the current one, and the previous one while its overlap lasts. */
export function signingSecrets(current: { secret: string; previous?: { secret: string; until: number } | null }, now: number): string[] {
  return current.previous && current.previous.until > now ? [current.secret, current.previous.secret] : [current.secret];
}
