import type { Candidate, ResultRow } from '@leadfinder/wire';
import { describe, expect, it } from 'vitest';
import { expectedReport, type FilterDrop } from './expected.js';
import { buildRow } from './rows.js';

const candidate = (key: string, name: string, fields: Partial<Candidate> = {}): Candidate => ({
  key, name, entityType: 'company', details: '', intentSignal: '', discoveryRationale: '', sourceUrls: [`http://${key}.test/`],
  passages: [], domain: null, round: 1, ...fields,
});

describe('expected entries against the run', () => {
  const acme = candidate('acme', 'Acme GmbH', { domain: 'Acme.com' });
  const beta = candidate('beta', 'Beta');
  const gamma = candidate('gamma', 'Gamma Labs', { entityType: 'professional', sourceUrls: ['https://linkedin.com/in/gamma'] });
  const delta = candidate('delta', 'Delta');
  const rows: ResultRow[] = [buildRow(acme, [], 1)];
  const drop: FilterDrop = { filter: { index: 2, title: 'Hiring' }, rationale: 'no open roles', passages: [{ text: 'We are not hiring.', url: 'http://beta.test/' }] };
  const report = (expected: string[]) => expectedReport({
    expected, rows, candidates: [['acme', acme], ['beta', beta], ['gamma', gamma], ['delta', delta]],
    excluded: new Set(['gamma']), drops: new Map([['beta', drop]]),
  });

  it('finds a row by its own domain or its name, and keeps the entries as the caller wrote them', () => {
    expect(report(['https://www.acme.com', 'ACME']).expected_found).toEqual(['https://www.acme.com', 'ACME']);
  });
  it('says why each other one is missing: dropped (filter, rationale, passage), excluded, not judged, never found', () => {
    expect(report(['Beta', 'Gamma Labs', 'Delta', 'Omega']).expected_missed).toEqual([
      { expected: 'Beta', reason: 'dropped', name: 'Beta', filter: { index: 2, title: 'Hiring' }, rationale: 'no open roles', passages: [{ text: 'We are not hiring.', url: 'http://beta.test/' }] },
      { expected: 'Gamma Labs', reason: 'excluded', name: 'Gamma Labs' },
      { expected: 'Delta', reason: 'not_judged', name: 'Delta' },
      { expected: 'Omega', reason: 'never_found' },
    ]);
  });
  it('a row carries its own domain (lowercase) and none when unknown', () => {
    expect(rows[0]!.domain).toBe('acme.com');
    expect(buildRow(beta, [], 1)).not.toHaveProperty('domain');
  });
});
