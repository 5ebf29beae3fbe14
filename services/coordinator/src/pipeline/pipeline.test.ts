import { filterWhere, formatWhere, roundWhere, type Candidate, type ResearchPlan, type ScreenScore, type SearchHit, type Verdict } from '@leadfinder/wire';
import { describe, expect, it } from 'vitest';
import { CandidatePool, mergeCandidate } from './merge.js';
import { llmCallPriceMicrousd, SpendMeter, spendCapMicrousd, type Prices } from './pricing.js';
import { relaxThreshold, shouldRelax } from './relax.js';
import { RunState } from './run-state.js';
import { buildRow, truncateRows, verdictEntry } from './rows.js';
import { cursorsAfterRound, roundSearches } from './search-plan.js';
import { selectPagesToOpen, uniqueHits } from './selection.js';
import { terminalDecision } from './tail.js';

const hit = (url: string): SearchHit => ({ url, title: url, snippet: '', publishedAt: null, provider: 'x', rank: 1 });
const score = (url: string, s: number, pass = s >= 0.5): ScreenScore => ({ url, score: s, pass });
const candidate = (key: string, fields: Partial<Candidate> = {}): Candidate => ({
  key, name: key, entityType: 'company', details: 'd', intentSignal: 'i', discoveryRationale: `found ${key}`,
  sourceUrls: [`http://${key}.test/`], passages: [{ text: `${key} text`, url: `http://${key}.test/`, score: 1, published: null }],
  domain: null, round: 1, ...fields,
});
const prices: Prices = { searchMicrousd: 5_000, pageMicrousd: 1_000, llmInputMicrousdPerMtok: 150_000, llmOutputMicrousdPerMtok: 600_000 };

describe('page selection', () => {
  const hits = ['a', 'b', 'c', 'd', 'e'].map((x) => hit(`http://${x}.test/`));
  const scores = [score('http://a.test/', 0.6), score('http://b.test/', 0.9), score('http://c.test/', 0.2), score('http://d.test/', 0.7), score('http://e.test/', 0.55)];

  it('advanced opens every page that passed, best score first', () => {
    expect(selectPagesToOpen(hits, scores, 'advanced', new Set())).toEqual(['http://b.test/', 'http://d.test/', 'http://a.test/', 'http://e.test/']);
  });
  it('fast opens the highest-scoring half, rounded up', () => {
    expect(selectPagesToOpen(hits, scores, 'fast', new Set())).toEqual(['http://b.test/', 'http://d.test/']);
    expect(selectPagesToOpen(hits.slice(0, 1), [score('http://a.test/', 0.6)], 'fast', new Set())).toEqual(['http://a.test/']);
    expect(selectPagesToOpen(hits.slice(0, 3), scores, 'fast', new Set())).toEqual(['http://b.test/']);
  });
  it('skips pages already opened in this run without widening the fast half', () => {
    expect(selectPagesToOpen(hits, scores, 'fast', new Set(['http://b.test/']))).toEqual(['http://d.test/']);
  });
  it('drops hits that have no score or did not pass', () => {
    expect(selectPagesToOpen(hits, [score('http://a.test/', 0.9, false)], 'advanced', new Set())).toEqual([]);
  });
  it('keeps each URL once across the queries of a round', () => {
    expect(uniqueHits([hit('http://a.test/'), hit('http://b.test/'), hit('http://a.test/')]).map((h) => h.url)).toEqual(['http://a.test/', 'http://b.test/']);
  });
});

describe('searches of a round', () => {
  const cursor = (query: string, lastPage: number, more: boolean) => ({ query, lastPage, more });

  it('searches the planned queries at page 1, each once, blank ones dropped', () => {
    expect(roundSearches({ proposed: ['a', ' b ', 'a', '  '], cursors: [], maxPage: 5 })).toEqual([
      { query: 'a', page: 1 }, { query: 'b', page: 1 },
    ]);
  });
  it('adds the next page of every earlier query whose last page was full, after the fresh queries', () => {
    const cursors = [cursor('a', 1, true), cursor('b', 1, false), cursor('c', 2, true)];
    expect(roundSearches({ proposed: ['d', 'a'], cursors, maxPage: 5 })).toEqual([
      { query: 'd', page: 1 }, { query: 'a', page: 2 }, { query: 'c', page: 3 },
    ]);
  });
  it('never reads a query past maxPage, and is exhausted when nothing is fresh or deeper', () => {
    expect(roundSearches({ proposed: ['a'], cursors: [cursor('a', 3, true)], maxPage: 3 })).toEqual([]);
    expect(roundSearches({ proposed: [], cursors: [cursor('a', 1, false)], maxPage: 5 })).toEqual([]);
  });
  describe('after the round', () => {
    const answer = (query: string, page: number, urls: string[]) => ({ call: { query, page }, hits: urls.map((url) => ({ url })) });
    const cursors = (answers: ReturnType<typeof answer>[], passed: string[], seenBefore: string[] = []) =>
      cursorsAfterRound({ answers, yieldingUrls: new Set(passed), seenBefore: new Set(seenBefore), limit: 2 });

    it('reads further a query whose full page brought a new hit that became a row', () => {
      expect(cursors([answer('a', 1, ['u1', 'u2'])], ['u2'])).toEqual([{ query: 'a', lastPage: 1, more: true }]);
    });
    it('reads a short page as the query\'s last', () => {
      expect(cursors([answer('a', 3, ['u1'])], ['u1'])).toEqual([{ query: 'a', lastPage: 3, more: false }]);
    });
    it('stops a query whose page brought no row, or only hits found before', () => {
      expect(cursors([answer('a', 1, ['u1', 'u2'])], [])).toEqual([{ query: 'a', lastPage: 1, more: false }]);
      expect(cursors([answer('a', 2, ['u1', 'u2'])], ['u1'], ['u1'])).toEqual([{ query: 'a', lastPage: 2, more: false }]);
      // u1 is credited to the first call of the round that found it.
      expect(cursors([answer('a', 1, ['u1', 'u2']), answer('b', 1, ['u1', 'u3'])], ['u1'])).toEqual([
        { query: 'a', lastPage: 1, more: true }, { query: 'b', lastPage: 1, more: false },
      ]);
    });
  });
});

describe('relax rule', () => {
  const base = { relaxEnabled: true, alreadyTried: false, inputCount: 30, passedCount: 2, rowsSoFar: 0, target: 10 };
  it('relaxes when fewer than max(1, ceil(10 %)) passed and rows are short of the target', () => {
    expect(relaxThreshold(30)).toBe(3);
    expect(relaxThreshold(5)).toBe(1);
    expect(shouldRelax(base)).toBe(true);
    expect(shouldRelax({ ...base, passedCount: 3 })).toBe(false);
    expect(shouldRelax({ ...base, inputCount: 5, passedCount: 0 })).toBe(true);
    expect(shouldRelax({ ...base, inputCount: 5, passedCount: 1 })).toBe(false);
  });
  it('never relaxes when relax is off, already tried, nothing came in, or the target is reached', () => {
    expect(shouldRelax({ ...base, relaxEnabled: false })).toBe(false);
    expect(shouldRelax({ ...base, alreadyTried: true })).toBe(false);
    expect(shouldRelax({ ...base, inputCount: 0, passedCount: 0 })).toBe(false);
    expect(shouldRelax({ ...base, rowsSoFar: 10 })).toBe(false);
  });
});

describe('merging candidates', () => {
  it('unions sources and passages of the same key, keeping the first fields and earliest round', () => {
    const merged = mergeCandidate(candidate('acme', { round: 2 }), candidate('acme', {
      name: 'ACME', round: 1, sourceUrls: ['http://other.test/', 'http://acme.test/'],
      passages: [{ text: 'acme text', url: 'http://acme.test/', score: 1, published: null }, { text: 'more', url: 'http://other.test/', score: 0.5, published: null }],
    }));
    expect(merged.name).toBe('acme');
    expect(merged.round).toBe(1);
    expect(merged.sourceUrls).toEqual(['http://acme.test/', 'http://other.test/']);
    expect(merged.passages.map((p) => p.text)).toEqual(['acme text', 'more']);
  });
  it('treats two keys with the same domain as one entity and reports only new entities', () => {
    const pool = new CandidatePool();
    expect(pool.add([candidate('acme', { domain: 'acme.com' }), candidate('beta')])).toEqual(['acme', 'beta']);
    expect(pool.add([candidate('acme-gmbh', { domain: 'ACME.com' }), candidate('beta'), candidate('gamma')])).toEqual(['gamma']);
    expect(pool.size).toBe(3);
    expect(pool.get('acme')!.sourceUrls).toEqual(['http://acme.test/', 'http://acme-gmbh.test/']);
    // Same name, another own domain: another entity, under its own key.
    expect(pool.add([candidate('beta', { domain: 'beta.io' }), candidate('beta', { domain: 'beta.org' })])).toEqual(['beta@beta.org']);
    expect(pool.get('beta')!.domain).toBe('beta.io');
    expect(pool.get('beta@beta.org')!.key).toBe('beta@beta.org');
    expect(pool.add([candidate('beta@beta.org', { sourceUrls: ['http://fourth.test/'] })])).toEqual([]);
    // The merged key now resolves to the same entity too.
    pool.add([candidate('acme-gmbh', { sourceUrls: ['http://third.test/'] })]);
    expect(pool.get('acme')!.sourceUrls).toContain('http://third.test/');
  });
});

describe('rows', () => {
  const verdict = (rationale: string): Verdict => ({ pass: true, rationale, rationaleMode: 'rules', verification: 'stated', passages: [{ text: 't', url: 'http://acme.test/' }] });
  it('carries the latest filter rationale and one by_filter entry per filter', () => {
    const row = buildRow(candidate('acme'), [verdictEntry({ index: 1, title: 'A' }, verdict('first'), false), verdictEntry({ index: 2, title: 'B' }, verdict('second'), false)], 2);
    expect(row).toMatchObject({ name: 'acme', rationale: 'second', status: 'passed', round: 2, source_urls: ['http://acme.test/'] });
    expect(row.by_filter).toEqual([
      { index: 1, title: 'A', rationale: 'first', rationale_mode: 'rules', verification: 'stated', relaxed: false, passages: [{ text: 't', url: 'http://acme.test/' }] },
      { index: 2, title: 'B', rationale: 'second', rationale_mode: 'rules', verification: 'stated', relaxed: false, passages: [{ text: 't', url: 'http://acme.test/' }] },
    ]);
    expect('relaxed' in row).toBe(false);
  });
  it('lists the loosened filters a row needed', () => {
    const row = buildRow(candidate('acme'), [verdictEntry({ index: 1, title: 'A' }, verdict('x'), false), verdictEntry({ index: 2, title: 'Hiring' }, verdict('y'), true)], 1);
    expect(row.relaxed).toEqual(['Hiring']);
  });
  it('never returns more than target rows', () => {
    expect(truncateRows([1, 2, 3, 4], 3)).toEqual([1, 2, 3]);
    expect(truncateRows([1], 3)).toEqual([1]);
  });
});

describe('pricing', () => {
  it('rounds each token kind up per call', () => {
    expect(llmCallPriceMicrousd({ calls: 1, inputTokens: 1000, outputTokens: 500 }, prices)).toBe(150 + 300);
    expect(llmCallPriceMicrousd({ calls: 1, inputTokens: 1, outputTokens: 1 }, prices)).toBe(2);
    expect(llmCallPriceMicrousd({ calls: 0, inputTokens: 0, outputTokens: 0 }, prices)).toBe(0);
  });
  it('caps spend at the lower of ceiling and hold', () => {
    expect(spendCapMicrousd(5_000_000, 5_000_000)).toBe(5_000_000);
    expect(spendCapMicrousd(10_000, 5_000_000)).toBe(10_000);
    expect(spendCapMicrousd(10_000_000, 5_000_000)).toBe(5_000_000);
  });
  it('refuses a known-price step that would cross the cap and clamps an LLM call that overshoots', () => {
    const meter = new SpendMeter(11_000, prices);
    expect(meter.canAffordSearch()).toBe(true);
    meter.recordSearch();
    meter.recordSearch();
    expect(meter.canAffordPage()).toBe(true);
    expect(meter.canAffordSearch()).toBe(false);
    expect(meter.recordLlm({ calls: 1, inputTokens: 10_000, outputTokens: 0 })).toBe(false);
    expect(meter.spendMicrousd).toBe(11_000);
    // The dearest call so far now predicts the next one.
    expect(meter.canAffordLlmCall()).toBe(false);
    expect(meter.usage).toEqual({ searchCalls: 2, pagesOpened: 0, llmCalls: 1, inputTokens: 10_000, outputTokens: 0 });
  });
});

describe('terminal tails', () => {
  const base = { rows: [], target: 2, filters: [{ index: 1, title: 'A', criterion: 'a' }], where: 'round 1 · screening', chargeMicrousd: 12_345, usage: { searchCalls: 1, pagesOpened: 2, llmCalls: 3, inputTokens: 4, outputTokens: 5 } };
  it('follows spec §6 for every outcome', () => {
    const types = (kind: Parameters<typeof terminalDecision>[0]['outcome']) => terminalDecision({ ...base, outcome: kind }).events.map((e) => e.type);
    expect(types({ kind: 'done' })).toEqual(['final', 'cost', 'usage', 'done']);
    expect(types({ kind: 'error', message: 'x' })).toEqual(['error', 'cost', 'usage', 'done']);
    expect(types({ kind: 'stopped' })).toEqual(['final', 'cost', 'usage', 'done']);
    const stages = (['done', 'stopped', 'budget_exhausted', 'deadline'] as const).map((kind) => terminalDecision({ ...base, outcome: { kind } }).events[1]);
    expect(stages).toEqual(['Done', 'Stopped', 'Budget exhausted', 'Interrupted'].map((stage) => ({ type: 'cost', stage, usd: 0.012345 })));
  });
  it('marks early ends stopped with the stage and a done(stopped) event; deadline ends interrupted', () => {
    const d = terminalDecision({ ...base, outcome: { kind: 'deadline' } });
    expect(d.status).toBe('interrupted');
    expect(d.stopReason).toBe('deadline');
    expect(d.events[0]).toMatchObject({ type: 'final', stopped: true, stopped_at: 'round 1 · screening', met: false });
    expect(d.events[3]).toEqual({ type: 'done', stopped: true });
    const done = terminalDecision({ ...base, outcome: { kind: 'done' } });
    expect(done.events[0]).toMatchObject({ stopped: false, stopped_at: null });
    expect(done.events[3]).toEqual({ type: 'done' });
  });
});

describe('where', () => {
  it('names round steps and funnel filters', () => {
    expect(formatWhere(roundWhere(2, 'opening pages'))).toBe('round 2 · opening pages');
    expect(formatWhere(filterWhere(1, 3, 4))).toBe('round 1 · filter 3 of 4');
  });
});

describe('run state', () => {
  const filter = (index: number, title: string) => ({ index, title, criterion: `${title} holds`, spec: {}, relaxed: false });
  const plan = (): ResearchPlan => ({
    entityType: 'company', filters: [filter(1, 'In Berlin'), filter(2, 'Hiring')], queries: ['q'], dateRange: null,
    sites: { domains: [], pageTypes: [] }, summary: 'companies',
  });

  it('offers Relax one turn per filter, only when the rule says so over the run\'s tally', () => {
    const state = new RunState(5);
    state.setPlan(plan());
    state.countFilterPass(0, 20, 10);
    expect(state.takeRelaxTurn(0, true)).toBe(false); // half passed: no reason to loosen
    state.countFilterPass(1, 20, 1);
    expect(state.takeRelaxTurn(1, false)).toBe(false); // relax off
    expect(state.takeRelaxTurn(1, true)).toBe(true);
    expect(state.takeRelaxTurn(1, true)).toBe(false); // asked once per run
  });

  it('counts each candidate once per filter by its latest verdict, so a candidate judged again is not counted twice', () => {
    const state = new RunState(5);
    state.setPlan(plan());
    // Round 1: a and b pass "In Berlin", c is unclear there; "Hiring" leaves a unclear and drops b.
    state.countFunnel(0, new Map([['a', 'passed'], ['b', 'passed'], ['c', 'unclear']] as const));
    expect(state.countFunnel(1, new Map([['a', 'unclear'], ['b', 'no']] as const))).toEqual({ in: 2, passed: 0, dropped: 2, unclear: 1 });
    // a's own page settles "Hiring"; c's settles "In Berlin" and then leaves "Hiring" unclear; b, judged
    // again, is no longer in Berlin: it did not reach "Hiring" as it now stands.
    expect(state.countFunnel(0, new Map([['c', 'passed'], ['b', 'no']] as const))).toEqual({ in: 3, passed: 2, dropped: 1, unclear: 0 });
    expect(state.countFunnel(1, new Map([['a', 'passed'], ['c', 'unclear']] as const))).toEqual({ in: 2, passed: 1, dropped: 1, unclear: 1 });
  });

  it('keeps a loosened filter in place of its original for the rest of the run, under the original index', () => {
    const state = new RunState(5);
    state.setPlan(plan());
    const loosened = state.loosen(1, { ...filter(9, 'Hiring or growing'), criterion: 'hiring or growing' });
    expect(loosened).toMatchObject({ index: 2, relaxed: true, criterion: 'hiring or growing' });
    expect(state.filterAt(1)).toEqual({ current: loosened, original: filter(2, 'Hiring') });
    expect(state.descriptors().map((d) => d.criterion)).toEqual(['In Berlin holds', 'hiring or growing']);
    expect(state.filterCount).toBe(2);
  });

  it('remembers opened URLs and their pages, unclear candidates until cleared, and domain searches once', () => {
    const state = new RunState(5);
    const page = { url: 'http://a.test/', finalUrl: 'http://a.test/home', status: 200, contentType: 'text/html', title: 't', text: 'x', publishedAt: null, passages: [], fetchedAt: '2030-01-01T00:00:00.000Z' };
    state.recordOpened('http://a.test/', page);
    state.recordOpened('http://b.test/', null);
    expect([...state.openedUrls]).toEqual(['http://a.test/', 'http://b.test/']);
    expect(state.pagesFor(['http://a.test/home', 'http://b.test/'])).toEqual([page]);
    state.markUnclear('acme');
    state.markUnclear('beta');
    expect(state.unclearKeys()).toEqual(['acme', 'beta']);
    state.clearUnclear();
    expect(state.unclearKeys()).toEqual([]);
    expect([state.takeDomainSearch('acme'), state.takeDomainSearch('acme')]).toEqual([true, false]);
    expect(state.where).toBe('queued');
    expect(() => state.plan).toThrow('no plan');
  });

  it('keeps candidates standing unclear in line for a name search across rounds, earlier ones first, until searched, passed or ruled out', () => {
    const state = new RunState(5);
    state.setPlan(plan());
    const drop = (key: string, outcome: 'no' | 'unclear') =>
      state.recordDrop(key, { filter: { index: 2, title: 'Hiring' }, rationale: 'r', passages: [] }, { position: 1, outcome, recoveredIfLoosened: null });
    drop('acme', 'unclear');
    drop('beta', 'unclear');
    drop('gamma', 'no');
    // Round 1 searched acme's name only (its share of name searches was one).
    expect(state.takeNameSearch('acme')).toBe(true);
    // Round 2: delta is new and unclear; beta, left over, waits first; then beta's own page rules it out.
    drop('delta', 'unclear');
    expect(state.unclearAwaitingNameSearch()).toEqual(['beta', 'delta']);
    drop('beta', 'no');
    state.addPassed('delta', [], 2);
    expect(state.unclearAwaitingNameSearch()).toEqual([]);
  });
});
