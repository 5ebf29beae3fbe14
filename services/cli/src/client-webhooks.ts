/** `leadfinder webhooks …`: an account's webhook endpoints, secrets and deliveries (a session token, like `keys`). */
import { parseArgs } from 'node:util';
import type { LeadfinderClient } from '@leadfinder/client';
import { WEBHOOK_EVENT_TYPES, WebhookEventType } from '@leadfinder/wire';

export const WEBHOOKS_USAGE =
  'usage: leadfinder webhooks create <url> [--events search.finished,search.progress] | list | delete <id> | rotate <id> | secret [--rotate] | deliveries [--run ID] [--json]';

export class WebhookUsageError extends Error {}

/** `search.finished,search.progress` → the event types, or a usage error naming the known ones. */
export function parseWebhookEvents(text: string | undefined): WebhookEventType[] | undefined {
  if (text === undefined) return undefined;
  const events = text.split(',').map((e) => e.trim()).filter(Boolean);
  const bad = events.filter((e) => !WebhookEventType.safeParse(e).success);
  if (events.length === 0 || bad.length > 0) throw new WebhookUsageError(`--events takes ${WEBHOOK_EVENT_TYPES.join(', ')} (comma-separated)`);
  return events as WebhookEventType[];
}

export async function webhooksCommand(client: LeadfinderClient, args: string[], io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream }): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest, allowPositionals: true,
    options: { events: { type: 'string' }, run: { type: 'string' }, json: { type: 'boolean' }, rotate: { type: 'boolean' } },
  });
  const out = (s: string) => io.stdout.write(s);
  if (sub === 'create' && positionals.length === 1) {
    const endpoint = await client.webhooks.createEndpoint(positionals[0]!, parseWebhookEvents(values.events));
    out(`${endpoint.secret}\n`);
    io.stderr.write(`created endpoint ${endpoint.id} for ${endpoint.events.join(', ')}. The signing secret is shown only once: store it now.\n`);
    return 0;
  }
  if (sub === 'list' && positionals.length === 0) {
    const list = await client.webhooks.listEndpoints();
    if (values.json) out(JSON.stringify(list, null, 2) + '\n');
    else if (list.length === 0) out('(no endpoints)\n');
    else for (const e of list) out(`${e.id}  ${e.events.join(',')}  ${e.url}\n`);
    return 0;
  }
  if (sub === 'delete' && positionals.length === 1) {
    await client.webhooks.deleteEndpoint(positionals[0]!);
    out(`deleted ${positionals[0]}\n`);
    return 0;
  }
  if (sub === 'rotate' && positionals.length === 1) {
    out(`${await client.webhooks.rotateEndpointSecret(positionals[0]!)}\n`);
    return 0;
  }
  if (sub === 'secret' && positionals.length === 0) {
    // The secret of the searches' own `--webhook` URLs.
    out(`${values.rotate ? await client.webhooks.rotateRequestSecret() : await client.webhooks.requestSecret()}\n`);
    return 0;
  }
  if (sub === 'deliveries' && positionals.length === 0) {
    const list = await client.webhooks.deliveries(values.run ? { runId: values.run } : {});
    if (values.json) out(JSON.stringify(list, null, 2) + '\n');
    else if (list.length === 0) out('(no deliveries)\n');
    else {
      for (const d of list) {
        out(`${d.id}  ${d.runId}  ${d.type}  ${d.status}  attempts ${d.attempts}${d.lastError ? `  last error ${d.lastError}` : ''}  ${d.url}\n`);
      }
    }
    return 0;
  }
  throw new WebhookUsageError(WEBHOOKS_USAGE);
}
