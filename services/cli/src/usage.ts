/** Usage lines of the client commands, shared by the repository's `leadfinder` and the published one. */
export const CLIENT_USAGE = `usage:
  leadfinder admin account create|show|topup|close|delete|session … [--json]
  leadfinder search "query" [--target N] [--speed fast|advanced] [--sites DOMAIN,DOMAIN] [--no-relax] [--idempotency-key KEY] [--webhook URL [--webhook-events LIST]] [--exclude-run ID]… [--exclude-domain DOMAIN]… [--exclude-name NAME]… [--expected NAME|DOMAIN]… [--near-misses] [--keep-unclear] [--max-usd-per-row USD] [--format table|csv|json|jsonl] [--out FILE]
  leadfinder runs | show <id> | stop <id> | keys create <name>|list|revoke <id>
  leadfinder webhooks create <url> [--events LIST] | list | delete <id> | rotate <id> | secret [--rotate] | deliveries [--run ID]`;
