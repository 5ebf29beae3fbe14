import type { Candidate, FetchedPage, FunnelFilter } from '@leadfinder/wire';
import type { FilterPort } from '@leadfinder/platform';

/**
 * A minimal in-test stand-in for the coordinator's funnel: extract from every page, merge candidates by
 * key, then run each filter in order. Relaxation follows the coordinator's rule (see relax.ts): once
 * per filter, when fewer than max(1, ceil(10 %)) of its input pass and target is not reached.
 */
export interface FunnelRow {
  name: string;
  relaxed: string[];
}

export async function runFunnel(filter: FilterPort, query: string, now: Date, pages: readonly FetchedPage[], target = 50): Promise<FunnelRow[]> {
  const signal = new AbortController().signal;
  const { plan } = await filter.plan({ query, now: now.toISOString(), sites: '' }, { signal });
  const byKey = new Map<string, Candidate>();
  const pageByUrl = new Map(pages.map((p) => [p.url, p]));
  for (const page of pages) {
    const { candidates } = await filter.extract({ plan, page, round: 1 }, { signal });
    for (const c of candidates) {
      const had = byKey.get(c.key);
      if (!had) byKey.set(c.key, c);
      else byKey.set(c.key, { ...had, sourceUrls: [...new Set([...had.sourceUrls, ...c.sourceUrls])], passages: [...had.passages, ...c.passages] });
    }
  }
  let alive = [...byKey.values()].map((c) => ({ c, relaxed: [] as string[] }));
  for (const original of plan.filters) {
    let current: FunnelFilter = original;
    const input = alive;
    const check = async (list: typeof alive, f: FunnelFilter) => {
      const passed: typeof alive = [];
      const failed: typeof alive = [];
      for (const item of list) {
        const candidatePages = item.c.sourceUrls.map((u) => pageByUrl.get(u)).filter((p): p is FetchedPage => p !== undefined);
        const { verdict } = await filter.verify({ plan, filter: f, candidate: item.c, pages: candidatePages }, { signal });
        (verdict.pass ? passed : failed).push(item);
      }
      return { passed, failed };
    };
    let { passed, failed } = await check(input, current);
    if (passed.length < Math.max(1, Math.ceil(input.length * 0.1)) && passed.length < target && input.length > 0) {
      const { filter: loosened } = await filter.relax({ plan, filter: current }, { signal });
      if (loosened) {
        current = loosened;
        const again = await check(failed, current);
        passed = [...passed, ...again.passed.map((i) => ({ ...i, relaxed: [...i.relaxed, loosened.title] }))];
        failed = again.failed;
      }
    }
    alive = passed;
  }
  return alive.map(({ c, relaxed }) => ({ name: c.name, relaxed }));
}
