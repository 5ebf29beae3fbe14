import type { Candidate, DateRange, FetchedPage, FunnelFilter, QuotedPassage, ResearchPlan, Verdict } from '@leadfinder/wire';
import { statedDates, withinRange } from '../../domain/dates.js';
import { placesWithin } from '../../domain/places.js';
import { PAGE_DATED_KINDS, specOf, type FilterSpec } from '../../domain/spec.js';
import { matchesGroup, pageSentences, stems } from '../../domain/text.js';

/**
 * Checks one funnel filter against what the candidate's pages say about it. A pass always quotes the
 * sentences it rests on; `stated` when they say it outright, `inferred` when a date is taken from
 * the page's publication date.
 */

interface Evidence {
  text: string;
  url: string;
  page: FetchedPage;
  /** The sentence names the candidate (rather than being on a page that is about it). */
  named: boolean;
}

function pageUrl(page: FetchedPage): string {
  return page.finalUrl || page.url;
}

/** Sentences about the candidate: those naming it, plus every sentence of a page whose title names it. */
export function evidenceFor(candidate: Candidate, pages: readonly FetchedPage[]): Evidence[] {
  const out: Evidence[] = [];
  const wanted = new Set(candidate.sourceUrls);
  const own = pages.filter((p) => wanted.size === 0 || wanted.has(pageUrl(p)) || wanted.has(p.url));
  for (const page of own.length > 0 ? own : pages) {
    const aboutPage = candidate.entityType === 'news' || page.title.includes(candidate.name);
    for (const text of pageSentences(page)) {
      const named = text.includes(candidate.name);
      if (named || aboutPage) out.push({ text, url: pageUrl(page), page, named });
    }
  }
  // Sentences that name the candidate are the strongest evidence; try them first.
  return out.sort((a, b) => Number(b.named) - Number(a.named));
}

function quoted(passages: readonly Evidence[]): string {
  return passages.map((p) => `“${p.text}”`).join(' and ');
}

function pass(filter: FunnelFilter, used: Evidence[], verification: 'stated' | 'inferred', extra = ''): Verdict {
  const passages: QuotedPassage[] = used.map((e) => ({ text: e.text, url: e.url }));
  return {
    pass: true,
    rationale: `Meets “${filter.title}” because the page says: ${quoted(used)}${extra}`,
    rationaleMode: 'rules',
    verification,
    passages,
  };
}

function fail(filter: FunnelFilter, candidate: Candidate, why: string): Verdict {
  return {
    pass: false,
    rationale: `No passage about ${candidate.name} shows “${filter.title}”: ${why}`,
    rationaleMode: 'rules',
    verification: 'stated',
    passages: [],
  };
}

/** Every group satisfied, preferring one sentence; otherwise by up to three sentences together. */
function coverGroups(evidence: Evidence[], groups: string[][]): Evidence[] | null {
  if (groups.length === 0) return evidence.length > 0 ? [evidence[0]!] : null;
  const withStems = evidence.map((e) => ({ e, words: stems(e.text) }));
  const whole = withStems.find(({ words }) => groups.every((g) => matchesGroup(words, g)));
  if (whole) return [whole.e];
  const used: Evidence[] = [];
  for (const group of groups) {
    const hit = withStems.find(({ words }) => matchesGroup(words, group));
    if (!hit) return null;
    if (!used.includes(hit.e)) used.push(hit.e);
  }
  return used.length <= 3 ? used : null;
}

function dateCheck(e: Evidence, range: DateRange): 'in' | 'out' | 'none' {
  const dates = statedDates(e.text);
  if (dates.length === 0) return 'none';
  return dates.some((d) => withinRange(d, range)) ? 'in' : 'out';
}

function pageDateIn(page: FetchedPage, range: DateRange): boolean {
  if (!page.publishedAt) return false;
  const day = page.publishedAt.slice(0, 10);
  return withinRange({ from: day, to: day }, range);
}

function describe(range: DateRange): string {
  return range.to ? `${range.from} to ${range.to}` : `${range.from} or later`;
}

function verifyEvent(filter: FunnelFilter, spec: Extract<FilterSpec, { kind: 'event' }>, candidate: Candidate, evidence: Evidence[]): Verdict {
  const matching = evidence.filter((e) => {
    const words = stems(e.text);
    return spec.groups.every((g) => matchesGroup(words, g));
  });
  if (matching.length === 0) return fail(filter, candidate, 'no sentence about it mentions this event.');
  if (!spec.dateRange) return pass(filter, [matching[0]!], 'stated');
  for (const e of matching) if (dateCheck(e, spec.dateRange) === 'in') return pass(filter, [e], 'stated');
  // A sentence with no date of its own reports news of the day: the page's date stands in for it.
  for (const e of matching) {
    if (dateCheck(e, spec.dateRange) === 'none' && pageDateIn(e.page, spec.dateRange)) {
      return pass(filter, [e], 'inferred', ` (no date in the sentence; the page is dated ${e.page.publishedAt!.slice(0, 10)}, within ${describe(spec.dateRange)})`);
    }
  }
  return fail(filter, candidate, `the event is not dated within ${describe(spec.dateRange)}.`);
}

function verifyPeriod(filter: FunnelFilter, range: DateRange, candidate: Candidate, evidence: Evidence[]): Verdict {
  for (const e of evidence) if (e.named && dateCheck(e, range) === 'in') return pass(filter, [e], 'stated');
  if (PAGE_DATED_KINDS.has(candidate.entityType)) {
    const first = evidence.find((e) => pageDateIn(e.page, range));
    if (first) return pass(filter, [first], 'inferred', ` (the page is dated ${first.page.publishedAt!.slice(0, 10)}, within ${describe(range)})`);
  }
  return fail(filter, candidate, `no date within ${describe(range)} is stated.`);
}

/** The verdict of one filter on one candidate. */
export function verifyCandidate(plan: ResearchPlan, filter: FunnelFilter, candidate: Candidate, pages: readonly FetchedPage[]): Verdict {
  const spec = specOf(filter);
  const evidence = evidenceFor(candidate, pages);
  if (evidence.length === 0) return fail(filter, candidate, 'none of its pages mention it.');
  if (!spec) return fail(filter, candidate, 'this filter has no rule-checkable criterion.');
  switch (spec.kind) {
    case 'type':
    case 'terms': {
      const used = coverGroups(evidence, spec.groups);
      return used ? pass(filter, used, 'stated') : fail(filter, candidate, 'the pages do not describe it that way.');
    }
    case 'location': {
      const names = [...spec.names, ...placesWithin(spec.place)];
      const used = coverGroups(evidence, [names]);
      return used ? pass(filter, used, 'stated') : fail(filter, candidate, `no sentence places it in ${spec.place.name}.`);
    }
    case 'event':
      return verifyEvent(filter, spec, candidate, evidence);
    case 'period':
      return verifyPeriod(filter, spec.dateRange, candidate, evidence);
  }
  void plan;
}
