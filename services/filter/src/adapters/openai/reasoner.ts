import { z } from 'zod';
import type { Logger } from '@leadfinder/platform';
import { EntityType, readFilterSpec, type Candidate, type DateRange, type FunnelFilter, type PageEntity, type PageModel, type ReasonerUsage } from '@leadfinder/wire';
import { entityOf, verifyCandidate } from '../rules/verify.js';
import { describeRange, readPeriod, unclearPeriodMessage, widenRange } from '../../domain/dates.js';
import { groundCandidates, groundVerdict } from '../../domain/grounding.js';
import { parseSites } from '../../domain/sites.js';
import { normaliseKey } from '../../domain/text.js';
import type { Reasoner } from '../../ports/reasoner.js';
import { createChatClient } from './chat-client.js';

export interface OpenAiReasonerOptions {
  /** OpenAI-compatible API root, e.g. https://api.openai.com/v1. */
  baseUrl: string;
  apiKey?: string | undefined;
  /** @default "gpt-4o-mini" (config LEADFINDER_LLM_MODEL) */
  model: string;
  /** Most chat requests in flight. @default 4 */
  concurrency?: number;
  /** First retry backoff step in ms. @default 500 */
  backoffBaseMs?: number;
  logger: Logger;
}

const PlanReply = z.object({
  entityType: EntityType,
  summary: z.string(),
  filters: z.array(z.object({ title: z.string(), criterion: z.string(), kind: z.enum(['type', 'location', 'event', 'other']) })),
  queries: z.array(z.string()),
});
const QueriesReply = z.object({ queries: z.array(z.string()) });
const ScreenReply = z.object({ scores: z.array(z.object({ index: z.number().int(), score: z.number() })) });
const ExtractReply = z.object({
  candidates: z.array(z.object({
    name: z.string(), details: z.string(), intentSignal: z.string(), discoveryRationale: z.string(),
    passages: z.array(z.string()), domain: z.string().nullable(),
  })),
});
const VerifyReply = z.object({
  pass: z.boolean(), rationale: z.string(), verification: z.enum(['stated', 'inferred']),
  passages: z.array(z.object({ text: z.string(), url: z.string() })),
});
const RelaxReply = z.object({ loosened: z.object({ title: z.string(), criterion: z.string() }).nullable() });

/** The page model as the model is given it: the subject with its facts, and each listed item with its line and link. */
function compactModel(model: PageModel | undefined): unknown {
  if (!model) return null;
  const entity = (e: PageEntity) => ({ name: e.name, kind: e.kind, link: e.link, line: e.passage, facts: e.facts.map((f) => `${f.label}: ${f.value}`) });
  return { subject: model.subject ? entity(model.subject) : null, items: model.items.slice(0, 60).map(entity) };
}

const NEVER_INVENT = 'Never invent. Use only names and sentences that appear verbatim in the text you are given; quote passages exactly.';
const PAGE_CHARS = 12_000;

function add(a: ReasonerUsage, b: ReasonerUsage): ReasonerUsage {
  return { calls: a.calls + b.calls, inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens };
}

/** The date range a filter's spec carries (an event, period or LLM-planned filter), read through the wire schema. */
function dateRangeOf(filter: FunnelFilter): DateRange | null {
  const reading = readFilterSpec(filter.spec);
  if (!reading.ok || !('dateRange' in reading.spec)) return null;
  return reading.spec.dateRange ?? null;
}

/**
 * The hosted reasoner: each filter call is one structured chat completion. Dates and sites are parsed
 * by the same exact rules as the embedded reasoner (an LLM is not trusted with calendar arithmetic), and
 * every reply is checked against the pages: invented names and passages are dropped.
 */
export function createOpenAiReasoner(options: OpenAiReasonerOptions): Reasoner {
  const chat = createChatClient({ ...options, concurrency: options.concurrency ?? 4 });
  const logger = options.logger.child({ reasoner: 'llm' });

  return {
    mode: 'llm',
    async plan(request, { signal }) {
      const now = new Date(request.now);
      const reading = readPeriod(request.query, now);
      const period = reading.period;
      const notes = reading.unclear.map(unclearPeriodMessage);
      const sites = parseSites(request.sites);
      // The model sees the query without the period words no rule reads (they are told to the user as
      // notes) and the period as absolute dates, so its criteria say the same dates the funnel checks.
      let query = request.query;
      for (const u of [...reading.unclear].sort((a, b) => b.start - a.start)) query = `${query.slice(0, u.start)} ${query.slice(u.end)}`;
      query = query.replace(/\s+/g, ' ').trim();
      const dates = period ? { phrase: period.range.phrase, means: describeRange(period.range) } : null;
      const { value, usage } = await chat.complete(
        'research_plan', PlanReply,
        `You plan web research. Pick the entity type, split the query into funnel filters in order (type/sector first, then location, then the event), and write 3 to 6 web search queries. When "dates" is given, the event filter's criterion states those absolute dates ("means"), not the phrase. ${NEVER_INVENT}`,
        JSON.stringify({ query, today: request.now.slice(0, 10), dates, preferredPageTypes: sites.pageTypes }),
        signal,
      );
      const filters: FunnelFilter[] = value.filters.map((f, i) => ({
        index: i + 1, title: f.title, criterion: f.criterion, relaxed: false,
        spec: { kind: 'llm', filterKind: f.kind, dateRange: f.kind === 'event' ? period?.range ?? null : null, asOf: request.now },
      }));
      if (period && !filters.some((f) => f.spec['dateRange'])) {
        filters.push({
          index: filters.length + 1, title: `Dated ${period.range.phrase}`, relaxed: false,
          criterion: `Its date falls ${describeRange(period.range)}.`,
          spec: { kind: 'llm', filterKind: 'period', dateRange: period.range, asOf: request.now },
        });
      }
      const queries = value.queries.filter((q) => q.trim()).slice(0, 6);
      return {
        plan: { entityType: value.entityType, filters, queries: queries.length > 0 ? queries : [request.query], dateRange: period?.range ?? null, sites, summary: value.summary, ...(notes.length > 0 ? { notes } : {}) },
        usage,
      };
    },
    async queries(request, { signal }) {
      const { value, usage } = await chat.complete(
        'search_queries', QueriesReply,
        'Write up to 4 new web search queries for this research plan, different from the ones already used. Return an empty list when no useful new query remains.',
        JSON.stringify({ plan: request.plan.summary, round: request.round, used: request.used }),
        signal,
      );
      const used = new Set(request.used.map((u) => u.toLowerCase().trim()));
      return { queries: value.queries.filter((q) => q.trim() && !used.has(q.toLowerCase().trim())).slice(0, 4), usage };
    },
    async screen(request, { signal }) {
      if (request.hits.length === 0) return { scores: [], usage: { calls: 0, inputTokens: 0, outputTokens: 0 } };
      const { value, usage } = await chat.complete(
        'screen_scores', ScreenReply,
        'Score each search result from 0 to 1 for how likely its page names entities that fit the research plan.',
        JSON.stringify({ plan: request.plan.summary, results: request.hits.map((h, index) => ({ index, title: h.title, snippet: h.snippet, published: h.publishedAt })) }),
        signal,
      );
      const byIndex = new Map(value.scores.map((s) => [s.index, Math.min(1, Math.max(0, s.score))]));
      return { scores: request.hits.map((h, i) => { const score = byIndex.get(i) ?? 0; return { url: h.url, score, pass: score >= 0.5 }; }), usage };
    },
    async extract(request, { signal }) {
      const { page, plan } = request;
      const { value, usage } = await chat.complete(
        'candidates', ExtractReply,
        `List every ${plan.entityType} the page names that could fit the plan. For each: its name exactly as written, details and intent signal built from page sentences, and the sentences that mention it (verbatim). ${NEVER_INVENT}`,
        JSON.stringify({ plan: plan.summary, entityType: plan.entityType, url: page.url, title: page.title, structure: compactModel(page.model), text: page.text.slice(0, PAGE_CHARS) }),
        signal,
      );
      const url = page.finalUrl || page.url;
      const candidates: Candidate[] = value.candidates.map((c) => ({
        key: normaliseKey(c.name), name: c.name, entityType: plan.entityType, details: c.details, intentSignal: c.intentSignal,
        discoveryRationale: c.discoveryRationale, sourceUrls: [url],
        passages: c.passages.map((text) => ({ text, url, score: 1, published: page.publishedAt })),
        domain: c.domain, round: request.round,
      }));
      const { kept, dropped } = groundCandidates(candidates, page);
      if (dropped.length > 0) logger.warn('llm named candidates absent from the page; dropped', { url, count: dropped.length });
      return { candidates: kept, usage };
    },
    async verify(request, { signal }) {
      const { filter, candidate, pages } = request;
      // The rules answer first from the page model; the model is asked only where they say unclear
      // (always for filters the model planned itself, which have no rule-checkable form).
      const ruled = verifyCandidate(request.plan, filter, candidate, pages);
      if (ruled.outcome !== 'unclear') return { verdict: ruled, usage: { calls: 0, inputTokens: 0, outputTokens: 0 } };
      const range = dateRangeOf(filter);
      const { value, usage } = await chat.complete(
        'verdict', VerifyReply,
        `Decide whether the candidate meets the criterion, using only the pages. Quote the exact sentences you rely on with their url. "stated" when a sentence says it outright, "inferred" when you computed it (e.g. a date from the page date). ${NEVER_INVENT}`,
        JSON.stringify({
          criterion: filter.criterion, dateRange: range, candidate: candidate.name,
          pages: pages.map((p) => ({
            url: p.finalUrl || p.url, published: p.publishedAt, facts: entityOf(candidate, p)?.facts.map((f) => `${f.label}: ${f.value}`) ?? [],
            text: p.text.slice(0, PAGE_CHARS),
          })),
        }),
        signal,
      );
      const verdict = groundVerdict({ ...value, outcome: value.pass ? 'yes' : 'no', rationaleMode: 'llm' }, pages);
      return { verdict, usage };
    },
    async relax(request, { signal }) {
      const { filter } = request;
      const range = dateRangeOf(filter);
      let usage: ReasonerUsage = { calls: 0, inputTokens: 0, outputTokens: 0 };
      // A date range is widened by rule (50 %) before the model is asked to loosen the words.
      if (range && !filter.relaxed) {
        const asOf = typeof filter.spec['asOf'] === 'string' ? new Date(filter.spec['asOf']) : new Date();
        const widened = widenRange(range, asOf, 0.5);
        return { filter: { ...filter, relaxed: true, criterion: `${filter.criterion} Loosened: date range widened by 50%, now ${describeRange(widened)}.`, spec: { ...filter.spec, dateRange: widened } }, usage };
      }
      const reply = await chat.complete(
        'loosened_filter', RelaxReply,
        'This funnel filter keeps almost nobody. Loosen it slightly (a city to its country, a funding stage to any funding, a sector to its broader field). Return null when it cannot be loosened further.',
        JSON.stringify({ plan: request.plan.summary, title: filter.title, criterion: filter.criterion }),
        signal,
      );
      usage = add(usage, reply.usage);
      if (!reply.value.loosened) return { filter: null, usage };
      return { filter: { ...filter, ...reply.value.loosened, relaxed: true }, usage };
    },
  };
}
