/**
 * The client side of the `leadfinder` command: `search`, `runs`, `show`, `stop`, `keys`, `webhooks`. Results go to
 * stdout (or `--out`), everything a person reads while waiting goes to stderr, so
 * `leadfinder search "…" --format csv > rows.csv` gives a clean file.
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { InsufficientBalanceError, LeadfinderApiError, TransportError, createClient } from '@leadfinder/client';
import type { EventFollower, LeadfinderClient } from '@leadfinder/client';
import type { FinalEvent, ResultRow, RunEvent, RunRecord } from '@leadfinder/wire';
import { WebhookUsageError, parseWebhookEvents, webhooksCommand } from './client-webhooks.js';
import { OUTPUT_FORMATS, describeEvent, describeLiveRun, describeRun, formatRows, formatRunList, usd } from './format.js';
import type { OutputFormat } from './format.js';

export interface ClientIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  env: Record<string, string | undefined>;
  /** Test hook: decides the Ctrl-C question without a terminal. */
  confirmStop?: () => Promise<boolean>;
  /** Test hook: lets a test deliver the interrupt; returns the unhook function. */
  onInterrupt?: (handler: () => void) => () => void;
}

const SEARCH_USAGE =
  'usage: leadfinder search "query" [--target N] [--speed fast|advanced] [--sites DOMAIN,DOMAIN] [--no-relax] [--idempotency-key KEY] [--webhook URL [--webhook-events LIST]] [--exclude-run ID]… [--exclude-domain DOMAIN]… [--exclude-name NAME]… [--expected NAME|DOMAIN]… [--max-usd-per-row USD] [--format table|csv|json|jsonl] [--out FILE] [--quiet]';

class UsageError extends Error {}

interface FileConfig { url?: string; apiKey?: string; sessionToken?: string }
const CONFIG_KEYS = new Set(['url', 'apiKey', 'sessionToken']);

interface Settings {
  url: string;
  credential: string;
  /** Where the URL came from, for error messages: how to point the command elsewhere. */
  urlSource: string;
}

/**
 * Settings: LEADFINDER_URL, LEADFINDER_API_KEY and LEADFINDER_SESSION_TOKEN win; otherwise the JSON config
 * file at LEADFINDER_CONFIG, else $XDG_CONFIG_HOME/leadfinder/config.json, else
 * ~/.config/leadfinder/config.json (`{"url", "apiKey", "sessionToken"}`). Another key in it (a typo such
 * as `baseUrl`) is named in a warning rather than silently ignored.
 */
function resolveSettings(env: ClientIo['env'], needSession: boolean, warn: (text: string) => void): Settings {
  const path = env.LEADFINDER_CONFIG ?? join(env.XDG_CONFIG_HOME ?? join(env.HOME ?? homedir(), '.config'), 'leadfinder', 'config.json');
  let file: FileConfig = {};
  try {
    file = JSON.parse(readFileSync(path, 'utf8')) as FileConfig;
  } catch (error) {
    // No config file is fine when the environment carries the credential; a broken one is not.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new UsageError(`cannot read config file ${path}: ${(error as Error).message}`);
  }
  const unknown = Object.keys(file).filter((key) => !CONFIG_KEYS.has(key));
  if (unknown.length > 0) {
    warn(`leadfinder: warning: ${path}: ignoring unknown ${unknown.length === 1 ? 'key' : 'keys'} ${unknown.map((k) => `"${k}"`).join(', ')} (known: "url", "apiKey", "sessionToken")\n`);
  }
  const url = env.LEADFINDER_URL ?? file.url ?? 'http://127.0.0.1:8080';
  const urlSource = env.LEADFINDER_URL !== undefined
    ? 'from LEADFINDER_URL'
    : file.url !== undefined ? `from "url" in ${path}` : `the default; set LEADFINDER_URL or "url" in ${path}`;
  const credential = needSession
    ? env.LEADFINDER_SESSION_TOKEN ?? file.sessionToken
    : env.LEADFINDER_API_KEY ?? file.apiKey ?? env.LEADFINDER_SESSION_TOKEN ?? file.sessionToken;
  if (!credential) {
    throw new UsageError(needSession
      ? `no session token: set LEADFINDER_SESSION_TOKEN or "sessionToken" in ${path} (key management takes a session token, not an API key)`
      : `no credential: set LEADFINDER_API_KEY or "apiKey" in ${path}`);
  }
  return { url, credential, urlSource };
}

export async function runClientCommand(argv: string[], io: ClientIo): Promise<number> {
  const out = (s: string) => io.stdout.write(s);
  const err = (s: string) => io.stderr.write(s);
  let settings: Settings | undefined;
  try {
    const [command, ...rest] = argv;
    settings = resolveSettings(io.env, command === 'keys' || command === 'webhooks', err);
    const client = createClient({ baseUrl: settings.url, credential: settings.credential });
    switch (command) {
      case 'search': return await search(client, rest, io);
      case 'runs': {
        const { values } = parseArgs({ args: rest, options: { json: { type: 'boolean' } } });
        const runs = await client.listSearches();
        out(values.json ? JSON.stringify(runs, null, 2) + '\n' : formatRunList(runs));
        return 0;
      }
      case 'show': {
        const { values, positionals } = parseArgs({
          args: rest, allowPositionals: true, options: { format: { type: 'string', default: 'table' }, out: { type: 'string' } },
        });
        if (!positionals[0]) throw new UsageError('usage: leadfinder show <id> [--format table|csv|json|jsonl] [--out FILE]');
        const format = parseFormat(values.format);
        const run = await client.getSearch(positionals[0]);
        if (run.status === 'running') return await emitLive(client, run, format, values.out, io);
        return await emit(run, null, format, values.out, io);
      }
      case 'stop': {
        if (!rest[0]) throw new UsageError('usage: leadfinder stop <id>');
        const r = await client.stopSearch(rest[0]);
        out(r.status === 'running'
          ? `stop requested for ${r.id}; it ends within seconds with the rows found so far (leadfinder show ${r.id})\n`
          : `${r.id} had already ended: ${r.status}\n`);
        return 0;
      }
      case 'keys': return await keys(client, rest, io);
      case 'webhooks': return await webhooksCommand(client, rest, io);
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (error) {
    if (error instanceof UsageError || error instanceof WebhookUsageError) {
      err(`leadfinder: ${error.message}\n`);
      return 2;
    }
    if (error instanceof InsufficientBalanceError) {
      // Spec §7: show detail.message; retrying on a timer cannot help until a top-up or a run finishes.
      err(`leadfinder: ${error.balance.message}\n`);
      err(`  available $${error.availableUsd} (held by running searches: ${usd(error.heldMicrousd / 1e6)}), needed $${error.neededUsd}\n`);
      return 1;
    }
    if (error instanceof LeadfinderApiError) {
      err(`leadfinder: ${error.status} ${error.message}\n`);
      return 1;
    }
    if (error instanceof TransportError && settings) {
      err(`leadfinder: cannot reach the service at ${settings.url} (${settings.urlSource}): ${error.message}\n`);
      return 1;
    }
    err(`leadfinder: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

async function keys(client: LeadfinderClient, args: string[], io: ClientIo): Promise<number> {
  const [sub, ...rest] = args;
  const arg = rest.join(' ');
  if (sub === 'create' && arg) {
    const k = await client.keys.create(arg);
    io.stdout.write(`${k.key}\n`);
    io.stderr.write(`created key ${k.id} "${k.name}". This value is shown only once: store it now.\n`);
    return 0;
  }
  if (sub === 'list' && !arg) {
    const list = await client.keys.list();
    if (list.length === 0) io.stdout.write('(no keys)\n');
    for (const k of list) io.stdout.write(`${k.id}  ${k.prefix}…  created ${k.createdAt}  last used ${k.lastUsedAt ?? 'never'}  ${k.name}\n`);
    return 0;
  }
  if (sub === 'revoke' && rest.length === 1) {
    await client.keys.revoke(arg);
    io.stdout.write(`revoked ${arg}\n`);
    return 0;
  }
  throw new UsageError('usage: leadfinder keys create <name> | list | revoke <id>');
}

function parseFormat(value: string | undefined): OutputFormat {
  const found = OUTPUT_FORMATS.find((f) => f === value);
  if (!found) throw new UsageError(`--format must be table, csv, json or jsonl (got "${value}")`);
  return found;
}

async function search(client: LeadfinderClient, argv: string[], io: ClientIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      target: { type: 'string' }, speed: { type: 'string' }, sites: { type: 'string' }, 'no-relax': { type: 'boolean' },
      format: { type: 'string', default: 'table' }, out: { type: 'string' }, quiet: { type: 'boolean' },
      'idempotency-key': { type: 'string' }, webhook: { type: 'string' }, 'webhook-events': { type: 'string' },
      'exclude-run': { type: 'string', multiple: true }, 'exclude-domain': { type: 'string', multiple: true },
      'exclude-name': { type: 'string', multiple: true }, expected: { type: 'string', multiple: true },
      'near-misses': { type: 'boolean' }, 'keep-unclear': { type: 'boolean' }, 'max-usd-per-row': { type: 'string' },
    },
  });
  const q = positionals.join(' ');
  if (!q) throw new UsageError(SEARCH_USAGE);
  const format = parseFormat(values.format);
  const target = values.target === undefined ? undefined : Number(values.target);
  if (target !== undefined && (!Number.isInteger(target) || values.target!.trim() === '')) throw new UsageError('--target must be a whole number');
  if (values.speed !== undefined && values.speed !== 'fast' && values.speed !== 'advanced') throw new UsageError('--speed must be fast or advanced');
  const maxUsdPerRow = values['max-usd-per-row'] === undefined ? undefined : Number(values['max-usd-per-row']);
  if (maxUsdPerRow !== undefined && (!(maxUsdPerRow > 0 && maxUsdPerRow <= 5) || values['max-usd-per-row']!.trim() === '')) throw new UsageError('--max-usd-per-row must be an amount in USD above 0 and at most 5');

  const key = values['idempotency-key'];
  if (key !== undefined && !/^[\x21-\x7e]([\x20-\x7e]{0,253}[\x21-\x7e])?$/.test(key)) {
    throw new UsageError('--idempotency-key must be 1 to 255 printable ASCII characters');
  }
  const webhookEvents = parseWebhookEvents(values['webhook-events']);
  if (webhookEvents && !values.webhook) throw new UsageError('--webhook-events needs --webhook URL');
  const webhook = values.webhook ? { url: values.webhook, ...(webhookEvents ? { events: webhookEvents } : {}) } : undefined;
  const exclude = {
    ...(values['exclude-name'] ? { names: values['exclude-name'] } : {}),
    ...(values['exclude-domain'] ? { domains: values['exclude-domain'] } : {}),
    ...(values['exclude-run'] ? { runs: values['exclude-run'] } : {}),
  };
  const { id } = await client.createSearch(
    {
      q, target, speed: values.speed, sites: values.sites, relax: values['no-relax'] ? false : undefined, ...(webhook ? { webhook } : {}),
      ...(Object.keys(exclude).length > 0 ? { exclude } : {}), ...(values.expected ? { expected: values.expected } : {}),
      ...(values['near-misses'] ? { near_misses: true } : {}), ...(values['keep-unclear'] ? { keep_unclear: true } : {}),
      ...(maxUsdPerRow === undefined ? {} : { max_usd_per_row: maxUsdPerRow }),
    },
    key === undefined ? {} : { idempotencyKey: key },
  );
  io.stderr.write(`search ${id} started (5.00 USD reserved; charged for what it spends)\n`);

  const progress = createProgress(io, Boolean(values.quiet));
  const aborter = new AbortController();
  const onInterrupt = () => aborter.abort();
  const unhook = io.onInterrupt ? io.onInterrupt(onInterrupt) : hookSigint(onInterrupt);
  let follower: EventFollower;
  let final: FinalEvent | null;
  try {
    follower = client.follow(id, { signal: aborter.signal });
    final = await render(follower, progress);
  } finally {
    unhook();
    progress.end();
  }

  if (aborter.signal.aborted) {
    io.stderr.write('Closing the stream does not stop the run: it keeps searching and costing money until it ends.\n');
    const stop = io.confirmStop ? await io.confirmStop() : await ask(io, 'Stop the run now? [y/N] ');
    if (!stop) {
      io.stderr.write(`left running. Follow it with: leadfinder show ${id}   Stop it with: leadfinder stop ${id}\n`);
      return 130;
    }
    const r = await client.stopSearch(id);
    io.stderr.write(r.status === 'running' ? 'stop requested; waiting for the rows found so far…\n' : `the run had already ended: ${r.status}\n`);
    // Pick the stream up where we left it: the stop tail (final, cost, usage, done) follows within seconds.
    const rest = client.follow(id, { since: follower.cursor });
    final = (await render(rest, createProgress(io, Boolean(values.quiet)))) ?? final;
    follower = rest;
  }
  const run = follower.run ?? (await client.getSearch(id));
  return await emit(run, final, format, values.out, io);
}

interface Progress {
  line(event: RunEvent): void;
  end(): void;
}

/** Live progress on stderr: on a terminal one redrawn status line with a bar and spend; piped, plain lines. */
function createProgress(io: ClientIo, quiet: boolean): Progress {
  const tty = Boolean((io.stderr as NodeJS.WriteStream).isTTY);
  let spend = 0;
  let perRowSeen: number | null = null;
  let statusShown = false;
  let lastPlain = '';
  const clear = () => {
    if (statusShown) io.stderr.write('\r\x1b[2K');
    statusShown = false;
  };
  return {
    line(event) {
      if (quiet) return;
      if (event.type === 'cost') {
        // The tail's cost repeats the last figure, now over the rows: shown when the per-row figure is new.
        if (event.usd === spend && (event.per_row_usd ?? null) === perRowSeen) return;
        spend = event.usd;
        perRowSeen = event.per_row_usd ?? null;
        if (tty) return; // shown with the next status line
        io.stderr.write(`spend ${usd(spend)}${perRow(event)}\n`);
        return;
      }
      const described = describeEvent(event);
      if (!described) return;
      if (described.kind === 'note') {
        clear();
        io.stderr.write(`${described.text}\n`);
      } else if (tty) {
        const columns = Math.max(20, (io.stderr as NodeJS.WriteStream).columns || 100); // a fresh pty may report 0
        const text = `${described.text}  spend ${usd(spend)}`;
        io.stderr.write(`\r\x1b[2K${text.length > columns - 1 ? text.slice(0, columns - 2) + '…' : text}`);
        statusShown = true;
      } else if (described.text !== lastPlain) {
        lastPlain = described.text;
        io.stderr.write(`${described.text}\n`);
      }
    },
    end: clear,
  };
}

/** A `cost` event's spend per row and projection to target, when it has rows: " ($0.0035/row, ~$0.14 at target)". */
function perRow(event: { per_row_usd?: number | null | undefined; projected_usd?: number | null | undefined }): string {
  if (event.per_row_usd == null) return '';
  return ` (${usd(event.per_row_usd)}/row${event.projected_usd == null ? '' : `, ~${usd(event.projected_usd)} at target`})`;
}

/** Show the events as they come; returns the `final` event if one was seen. */
async function render(follower: EventFollower, progress: Progress): Promise<FinalEvent | null> {
  let final: FinalEvent | null = null;
  for await (const { event } of follower) {
    if (event.type === 'final') final = event;
    progress.line(event);
  }
  return final;
}

/** Print the outcome line and the rows (to `--out` or stdout). Exit 1 when the run failed or was cut off. */
async function emit(run: RunRecord, final: FinalEvent | null, format: OutputFormat, outFile: string | undefined, io: ClientIo): Promise<number> {
  const rows = run.result?.table ?? final?.table ?? [];
  io.stderr.write(describeRun(run) + '\n');
  const report = describeRequestReport(run.result ?? final);
  if (report) io.stderr.write(report + '\n');
  const text = formatRows(rows, format, (io.stdout as NodeJS.WriteStream).columns || 120);
  if (outFile) {
    await writeFile(outFile, text);
    io.stderr.write(`wrote ${rows.length} rows to ${outFile}\n`);
  } else io.stdout.write(text);
  return run.status === 'error' || run.status === 'interrupted' ? 1 : 0;
}

/** What `--exclude-…`, `--expected`, `--near-misses` and `--keep-unclear` asked for, as `final` answered it (nothing without them). */
export function describeRequestReport(final: FinalEvent | null): string {
  if (!final) return '';
  const lines: string[] = [];
  if (final.stop_reason === 'max_usd_per_row') lines.push('stopped: the last rows cost more than --max-usd-per-row each');
  if (final.excluded !== undefined) lines.push(`excluded ${final.excluded} candidate${final.excluded === 1 ? '' : 's'} before the funnel`);
  if (final.expected_found || final.expected_missed) {
    const found = final.expected_found ?? [];
    const missed = final.expected_missed ?? [];
    lines.push(`expected: ${found.length} of ${found.length + missed.length} found${found.length ? ` (${found.join(', ')})` : ''}`);
    for (const m of missed) {
      const why = m.reason === 'dropped'
        ? `dropped by filter ${m.filter?.index} "${m.filter?.title}": ${m.rationale ?? ''}${m.passages?.[0] ? ` («${m.passages[0].text.slice(0, 160)}» ${m.passages[0].url})` : ''}`
        : m.reason === 'excluded' ? 'excluded' : m.reason === 'not_judged' ? 'found, not judged before the run ended' : 'never found';
      lines.push(`  missed ${m.expected}${m.name && m.name !== m.expected ? ` (as ${m.name})` : ''}: ${why}`);
    }
  }
  if (final.near_misses) {
    lines.push(`near misses: ${final.near_misses.length}`);
    for (const m of final.near_misses) {
      const loosened = m.recovered_if_loosened === false ? '; the loosened filter drops it too' : '';
      lines.push(`  ${m.name}: dropped by filter ${m.filter.index} "${m.filter.title}" (${m.outcome}): ${m.rationale}${loosened}`);
    }
  }
  if (final.unclear) {
    lines.push(`unclear (not in the table): ${final.unclear.length}`);
    for (const u of final.unclear) lines.push(`  ${u.name}: filter ${u.filter.index} "${u.filter.title}": ${u.rationale}`);
  }
  return lines.join('\n');
}

/** How long `show` listens to a running run's stream once it has gone quiet: its past arrives in one burst. */
const SNAPSHOT_QUIET_MS = 300;
const SNAPSHOT_MAX_MS = 5000;

/**
 * `show` on a running run: the record has no result and no charge yet, so the rows so far and the spend
 * so far come from its events (the last `progress` and `cost`), read until the stream goes quiet.
 */
async function emitLive(client: LeadfinderClient, run: RunRecord, format: OutputFormat, outFile: string | undefined, io: ClientIo): Promise<number> {
  const abort = new AbortController();
  let quiet = setTimeout(() => abort.abort(), SNAPSHOT_MAX_MS);
  const cap = setTimeout(() => abort.abort(), SNAPSHOT_MAX_MS);
  let rows: ResultRow[] = [];
  let spendUsd: number | null = null;
  const follower = client.follow(run.id, { signal: abort.signal });
  try {
    for await (const { event } of follower) {
      if (event.type === 'progress') rows = event.leads;
      if (event.type === 'final') rows = event.table;
      if (event.type === 'cost') spendUsd = event.usd;
      clearTimeout(quiet);
      quiet = setTimeout(() => abort.abort(), SNAPSHOT_QUIET_MS);
    }
  } finally {
    clearTimeout(quiet);
    clearTimeout(cap);
  }
  // It ended while we listened: show it as finished.
  if (follower.run) return await emit(follower.run, null, format, outFile, io);
  io.stderr.write(describeLiveRun(run, spendUsd, rows.length) + '\n');
  const text = formatRows(rows, format, (io.stdout as NodeJS.WriteStream).columns || 120);
  if (outFile) {
    await writeFile(outFile, text);
    io.stderr.write(`wrote ${rows.length} rows so far to ${outFile}\n`);
  } else io.stdout.write(text);
  return 0;
}

function hookSigint(handler: () => void): () => void {
  process.on('SIGINT', handler);
  return () => process.off('SIGINT', handler);
}

/** Ask on the terminal; anything but yes, a second Ctrl-C, or no terminal at all means no. */
async function ask(io: ClientIo, question: string): Promise<boolean> {
  if (!(io.stdin as NodeJS.ReadStream).isTTY) {
    io.stderr.write('(no terminal to ask whether to stop the run)\n');
    return false;
  }
  const rl = createInterface({ input: io.stdin, output: io.stderr });
  const cancel = new AbortController();
  rl.once('SIGINT', () => cancel.abort());
  try {
    return /^y(es)?$/i.test((await rl.question(question, { signal: cancel.signal })).trim());
  } catch {
    io.stderr.write('\n');
    return false;
  } finally {
    rl.close();
  }
}
