import { parseArgs } from 'node:util';
import { microsToUsdString } from '@leadfinder/wire';

/**
 * `leadfinder admin account create [--balance USD] [--email E] | show <id> | topup <id> <usd> | close <id>
 * | delete <id> | session <id>` with `--json`: the admin HTTP API (operator contract) for people.
 * Exit codes: 0 done, 1 the service refused or could not be reached, 2 usage or missing configuration.
 */
export interface AdminIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  env: Record<string, string | undefined>;
}

export const ADMIN_USAGE = `usage: leadfinder admin account <command> [--json]
  create [--balance USD] [--email E]   new account with a balance, an API key and a session token
  show <id>                            balance, held and available amounts
  topup <id> <usd>                     add to the balance
  close <id>                           close the account (every later call gets 403)
  delete <id>                          delete the account
  session <id>                         issue a session token
environment: LEADFINDER_URL (default http://127.0.0.1:8080), LEADFINDER_ADMIN_TOKEN (required)`;

interface AccountView {
  id: string;
  status: string;
  balanceMicrousd: number;
  heldMicrousd: number;
  availableMicrousd: number;
}

class UsageError extends Error {}

export async function runAdminCommand(argv: string[], io: AdminIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { balance: { type: 'string' }, email: { type: 'string' }, json: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    io.stderr.write(`leadfinder admin: ${(error as Error).message}\n${ADMIN_USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout.write(ADMIN_USAGE + '\n');
    return 0;
  }
  const token = io.env.LEADFINDER_ADMIN_TOKEN?.trim();
  const base = (io.env.LEADFINDER_URL?.trim() || 'http://127.0.0.1:8080').replace(/\/+$/, '');
  try {
    const request = planRequest(positionals, values);
    if (!token) {
      io.stderr.write('leadfinder admin: LEADFINDER_ADMIN_TOKEN is not set\n');
      return 2;
    }
    const res = await fetch(`${base}${request.path}`, {
      method: request.method,
      headers: { authorization: `Bearer ${token}`, ...(request.body ? { 'content-type': 'application/json' } : {}) },
      ...(request.body ? { body: JSON.stringify(request.body) } : {}),
    });
    const text = await res.text();
    const body: unknown = text ? safeJson(text) : undefined;
    if (!res.ok) {
      io.stderr.write(`leadfinder admin: ${res.status} ${describeDetail(body, text)}\n`);
      return 1;
    }
    const result = request.verb === 'delete' ? { id: positionals[2], deleted: true } : body;
    io.stdout.write(values.json ? JSON.stringify(result) + '\n' : human(request.verb, result) + '\n');
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`leadfinder admin: ${error.message}\n${ADMIN_USAGE}\n`);
      return 2;
    }
    io.stderr.write(`leadfinder admin: cannot reach ${base}: ${(error as Error).message}\n`);
    return 1;
  }
}

function planRequest(positionals: string[], values: { balance?: string; email?: string }) {
  const [noun, verb, id, amount] = positionals;
  if (noun !== 'account' || !verb) throw new UsageError('expected "account <command>"');
  const needId = () => {
    if (!id) throw new UsageError(`"${verb}" needs an account id`);
    return encodeURIComponent(id);
  };
  switch (verb) {
    case 'create': {
      const body: Record<string, unknown> = {};
      if (values.balance !== undefined) body.balanceUsd = usdArgument(values.balance);
      if (values.email !== undefined) body.email = values.email;
      return { verb, method: 'POST', path: '/admin/accounts', body };
    }
    case 'show':
      return { verb, method: 'GET', path: `/admin/accounts/${needId()}` };
    case 'topup': {
      const path = `/admin/accounts/${needId()}/topup`;
      if (amount === undefined) throw new UsageError('"topup" needs an amount in USD');
      return { verb, method: 'POST', path, body: { usd: usdArgument(amount) } };
    }
    case 'close':
      return { verb, method: 'POST', path: `/admin/accounts/${needId()}/close` };
    case 'delete':
      return { verb, method: 'DELETE', path: `/admin/accounts/${needId()}` };
    case 'session':
      return { verb, method: 'POST', path: `/admin/accounts/${needId()}/sessions` };
    default:
      throw new UsageError(`unknown command "${verb}"`);
  }
}

/** Amounts go over the wire as decimal strings so no float rounding happens on the way. */
function usdArgument(value: string): string {
  const v = value.trim().replace(/^\$/, '');
  if (!/^\d+(\.\d+)?$/.test(v)) throw new UsageError(`not a USD amount: "${value}"`);
  return v;
}

function human(verb: string, body: unknown): string {
  const b = body as Record<string, string>;
  switch (verb) {
    case 'create':
      return [`Account ${b.id} created.`, `  API key:       ${b.apiKey}`, `  Session token: ${b.sessionToken}`, '  (the API key is shown only now)'].join('\n');
    case 'session':
      return b.sessionToken ?? '';
    case 'delete':
      return `Account ${b.id} deleted.`;
    default: {
      const a = body as AccountView;
      return [
        `Account ${a.id} (${a.status})`,
        `  balance:   $${microsToUsdString(a.balanceMicrousd)}`,
        `  held:      $${microsToUsdString(a.heldMicrousd)}`,
        `  available: $${microsToUsdString(a.availableMicrousd)}`,
      ].join('\n');
    }
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function describeDetail(body: unknown, text: string): string {
  const detail = (body as { detail?: unknown } | undefined)?.detail;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) {
    return detail.map((d: { loc?: unknown[]; msg?: string }) => `${(d.loc ?? []).slice(1).join('.')}: ${d.msg}`).join('; ');
  }
  return text.slice(0, 200);
}
