import {
  entityIdentity, exclusionIndex, formatWhere, WHERE_QUEUED, type Candidate, type ExpectedMiss, type FetchedPage, type FilterDescriptor,
  type FilterVerdictEntry, type FunnelFilter, type IdentityIndex, type NearMiss, type ResearchPlan, type ResultRow, type RunExclusions,
  type UnclearCandidate,
} from '@leadfinder/wire';
import { expectedReport, type FilterDrop } from './expected.js';
import { CandidatePool } from './merge.js';
import { shouldRelax, type FilterTally } from './relax.js';
import { buildRow, truncateRows } from './rows.js';
import type { QueryCursor } from './search-plan.js';

/** A candidate's verdict at one filter of the funnel, for run_counts. */
export type FunnelOutcome = 'passed' | 'no' | 'unclear';

/** A candidate's latest drop: the filter (by position) and that verdict, for `near_misses` and `unclear`. */
interface JudgedDrop extends FilterDrop {
  position: number;
  outcome: 'no' | 'unclear';
  /** false: the filter was loosened when it was judged and the loosened form dropped it too; null: not loosened then. */
  recoveredIfLoosened: false | null;
}

interface PassedEntry {
  key: string;
  byFilter: FilterVerdictEntry[];
  round: number;
}

/** Everything one drive of a run knows, in memory. Pure: no I/O, no clock. */
export class RunState {
  private currentWhere: string;
  private researchPlan: ResearchPlan | null = null;
  /** The funnel as it stands (loosened filters replace their originals). */
  private filters: FunnelFilter[] = [];
  /** The filters as planned, by position; kept to tell which rows needed a loosened one. */
  private originalFilters: FunnelFilter[] = [];
  /** Positions of filters Relax was already asked about (once per filter per run). */
  private readonly relaxTried = new Set<number>();
  /** Per filter position, the run's counts the relax rule reads. */
  private tallies: FilterTally[] = [];
  readonly pool = new CandidatePool();
  /** Every query searched, in first-use order, with how far it was read. */
  private readonly queryCursors = new Map<string, QueryCursor>();
  /** Every URL search has answered in this run. */
  private readonly seenHits = new Set<string>();
  private readonly opened = new Set<string>();
  private readonly pages = new Map<string, FetchedPage>();
  private readonly passed: PassedEntry[] = [];
  /** Candidates a filter answered `unclear` for in the current round (their own page may settle it). */
  private readonly unclear = new Set<string>();
  /** Candidates whose own domain was already searched for their page. */
  private readonly domainSearched = new Set<string>();
  /** Candidates whose name was already searched for another page about them. */
  private readonly nameSearched = new Set<string>();
  /** The request's exclusions (null without `exclude`) and the candidates they dropped. */
  private exclusions: IdentityIndex | null = null;
  private readonly excludedKeys = new Set<string>();
  /** The request's `expected` entries (null without them). */
  private expected: readonly string[] | null = null;
  /** Per candidate, the filter that dropped it and that verdict (the first drop). */
  private readonly drops = new Map<string, FilterDrop>();
  /** Per candidate, its latest drop (a candidate judged again after its own page was opened keeps the last). */
  private readonly lastDrops = new Map<string, JudgedDrop>();
  /** The request's `near_misses` and `keep_unclear` flags. */
  private wantsNearMisses = false;
  private keepsUnclear = false;
  /**
   * Per filter position, each candidate's latest verdict there (funnel_filter_done's run_counts). By
   * candidate, not by judgment: one judged again (its own page, a search of its name) counts once, as it
   * now stands, so the latest event of each filter draws the funnel and its unclear total is `final.unclear`'s.
   */
  private funnelVerdicts: Map<string, FunnelOutcome>[] = [];

  constructor(readonly target: number, where: string = formatWhere(WHERE_QUEUED)) {
    this.currentWhere = where;
  }

  /** How far the run got (the last step entered). */
  get where(): string {
    return this.currentWhere;
  }
  moveTo(where: string): void {
    this.currentWhere = where;
  }

  /** The research plan; throws before planning (the pipeline never asks that early). */
  get plan(): ResearchPlan {
    if (!this.researchPlan) throw new Error('the run has no plan yet');
    return this.researchPlan;
  }
  setPlan(plan: ResearchPlan): void {
    this.researchPlan = plan;
    this.filters = plan.filters.map((f) => ({ ...f }));
    this.originalFilters = plan.filters.map((f) => ({ ...f }));
    this.tallies = plan.filters.map(() => ({ input: 0, passed: 0 }));
    this.funnelVerdicts = plan.filters.map(() => new Map<string, FunnelOutcome>());
  }

  /** What the request asked beyond the search itself: entities to leave out, entities it expects. */
  useRequest(request: {
    exclude?: RunExclusions | undefined; expected?: readonly string[] | undefined; nearMisses?: boolean | undefined; keepUnclear?: boolean | undefined;
  }): void {
    this.exclusions = request.exclude ? exclusionIndex(request.exclude) : null;
    this.expected = request.expected ? [...request.expected] : null;
    this.wantsNearMisses = request.nearMisses === true;
    this.keepsUnclear = request.keepUnclear === true;
  }
  /**
   * The keys of `keys` whose candidates no exclusion names, in order; the others are counted as excluded
   * and never reach the funnel (nothing is spent verifying them).
   */
  admit(keys: readonly string[]): string[] {
    const index = this.exclusions;
    if (!index) return [...keys];
    return keys.filter((key) => {
      if (this.excludedKeys.has(key)) return false;
      const c = this.pool.get(key);
      if (!c || index.match(identityOf(c)) === undefined) return true;
      this.excludedKeys.add(key);
      return false;
    });
  }
  /** Records why the funnel dropped a candidate (the first filter that did). */
  recordDrop(key: string, drop: FilterDrop, judged?: Omit<JudgedDrop, keyof FilterDrop>): void {
    if (!this.drops.has(key)) this.drops.set(key, drop);
    if (!judged) return;
    // Latest drop last: a candidate judged again moves to the end of the drop order.
    this.lastDrops.delete(key);
    this.lastDrops.set(key, { ...drop, ...judged });
  }
  /**
   * Records one funnel pass of the filter at `position` (each candidate's verdict there); returns the
   * filter's counts over the run so far, each candidate counted once by its latest verdict. A candidate
   * this pass drops has not reached the later filters as it now stands: its verdicts there are forgotten.
   */
  countFunnel(position: number, verdicts: ReadonlyMap<string, FunnelOutcome>): { in: number; passed: number; dropped: number; unclear: number } {
    const here = this.funnelVerdicts[position]!;
    for (const [key, outcome] of verdicts) {
      here.set(key, outcome);
      if (outcome !== 'passed') for (const later of this.funnelVerdicts.slice(position + 1)) later.delete(key);
    }
    const counts = { in: here.size, passed: 0, dropped: 0, unclear: 0 };
    for (const outcome of here.values()) {
      if (outcome === 'passed') counts.passed += 1;
      else counts.dropped += 1;
      if (outcome === 'unclear') counts.unclear += 1;
    }
    return counts;
  }
  /** The `final` fields the request's `exclude`, `expected`, `near_misses` and `keep_unclear` ask for (none without them). */
  finalReport(): FinalReport {
    const out: FinalReport = {};
    if (this.exclusions) out.excluded = this.excludedKeys.size;
    if (this.expected) {
      const rows = this.rows();
      Object.assign(out, expectedReport({
        expected: this.expected,
        rows,
        candidates: [...this.pool.entries()],
        excluded: this.excludedKeys,
        drops: this.drops,
      }));
    }
    if (this.wantsNearMisses) out.near_misses = this.nearMisses();
    if (this.keepsUnclear) out.unclear = this.unclearCandidates();
    return out;
  }

  /** Latest drops of candidates that are not rows (a candidate judged again may have passed since). */
  private standingDrops(): [Candidate, JudgedDrop][] {
    const passed = new Set(this.passed.map((p) => p.key));
    const out: [Candidate, JudgedDrop][] = [];
    for (const [key, drop] of this.lastDrops) {
      const c = this.pool.get(key);
      if (c && !passed.has(key)) out.push([c, drop]);
    }
    return out;
  }
  /**
   * Up to `target` rejected candidates, nearest first: those dropped by a later filter (they passed more of
   * the funnel), then in the order they were dropped.
   */
  private nearMisses(): NearMiss[] {
    const drops = this.standingDrops();
    const order = drops.map((d, i) => ({ d, i })).sort((a, b) => b.d[1].position - a.d[1].position || a.i - b.i);
    return order.slice(0, this.target).map(({ d: [c, drop] }) => ({
      ...candidateFields(c), ...dropFields(drop), outcome: drop.outcome, recovered_if_loosened: drop.recoveredIfLoosened,
    }));
  }
  /** Every candidate whose standing verdict is `unclear`, in the order they were dropped. */
  private unclearCandidates(): UnclearCandidate[] {
    return this.standingDrops().filter(([, d]) => d.outcome === 'unclear').map(([c, drop]) => ({ ...candidateFields(c), ...dropFields(drop) }));
  }

  /** Number of filters in the funnel. */
  get filterCount(): number {
    return this.filters.length;
  }
  /** The filter at `position` as it stands now, and as planned. */
  filterAt(position: number): { current: FunnelFilter; original: FunnelFilter } {
    return { current: this.filters[position]!, original: this.originalFilters[position]! };
  }
  /** Adds one pass of the filter at `position` (candidates in, passes of the original) to the run's tally. */
  countFilterPass(position: number, input: number, passed: number): void {
    const tally = this.tallies[position]!;
    tally.input += input;
    tally.passed += passed;
  }
  /**
   * Whether to ask Relax about the filter at `position` now (the relax rule over the run's tally). True at
   * most once per filter per run: the question counts as asked from here on.
   */
  takeRelaxTurn(position: number, relaxEnabled: boolean): boolean {
    const tally = this.tallies[position]!;
    const ask = !this.filters[position]!.relaxed && shouldRelax({
      relaxEnabled,
      alreadyTried: this.relaxTried.has(position),
      inputCount: tally.input,
      passedCount: tally.passed,
      rowsSoFar: this.rowCount,
      target: this.target,
    });
    if (ask) this.relaxTried.add(position);
    return ask;
  }
  /** Replaces the filter at `position` by its loosened form for the rest of the run; returns it. */
  loosen(position: number, loosened: FunnelFilter): FunnelFilter {
    const current = { ...loosened, index: this.filters[position]!.index, relaxed: true };
    this.filters[position] = current;
    return current;
  }

  /** Forgets the candidates left unclear (a new funnel pass begins). */
  clearUnclear(): void {
    this.unclear.clear();
  }
  markUnclear(key: string): void {
    this.unclear.add(key);
  }
  /** Candidates a filter left unclear since clearUnclear(), in the order they were marked. */
  unclearKeys(): string[] {
    return [...this.unclear];
  }
  /** True the first time a candidate's own domain is to be searched, false ever after. */
  takeDomainSearch(key: string): boolean {
    if (this.domainSearched.has(key)) return false;
    this.domainSearched.add(key);
    return true;
  }

  /** True the first time a candidate's name is to be searched for another page about it, false ever after. */
  takeNameSearch(key: string): boolean {
    if (this.nameSearched.has(key)) return false;
    this.nameSearched.add(key);
    return true;
  }
  /**
   * Candidates standing unclear (see standsUnclear) whose name was not searched yet, those of earlier rounds
   * first: a round searches only so many names, and the rest wait for a later round's turn.
   */
  unclearAwaitingNameSearch(): string[] {
    return [...this.lastDrops.keys()].filter((key) => this.standsUnclear(key) && !this.nameSearched.has(key));
  }
  /** True while the candidate is no row and its latest verdict is `unclear`: nothing ruled it out yet. */
  standsUnclear(key: string): boolean {
    return this.lastDrops.get(key)?.outcome === 'unclear' && !this.hasPassed(key);
  }
  /** True once the candidate passed every filter (it is a row). */
  hasPassed(key: string): boolean {
    return this.passed.some((p) => p.key === key);
  }

  /** Every query cursor so far, in first-use order. */
  cursors(): QueryCursor[] {
    return [...this.queryCursors.values()];
  }
  /** The queries searched so far, in first-use order. */
  get usedQueries(): string[] {
    return [...this.queryCursors.keys()];
  }
  recordSearch(cursor: QueryCursor): void {
    this.queryCursors.set(cursor.query, cursor);
  }

  /** URLs search has answered in this run. */
  get seenHitUrls(): ReadonlySet<string> {
    return this.seenHits;
  }
  markSeen(urls: Iterable<string>): void {
    for (const url of urls) this.seenHits.add(url);
  }

  /** An attempt to open `url` is over: it counts as opened, and its page (if any) is kept. */
  recordOpened(url: string, page: FetchedPage | null): void {
    this.opened.add(url);
    if (!page) return;
    this.pages.set(page.url, page);
    this.pages.set(page.finalUrl, page);
  }
  get openedUrls(): ReadonlySet<string> {
    return this.opened;
  }
  /** The fetched pages behind these URLs (a candidate's sources), each once. */
  pagesFor(urls: readonly string[]): FetchedPage[] {
    const out = new Set<FetchedPage>();
    for (const url of urls) {
      const page = this.pages.get(url);
      if (page) out.add(page);
    }
    return [...out];
  }

  addPassed(key: string, byFilter: FilterVerdictEntry[], round: number): void {
    this.passed.push({ key, byFilter, round });
  }

  /** The pages (requested and final URLs) behind the candidates that passed the funnel in `round`. */
  rowSourcesOf(round: number): Set<string> {
    const out = new Set<string>();
    for (const p of this.passed) {
      if (p.round !== round) continue;
      for (const page of this.pagesFor(this.pool.get(p.key)!.sourceUrls)) {
        out.add(page.url);
        out.add(page.finalUrl);
      }
    }
    return out;
  }

  /**
   * Hosts whose pages the rows so far were found on, most rows first (ties: first seen): the directory
   * and news sites worth searching within in later rounds.
   */
  productiveSites(limit = 3): string[] {
    const counts = new Map<string, number>();
    for (const p of this.passed) {
      const hosts = new Set<string>();
      for (const page of this.pagesFor(this.pool.get(p.key)!.sourceUrls)) {
        try {
          hosts.add(new URL(page.finalUrl || page.url).hostname.toLowerCase());
        } catch {
          // Not a web URL: nothing to search within.
        }
      }
      for (const h of hosts) counts.set(h, (counts.get(h) ?? 0) + 1);
    }
    return [...counts.entries()].filter(([, n]) => n >= 2).sort((a, b) => b[1] - a[1]).slice(0, limit).map(([h]) => h);
  }

  /** Rows so far, at most `target`, built from the latest merged view of each candidate. */
  rows(): ResultRow[] {
    return truncateRows(this.passed, this.target).map((p) => buildRow(this.pool.get(p.key)!, p.byFilter, p.round));
  }
  get rowCount(): number {
    return Math.min(this.passed.length, this.target);
  }

  /** Candidates the exclusions dropped so far. */
  get excludedCount(): number {
    return this.excludedKeys.size;
  }

  descriptors(): FilterDescriptor[] {
    return this.filters.map((f) => ({ index: f.index, title: f.title, criterion: f.criterion }));
  }
}

/** `final`'s additive fields the request asked for (none without them). */
export interface FinalReport {
  excluded?: number;
  expected_found?: string[];
  expected_missed?: ExpectedMiss[];
  near_misses?: NearMiss[];
  unclear?: UnclearCandidate[];
}

function candidateFields(c: Candidate): Pick<NearMiss, 'name' | 'entity_type' | 'domain' | 'source_urls'> {
  return { name: c.name, entity_type: c.entityType, ...(c.domain ? { domain: c.domain } : {}), source_urls: [...c.sourceUrls] };
}
function dropFields(d: FilterDrop): Pick<NearMiss, 'filter' | 'rationale' | 'passages'> {
  return { filter: { ...d.filter }, rationale: d.rationale, passages: d.passages.map((p) => ({ ...p })) };
}

function identityOf(c: Candidate) {
  return entityIdentity({ name: c.name, entityType: c.entityType, domain: c.domain, urls: c.sourceUrls });
}
