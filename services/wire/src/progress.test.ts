import { describe, expect, it } from 'vitest';
import {
  RoundStep, TAIL_STAGES, TerminalStatus, WHERE_DONE, WHERE_PLANNING, WHERE_QUEUED, Where, describeWhere, filterWhere,
  formatWhere, isTailCost, parseWhere, roundWhere, type RunEvent,
} from './index.js';

/** Every stage, with the exact string the run record and events carried before `where` was typed. */
const CASES: Array<[Where, string, string]> = [
  [WHERE_QUEUED, 'queued', 'queued'],
  [WHERE_PLANNING, 'planning', 'Planning the research'],
  [roundWhere(1, 'searching'), 'round 1 · searching', 'Round 1: searching'],
  [roundWhere(2, 'screening'), 'round 2 · screening', 'Round 2: screening'],
  [roundWhere(3, 'opening pages'), 'round 3 · opening pages', 'Round 3: opening pages'],
  [roundWhere(12, 'extracting'), 'round 12 · extracting', 'Round 12: extracting'],
  [filterWhere(1, 3, 4), 'round 1 · filter 3 of 4', 'Round 1: checking candidates against filter 3 of 4'],
  [filterWhere(10, 10, 11), 'round 10 · filter 10 of 11', 'Round 10: checking candidates against filter 10 of 11'],
  [WHERE_DONE, 'done', 'done'],
];

describe('where', () => {
  it.each(CASES)('%j is written %j and described %j', (where, text, sentence) => {
    expect(formatWhere(where)).toBe(text);
    expect(describeWhere(where)).toBe(sentence);
    expect(parseWhere(text)).toEqual(where);
    expect(Where.parse(where)).toEqual(where);
  });

  it('covers every stage and every round step', () => {
    expect(new Set(CASES.map(([w]) => w.stage))).toEqual(new Set(Where.options.map((o) => o.shape.stage.value)));
    const steps = CASES.flatMap(([w]) => (w.stage === 'round' ? [w.step] : []));
    expect(new Set(steps)).toEqual(new Set(RoundStep.options));
  });

  it('reads no structure into strings it does not write', () => {
    for (const text of ['', 'Done', 'round 0 · searching', 'round 1 · sleeping', 'round 1 · filter 0 of 4', 'round 1 · filter 1 of 4 ', 'round x · searching', 'round 1 - searching']) {
      expect(parseWhere(text)).toBeNull();
    }
  });

  it('refuses a malformed structure', () => {
    expect(Where.safeParse({ stage: 'round', round: 0, step: 'searching' }).success).toBe(false);
    expect(Where.safeParse({ stage: 'round', round: 1, step: 'sleeping' }).success).toBe(false);
    expect(Where.safeParse({ stage: 'filter', round: 1, position: 1 }).success).toBe(false);
  });
});

describe('tail stages', () => {
  it('names the tail cost of every terminal state as the operator contract spells it', () => {
    expect(Object.keys(TAIL_STAGES).sort()).toEqual([...TerminalStatus.options].sort());
    expect(Object.values(TAIL_STAGES)).toEqual(['Done', 'Stopped', 'Budget exhausted', 'Error', 'Interrupted']);
  });

  it('tells a tail cost from a mid-run cost and from other events', () => {
    const at = '2026-01-01T00:00:00.000Z';
    const cost = (stage: string): RunEvent => ({ type: 'cost', stage, usd: 0.01, at, runId: 'r' });
    for (const stage of Object.values(TAIL_STAGES)) expect(isTailCost(cost(stage))).toBe(true);
    for (const w of CASES.map(([where]) => where)) expect(isTailCost(cost(formatWhere(w)))).toBe(false);
    const others: RunEvent[] = [{ type: 'done', at, runId: 'r' }, { type: 'status', where: 'done', message: 'Done', at, runId: 'r' }];
    for (const event of others) expect(isTailCost(event)).toBe(false);
  });
});
