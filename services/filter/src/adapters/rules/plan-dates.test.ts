import { describe, expect, it } from 'vitest';
import type { ResearchPlan } from '@leadfinder/wire';
import { createRuleReasoner } from './reasoner.js';

/** The planner's use of the date module: the range in the plan, the criterion in words, notes for the rest. */
const NOW = '2026-03-15T09:00:00.000Z';
const signal = new AbortController().signal;
const reasoner = createRuleReasoner();
const plan = async (query: string): Promise<ResearchPlan> => (await reasoner.plan({ query, now: NOW, sites: '' }, { signal })).plan;
const criteria = (p: ResearchPlan) => p.filters.map((f) => f.criterion).join(' | ');

describe('date phrases in the plan', () => {
  it('"between January and March 2026" is the whole quarter, and the criterion keeps no half of the phrase', async () => {
    const p = await plan('fintech startups in Berlin that raised funding between January and March 2026');
    expect(p.dateRange).toEqual({ from: '2026-01-01', to: '2026-03-31', phrase: 'between January and March 2026' });
    expect(criteria(p)).toContain('between 2026-01-01 and 2026-03-31');
    expect(criteria(p)).not.toMatch(/January|March 2026|between January/);
    expect(p.notes).toBeUndefined();
  });

  it('"before 2025" has no lower bound and says so in words', async () => {
    const p = await plan('AI startups in Berlin founded before 2025');
    expect(p.dateRange).toMatchObject({ to: '2024-12-31' });
    expect(criteria(p)).toContain('on or before 2024-12-31');
    expect(p.queries.join(' | ')).not.toContain('0001');
  });

  it('a phrase no rule reads becomes a note (a status event), not a criterion', async () => {
    const p = await plan('AI startups in Berlin that raised a seed round in the spring');
    expect(p.dateRange).toBeNull();
    expect(criteria(p)).not.toMatch(/spring/i);
    expect(p.notes).toEqual(['Could not read "in the spring" as a date range; searching without it.']);
  });
});
