import type { RunDoc } from '@leadfinder/platform';
import type { FinalEvent, ResultRow } from '@leadfinder/wire';
import { describe, expect, it } from 'vitest';
import { resolveExclusions } from './exclusions.js';

const row = (name: string, extra: Partial<ResultRow> = {}): ResultRow => ({
  name, entity_type: 'company', details: '', intent_signal: '', discovery_rationale: '', rationale: '', source_urls: [],
  supporting_passages: [], by_filter: [], status: 'passed', round: 1, ...extra,
});
const runOf = (id: string, accountId: string, table: ResultRow[] | null) =>
  ({ id, accountId, result: table ? ({ table } as unknown as FinalEvent) : null }) as RunDoc;

describe('resolving exclude and expected at acceptance', () => {
  const mine = 'a'.repeat(32);
  const theirs = 'b'.repeat(32);
  const running = 'c'.repeat(32);
  const runs = new Map<string, RunDoc>([
    [mine, runOf(mine, 'acct_me', [row('Acme GmbH', { domain: 'acme.com' }), row('Jane Doe', { entity_type: 'professional', source_urls: ['https://www.linkedin.com/in/jdoe'] })])],
    [theirs, runOf(theirs, 'acct_other', [row('Secret Corp', { domain: 'secret.io' })])],
    [running, runOf(running, 'acct_me', null)],
  ]);
  const store = { get: async (id: string) => runs.get(id) ?? null };

  it('reads the own runs\' rows back as identities; another account\'s run, an unknown one and a running one add nothing', async () => {
    const out = await resolveExclusions(store, 'acct_me', { exclude: { names: ['Beta'], runs: [mine, theirs, running, 'f'.repeat(32), mine] } });
    expect(out.exclude).toEqual({
      names: ['Beta'], domains: [], runs: [mine, theirs, running, 'f'.repeat(32)],
      entities: [{ name: 'acme', domain: 'acme.com', ids: [] }, { name: 'jane doe', domain: null, ids: ['linkedin:in/jdoe'] }],
    });
    expect(out).not.toHaveProperty('expected');
  });

  it('nothing asked, nothing stored', async () => {
    expect(await resolveExclusions(store, 'acct_me', {})).toEqual({});
  });

  it('refuses over 10,000 exclude entries and over 1,000 expected ones with a 400 that says so', async () => {
    await expect(resolveExclusions(store, 'acct_me', { exclude: { names: Array(5_000).fill('x'), domains: Array(5_001).fill('x.io') } }))
      .rejects.toMatchObject({ detail: 'exclude has 10001 entries (names, domains and runs together); at most 10000 are allowed.' });
    await expect(resolveExclusions(store, 'acct_me', { expected: Array(1_001).fill('x') }))
      .rejects.toMatchObject({ detail: 'expected has 1001 entries; at most 1000 are allowed.' });
    expect((await resolveExclusions(store, 'acct_me', { exclude: { names: Array(10_000).fill('x') }, expected: ['a'] })).expected).toEqual(['a']);
  });
});
