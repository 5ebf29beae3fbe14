import { statSync } from 'node:fs';
import { isIP } from 'node:net';
import { z } from 'zod';
import { usdToMicros } from '@leadfinder/wire';
import { llmListPrice } from './llm-prices.js';

/**
 * The one configuration object (operator contract "Configuration"). Parsed once, in the entry point,
 * from the environment; everything else receives the typed object.
 */
const usd = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((v, ctx) => {
      try {
        const micros = usdToMicros(v);
        if (micros < 0) throw new RangeError('negative');
        return micros;
      } catch {
        ctx.addIssue({ code: 'custom', message: `expected a non-negative USD amount, got "${v}"` });
        return z.NEVER;
      }
    });
/** A USD amount that may be left unset (its default depends on other variables). */
const optionalUsd = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v.trim() === '') return undefined;
    try {
      const micros = usdToMicros(v);
      if (micros < 0) throw new RangeError('negative');
      return micros;
    } catch {
      ctx.addIssue({ code: 'custom', message: `expected a non-negative USD amount, got "${v}"` });
      return z.NEVER;
    }
  });
const flag = z
  .enum(['0', '1', 'true', 'false', ''])
  .default('0')
  .transform((v) => v === '1' || v === 'true');
const optionalUrl = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()))
  .pipe(z.string().url().optional());
const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v));
const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
/** Signing keys and bearer secrets: a short one can be guessed offline (HS256) or online. */
const MIN_SECRET_BYTES = 32;
const secret = optionalText.pipe(
  z.string()
    .refine((v) => Buffer.byteLength(v, 'utf8') >= MIN_SECRET_BYTES, `must be at least ${MIN_SECRET_BYTES} bytes (e.g. openssl rand -base64 32)`)
    .optional(),
);

/** True for a loopback host name or address (where only this machine can reach the service). */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

export const Role = z.enum(['all', 'edge', 'coordinator', 'fetcher', 'filter']);
export type Role = z.infer<typeof Role>;

export const ConfigSchema = z
  .object({
    // Where the HTTP roles listen; loopback by default so a first `npm start` exposes nothing.
    HOST: z.string().min(1).default('127.0.0.1'),
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    // Embedded storage and event log live here; survives restarts.
    LEADFINDER_DATA_DIR: z.string().min(1).default('./.leadfinder'),
    // Distributed adapters: setting these selects MongoDB / NATS JetStream instead of embedded ones.
    LEADFINDER_MONGODB_URL: optionalUrl,
    LEADFINDER_MONGODB_DB: z.string().min(1).default('leadfinder'),
    LEADFINDER_NATS_URL: optionalUrl,
    // NATS credentials (a .creds file with JWT and NKey seed, user and password, or a token) and TLS
    // (a CA bundle to verify the server; a client certificate and key for mutual TLS). Files, so a
    // Kubernetes Secret can be mounted as they are.
    LEADFINDER_NATS_CREDS_FILE: optionalText,
    LEADFINDER_NATS_USER: optionalText,
    LEADFINDER_NATS_PASSWORD: optionalText,
    LEADFINDER_NATS_TOKEN: optionalText,
    LEADFINDER_NATS_TLS_CA_FILE: optionalText,
    LEADFINDER_NATS_TLS_CERT_FILE: optionalText,
    LEADFINDER_NATS_TLS_KEY_FILE: optionalText,
    // gRPC addresses of fetcher and filter (distributed); `dns:///host:port` round-robins over pods.
    LEADFINDER_FETCHER_ADDR: optionalText,
    LEADFINDER_FILTER_ADDR: optionalText,
    // Port the fetcher/filter gRPC servers listen on when started alone.
    LEADFINDER_GRPC_PORT: z.coerce.number().int().min(0).max(65535).default(50051),
    LEADFINDER_SEARCH: z.enum(['searxng', 'brave', 'corpus']).optional(),
    LEADFINDER_SEARXNG_URL: optionalUrl,
    LEADFINDER_BRAVE_API_KEY: optionalText,
    LEADFINDER_BRAVE_URL: z.string().url().default('https://api.search.brave.com/res/v1/web/search'),
    // Empty: the bundled sample corpus, written into the data dir at start-up.
    LEADFINDER_CORPUS_DIR: optionalText,
    LEADFINDER_LLM_BASE_URL: optionalUrl,
    LEADFINDER_LLM_API_KEY: optionalText,
    LEADFINDER_LLM_MODEL: z.string().min(1).default('gpt-4o-mini'),
    LEADFINDER_LLM_CONCURRENCY: positiveInt(4),
    // Two and a half hours, published as deadlineAt.
    LEADFINDER_RUN_DEADLINE_S: positiveInt(9000),
    LEADFINDER_PRICE_SEARCH_USD: usd('0.005'),
    LEADFINDER_PRICE_PAGE_USD: usd('0.001'),
    // Per million tokens; unset: the list price of LEADFINDER_LLM_MODEL (llm-prices.ts), required for others.
    LEADFINDER_PRICE_LLM_INPUT_USD_PER_MTOK: optionalUsd,
    LEADFINDER_PRICE_LLM_OUTPUT_USD_PER_MTOK: optionalUsd,
    LEADFINDER_SPEND_CEILING_USD: usd('5.00'),
    // Tests only: lets the fetcher open loopback/private addresses (otherwise refused: SSRF).
    LEADFINDER_FETCH_ALLOW_PRIVATE: flag,
    // Tests and development only: webhooks may target loopback/private addresses (refused behind https).
    LEADFINDER_WEBHOOK_ALLOW_PRIVATE: flag,
    // First pause between webhook attempts; it doubles per attempt (capped at an hour) for 24 h.
    LEADFINDER_WEBHOOK_RETRY_BASE_MS: positiveInt(30_000),
    // A webhook watch or delivery held by an edge that died is taken up by another edge after this (the
    // queues' ack wait); the holder says it is still at work every third of it. At least a second.
    LEADFINDER_WEBHOOK_REDELIVERY_MS: z.coerce.number().int().min(1000).max(3_600_000).default(30_000),
    // curl --resolve style `host:port:address` entries; the address must be an IP literal (a host name
    // here would be resolved later, unchecked) and the port a real one.
    LEADFINDER_FETCH_RESOLVE: z
      .string()
      .default('')
      .transform((v, ctx) => {
        const out: { host: string; port: number; address: string }[] = [];
        for (const entry of v.split(',').map((s) => s.trim()).filter(Boolean)) {
          const m = /^([^:]+):(\d{1,5}):(.+)$/.exec(entry);
          const port = m ? Number(m[2]) : 0;
          const address = m ? m[3]!.replace(/^\[|\]$/g, '') : '';
          if (!m || port < 1 || port > 65535 || isIP(address) === 0) {
            ctx.addIssue({ code: 'custom', message: `bad entry "${entry}", expected host:port:address with a port 1-65535 and an IP address` });
            return z.NEVER;
          }
          out.push({ host: m[1]!.toLowerCase(), port, address });
        }
        return out;
      }),
    LEADFINDER_FETCH_TIMEOUT_MS: positiveInt(15000),
    LEADFINDER_FETCH_MAX_BYTES: positiveInt(5 * 1024 * 1024),
    LEADFINDER_FETCH_PER_HOST: positiveInt(2),
    LEADFINDER_ADMIN_TOKEN: secret,
    // A separate listener for the admin API: when set, /admin/* is served only on this port (which a
    // deployment keeps off its public Ingress), never on PORT. Unset: on PORT, as `npm start` does.
    LEADFINDER_ADMIN_PORT: optionalText.transform((v) => (v === undefined ? undefined : Number(v))).pipe(z.number().int().min(1).max(65535).optional()),
    LEADFINDER_OIDC_ISSUER: optionalUrl,
    LEADFINDER_OIDC_CLIENT_ID: optionalText,
    LEADFINDER_OIDC_CLIENT_SECRET: optionalText,
    // Signs session tokens; when unset a random one is created and kept in the data dir (embedded only).
    LEADFINDER_SESSION_SECRET: secret,
    // The development sign-in (an email, no password). Off unless enabled; refused off loopback, behind
    // https and with OIDC (see the checks below and `devSignInRefusal`).
    LEADFINDER_DEV_SIGNIN: flag,
    // Balance given to an account created by a sign-in (development or OIDC); none unless the operator says.
    LEADFINDER_WELCOME_BALANCE_USD: usd('0'),
    LEADFINDER_SESSION_TTL_S: positiveInt(7 * 24 * 3600),
    // Public base URL (for OIDC redirects and links); default http://HOST:PORT.
    LEADFINDER_PUBLIC_URL: optionalUrl,
    // Per-account request budget per minute on /v1 and /api/keys (429 beyond it), counted per edge.
    LEADFINDER_RATE_LIMIT_PER_MIN: positiveInt(600),
    // Event streams one account may hold open at once (429 beyond), and live API keys it may have.
    LEADFINDER_STREAMS_PER_ACCOUNT: positiveInt(20),
    LEADFINDER_KEYS_PER_ACCOUNT: positiveInt(20),
    // A dead coordinator's lease lapses after this; must stay ≤ 30 s (operator contract).
    LEADFINDER_LEASE_TTL_MS: z.coerce.number().int().min(1000).max(30000).default(15000),
    // Most runs one coordinator drives at once.
    LEADFINDER_COORDINATOR_CONCURRENCY: positiveInt(8),
    // HTTP /healthz and /readyz of the roles that serve no public HTTP (coordinator, fetcher, filter).
    LEADFINDER_HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(9090),
    LEADFINDER_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl,
    OTEL_SERVICE_NAME: optionalText,
    // OTLP/HTTP encoding. http/protobuf by default, as the OpenTelemetry specification names it: spans are
    // written by our own encoder (telemetry/otlp-proto.ts) with less CPU than JSON, in 40 % of the bytes.
    OTEL_EXPORTER_OTLP_PROTOCOL: z.enum(['http/json', 'http/protobuf']).default('http/protobuf'),
    // A standard sampler name (always_on, parentbased_traceidratio, …, read by the OpenTelemetry SDK with
    // OTEL_TRACES_SAMPLER_ARG). Unset: parent-based, every trace kept except those a read request starts
    // (GET/HEAD of /v1, health probes), kept at LEADFINDER_TRACES_READ_RATIO.
    OTEL_TRACES_SAMPLER: optionalText,
    LEADFINDER_TRACES_READ_RATIO: z.coerce.number().min(0).max(1).default(0.1),
    // Prometheus scrape endpoint (`GET /metrics` on a listener of its own, kept off the public Ingress).
    // Unset: no endpoint (metrics still go to OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set).
    LEADFINDER_METRICS_PORT: optionalText.transform((v) => (v === undefined ? undefined : Number(v))).pipe(z.number().int().min(1).max(65535).optional()),
  })
  .superRefine((c, ctx) => {
    if (c.LEADFINDER_SEARCH === 'searxng' && !c.LEADFINDER_SEARXNG_URL) {
      ctx.addIssue({ code: 'custom', path: ['LEADFINDER_SEARXNG_URL'], message: 'required when LEADFINDER_SEARCH=searxng' });
    }
    if (c.LEADFINDER_SEARCH === 'brave' && !c.LEADFINDER_BRAVE_API_KEY) {
      ctx.addIssue({ code: 'custom', path: ['LEADFINDER_BRAVE_API_KEY'], message: 'required when LEADFINDER_SEARCH=brave' });
    }
    if (c.LEADFINDER_OIDC_ISSUER && !c.LEADFINDER_OIDC_CLIENT_ID) {
      ctx.addIssue({ code: 'custom', path: ['LEADFINDER_OIDC_CLIENT_ID'], message: 'required when LEADFINDER_OIDC_ISSUER is set' });
    }
    if (c.LEADFINDER_ADMIN_PORT !== undefined && !c.LEADFINDER_ADMIN_TOKEN) {
      ctx.addIssue({ code: 'custom', path: ['LEADFINDER_ADMIN_PORT'], message: 'set LEADFINDER_ADMIN_TOKEN too: the admin API is off without it' });
    }
    if (c.LEADFINDER_ADMIN_PORT !== undefined && c.LEADFINDER_ADMIN_PORT === c.PORT) {
      ctx.addIssue({ code: 'custom', path: ['LEADFINDER_ADMIN_PORT'], message: `must differ from PORT (${c.PORT}): the admin API has a listener of its own` });
    }
    if (c.LEADFINDER_METRICS_PORT !== undefined && c.LEADFINDER_METRICS_PORT === c.PORT) {
      ctx.addIssue({ code: 'custom', path: ['LEADFINDER_METRICS_PORT'], message: `must differ from PORT (${c.PORT}): metrics have a listener of their own` });
    }
    if (!c.LEADFINDER_NATS_TLS_CERT_FILE !== !c.LEADFINDER_NATS_TLS_KEY_FILE) {
      const missing = c.LEADFINDER_NATS_TLS_CERT_FILE ? 'LEADFINDER_NATS_TLS_KEY_FILE' : 'LEADFINDER_NATS_TLS_CERT_FILE';
      ctx.addIssue({ code: 'custom', path: [missing], message: 'a client certificate and its key go together' });
    }
    for (const variable of ['LEADFINDER_NATS_CREDS_FILE', 'LEADFINDER_NATS_TLS_CA_FILE', 'LEADFINDER_NATS_TLS_CERT_FILE', 'LEADFINDER_NATS_TLS_KEY_FILE'] as const) {
      const file = c[variable];
      const problem = file ? fileProblem(file) : null;
      if (problem) ctx.addIssue({ code: 'custom', path: [variable], message: problem });
    }
    // Like the development sign-in: a loopback-only service with no https public URL, or nothing.
    if (c.LEADFINDER_WEBHOOK_ALLOW_PRIVATE && (!isLoopbackHost(c.HOST) || c.LEADFINDER_PUBLIC_URL?.startsWith('https:'))) {
      ctx.addIssue({
        code: 'custom', path: ['LEADFINDER_WEBHOOK_ALLOW_PRIVATE'],
        message: 'refused unless HOST is loopback and LEADFINDER_PUBLIC_URL is not https: webhooks to private addresses are for tests and development only',
      });
    }
    const refusal = c.LEADFINDER_DEV_SIGNIN ? devSignInConfigRefusal(c) : null;
    if (refusal) ctx.addIssue({ code: 'custom', path: ['LEADFINDER_DEV_SIGNIN'], message: refusal });
    if (c.LEADFINDER_CORPUS_DIR && (c.LEADFINDER_SEARCH ?? 'corpus') === 'corpus') {
      const problem = folderProblem(c.LEADFINDER_CORPUS_DIR);
      if (problem) ctx.addIssue({ code: 'custom', path: ['LEADFINDER_CORPUS_DIR'], message: problem });
    }
    // A model the service knows no price of is never billed at another model's price.
    if (c.LEADFINDER_LLM_BASE_URL && !llmListPrice(c.LEADFINDER_LLM_MODEL)) {
      for (const variable of ['LEADFINDER_PRICE_LLM_INPUT_USD_PER_MTOK', 'LEADFINDER_PRICE_LLM_OUTPUT_USD_PER_MTOK'] as const) {
        if (c[variable] !== undefined) continue;
        ctx.addIssue({
          code: 'custom', path: [variable],
          message: `required for LEADFINDER_LLM_MODEL=${c.LEADFINDER_LLM_MODEL}: no list price is known for it (set 0 for a free local model)`,
        });
      }
    }
  })
  .transform((c) => {
    const list = llmListPrice(c.LEADFINDER_LLM_MODEL);
    return {
      ...c,
      LEADFINDER_PRICE_LLM_INPUT_USD_PER_MTOK: c.LEADFINDER_PRICE_LLM_INPUT_USD_PER_MTOK ?? list?.inputMicrousdPerMtok ?? 0,
      LEADFINDER_PRICE_LLM_OUTPUT_USD_PER_MTOK: c.LEADFINDER_PRICE_LLM_OUTPUT_USD_PER_MTOK ?? list?.outputMicrousdPerMtok ?? 0,
    };
  });

/** Why a configured folder cannot be used, or null. */
function folderProblem(path: string): string | null {
  try {
    return statSync(path).isDirectory() ? null : 'not a folder';
  } catch {
    return 'no such folder';
  }
}

/** Why a configured file cannot be read as one, or null. */
function fileProblem(path: string): string | null {
  try {
    return statSync(path).isFile() ? null : 'not a file';
  } catch {
    return 'no such file';
  }
}

/** Why the development sign-in may not run with this configuration (anyone could sign in as anyone). */
function devSignInConfigRefusal(c: { HOST: string; LEADFINDER_PUBLIC_URL?: string | undefined; LEADFINDER_OIDC_ISSUER?: string | undefined }): string | null {
  const off = 'the development sign-in (no password) is refused';
  const fix = 'set LEADFINDER_DEV_SIGNIN=0 (npm start turns it on) and configure LEADFINDER_OIDC_ISSUER';
  if (!isLoopbackHost(c.HOST)) return `${off} when HOST is not loopback (HOST=${c.HOST}); ${fix}`;
  if (c.LEADFINDER_PUBLIC_URL?.startsWith('https:')) return `${off} when LEADFINDER_PUBLIC_URL is https; ${fix}`;
  if (c.LEADFINDER_OIDC_ISSUER) return `${off} together with LEADFINDER_OIDC_ISSUER; unset one of them`;
  return null;
}

/**
 * The role-dependent half of the development sign-in rules (the rest is checked when parsing): an edge
 * started alone is a distributed deployment, where a sign-in without a password has no place.
 */
export function devSignInRefusal(config: Config, role: Role): string | null {
  if (!config.LEADFINDER_DEV_SIGNIN) return null;
  if (role === 'edge') return 'LEADFINDER_DEV_SIGNIN: the development sign-in (no password) is refused when the edge runs as a separate service';
  return null;
}

export type Config = z.infer<typeof ConfigSchema>;

/** The search provider in force: explicit, else the local corpus. */
export function searchProvider(config: Config): 'searxng' | 'brave' | 'corpus' {
  return config.LEADFINDER_SEARCH ?? 'corpus';
}

/** Variables whose values are credentials: never echoed back, even when malformed. */
const SECRET_VARIABLE = /TOKEN|SECRET|PASSWORD|API_KEY/;

/** `scheme://user:password@host` → `scheme://***@host`, anywhere in a text (the user part can be a token too). */
export function redactCredentials(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^\s/"]*@/gi, '$1***@');
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly problem: string;
  constructor(readonly variable: string, problem: string) {
    // Whoever builds one, the message that reaches a terminal or a log carries no password.
    const redacted = redactCredentials(problem);
    super(`invalid configuration: ${variable}: ${redacted}`);
    this.problem = redacted;
  }
}

/** Parse the environment. Throws ConfigError naming the first bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const result = ConfigSchema.safeParse(env);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const variable = String(issue.path[0] ?? 'environment');
  const value = env[variable];
  const shown = value === undefined || SECRET_VARIABLE.test(variable) ? '' : ` (got "${redactCredentials(value)}")`;
  throw new ConfigError(variable, `${issue.message}${shown}`);
}
