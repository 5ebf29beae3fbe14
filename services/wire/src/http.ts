import { z } from 'zod';
import { SearchWebhook } from './webhooks.js';

/** Spec §4.1 request body. Length is counted on the raw string; whitespace-only is a separate 400. */
export const MAX_SITES = 20;
export const CreateSearchRequest = z.object({
  q: z.string().min(3).max(2000),
  target: z.number().int().min(1).max(500).optional(),
  /** Any value other than `fast` is read as `advanced`. */
  speed: z.string().optional(),
  relax: z.boolean().optional(),
  sites: z
    .string()
    .optional()
    .refine((s) => s === undefined || splitSites(s).length <= MAX_SITES, {
      message: `At most ${MAX_SITES} sites`,
    }),
  /** Also send this run's events to a URL (signed; see webhooks.ts). */
  webhook: SearchWebhook.optional(),
  /** Entities not to return: by name, by own domain, or every row earlier runs of the account returned. */
  exclude: z
    .object({
      names: z.array(z.string().min(1).max(300)).optional(),
      domains: z.array(z.string().min(1).max(253)).optional(),
      runs: z.array(z.string().min(1).max(64)).optional(),
    })
    .optional()
    .describe('Entities not to return, matched by canonical identity (own domain, then normalised name, plus LinkedIn, ORCID or DOI): up to 10,000 entries together (more is 400). `runs` excludes every row those runs of your account returned; a run id you do not own excludes nothing. `final.excluded` counts the candidates dropped.'),
  /** Names or domains the caller knows should match: `final` reports which were found and why not. */
  expected: z.array(z.string().min(1).max(300)).optional()
    .describe('Names or domains you know should match (up to 1,000): `final` reports `expected_found` and `expected_missed` with the reason of each miss.'),
  /** Also report the candidates the funnel rejected (`final.near_misses`). */
  near_misses: z.boolean().optional()
    .describe('When true, `final` (and the record\'s `result`) also carries `near_misses`: up to `target` rejected candidates, each with the filter that dropped it, that verdict\'s rationale and passages, and `recovered_if_loosened`.'),
  /** Keep candidates a filter judged `unclear` in their own list (`final.unclear`). */
  keep_unclear: z.boolean().optional()
    .describe('When true, `final` (and the record\'s `result`) also carries `unclear`: the candidates left out because a filter\'s verdict was unclear, with its rationale. They are never in `table`.'),
  /** A marginal-cost stop: the run ends `stopped` once its last rows cost more than this each (see row-cost.ts). */
  max_usd_per_row: z.number().positive().max(5).optional()
    .describe('Stop the run (status `stopped`, `final.stop_reason` `max_usd_per_row`) once the marginal cost of its last 3 rows passes this many USD: each rise of the row count shares the spend since the previous rise evenly among the new rows, and the marginal cost is (the shares of the last 3 rows + the spend since the last row) ÷ 3 (with fewer rows, over those). Checked when rows come in and after each priced step, once the run has a row; the rest of the hold is released as usual.'),
});
/** At most this many `exclude` entries (names, domains and runs together); more is a 400. */
export const MAX_EXCLUDE_ENTRIES = 10_000;
/** At most this many `expected` entries; more is a 400. */
export const MAX_EXPECTED_ENTRIES = 1_000;
export type SearchExclude = NonNullable<CreateSearchRequest['exclude']>;
export type CreateSearchRequest = z.infer<typeof CreateSearchRequest>;

/** Comma-separated `sites` entries, trimmed, empty ones dropped. */
export function splitSites(sites: string): string[] {
  return sites.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
}

export const CreateSearchAccepted = z.object({ id: z.string(), status: z.literal('running') }).strict();
export type CreateSearchAccepted = z.infer<typeof CreateSearchAccepted>;

export const StopAccepted = z
  .object({ id: z.string(), status: z.string(), stopRequested: z.literal(true) })
  .strict();
export type StopAccepted = z.infer<typeof StopAccepted>;

/** Spec §2.4, the `detail` of a 402. */
export const InsufficientBalanceDetail = z.object({
  error: z.literal('insufficient_balance'),
  message: z.string(),
  availableMicrousd: z.number().int(),
  availableUsd: z.string(),
  heldMicrousd: z.number().int(),
  neededMicrousd: z.number().int(),
  neededUsd: z.string(),
});
export type InsufficientBalanceDetail = z.infer<typeof InsufficientBalanceDetail>;

/** FastAPI-shaped validation error item. */
export const ValidationIssue = z.object({
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  type: z.string(),
});
export type ValidationIssue = z.infer<typeof ValidationIssue>;
export const ValidationErrorBody = z.object({ detail: z.array(ValidationIssue) });
export const ErrorBody = z.object({ detail: z.string() });
export const InsufficientBalanceBody = z.object({ detail: InsufficientBalanceDetail });

// ---- keys (/api/keys, operator contract) ----
export const CreateKeyRequest = z.object({ name: z.string().min(1).max(100) });
export const CreatedKey = z.object({
  id: z.string(),
  name: z.string(),
  key: z.string().startsWith('lf_live_'),
  prefix: z.string(),
  createdAt: z.string(),
});
export type CreatedKey = z.infer<typeof CreatedKey>;
export const KeySummary = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type KeySummary = z.infer<typeof KeySummary>;
export const KeyList = z.object({ keys: z.array(KeySummary) });

// ---- admin (operator contract) ----
const UsdAmount = z.union([z.number(), z.string().regex(/^\d+(\.\d+)?$/)]);
export const AdminCreateAccountRequest = z.object({
  balanceUsd: UsdAmount.default(0),
  // The WHATWG form rule (what browsers accept in type=email): the contract's own example "a@b.c" passes.
  email: z.email({ pattern: z.regexes.html5Email }).optional(),
});
export const AdminCreatedAccount = z.object({
  id: z.string(),
  apiKey: z.string().startsWith('lf_live_'),
  sessionToken: z.string().startsWith('eyJ'),
});
export const AdminAccount = z.object({
  id: z.string(),
  status: z.enum(['active', 'closed']),
  balanceMicrousd: z.number().int(),
  heldMicrousd: z.number().int(),
  availableMicrousd: z.number().int(),
});
export type AdminAccount = z.infer<typeof AdminAccount>;
export const AdminTopupRequest = z.object({ usd: UsdAmount });
export const AdminSession = z.object({ sessionToken: z.string().startsWith('eyJ') });
