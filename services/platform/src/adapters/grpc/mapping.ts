import type * as wire from '@leadfinder/wire';
import type * as fetcherMsg from '../../gen/leadfinder/fetcher/v1/fetcher.js';
import { FetchFailureCode } from '../../gen/leadfinder/fetcher/v1/fetcher.js';
import type * as fetcherRpc from '../../gen/leadfinder/fetcher/v1/fetcher_service.js';
import type * as filterMsg from '../../gen/leadfinder/filter/v1/filter.js';
import { EntityType, RationaleMode, Verification, VerdictOutcome } from '../../gen/leadfinder/filter/v1/filter.js';
import type * as filterRpc from '../../gen/leadfinder/filter/v1/filter_service.js';
import { InvalidArgumentError } from '../../errors.js';

/**
 * Wire (zod) types ⇄ generated proto types. `null` on the wire is an absent optional field or an unset
 * message in proto. Proto enums carry an `_UNSPECIFIED` zero that has no wire value: decoding one is an
 * InvalidArgumentError, since only a malformed or newer peer can send it.
 */

// ── enums ────────────────────────────────────────────────────────────────────────────────────────

type EnumObject = Record<string, string | number>;

/** Builds both directions of an enum mapping from the wire literal list: `music_video` ⇄ `ENTITY_TYPE_MUSIC_VIDEO`. */
function enumMapping<W extends string, P extends number>(enumObject: EnumObject, prefix: string, wireValues: readonly W[]) {
  const toProtoMap = new Map<W, P>();
  const toWireMap = new Map<P, W>();
  for (const w of wireValues) {
    const p = enumObject[`${prefix}_${w.toUpperCase()}`];
    if (typeof p !== 'number') throw new Error(`proto enum ${prefix} lacks a value for "${w}"`);
    toProtoMap.set(w, p as P);
    toWireMap.set(p as P, w);
  }
  return {
    toProto: (w: W): P => {
      const p = toProtoMap.get(w);
      if (p === undefined) throw new InvalidArgumentError(`unknown ${prefix.toLowerCase()} "${w}"`, prefix.toLowerCase());
      return p;
    },
    toWire: (p: P): W => {
      const w = toWireMap.get(p);
      if (w === undefined) throw new InvalidArgumentError(`unknown ${prefix.toLowerCase()} value ${p}`, prefix.toLowerCase());
      return w;
    },
  };
}

const entityTypes = enumMapping<wire.EntityType, EntityType>(EntityType, 'ENTITY_TYPE', [
  'company', 'professional', 'researcher', 'product', 'clinician', 'lawyer', 'book', 'paper', 'music_video',
  'exhibition', 'conference', 'freelancer', 'news',
]);
const fetchFailureCodes = enumMapping<wire.FetchFailureCode, FetchFailureCode>(FetchFailureCode, 'FETCH_FAILURE_CODE', [
  'bad_url', 'private_address', 'robots', 'timeout', 'too_large', 'http_status', 'unsupported_type', 'network',
  'too_many_redirects',
]);
const rationaleModes = enumMapping<'llm' | 'rules', RationaleMode>(RationaleMode, 'RATIONALE_MODE', ['llm', 'rules']);
const verifications = enumMapping<'stated' | 'inferred', Verification>(Verification, 'VERIFICATION', ['stated', 'inferred']);

const verdictOutcomes = enumMapping<'yes' | 'no' | 'unclear', VerdictOutcome>(VerdictOutcome, 'VERDICT_OUTCOME', ['yes', 'no', 'unclear']);
const ENTITY_TYPE_NAMES = new Set<string>(['company', 'professional', 'researcher', 'product', 'clinician', 'lawyer', 'book', 'paper', 'music_video', 'exhibition', 'conference', 'freelancer', 'news']);

const opt = (v: string | null): string | undefined => (v === null ? undefined : v);
const nul = (v: string | undefined): string | null => (v === undefined ? null : v);

/** A required sub-message; proto3 lets it be absent, the wire schemas do not. */
function required<T>(value: T | undefined, field: string): T {
  if (value === undefined) throw new InvalidArgumentError(`missing field ${field}`, field);
  return value;
}

// ── fetcher messages ─────────────────────────────────────────────────────────────────────────────

export const searchHit = {
  toProto: (h: wire.SearchHit): fetcherMsg.SearchHit => ({
    url: h.url, title: h.title, snippet: h.snippet, publishedAt: opt(h.publishedAt), provider: h.provider, rank: h.rank,
  }),
  toWire: (h: fetcherMsg.SearchHit): wire.SearchHit => ({
    url: h.url, title: h.title, snippet: h.snippet, publishedAt: nul(h.publishedAt), provider: h.provider, rank: h.rank,
  }),
};

const pageEntity = {
  toProto: (e: wire.PageEntity): fetcherMsg.PageEntity => ({
    name: e.name, kind: opt(e.kind), link: opt(e.link), passage: e.passage, source: e.source,
    facts: e.facts.map((f) => ({ label: f.label, value: f.value, passage: f.passage })),
  }),
  toWire: (e: fetcherMsg.PageEntity): wire.PageEntity => ({
    name: e.name,
    // A kind this peer does not know reads as untyped rather than failing the page.
    kind: e.kind !== undefined && ENTITY_TYPE_NAMES.has(e.kind) ? (e.kind as wire.EntityType) : null,
    link: nul(e.link), passage: e.passage, source: e.source,
    facts: e.facts.map((f) => ({ label: f.label, value: f.value, passage: f.passage })),
  }),
};

const pageModel = {
  toProto: (m: wire.PageModel): fetcherMsg.PageModel => ({
    subject: m.subject ? pageEntity.toProto(m.subject) : undefined,
    items: m.items.map(pageEntity.toProto),
    siteName: opt(m.siteName),
  }),
  toWire: (m: fetcherMsg.PageModel): wire.PageModel => ({
    subject: m.subject ? pageEntity.toWire(m.subject) : null,
    items: m.items.map(pageEntity.toWire),
    siteName: nul(m.siteName),
  }),
};

export const fetchedPage = {
  toProto: (p: wire.FetchedPage): fetcherMsg.FetchedPage => ({
    url: p.url, finalUrl: p.finalUrl, status: p.status, contentType: p.contentType, title: p.title, text: p.text,
    publishedAt: opt(p.publishedAt), passages: p.passages, fetchedAt: p.fetchedAt,
    model: p.model ? pageModel.toProto(p.model) : undefined,
  }),
  toWire: (p: fetcherMsg.FetchedPage): wire.FetchedPage => ({
    url: p.url, finalUrl: p.finalUrl, status: p.status, contentType: p.contentType, title: p.title, text: p.text,
    publishedAt: nul(p.publishedAt), passages: p.passages, fetchedAt: p.fetchedAt,
    ...(p.model ? { model: pageModel.toWire(p.model) } : {}),
  }),
};

export const searchRequest = {
  toProto: (r: wire.SearchRequest): fetcherRpc.SearchRequest => ({ ...r, publishedAfter: opt(r.publishedAfter) }),
  toWire: (r: fetcherRpc.SearchRequest): wire.SearchRequest => ({
    query: r.query, domains: r.domains, publishedAfter: nul(r.publishedAfter), page: r.page, limit: r.limit,
  }),
};

export const searchResponse = {
  toProto: (r: wire.SearchResponse): fetcherRpc.SearchResponse => ({ hits: r.hits.map(searchHit.toProto), more: r.more }),
  toWire: (r: fetcherRpc.SearchResponse): wire.SearchResponse => ({
    hits: r.hits.map(searchHit.toWire),
    ...(r.more === undefined ? {} : { more: r.more }),
  }),
};

export const fetchRequest = {
  toProto: (r: wire.FetchRequest): fetcherRpc.FetchRequest => ({ url: r.url }),
  toWire: (r: fetcherRpc.FetchRequest): wire.FetchRequest => ({ url: r.url }),
};

export const fetchOutcome = {
  toProto: (o: wire.FetchOutcome): fetcherRpc.FetchResponse =>
    o.ok
      ? { outcome: { $case: 'page', value: fetchedPage.toProto(o.page) } }
      : { outcome: { $case: 'failure', value: { url: o.url, code: fetchFailureCodes.toProto(o.code), reason: o.reason } } },
  toWire: (r: fetcherRpc.FetchResponse): wire.FetchOutcome => {
    const outcome = required(r.outcome, 'outcome');
    switch (outcome.$case) {
      case 'page':
        return { ok: true, page: fetchedPage.toWire(outcome.value) };
      case 'failure':
        return { ok: false, url: outcome.value.url, code: fetchFailureCodes.toWire(outcome.value.code), reason: outcome.value.reason };
    }
  },
};

// ── filter messages ──────────────────────────────────────────────────────────────────────────────

/**
 * The generated google.protobuf.Struct code stores fields by assignment, so a `__proto__` key would set
 * a prototype instead of travelling: refuse it rather than lose it silently.
 */
function assertPlainKeys(value: unknown, path: string): void {
  if (Array.isArray(value)) value.forEach((v, i) => assertPlainKeys(v, `${path}[${i}]`));
  else if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) {
      if (key === '__proto__') throw new InvalidArgumentError(`${path} has a "__proto__" key, which cannot be sent`, path);
      assertPlainKeys((value as Record<string, unknown>)[key], `${path}.${key}`);
    }
  }
}

export const funnelFilter = {
  toProto: (f: wire.FunnelFilter): filterMsg.FunnelFilter => {
    assertPlainKeys(f.spec, 'filter.spec');
    return { index: f.index, title: f.title, criterion: f.criterion, spec: f.spec, relaxed: f.relaxed };
  },
  toWire: (f: filterMsg.FunnelFilter): wire.FunnelFilter => ({
    index: f.index, title: f.title, criterion: f.criterion, spec: (f.spec ?? {}) as Record<string, unknown>, relaxed: f.relaxed,
  }),
};

export const researchPlan = {
  toProto: (p: wire.ResearchPlan): filterMsg.ResearchPlan => ({
    entityType: entityTypes.toProto(p.entityType),
    filters: p.filters.map(funnelFilter.toProto),
    queries: p.queries,
    dateRange: p.dateRange === null ? undefined : { from: p.dateRange.from, to: opt(p.dateRange.to), phrase: p.dateRange.phrase },
    sites: { domains: p.sites.domains, pageTypes: p.sites.pageTypes },
    summary: p.summary,
    notes: p.notes ?? [],
  }),
  toWire: (p: filterMsg.ResearchPlan | undefined): wire.ResearchPlan => {
    const plan = required(p, 'plan');
    const sites = required(plan.sites, 'plan.sites');
    return {
      entityType: entityTypes.toWire(plan.entityType),
      filters: plan.filters.map(funnelFilter.toWire),
      queries: plan.queries,
      dateRange: plan.dateRange === undefined
        ? null
        : { from: plan.dateRange.from, to: nul(plan.dateRange.to), phrase: plan.dateRange.phrase },
      sites: { domains: sites.domains, pageTypes: sites.pageTypes },
      summary: plan.summary,
      ...(plan.notes.length > 0 ? { notes: plan.notes } : {}),
    };
  },
};

export const reasonerUsage = {
  toProto: (u: wire.ReasonerUsage): filterMsg.ReasonerUsage => ({ ...u }),
  // An absent usage is a zero usage (the rule-based reasoner spends nothing).
  toWire: (u: filterMsg.ReasonerUsage | undefined): wire.ReasonerUsage =>
    ({ calls: u?.calls ?? 0, inputTokens: u?.inputTokens ?? 0, outputTokens: u?.outputTokens ?? 0 }),
};

export const candidate = {
  toProto: (c: wire.Candidate): filterMsg.Candidate => ({
    key: c.key, name: c.name, entityType: entityTypes.toProto(c.entityType), details: c.details,
    intentSignal: c.intentSignal, discoveryRationale: c.discoveryRationale, sourceUrls: c.sourceUrls,
    passages: c.passages.map((p) => ({ text: p.text, url: p.url, score: p.score, published: opt(p.published) })),
    domain: opt(c.domain), round: c.round, lead: opt(c.lead ?? null),
  }),
  toWire: (c: filterMsg.Candidate | undefined): wire.Candidate => {
    const v = required(c, 'candidate');
    return {
      key: v.key, name: v.name, entityType: entityTypes.toWire(v.entityType), details: v.details,
      intentSignal: v.intentSignal, discoveryRationale: v.discoveryRationale, sourceUrls: v.sourceUrls,
      passages: v.passages.map((p) => ({ text: p.text, url: p.url, score: p.score, published: nul(p.published) })),
      domain: nul(v.domain), round: v.round, ...(v.lead !== undefined ? { lead: v.lead } : {}),
    };
  },
};

export const verdict = {
  toProto: (v: wire.Verdict): filterMsg.Verdict => ({
    pass: v.pass, rationale: v.rationale, rationaleMode: rationaleModes.toProto(v.rationaleMode),
    verification: verifications.toProto(v.verification), passages: v.passages.map((p) => ({ text: p.text, url: p.url })),
    outcome: v.outcome ? verdictOutcomes.toProto(v.outcome) : VerdictOutcome.VERDICT_OUTCOME_UNSPECIFIED,
  }),
  toWire: (v: filterMsg.Verdict | undefined): wire.Verdict => {
    const d = required(v, 'verdict');
    return {
      pass: d.pass, rationale: d.rationale, rationaleMode: rationaleModes.toWire(d.rationaleMode),
      verification: verifications.toWire(d.verification), passages: d.passages.map((p) => ({ text: p.text, url: p.url })),
      ...(d.outcome === VerdictOutcome.VERDICT_OUTCOME_UNSPECIFIED ? {} : { outcome: verdictOutcomes.toWire(d.outcome) }),
    };
  },
};

// ── filter RPC requests and responses ────────────────────────────────────────────────────────────

export const planRequest = {
  toProto: (r: wire.PlanRequest): filterRpc.PlanRequest => ({ query: r.query, now: r.now, sites: r.sites }),
  toWire: (r: filterRpc.PlanRequest): wire.PlanRequest => ({ query: r.query, now: r.now, sites: r.sites }),
};
export const planResponse = {
  toProto: (r: wire.PlanResponse): filterRpc.PlanResponse =>
    ({ plan: researchPlan.toProto(r.plan), usage: reasonerUsage.toProto(r.usage) }),
  toWire: (r: filterRpc.PlanResponse): wire.PlanResponse =>
    ({ plan: researchPlan.toWire(r.plan), usage: reasonerUsage.toWire(r.usage) }),
};

export const queriesRequest = {
  toProto: (r: wire.QueriesRequest): filterRpc.QueriesRequest =>
    ({ plan: researchPlan.toProto(r.plan), round: r.round, used: r.used, productiveSites: r.productiveSites ?? [] }),
  toWire: (r: filterRpc.QueriesRequest): wire.QueriesRequest =>
    ({ plan: researchPlan.toWire(r.plan), round: r.round, used: r.used, ...(r.productiveSites.length > 0 ? { productiveSites: r.productiveSites } : {}) }),
};
export const queriesResponse = {
  toProto: (r: wire.QueriesResponse): filterRpc.QueriesResponse => ({ queries: r.queries, usage: reasonerUsage.toProto(r.usage) }),
  toWire: (r: filterRpc.QueriesResponse): wire.QueriesResponse => ({ queries: r.queries, usage: reasonerUsage.toWire(r.usage) }),
};

export const screenRequest = {
  toProto: (r: wire.ScreenRequest): filterRpc.ScreenRequest =>
    ({ plan: researchPlan.toProto(r.plan), hits: r.hits.map(searchHit.toProto) }),
  toWire: (r: filterRpc.ScreenRequest): wire.ScreenRequest =>
    ({ plan: researchPlan.toWire(r.plan), hits: r.hits.map(searchHit.toWire) }),
};
export const screenResponse = {
  toProto: (r: wire.ScreenResponse): filterRpc.ScreenResponse =>
    ({ scores: r.scores.map((s) => ({ ...s })), usage: reasonerUsage.toProto(r.usage) }),
  toWire: (r: filterRpc.ScreenResponse): wire.ScreenResponse =>
    ({ scores: r.scores.map((s) => ({ url: s.url, score: s.score, pass: s.pass })), usage: reasonerUsage.toWire(r.usage) }),
};

export const extractRequest = {
  toProto: (r: wire.ExtractRequest): filterRpc.ExtractRequest =>
    ({ plan: researchPlan.toProto(r.plan), page: fetchedPage.toProto(r.page), round: r.round }),
  toWire: (r: filterRpc.ExtractRequest): wire.ExtractRequest =>
    ({ plan: researchPlan.toWire(r.plan), page: fetchedPage.toWire(required(r.page, 'page')), round: r.round }),
};
export const extractResponse = {
  toProto: (r: wire.ExtractResponse): filterRpc.ExtractResponse =>
    ({ candidates: r.candidates.map(candidate.toProto), usage: reasonerUsage.toProto(r.usage) }),
  toWire: (r: filterRpc.ExtractResponse): wire.ExtractResponse =>
    ({ candidates: r.candidates.map(candidate.toWire), usage: reasonerUsage.toWire(r.usage) }),
};

export const verifyRequest = {
  toProto: (r: wire.VerifyRequest): filterRpc.VerifyRequest => ({
    plan: researchPlan.toProto(r.plan), filter: funnelFilter.toProto(r.filter), candidate: candidate.toProto(r.candidate),
    pages: r.pages.map(fetchedPage.toProto),
  }),
  toWire: (r: filterRpc.VerifyRequest): wire.VerifyRequest => ({
    plan: researchPlan.toWire(r.plan), filter: funnelFilter.toWire(required(r.filter, 'filter')),
    candidate: candidate.toWire(r.candidate), pages: r.pages.map(fetchedPage.toWire),
  }),
};
export const verifyResponse = {
  toProto: (r: wire.VerifyResponse): filterRpc.VerifyResponse => ({ verdict: verdict.toProto(r.verdict), usage: reasonerUsage.toProto(r.usage) }),
  toWire: (r: filterRpc.VerifyResponse): wire.VerifyResponse => ({ verdict: verdict.toWire(r.verdict), usage: reasonerUsage.toWire(r.usage) }),
};

export const relaxRequest = {
  toProto: (r: wire.RelaxRequest): filterRpc.RelaxRequest => ({ plan: researchPlan.toProto(r.plan), filter: funnelFilter.toProto(r.filter) }),
  toWire: (r: filterRpc.RelaxRequest): wire.RelaxRequest =>
    ({ plan: researchPlan.toWire(r.plan), filter: funnelFilter.toWire(required(r.filter, 'filter')) }),
};
export const relaxResponse = {
  toProto: (r: wire.RelaxResponse): filterRpc.RelaxResponse =>
    ({ filter: r.filter === null ? undefined : funnelFilter.toProto(r.filter), usage: reasonerUsage.toProto(r.usage) }),
  toWire: (r: filterRpc.RelaxResponse): wire.RelaxResponse =>
    ({ filter: r.filter === undefined ? null : funnelFilter.toWire(r.filter), usage: reasonerUsage.toWire(r.usage) }),
};
