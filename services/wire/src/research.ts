import { z } from 'zod';
import { EntityType, FilterDescriptor, QuotedPassage, SupportingPassage } from './rows.js';

/**
 * Types the coordinator, fetcher and filter exchange (in-process or over gRPC). They are also the
 * structured-output schemas handed to an LLM, so every field has a plain meaning.
 */

/** An absolute date range computed from a period named in the query, against the run's start. */
export const DateRange = z.object({
  /** Inclusive start, YYYY-MM-DD: the publish-date floor for discovery and the event filter. */
  from: z.string(),
  /** Inclusive end, YYYY-MM-DD, for closed ranges ("in Q3 2025"); null when open-ended. */
  to: z.string().nullable(),
  /** The words of the query it came from, e.g. "in the last 6 months". */
  phrase: z.string(),
});
export type DateRange = z.infer<typeof DateRange>;

/** A funnel filter: the public descriptor plus reasoner-specific detail the coordinator treats as opaque. */
export const FunnelFilter = FilterDescriptor.extend({
  /** Reasoner-owned structured form of the criterion (terms, date bounds, …); opaque to the coordinator. */
  spec: z.record(z.string(), z.unknown()),
  /** True once loosened by Relax. */
  relaxed: z.boolean(),
});
export type FunnelFilter = z.infer<typeof FunnelFilter>;

/** Where searches may go: explicit domains, or page types to prefer. */
export const SiteScope = z.object({
  domains: z.array(z.string()),
  pageTypes: z.array(z.string()),
});
export type SiteScope = z.infer<typeof SiteScope>;

export const ResearchPlan = z.object({
  entityType: EntityType,
  filters: z.array(FunnelFilter),
  /** Search queries for round 1; later rounds ask the filter for fresh ones via `round`. */
  queries: z.array(z.string()),
  dateRange: DateRange.nullable(),
  sites: SiteScope,
  /** Short restatement of what is being looked for. */
  summary: z.string(),
  /** Sentences for the user about the plan (a date phrase not read, say); each becomes a `status` event. */
  notes: z.array(z.string()).optional(),
});
export type ResearchPlan = z.infer<typeof ResearchPlan>;

export const PlanRequest = z.object({
  query: z.string(),
  /** ISO time the run started; every relative period is computed against it. */
  now: z.string(),
  sites: z.string(),
});
export type PlanRequest = z.infer<typeof PlanRequest>;

export const QueriesRequest = z.object({
  plan: ResearchPlan,
  round: z.number().int().min(1),
  /** Queries already used, so fresh ones are different. */
  used: z.array(z.string()),
  /** Sites (hosts) whose pages earlier rounds turned into rows, most productive first: worth searching within. */
  productiveSites: z.array(z.string()).optional(),
});
export type QueriesRequest = z.infer<typeof QueriesRequest>;

export const SearchRequest = z.object({
  query: z.string(),
  /** Domains every result must be on (empty: whole web). */
  domains: z.array(z.string()),
  /** YYYY-MM-DD publish-date floor, or null. */
  publishedAfter: z.string().nullable(),
  /** 1-based result page. */
  page: z.number().int().min(1),
  limit: z.number().int().min(1).max(50),
});
export type SearchRequest = z.infer<typeof SearchRequest>;

export const SearchHit = z.object({
  url: z.string(),
  title: z.string(),
  snippet: z.string(),
  publishedAt: z.string().nullable(),
  provider: z.string(),
  rank: z.number().int(),
});
export type SearchHit = z.infer<typeof SearchHit>;

export const SearchResponse = z.object({
  hits: z.array(SearchHit),
  /**
   * The provider's own page came back full, so its next page may hold more: judged on what the provider
   * returned, before site and date checks dropped hits. Absent: the caller judges by `hits.length`.
   */
  more: z.boolean().optional(),
});
export type SearchResponse = z.infer<typeof SearchResponse>;

export const FetchRequest = z.object({ url: z.string() });
export type FetchRequest = z.infer<typeof FetchRequest>;

/** One label–value fact a page states ("Location: San Francisco, CA, USA"); `passage` occurs in the page text. */
export const PageFact = z.object({
  /** The label as printed, or the schema.org property's plain name ("Location", "Founded", "Team size"). */
  label: z.string(),
  value: z.string(),
  /** The page passage holding the value (a list line, a table row, a definition, or the value itself). */
  passage: z.string(),
});
export type PageFact = z.infer<typeof PageFact>;

/** An entity a page is about or lists; `name` and `passage` occur in the page text. */
export const PageEntity = z.object({
  name: z.string(),
  /** The entity kind its schema.org / OpenGraph type maps to; null when the page does not type it. */
  kind: EntityType.nullable(),
  /** Absolute URL of the entity's own page (a listing's link, a JSON-LD `url`), or null. */
  link: z.string().nullable(),
  /** The line or paragraph that names it. */
  passage: z.string(),
  facts: z.array(PageFact),
  /** Where it was read from: jsonld, microdata, opengraph, heading, title, list, table, link. */
  source: z.string(),
});
export type PageEntity = z.infer<typeof PageEntity>;

/** Structure read from a page before any sentence pattern: its subject, and the entities it lists. */
export const PageModel = z.object({
  /** The single entity the page is about (a profile, an about page), or null for listings and articles. */
  subject: PageEntity.nullable(),
  /** One entry per entity a list, directory, table or article links to. */
  items: z.array(PageEntity),
  /** og:site_name, or null. */
  siteName: z.string().nullable(),
});
export type PageModel = z.infer<typeof PageModel>;

/** A page the fetcher opened and extracted. */
export const FetchedPage = z.object({
  url: z.string(),
  finalUrl: z.string(),
  status: z.number().int(),
  contentType: z.string(),
  title: z.string(),
  /** Main text, whitespace-normalised. Every passage is a substring of it. */
  text: z.string(),
  /** YYYY-MM-DD or ISO date from meta tags, JSON-LD or <time>; null when none. */
  publishedAt: z.string().nullable(),
  /** Paragraph-sized chunks of `text`, in order. */
  passages: z.array(z.string()),
  fetchedAt: z.string(),
  /** Structure read before sentences; absent from pages made by older fetchers. */
  model: PageModel.optional(),
});
export type FetchedPage = z.infer<typeof FetchedPage>;

export const FetchFailureCode = z.enum([
  'bad_url', 'private_address', 'robots', 'timeout', 'too_large', 'http_status', 'unsupported_type',
  'network', 'too_many_redirects',
]);
export type FetchFailureCode = z.infer<typeof FetchFailureCode>;

export const FetchOutcome = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), page: FetchedPage }),
  z.object({ ok: z.literal(false), url: z.string(), code: FetchFailureCode, reason: z.string() }),
]);
export type FetchOutcome = z.infer<typeof FetchOutcome>;

/** LLM token usage of one filter call; zero for the rule-based reasoner. */
export const ReasonerUsage = z.object({
  calls: z.number().int(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
});
export type ReasonerUsage = z.infer<typeof ReasonerUsage>;

export const ScreenRequest = z.object({ plan: ResearchPlan, hits: z.array(SearchHit) });
export type ScreenRequest = z.infer<typeof ScreenRequest>;
export const ScreenScore = z.object({ url: z.string(), score: z.number().min(0).max(1), pass: z.boolean() });
export type ScreenScore = z.infer<typeof ScreenScore>;
export const ScreenResponse = z.object({ scores: z.array(ScreenScore), usage: ReasonerUsage });
export type ScreenResponse = z.infer<typeof ScreenResponse>;

/** A candidate row before the funnel. `key` is the normalised identity used to merge across pages. */
export const Candidate = z.object({
  key: z.string(),
  name: z.string(),
  entityType: EntityType,
  details: z.string(),
  intentSignal: z.string(),
  discoveryRationale: z.string(),
  /** Pages the candidate was found on (all fetched). */
  sourceUrls: z.array(z.string()),
  passages: z.array(SupportingPassage),
  /** Domain of the entity's own site, when a page names it; helps merging. */
  domain: z.string().nullable(),
  round: z.number().int().min(1),
  /**
   * The entity's own page to open before judging it (a listing's link), when the page it was found on
   * lists it without the facts its filters need; absent or null when there is none.
   */
  lead: z.string().nullable().optional(),
});
export type Candidate = z.infer<typeof Candidate>;

export const ExtractRequest = z.object({ plan: ResearchPlan, page: FetchedPage, round: z.number().int().min(1) });
export type ExtractRequest = z.infer<typeof ExtractRequest>;
export const ExtractResponse = z.object({ candidates: z.array(Candidate), usage: ReasonerUsage });
export type ExtractResponse = z.infer<typeof ExtractResponse>;

export const Verdict = z.object({
  pass: z.boolean(),
  /**
   * yes / no, or unclear when the pages neither show nor rule it out (then `pass` is false: unclear never
   * passes silently). Absent from older reasoners: read as yes/no from `pass`.
   */
  outcome: z.enum(['yes', 'no', 'unclear']).optional(),
  rationale: z.string(),
  rationaleMode: z.enum(['llm', 'rules']),
  verification: z.enum(['stated', 'inferred']),
  /** Quoted passages; each text occurs in the page at url. */
  passages: z.array(QuotedPassage),
});
export type Verdict = z.infer<typeof Verdict>;

export const VerifyRequest = z.object({
  plan: ResearchPlan,
  filter: FunnelFilter,
  candidate: Candidate,
  /** The fetched pages the candidate was found on. */
  pages: z.array(FetchedPage),
});
export type VerifyRequest = z.infer<typeof VerifyRequest>;
export const VerifyResponse = z.object({ verdict: Verdict, usage: ReasonerUsage });
export type VerifyResponse = z.infer<typeof VerifyResponse>;

export const RelaxRequest = z.object({ plan: ResearchPlan, filter: FunnelFilter });
export type RelaxRequest = z.infer<typeof RelaxRequest>;
/** `filter` null: this filter cannot be loosened further. */
export const RelaxResponse = z.object({ filter: FunnelFilter.nullable(), usage: ReasonerUsage });
export type RelaxResponse = z.infer<typeof RelaxResponse>;

export const PlanResponse = z.object({ plan: ResearchPlan, usage: ReasonerUsage });
export type PlanResponse = z.infer<typeof PlanResponse>;
export const QueriesResponse = z.object({ queries: z.array(z.string()), usage: ReasonerUsage });
export type QueriesResponse = z.infer<typeof QueriesResponse>;
