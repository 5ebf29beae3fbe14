import { z } from 'zod';
import { usdToMicros } from '@leadfinder/wire';

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
    // gpt-4o-mini list prices per million tokens.
    LEADFINDER_PRICE_LLM_INPUT_USD_PER_MTOK: usd('0.15'),
    LEADFINDER_PRICE_LLM_OUTPUT_USD_PER_MTOK: usd('0.60'),
    LEADFINDER_SPEND_CEILING_USD: usd('5.00'),
    // Tests only: lets the fetcher open loopback/private addresses (otherwise refused: SSRF).
    LEADFINDER_FETCH_ALLOW_PRIVATE: flag,
    // curl --resolve style `host:port:address` entries.
    LEADFINDER_FETCH_RESOLVE: z
      .string()
      .default('')
      .transform((v, ctx) => {
        const out: { host: string; port: number; address: string }[] = [];
        for (const entry of v.split(',').map((s) => s.trim()).filter(Boolean)) {
          const m = /^([^:]+):(\d+):(.+)$/.exec(entry);
          if (!m) {
            ctx.addIssue({ code: 'custom', message: `bad entry "${entry}", expected host:port:address` });
            return z.NEVER;
          }
          out.push({ host: m[1]!.toLowerCase(), port: Number(m[2]), address: m[3]!.replace(/^\[|\]$/g, '') });
        }
        return out;
      }),
    LEADFINDER_FETCH_TIMEOUT_MS: positiveInt(15000),
    LEADFINDER_FETCH_MAX_BYTES: positiveInt(5 * 1024 * 1024),
    LEADFINDER_FETCH_PER_HOST: positiveInt(2),
    LEADFINDER_ADMIN_TOKEN: optionalText,
    LEADFINDER_OIDC_ISSUER: optionalUrl,
    LEADFINDER_OIDC_CLIENT_ID: optionalText,
    LEADFINDER_OIDC_CLIENT_SECRET: optionalText,
    // Signs session tokens; when unset a random one is created and kept in the data dir (embedded only).
    LEADFINDER_SESSION_SECRET: optionalText,
    // Balance given to an account the first time it signs in through the development sign-in.
    LEADFINDER_DEV_SIGNIN_BALANCE_USD: usd('25'),
    LEADFINDER_SESSION_TTL_S: positiveInt(7 * 24 * 3600),
    // Public base URL (for OIDC redirects and links); default http://HOST:PORT.
    LEADFINDER_PUBLIC_URL: optionalUrl,
    // Per-credential request budget per minute on /v1 and /api/keys (429 beyond it).
    LEADFINDER_RATE_LIMIT_PER_MIN: positiveInt(600),
    // A dead coordinator's lease lapses after this; must stay ≤ 30 s (operator contract).
    LEADFINDER_LEASE_TTL_MS: z.coerce.number().int().min(1000).max(30000).default(15000),
    // Most runs one coordinator drives at once.
    LEADFINDER_COORDINATOR_CONCURRENCY: positiveInt(8),
    // HTTP /healthz and /readyz of the roles that serve no public HTTP (coordinator, fetcher, filter).
    LEADFINDER_HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(9090),
    LEADFINDER_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl,
    OTEL_SERVICE_NAME: optionalText,
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
  });

export type Config = z.infer<typeof ConfigSchema>;

/** The search provider in force: explicit, else the local corpus. */
export function searchProvider(config: Config): 'searxng' | 'brave' | 'corpus' {
  return config.LEADFINDER_SEARCH ?? 'corpus';
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly variable: string, readonly problem: string) {
    super(`invalid configuration: ${variable}: ${problem}`);
  }
}

/** Parse the environment. Throws ConfigError naming the first bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const result = ConfigSchema.safeParse(env);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const variable = String(issue.path[0] ?? 'environment');
  const value = env[variable];
  const shown = value === undefined ? '' : ` (got "${value}")`;
  throw new ConfigError(variable, `${issue.message}${shown}`);
}
