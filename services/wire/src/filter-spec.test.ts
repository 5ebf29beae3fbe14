import { describe, expect, it } from 'vitest';
import { FunnelFilter, readFilterSpec, type FilterSpec } from './index.js';

const range = { from: '2025-01-01', to: null, phrase: 'since 2025' };
const SPECS: FilterSpec[] = [
  { kind: 'type', entityType: 'company', groups: [['fintech'], ['startup', 'company']], steps: 0 },
  { kind: 'location', place: { name: 'Berlin', level: 'city', country: 'DE', state: 'BE' }, names: ['Berlin'], steps: 1 },
  { kind: 'location', place: { name: 'Europe', level: 'region', continent: 'EU' }, names: ['Europe'], steps: 0, outside: true },
  { kind: 'event', groups: [['raised']], dateRange: range, steps: 0, asOf: '2026-01-01T00:00:00.000Z' },
  { kind: 'event', groups: [['raised']], dateRange: null, steps: 2 },
  { kind: 'period', dateRange: { from: '2025-07-01', to: '2025-09-30', phrase: 'in Q3 2025' }, steps: 0 },
  { kind: 'terms', groups: [['open source']], steps: 0 },
  { kind: 'form', form: 'nonprofit', steps: 0 },
  { kind: 'size', min: 10, max: null, steps: 0 },
  { kind: 'hiring', steps: 0 },
  { kind: 'remote', fully: true, steps: 0 },
  { kind: 'cohort', programme: 'Y Combinator', season: 'Winter', year: 2012, steps: 0 },
  { kind: 'llm', filterKind: 'event', dateRange: range, asOf: '2026-01-01T00:00:00.000Z' },
];

describe('readFilterSpec', () => {
  it.each(SPECS)('reads back a $kind spec that went through JSON (a gRPC Struct)', (spec) => {
    expect(readFilterSpec(JSON.parse(JSON.stringify(spec)))).toEqual({ ok: true, spec });
  });

  it('answers a typed problem for a spec that lost its shape, naming the field', () => {
    const cases: Array<[unknown, RegExp]> = [
      [{}, /^spec\.kind: /],
      [{ kind: 'nonsense', steps: 0 }, /^spec\.kind: /],
      [{ kind: 'location', steps: 0 }, /^spec\.place: /],
      [{ kind: 'location', place: { name: 'Berlin', level: 'planet' }, names: [], steps: 0 }, /^spec\.place\.level: /],
      [{ kind: 'size', min: '10', max: null, steps: 0 }, /^spec\.min: /],
      [{ kind: 'event', groups: 'raised', dateRange: null, steps: 0 }, /^spec\.groups: /],
      [null, /^spec: /],
      ['type', /^spec: /],
    ];
    for (const [value, problem] of cases) {
      const reading = readFilterSpec(value);
      expect(reading.ok).toBe(false);
      if (!reading.ok) expect(reading.problem).toMatch(problem);
    }
  });

  it('leaves FunnelFilter.spec opaque: a plan with a spec no reasoner reads still parses', () => {
    expect(FunnelFilter.parse({ index: 1, title: 'T', criterion: 'C', spec: {}, relaxed: false }).spec).toEqual({});
  });
});
