import { filterWhere, type Candidate, type FilterVerdictEntry, type FunnelFilter, type Verdict } from '@leadfinder/wire';
import { mapBounded } from '../activities/pool.js';
import type { VerifyBatch } from '../activities/tracing.js';
import type { RunSession } from '../run/session.js';
import { verdictEntry } from './rows.js';

/**
 * The funnel of one round over the candidates first seen in it: one filter at a time, in order, every
 * survivor verified by each. Events: funnel_open, then per filter funnel_filter_start, (filter_relaxed),
 * funnel_filter_done. A filter loosened earlier in the run stays loosened: survivors are verified with the
 * original first and only those it drops are re-checked with the loosened one, so `relaxed` marks exactly
 * the rows that needed it.
 */
export async function runFunnel(session: RunSession, round: number, freshKeys: readonly string[]): Promise<void> {
  const { state } = session;
  const plan = state.plan;
  if (freshKeys.length === 0) return;
  let survivors = freshKeys.map((key) => ({ key, byFilter: [] as FilterVerdictEntry[] }));
  await session.emit({ type: 'funnel_open', round, candidates: survivors.length, filters: state.descriptors() });

  for (let position = 0; position < state.filterCount; position += 1) {
    await session.enter(filterWhere(round, position + 1, state.filterCount));
    const { original } = state.filterAt(position);
    let { current } = state.filterAt(position);
    await session.emit({ type: 'funnel_filter_start', round, index: current.index, title: current.title, candidates: survivors.length });

    const batch = { round, filter: position + 1, filterCount: state.filterCount };
    const firstPass = await verifyAll(session, { ...batch, relaxed: false }, original, survivors);
    const passed: { key: string; byFilter: FilterVerdictEntry[] }[] = [];
    let dropped: { s: (typeof survivors)[number] }[] = [];
    const unclearHere = new Set<string>();
    survivors.forEach((s, i) => {
      const v = firstPass[i]!;
      if (v.pass) passed.push({ key: s.key, byFilter: [...s.byFilter, verdictEntry(current, v, false)] });
      else dropped.push({ s });
      if (!v.pass && v.outcome === 'unclear') unclearHere.add(s.key);
      // Its pages neither show nor rule it out: its own site may (see drive-run's followLeads).
      if (!v.pass && v.outcome === 'unclear') state.markUnclear(s.key);
    });

    state.countFilterPass(position, survivors.length, passed.length);
    if (state.takeRelaxTurn(position, session.run.relax)) {
      const loosened = await session.research.relax({ plan, filter: current });
      if (loosened) {
        current = state.loosen(position, loosened);
        const recovered = await recheck(session, batch, current, dropped.map((d) => d.s), passed);
        await session.emit({
          type: 'filter_relaxed', round, index: current.index, title: current.title,
          original_criterion: original.criterion, criterion: current.criterion,
          rechecked: dropped.length, recovered,
        });
        dropped = [];
      }
    } else if (current.relaxed && dropped.length > 0) {
      await recheck(session, batch, current, dropped.map((d) => d.s), passed);
    }

    // Keep the input order so rows appear in the order candidates were found.
    const order = new Map(survivors.map((s, i) => [s.key, i] as const));
    passed.sort((a, b) => order.get(a.key)! - order.get(b.key)!);
    // Why each dropped one was dropped (for `expected`, `near_misses`, `unclear`), and this filter's counts
    // over the run. A loosened filter re-checked every candidate the original dropped (just above), so a
    // drop under it means the loosened form dropped it too.
    const passedKeys = new Set(passed.map((p) => p.key));
    const recheckedLoosened = current.relaxed === true;
    survivors.forEach((s, i) => {
      if (passedKeys.has(s.key)) return;
      const v = firstPass[i]!;
      state.recordDrop(
        s.key,
        { filter: { index: current.index, title: current.title }, rationale: v.rationale, passages: v.passages.map((p) => ({ text: p.text, url: p.url })) },
        { position, outcome: v.outcome === 'unclear' ? 'unclear' : 'no', recoveredIfLoosened: recheckedLoosened ? false : null },
      );
    });
    const runCounts = state.countFunnel(position, new Map(survivors.map((s) => [
      s.key, passedKeys.has(s.key) ? 'passed' : unclearHere.has(s.key) ? 'unclear' : 'no',
    ] as const)));
    await session.emit({
      type: 'funnel_filter_done', round, index: current.index, title: current.title,
      passed: passed.length, dropped: survivors.length - passed.length, run_counts: runCounts,
    });
    await session.recordSpend();
    survivors = passed;
    if (survivors.length === 0) break;
  }
  for (const s of survivors) state.addPassed(s.key, s.byFilter, round);
  session.noteRows();
}

/** Re-checks dropped candidates with a loosened filter; adds the ones it lets through (marked relaxed). */
async function recheck(
  session: RunSession,
  batch: Omit<VerifyBatch, 'candidates' | 'relaxed'>,
  loosened: FunnelFilter,
  dropped: { key: string; byFilter: FilterVerdictEntry[] }[],
  passed: { key: string; byFilter: FilterVerdictEntry[] }[],
): Promise<number> {
  const verdicts = await verifyAll(session, { ...batch, relaxed: true }, loosened, dropped);
  let recovered = 0;
  dropped.forEach((s, i) => {
    const v = verdicts[i]!;
    if (!v.pass) return;
    recovered += 1;
    passed.push({ key: s.key, byFilter: [...s.byFilter, verdictEntry(loosened, v, true)] });
  });
  return recovered;
}

/** Verifies `items` against `filter`, at most `verifyParallelism` at once, as one batch (one span). */
function verifyAll(session: RunSession, batch: Omit<VerifyBatch, 'candidates'>, filter: FunnelFilter, items: readonly { key: string }[]): Promise<Verdict[]> {
  return session.verifyBatch({ ...batch, candidates: items.length }, () =>
    mapBounded(items, session.tuning.verifyParallelism, (s) => verify(session, filter, session.state.pool.get(s.key)!)));
}

function verify(session: RunSession, filter: FunnelFilter, candidate: Candidate): Promise<Verdict> {
  session.checkpoint();
  return session.research.verify({
    plan: session.state.plan,
    filter,
    candidate,
    pages: session.state.pagesFor(candidate.sourceUrls),
  });
}
