import type { Candidate, FilterVerdictEntry, FunnelFilter, Verdict } from '@leadfinder/wire';
import { mapBounded } from '../activities/pool.js';
import type { RunSteps } from '../run/run-steps.js';
import { shouldRelax } from './relax.js';
import { verdictEntry } from './rows.js';
import { filterWhere } from './where.js';

/**
 * The funnel of one round over the candidates first seen in it: one filter at a time, in order, every
 * survivor verified by each. Events: funnel_open, then per filter funnel_filter_start, (filter_relaxed),
 * funnel_filter_done. A filter loosened earlier in the run stays loosened: survivors are verified with the
 * original first and only those it drops are re-checked with the loosened one, so `relaxed` marks exactly
 * the rows that needed it.
 */
export async function runFunnel(steps: RunSteps, round: number, freshKeys: readonly string[]): Promise<void> {
  const { state } = steps;
  const plan = state.plan!;
  if (freshKeys.length === 0) return;
  let survivors = freshKeys.map((key) => ({ key, byFilter: [] as FilterVerdictEntry[] }));
  await steps.emit({ type: 'funnel_open', round, candidates: survivors.length, filters: state.descriptors() });

  for (let position = 0; position < state.filters.length; position += 1) {
    await steps.enter(filterWhere(round, position + 1, state.filters.length));
    const original = state.originalFilters[position]!;
    let current = state.filters[position]!;
    await steps.emit({ type: 'funnel_filter_start', round, index: current.index, title: current.title, candidates: survivors.length });

    const verifyAll = (items: typeof survivors, filter: FunnelFilter) =>
      mapBounded(items, steps.tuning.verifyParallelism, (s) => verify(steps, filter, state.pool.get(s.key)!));
    const firstPass = await verifyAll(survivors, original);
    const passed: { key: string; byFilter: FilterVerdictEntry[] }[] = [];
    let dropped: { s: (typeof survivors)[number] }[] = [];
    survivors.forEach((s, i) => {
      const v = firstPass[i]!;
      if (v.pass) passed.push({ key: s.key, byFilter: [...s.byFilter, verdictEntry(current, v, false)] });
      else dropped.push({ s });
      // Its pages neither show nor rule it out: its own site may (see drive-run's followLeads).
      if (!v.pass && v.outcome === 'unclear') state.unclear.add(s.key);
    });

    const tally = state.tallies[position]!;
    tally.input += survivors.length;
    tally.passed += passed.length;
    if (!current.relaxed && shouldRelax({
      relaxEnabled: steps.run.relax,
      alreadyTried: state.relaxTried.has(position),
      inputCount: tally.input,
      passedCount: tally.passed,
      rowsSoFar: state.rowCount,
      target: state.target,
    })) {
      state.relaxTried.add(position);
      const loosened = await steps.research.relax({ plan, filter: current });
      if (loosened) {
        current = { ...loosened, index: current.index, relaxed: true };
        state.filters[position] = current;
        const recovered = await recheck(steps, current, dropped.map((d) => d.s), passed);
        await steps.emit({
          type: 'filter_relaxed', round, index: current.index, title: current.title,
          original_criterion: original.criterion, criterion: current.criterion,
          rechecked: dropped.length, recovered,
        });
        dropped = [];
      }
    } else if (current.relaxed && dropped.length > 0) {
      await recheck(steps, current, dropped.map((d) => d.s), passed);
    }

    // Keep the input order so rows appear in the order candidates were found.
    const order = new Map(survivors.map((s, i) => [s.key, i] as const));
    passed.sort((a, b) => order.get(a.key)! - order.get(b.key)!);
    await steps.emit({
      type: 'funnel_filter_done', round, index: current.index, title: current.title,
      passed: passed.length, dropped: survivors.length - passed.length,
    });
    await steps.afterSpend();
    survivors = passed;
    if (survivors.length === 0) break;
  }
  for (const s of survivors) state.addPassed(s.key, s.byFilter, round);
}

/** Re-checks dropped candidates with a loosened filter; adds the ones it lets through (marked relaxed). */
async function recheck(
  steps: RunSteps,
  loosened: FunnelFilter,
  dropped: { key: string; byFilter: FilterVerdictEntry[] }[],
  passed: { key: string; byFilter: FilterVerdictEntry[] }[],
): Promise<number> {
  const verdicts = await mapBounded(dropped, steps.tuning.verifyParallelism, (s) =>
    verify(steps, loosened, steps.state.pool.get(s.key)!));
  let recovered = 0;
  dropped.forEach((s, i) => {
    const v = verdicts[i]!;
    if (!v.pass) return;
    recovered += 1;
    passed.push({ key: s.key, byFilter: [...s.byFilter, verdictEntry(loosened, v, true)] });
  });
  return recovered;
}

function verify(steps: RunSteps, filter: FunnelFilter, candidate: Candidate): Promise<Verdict> {
  steps.checkpoint();
  return steps.research.verify({
    plan: steps.state.plan!,
    filter,
    candidate,
    pages: steps.state.pagesFor(candidate.sourceUrls),
  });
}
