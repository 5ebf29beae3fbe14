import { isIP } from 'node:net';
import { refusedAddressReason } from '@leadfinder/fetcher';
import type { Config } from '@leadfinder/platform';
import { RequestValidationError } from '../http/errors.js';

/**
 * Refuses at once a webhook URL whose host is an IP literal or `localhost` the SSRF guard would refuse
 * anyway (a host name is checked when it is resolved, before each attempt). Null when acceptable.
 */
export function webhookUrlProblem(url: string, config: Pick<Config, 'LEADFINDER_WEBHOOK_ALLOW_PRIVATE'>): string | null {
  if (config.LEADFINDER_WEBHOOK_ALLOW_PRIVATE) return null;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return 'must not target a loopback or private address';
  if (isIP(host) && refusedAddressReason(host)) return 'must not target a loopback or private address';
  return null;
}

/** 422 naming `webhook.url` when a search's webhook targets an address that would be refused. */
export function assertSearchWebhook(webhook: { url: string } | undefined, config: Pick<Config, 'LEADFINDER_WEBHOOK_ALLOW_PRIVATE'>): void {
  const problem = webhook ? webhookUrlProblem(webhook.url, config) : null;
  if (problem) throw new RequestValidationError([{ loc: ['body', 'webhook', 'url'], msg: `Value error, ${problem}`, type: 'value_error' }]);
}
