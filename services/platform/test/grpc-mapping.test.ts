import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { FetchResponse, SearchRequest as SearchRequestMsg, SearchResponse as SearchResponseMsg } from '../src/gen/leadfinder/fetcher/v1/fetcher_service.js';
import {
  ExtractRequest, PlanResponse, QueriesRequest, RelaxResponse, ScreenRequest, VerifyRequest, VerifyResponse,
} from '../src/gen/leadfinder/filter/v1/filter_service.js';
import { FunnelFilter as FunnelFilterMsg } from '../src/gen/leadfinder/filter/v1/filter.js';
import * as map from '../src/adapters/grpc/mapping.js';
import { InvalidArgumentError } from '../src/errors.js';
import * as fx from './grpc-fixtures.js';

/** Wire → proto → bytes → proto → wire, as a message really travels. */
function viaBytes<W, P>(mapping: { toProto(w: W): P; toWire(p: P): W }, codec: { encode(p: P): { finish(): Uint8Array }; decode(b: Uint8Array): P }, value: W): W {
  return mapping.toWire(codec.decode(codec.encode(mapping.toProto(value)).finish()));
}

describe('wire ⇄ proto mapping', () => {
  test('search requests and responses survive encoding, null publish floors included', () => {
    expect(viaBytes(map.searchRequest, SearchRequestMsg, fx.searchRequest)).toEqual(fx.searchRequest);
    expect(viaBytes(map.searchRequest, SearchRequestMsg, fx.searchRequestNoFloor)).toEqual(fx.searchRequestNoFloor);
    expect(viaBytes(map.searchResponse, SearchResponseMsg, fx.searchResponse)).toEqual(fx.searchResponse);
  });

  test("a provider's 'more pages' answer and a plan's notes survive encoding (absent stays absent)", () => {
    for (const more of [true, false]) {
      expect(viaBytes(map.searchResponse, SearchResponseMsg, { ...fx.searchResponse, more })).toEqual({ ...fx.searchResponse, more });
    }
    const noted = { ...fx.plan, notes: ['Could not read "in the spring" as a date range; searching without it.'] };
    const viaPlan = (plan: typeof fx.plan) => viaBytes(map.planResponse, PlanResponse, { plan, usage: { calls: 0, inputTokens: 0, outputTokens: 0 } }).plan;
    expect(viaPlan(noted)).toEqual(noted);
    expect(viaPlan(fx.plan)).toEqual(fx.plan);
  });

  test('both fetch outcomes survive encoding: an opened page and a refusal with its code', () => {
    expect(viaBytes(map.fetchOutcome, FetchResponse, fx.fetchOk)).toEqual(fx.fetchOk);
    expect(viaBytes(map.fetchOutcome, FetchResponse, { ok: true, page: fx.pageUndated })).toEqual({ ok: true, page: fx.pageUndated });
    expect(viaBytes(map.fetchOutcome, FetchResponse, fx.fetchFailed)).toEqual(fx.fetchFailed);
  });

  test('the page model, a candidate\'s lead, a verdict\'s outcome and productive sites survive encoding', () => {
    const model = {
      subject: { name: 'Stripe', kind: 'company' as const, link: null, passage: 'Stripe', source: 'heading', facts: [{ label: 'Location', value: 'San Francisco, CA, USA', passage: 'Location: San Francisco, CA, USA' }] },
      items: [{ name: 'Brex', kind: null, link: 'https://startupindex.example/companies/brex', passage: 'Brex — Corporate cards', source: 'list', facts: [] }],
      siteName: null,
    };
    const page = { ...fx.page, model };
    expect(viaBytes(map.fetchOutcome, FetchResponse, { ok: true, page })).toEqual({ ok: true, page });
    const candidate = { ...fx.candidate, lead: 'https://startupindex.example/companies/brex' };
    const verify = { plan: fx.plan, filter: fx.filter, candidate, pages: [page] };
    expect(viaBytes(map.verifyRequest, VerifyRequest, verify)).toEqual(verify);
    for (const outcome of ['yes', 'no', 'unclear'] as const) {
      const verdict = { ...fx.verdict, pass: outcome === 'yes', outcome };
      expect(viaBytes(map.verifyResponse, VerifyResponse, { verdict, usage: { calls: 0, inputTokens: 0, outputTokens: 0 } }).verdict).toEqual(verdict);
    }
    const queries = { plan: fx.plan, round: 2, used: ['a'], productiveSites: ['startupindex.example'] };
    expect(viaBytes(map.queriesRequest, QueriesRequest, queries)).toEqual(queries);
  });

  test('every fetch failure code maps to a distinct proto value and back', () => {
    const codes = ['bad_url', 'private_address', 'robots', 'timeout', 'too_large', 'http_status', 'unsupported_type', 'network', 'too_many_redirects'] as const;
    const protoCodes = new Set<number>();
    for (const code of codes) {
      const outcome = { ok: false as const, url: 'u', code, reason: 'r' };
      const proto = map.fetchOutcome.toProto(outcome);
      if (proto.outcome?.$case === 'failure') protoCodes.add(proto.outcome.value.code);
      expect(viaBytes(map.fetchOutcome, FetchResponse, outcome)).toEqual(outcome);
    }
    expect(protoCodes.size).toBe(codes.length);
  });

  test('plans keep entity type, open and closed date ranges, absent date ranges and the opaque filter spec', () => {
    for (const plan of [fx.plan, fx.planOpen, fx.planNoDates]) {
      const response = { plan, usage: fx.usage };
      expect(viaBytes(map.planResponse, PlanResponse, response)).toEqual(response);
    }
  });

  test('candidates, verdicts and relaxed-or-exhausted filters survive encoding', () => {
    const verify = { plan: fx.plan, filter: fx.filter, candidate: fx.candidateNoDomain, pages: [fx.page, fx.pageUndated] };
    expect(viaBytes(map.verifyRequest, VerifyRequest, verify)).toEqual(verify);
    expect(viaBytes(map.verifyResponse, VerifyResponse, { verdict: fx.verdict, usage: fx.usage })).toEqual({ verdict: fx.verdict, usage: fx.usage });
    expect(viaBytes(map.verifyResponse, VerifyResponse, { verdict: fx.verdictInferred, usage: fx.noUsage })).toEqual({ verdict: fx.verdictInferred, usage: fx.noUsage });
    expect(viaBytes(map.relaxResponse, RelaxResponse, { filter: null, usage: fx.noUsage })).toEqual({ filter: null, usage: fx.noUsage });
    expect(viaBytes(map.relaxResponse, RelaxResponse, { filter: fx.filterEmptySpec, usage: fx.usage })).toEqual({ filter: fx.filterEmptySpec, usage: fx.usage });
    const extract = { plan: fx.planOpen, page: fx.page, round: 4 };
    expect(viaBytes(map.extractRequest, ExtractRequest, extract)).toEqual(extract);
    const screen = { plan: fx.planNoDates, hits: fx.searchResponse.hits };
    expect(viaBytes(map.screenRequest, ScreenRequest, screen)).toEqual(screen);
  });

  test('any JSON object as a filter spec comes back equal (a "__proto__" key is refused, never lost)', () => {
    const json = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);
    const hasProtoKey = (v: unknown): boolean =>
      Array.isArray(v) ? v.some(hasProtoKey) : v !== null && typeof v === 'object' && Object.keys(v).some((k) => k === '__proto__' || hasProtoKey((v as Record<string, unknown>)[k]));
    fc.assert(fc.property(fc.dictionary(fc.string(), json), (spec) => {
      if (hasProtoKey(spec)) {
        expect(() => map.funnelFilter.toProto({ ...fx.filter, spec })).toThrow(InvalidArgumentError);
        return;
      }
      const filter = { ...fx.filter, spec };
      // -0 has no JSON form; Struct numbers are doubles, so compare as JSON.
      expect(JSON.stringify(viaBytes(map.funnelFilter, FunnelFilterMsg, filter))).toBe(JSON.stringify(filter));
    }), { numRuns: 200 });
  });

  test('a filter spec with a "__proto__" key, at any depth, is refused as an invalid argument', () => {
    for (const text of ['{"__proto__": {"x": 1}}', '{"terms": [{"__proto__": 1}]}']) {
      expect(() => map.funnelFilter.toProto({ ...fx.filter, spec: JSON.parse(text) as Record<string, unknown> })).toThrow(/__proto__/);
    }
  });

  test('a message missing a required part or carrying an unspecified enum is refused as an invalid argument', () => {
    expect(() => map.planResponse.toWire({ plan: undefined, usage: undefined })).toThrow(InvalidArgumentError);
    expect(() => map.fetchOutcome.toWire({ outcome: undefined })).toThrow(InvalidArgumentError);
    const plan = map.researchPlan.toProto(fx.plan);
    expect(() => map.researchPlan.toWire({ ...plan, entityType: 0 })).toThrow(/entity_type/);
  });
});
