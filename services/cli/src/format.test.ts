import { describe, expect, it } from 'vitest';
import { ResultRow, RunEvent } from '@leadfinder/wire';
import { csvObjects } from '../test/parse-csv.js';
import { csvField, describeEvent, describeLiveRun, formatRows, progressBar, toCsv, toJsonl, toTable, usd } from './format.js';

function row(overrides: Partial<ResultRow> = {}): ResultRow {
  return ResultRow.parse({
    name: 'Rynpath',
    entity_type: 'company',
    details: 'A Berlin fintech',
    intent_signal: 'raised a seed round',
    discovery_rationale: 'Named on a news page',
    rationale: 'The page says so',
    source_urls: ['https://a.example/1', 'https://a.example/2'],
    supporting_passages: [{ text: 'Rynpath raises', url: 'https://a.example/1', score: 0.9, published: '2026-05-01' }],
    by_filter: [{ index: 1, title: 'Fintech', rationale: 'says fintech', rationale_mode: 'rules', verification: 'stated', relaxed: false, passages: [] }],
    status: 'passed',
    round: 1,
    ...overrides,
  });
}

describe('CSV output', () => {
  it('quotes fields with commas, quotes, CR or LF and doubles inner quotes (RFC 4180)', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('line\nbreak')).toBe('"line\nbreak"');
    expect(csvField('cr\rhere')).toBe('"cr\rhere"');
  });

  it('round-trips awkward values through a strict RFC 4180 reader', () => {
    const awkward = row({
      name: 'Smith, Jones & "Partners"',
      details: 'first line\r\nsecond line\nthird',
      rationale: ' leading and trailing spaces ',
      relaxed: ['filter 2, loosened', 'filter 3'],
    });
    const text = toCsv([awkward, row({ name: 'Pelara', round: 2 })]);
    expect(text.endsWith('\r\n')).toBe(true);
    const records = csvObjects(text);
    expect(records).toHaveLength(2);
    expect(records[0]).toMatchObject({
      name: 'Smith, Jones & "Partners"',
      details: 'first line\r\nsecond line\nthird',
      rationale: ' leading and trailing spaces ',
      relaxed: 'filter 2, loosened; filter 3',
      source_urls: 'https://a.example/1 https://a.example/2',
      round: '1',
    });
    expect(records[1]).toMatchObject({ name: 'Pelara', round: '2', relaxed: '' });
  });

  it('writes only the header when there are no rows', () => {
    expect(csvObjects(toCsv([]))).toEqual([]);
    expect(toCsv([]).split('\r\n')[0]).toContain('name,entity_type');
  });
});

describe('JSON lines output', () => {
  it('writes one parseable row per line even when values hold newlines', () => {
    const rows = [row({ details: 'two\nlines' }), row({ name: 'Second' })];
    const lines = toJsonl(rows).split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
    expect(lines.slice(0, 2).map((l) => ResultRow.parse(JSON.parse(l)))).toEqual(rows);
  });

  it('writes nothing at all for no rows', () => {
    expect(toJsonl([])).toBe('');
  });

  it('json output is the rows array', () => {
    const rows = [row()];
    expect(JSON.parse(formatRows(rows, 'json'))).toEqual(rows);
  });
});

describe('table output', () => {
  it('numbers the rows and keeps every line within the width', () => {
    const text = toTable([row({ rationale: 'x'.repeat(500) }), row({ name: 'Second' })], 120);
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[2]).toMatch(/^1\s+Rynpath/);
    expect(lines[3]).toMatch(/^2\s+Second/);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(120);
  });

  it('says so when there are no rows', () => {
    expect(toTable([])).toBe('(no rows)\n');
  });
});

describe('progress', () => {
  it('draws have/target as a bar, never overflowing', () => {
    expect(progressBar(0, 10, 10)).toBe('[..........] 0/10');
    expect(progressBar(5, 10, 10)).toBe('[#####.....] 5/10');
    expect(progressBar(12, 10, 10)).toBe('[##########] 12/10');
  });

  it('shows dollars with 2 to 4 decimals like usdDisplay', () => {
    expect(usd(0)).toBe('$0.00');
    expect(usd(0.0123)).toBe('$0.0123');
    expect(usd(1.25)).toBe('$1.25');
    expect(usd(0.093)).toBe('$0.093');
  });

  it('describes the plan with its filters as lines that stay on screen', () => {
    const plan = RunEvent.parse({
      type: 'plan', at: 'now', runId: 'r', entity_type: 'company',
      filters: [{ index: 1, title: 'Fintech', criterion: 'is fintech' }, { index: 2, title: 'Berlin', criterion: 'based in Berlin' }],
      queries: ['q'], date_range: null, sites: ['a.com'], page_types: [], target: 20, speed: 'fast', relax: false,
    });
    const line = describeEvent(plan);
    expect(line?.kind).toBe('note');
    expect(line?.text).toContain('target 20, fast, no relaxing');
    expect(line?.text).toContain('filter 2. Berlin: based in Berlin');
    expect(line?.text).toContain('sites: a.com');
  });

  it('describes progress as a redrawn status line with the bar', () => {
    const progress = RunEvent.parse({ type: 'progress', at: 'now', runId: 'r', have: 3, target: 5, round: 2, leads: [] });
    expect(describeEvent(progress)).toEqual({ kind: 'status', text: `round 2  ${progressBar(3, 5)}` });
  });
});

describe('describeLiveRun', () => {
  it('gives a running run its spend and rows so far instead of a charge', () => {
    const run = { id: 'a'.repeat(32), where: 'round 1 · filter 2 of 3' } as Parameters<typeof describeLiveRun>[0];
    expect(describeLiveRun(run, 0.0123, 4)).toBe(`${'a'.repeat(32)}: running, 4 rows so far, spent ${usd(0.0123)} so far (5.00 USD held), at "round 1 · filter 2 of 3"`);
    expect(describeLiveRun(run, null, 1)).toContain('1 row so far, nothing spent yet');
  });
});
