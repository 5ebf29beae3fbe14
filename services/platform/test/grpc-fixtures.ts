import type * as wire from '@leadfinder/wire';

/** Wire payloads exercising every field, with both null and non-null variants of nullable ones. */

export const searchRequest: wire.SearchRequest = {
  query: 'fintech startups Berlin seed round', domains: ['techcrunch.com', 'sifted.eu'], publishedAfter: '2025-01-01', page: 2, limit: 20,
};
export const searchRequestNoFloor: wire.SearchRequest = { query: 'ü café 東京', domains: [], publishedAfter: null, page: 1, limit: 50 };

export const searchResponse: wire.SearchResponse = {
  hits: [
    { url: 'https://sifted.eu/a', title: 'Seed round', snippet: 'raised €2m', publishedAt: '2025-03-04', provider: 'searxng', rank: 1 },
    { url: 'https://example.org/b', title: '', snippet: '', publishedAt: null, provider: 'corpus', rank: 2 },
  ],
};

export const page: wire.FetchedPage = {
  url: 'https://sifted.eu/a', finalUrl: 'https://sifted.eu/a?x=1', status: 200, contentType: 'text/html; charset=utf-8',
  title: 'Acme raises', text: 'Acme GmbH raised €2m. It hires engineers.', publishedAt: '2025-03-04T10:00:00Z',
  passages: ['Acme GmbH raised €2m.', 'It hires engineers.'], fetchedAt: '2025-06-01T12:00:00.000Z',
};
export const pageUndated: wire.FetchedPage = { ...page, url: 'https://x.test/', finalUrl: 'https://x.test/', publishedAt: null, passages: [] };

export const fetchOk: wire.FetchOutcome = { ok: true, page };
export const fetchFailed: Extract<wire.FetchOutcome, { ok: false }> = { ok: false, url: 'http://10.0.0.1/', code: 'private_address', reason: 'refused: private address' };

export const usage: wire.ReasonerUsage = { calls: 2, inputTokens: 1234, outputTokens: 56 };
export const noUsage: wire.ReasonerUsage = { calls: 0, inputTokens: 0, outputTokens: 0 };

export const filter: wire.FunnelFilter = {
  index: 1, title: 'Raised recently', criterion: 'Raised a seed round in the last 6 months',
  spec: { kind: 'event', terms: ['raised', 'seed'], bounds: { from: '2025-01-01', to: null }, weight: 0.5, strict: true },
  relaxed: false,
};
export const filterEmptySpec: wire.FunnelFilter = { index: 2, title: 'Hiring', criterion: 'Is hiring', spec: {}, relaxed: true };

export const plan: wire.ResearchPlan = {
  entityType: 'music_video', filters: [filter, filterEmptySpec], queries: ['a', 'b'],
  dateRange: { from: '2025-01-01', to: '2025-03-31', phrase: 'in Q1 2025' },
  sites: { domains: ['youtube.com'], pageTypes: ['video'] }, summary: 'music videos',
};
export const planOpen: wire.ResearchPlan = {
  ...plan, entityType: 'company', dateRange: { from: '2025-01-01', to: null, phrase: 'last 6 months' },
};
export const planNoDates: wire.ResearchPlan = { ...plan, entityType: 'news', dateRange: null, sites: { domains: [], pageTypes: [] } };

export const candidate: wire.Candidate = {
  key: 'acme.com', name: 'Acme GmbH', entityType: 'company', details: 'Berlin fintech', intentSignal: 'hiring',
  discoveryRationale: 'named on sifted', sourceUrls: ['https://sifted.eu/a'],
  passages: [
    { text: 'Acme GmbH raised €2m.', url: 'https://sifted.eu/a', score: 0.87, published: '2025-03-04' },
    { text: 'It hires engineers.', url: 'https://sifted.eu/a', score: 0.25, published: null },
  ],
  domain: 'acme.com', round: 3,
};
export const candidateNoDomain: wire.Candidate = { ...candidate, key: 'beta', domain: null, round: 1, passages: [] };

export const verdict: wire.Verdict = {
  pass: true, rationale: 'It says it raised €2m', rationaleMode: 'rules', verification: 'stated',
  passages: [{ text: 'Acme GmbH raised €2m.', url: 'https://sifted.eu/a' }],
};
export const verdictInferred: wire.Verdict = { pass: false, rationale: 'no date', rationaleMode: 'llm', verification: 'inferred', passages: [] };
