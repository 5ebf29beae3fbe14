import { describe, expect, it } from 'vitest';
import { createRuleReasoner } from './reasoner.js';

const NOW = '2026-03-15T09:00:00.000Z';
const signal = new AbortController().signal;
const reasoner = createRuleReasoner();

describe('page types named in the sites field', () => {
  it('"job portals and case studies": each type its own search phrasing, none on every query', async () => {
    const { plan } = await reasoner.plan({ query: 'fintech startups in Berlin', now: NOW, sites: 'job portals and case studies' }, { signal });
    expect(plan.sites.pageTypes).toEqual(['job portals', 'case studies']);
    const jobs = plan.queries.filter((q) => q.includes('jobs'));
    const cases = plan.queries.filter((q) => q.includes('case study'));
    expect(jobs.length).toBeGreaterThan(0);
    expect(cases.length).toBeGreaterThan(0);
    expect(plan.queries.filter((q) => q.includes('jobs') && q.includes('case study'))).toEqual([]);
    expect(jobs.length).toBeLessThan(plan.queries.length);
  });
});
