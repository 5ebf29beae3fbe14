/**
 * Runs development-set queries through the real service: one split's fake web (test/support/fake-web.ts
 * serving this set's pages and search index through SearXNG's JSON API), one spawned `leadfinder serve`
 * with LEADFINDER_SEARCH=searxng and the default rule-based reasoner, one query at a time (so each run's
 * grounding evidence is exactly what that run fetched and received), each table scored against its gold set.
 */
import type { ResultRow, RunEvent } from '@leadfinder/wire';
import { startFakeWeb, type FakeWeb } from '../support/fake-web.js';
import { fakeWebEvidence, groundingProblems } from '../support/grounding.js';
import { eventsOf, searchApi } from '../support/search-api.js';
import { createAccount, startServerProcess, type ServerProcess } from '../support/server-process.js';
import { companySite } from './kinds/companies.js';
import { paperSite } from './kinds/papers.js';
import { researcherSite } from './kinds/researchers.js';
import { buildWeb, type Shape, type Split, type WebPage } from './pages.js';
import { goldSet, targetFor, type DevQuery } from './queries.js';
import { loadEntities, type DevEntity } from './records.js';
import { EntityMatcher, scoreQuery, type QueryScore } from './score.js';
import { createDevSearchIndex } from './search-index.js';
import type { KindSite } from './site-model.js';

/** The day pages without a dated record carry (an injected clock: never today's date). */
export const DEVSET_DAY = '2025-06-30';
const ADMIN_TOKEN = 'devset-admin-token-0123456789abcdefghij';

export const KIND_SITES: readonly KindSite[] = [companySite, researcherSite, paperSite];

export interface QueryResult {
  id: string;
  q: string;
  kind: string;
  split: Split;
  target: number;
  status: string;
  seconds: number;
  chargedUsd: number;
  usage: { search_calls: number; pages_opened: number; llm_calls: number } | null;
  gold: { yes: string[]; maybe: string[] };
  /** `why`: each filter's verdict rationale (what a wrong row passed on). */
  rows: { name: string; source_urls: string[]; grounded: boolean; matched: string | null; why: string[] }[];
  score: QueryScore;
  groundingProblems: string[];
  plan: { entity_type: string; filters: { title: string; criterion: string }[]; queries: string[] } | null;
  error: string | null;
  /** With `dropped`: candidates the funnel dropped or left unclear, "name: filter — outcome: rationale". */
  dropped?: string[];
}

export interface SplitSummary {
  split: Split;
  queries: number;
  meanPrecision: number;
  meanRecall: number;
  f1: number;
  microPrecision: number;
  microRecall: number;
  rows: number;
  correctRows: number;
  groundedShare: number;
  chargedUsd: number;
  costPerCorrectRow: number | null;
  meanSeconds: number;
  maxSeconds: number;
  notDone: number;
}

export function summarise(split: Split, results: readonly QueryResult[]): SplitSummary {
  const n = Math.max(1, results.length);
  const meanPrecision = results.reduce((s, r) => s + r.score.precision, 0) / n;
  const meanRecall = results.reduce((s, r) => s + r.score.recall, 0) / n;
  const rows = results.reduce((s, r) => s + r.rows.length, 0);
  const correctRows = results.reduce((s, r) => s + r.score.correct.length, 0);
  const counted = results.reduce((s, r) => s + r.score.correct.length + r.score.wrong.length, 0);
  const base = results.reduce((s, r) => s + r.score.recallBase, 0);
  const grounded = results.reduce((s, r) => s + r.rows.filter((row) => row.grounded).length, 0);
  const chargedUsd = results.reduce((s, r) => s + r.chargedUsd, 0);
  return {
    split,
    queries: results.length,
    meanPrecision,
    meanRecall,
    f1: meanPrecision + meanRecall === 0 ? 0 : (2 * meanPrecision * meanRecall) / (meanPrecision + meanRecall),
    microPrecision: counted === 0 ? 0 : correctRows / counted,
    microRecall: base === 0 ? 1 : correctRows / base,
    rows,
    correctRows,
    groundedShare: rows === 0 ? 1 : grounded / rows,
    chargedUsd,
    costPerCorrectRow: correctRows === 0 ? null : chargedUsd / correctRows,
    meanSeconds: results.reduce((s, r) => s + r.seconds, 0) / n,
    maxSeconds: Math.max(0, ...results.map((r) => r.seconds)),
    notDone: results.filter((r) => r.status !== 'done').length,
  };
}

export interface DevWeb {
  split: Split;
  pages: WebPage[];
  entities: DevEntity[];
  web: FakeWeb;
}

/** One split's web, served on loopback. */
export async function startDevWeb(split: Split, entities: DevEntity[] = loadEntities(), shapes?: readonly Shape[]): Promise<DevWeb> {
  const pages = buildWeb(KIND_SITES, entities, { split, day: DEVSET_DAY, ...(shapes ? { shapes } : {}) });
  // Links are served in the loopback form so a page's links lead where they say (as on the real web).
  const web = await startFakeWeb({ index: createDevSearchIndex(pages), rewriteLinks: true });
  return { split, pages, entities, web };
}

export interface RunSplitOptions {
  split: Split;
  queries: readonly DevQuery[];
  /** Per-query limit before the harness gives up waiting. @default 60000 */
  timeoutMs?: number;
  /** Extra environment for the service (e.g. an LLM endpoint). */
  env?: Record<string, string>;
  /** Called after each query. */
  onResult?: (r: QueryResult) => void;
  /** Serve only these of the split's page shapes (default: all of them). */
  shapes?: readonly Shape[];
  /**
   * Ask each run for its near misses and unclear candidates (`near_misses`, `keep_unclear`) and keep them in
   * `dropped`: why a gold entity the run saw did not become a row. Tuning only; the figures of record leave it off.
   */
  dropped?: boolean;
}

function shortRow(row: ResultRow): { name: string; source_urls: string[]; why: string[] } {
  return { name: row.name, source_urls: row.source_urls, why: row.by_filter.map((f) => f.rationale) };
}

function droppedOf(result: unknown): string[] {
  const r = (result ?? {}) as { near_misses?: { name: string; filter: { title: string }; outcome: string; rationale: string }[]; unclear?: { name: string; filter: { title: string }; rationale: string }[] };
  return [
    ...(r.near_misses ?? []).map((n) => `${n.name}: ${n.filter.title} — ${n.outcome}: ${n.rationale}`),
    ...(r.unclear ?? []).map((n) => `${n.name}: ${n.filter.title} — unclear: ${n.rationale}`),
  ];
}

/** Runs `queries` (all of `split`) against that split's web through a freshly started service. */
export async function runSplit(options: RunSplitOptions): Promise<{ results: QueryResult[]; summary: SplitSummary; pages: number }> {
  const entities = loadEntities();
  const matcher = new Map<string, EntityMatcher>();
  const matcherFor = (kind: string) => {
    if (!matcher.has(kind)) matcher.set(kind, new EntityMatcher(entities.filter((e) => e.kind === kind)));
    return matcher.get(kind)!;
  };
  const dev = await startDevWeb(options.split, entities, options.shapes);
  let server: ServerProcess | null = null;
  const results: QueryResult[] = [];
  try {
    server = await startServerProcess({ env: { ...dev.web.resolveEnv, LEADFINDER_ADMIN_TOKEN: ADMIN_TOKEN, ...options.env } });
    const account = await createAccount(server.url, ADMIN_TOKEN, 1000);
    const api = searchApi(server.url, account.apiKey);
    for (const query of options.queries) {
      if (query.split !== options.split) throw new Error(`query ${query.id} belongs to split ${query.split}, not ${options.split}`);
      const gold = goldSet(query, entities);
      const target = targetFor(gold);
      dev.web.resetRequests();
      const started = Date.now();
      let result: QueryResult;
      let id: string | null = null;
      try {
        id = await api.start({ q: query.q, target, ...(options.dropped ? { near_misses: true, keep_unclear: true } : {}) });
        const run = await api.waitTerminal(id, options.timeoutMs ?? 60_000, 100);
        const seconds = (Date.now() - started) / 1000;
        const events: RunEvent[] = await api.events(id, 30_000);
        const usage = eventsOf(events, 'usage').at(-1) ?? null;
        const plan = eventsOf(events, 'plan')[0] ?? null;
        const table = run.result?.table ?? [];
        const evidence = await fakeWebEvidence(dev.web);
        const problems = table.map((row) => groundingProblems([row], evidence));
        const m = matcherFor(query.kind);
        result = {
          id: query.id, q: query.q, kind: query.kind, split: query.split, target, status: run.status, seconds,
          chargedUsd: Number(run.usdDisplay.replace(/^\$/, '')),
          usage: usage ? { search_calls: usage.search_calls, pages_opened: usage.pages_opened, llm_calls: usage.llm_calls } : null,
          gold: { yes: gold.yes.map((e) => e.name), maybe: gold.maybe.map((e) => e.name) },
          rows: table.map((row, i) => ({ ...shortRow(row), grounded: problems[i]!.length === 0, matched: m.match(row)?.name ?? null })),
          score: scoreQuery(table, gold, m, target),
          groundingProblems: problems.flat(),
          plan: plan ? { entity_type: plan.entity_type, filters: plan.filters.map((f) => ({ title: f.title, criterion: f.criterion })), queries: plan.queries } : null,
          error: null,
          ...(options.dropped ? { dropped: droppedOf(run.result) } : {}),
        };
      } catch (error) {
        // A run left going would fetch into the next query's evidence: stop it first.
        if (id) {
          await api.stop(id).catch(() => undefined);
          await api.waitTerminal(id, 10_000, 100).catch(() => undefined);
        }
        const empty = scoreQuery([], gold, matcherFor(query.kind), target);
        result = {
          id: query.id, q: query.q, kind: query.kind, split: query.split, target, status: 'harness-error',
          seconds: (Date.now() - started) / 1000, chargedUsd: 0, usage: null,
          gold: { yes: gold.yes.map((e) => e.name), maybe: gold.maybe.map((e) => e.name) },
          rows: [], score: empty, groundingProblems: [], plan: null, error: String(error),
        };
      }
      results.push(result);
      options.onResult?.(result);
    }
  } catch (error) {
    throw new Error(`${String(error)}${server ? `\nserver output:\n${server.output().slice(-3000)}` : ''}`);
  } finally {
    await server?.stop();
    await dev.web.close();
  }
  return { results, summary: summarise(options.split, results), pages: dev.pages.length };
}

