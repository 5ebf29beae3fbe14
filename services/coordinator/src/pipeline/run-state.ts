import type { FetchedPage, FilterDescriptor, FilterVerdictEntry, FunnelFilter, ResearchPlan, ResultRow } from '@leadfinder/wire';
import { CandidatePool } from './merge.js';
import type { FilterTally } from './relax.js';
import { buildRow, truncateRows } from './rows.js';
import type { QueryCursor } from './search-plan.js';
import { WHERE_QUEUED } from './where.js';

interface PassedEntry {
  key: string;
  byFilter: FilterVerdictEntry[];
  round: number;
}

/** Everything one drive of a run knows, in memory. Pure: no I/O, no clock. */
export class RunState {
  where = WHERE_QUEUED;
  plan: ResearchPlan | null = null;
  /** The funnel as it stands (loosened filters replace their originals). */
  filters: FunnelFilter[] = [];
  /** The filters as planned, by position; kept to tell which rows needed a loosened one. */
  originalFilters: FunnelFilter[] = [];
  /** Positions of filters Relax was already asked about (once per filter per run). */
  readonly relaxTried = new Set<number>();
  /** Per filter position, the run's counts the relax rule reads. */
  tallies: FilterTally[] = [];
  readonly pool = new CandidatePool();
  /** Every query searched, in first-use order, with how far it was read. */
  readonly queryCursors = new Map<string, QueryCursor>();
  /** Every URL search has answered in this run. */
  readonly seenHitUrls = new Set<string>();
  readonly openedUrls = new Set<string>();
  private readonly pages = new Map<string, FetchedPage>();
  private readonly passed: PassedEntry[] = [];
  /** Candidates a filter answered `unclear` for in the current round (their own page may settle it). */
  readonly unclear = new Set<string>();
  /** Candidates whose own domain was already searched for their page. */
  readonly domainSearched = new Set<string>();

  constructor(readonly target: number) {}

  setPlan(plan: ResearchPlan): void {
    this.plan = plan;
    this.filters = plan.filters.map((f) => ({ ...f }));
    this.originalFilters = plan.filters.map((f) => ({ ...f }));
    this.tallies = plan.filters.map(() => ({ input: 0, passed: 0 }));
  }

  /** The queries searched so far, in first-use order. */
  get usedQueries(): string[] {
    return [...this.queryCursors.keys()];
  }
  recordSearch(cursor: QueryCursor): void {
    this.queryCursors.set(cursor.query, cursor);
  }

  addPage(page: FetchedPage): void {
    this.pages.set(page.url, page);
    this.pages.set(page.finalUrl, page);
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

  descriptors(): FilterDescriptor[] {
    return this.filters.map((f) => ({ index: f.index, title: f.title, criterion: f.criterion }));
  }
}
