// The English parser alone: the package's main entry builds every locale's parsers (about 0.1 s of each start).
import * as chrono from 'chrono-node/en';
import type { ParsedComponents } from 'chrono-node';
import type { DateRange } from '@leadfinder/wire';

/**
 * Periods named in a query, turned into absolute UTC date ranges against the run start (`now`), and
 * dates stated in page sentences. chrono-node reads the absolute expressions ("March 3rd, 2025",
 * "Sept 2025", "2025-03-14", "Jan 2025 - Mar 2025"); the forms chrono reads but leaves to the caller's
 * judgement (relative periods, bare years, quarters) follow one policy each, below. Every range is
 * inclusive, in whole UTC days.
 *
 * Policy, one rule per form (`now` = the run's start day):
 * - Rolling windows, open-ended: "in the last 6 months", "the past year", "past 30 days", "over the last
 *   two weeks", "the last quarter" (with "the", a number, or "past"). They start that many calendar
 *   units back from `now` (months and years keep the day of month, clamped: Aug 31 − 6 months = Feb 28)
 *   and have no end.
 * - Calendar periods named relative to now, closed: "last week|month|quarter|year" (no "the", no
 *   number) is the previous whole calendar week (Monday to Sunday), month, quarter or year; "yesterday"
 *   and "today" are that day; "N weeks|months|quarters|years ago" is the whole calendar unit N back.
 * - The current period, open-ended: "this week|month|quarter|year", "so far this year", "year to date".
 * - Future periods, closed: "next week|month|quarter|year" is the next whole calendar unit; "in the next
 *   N months" (or "coming") runs from `now` to N units ahead.
 * - Absolute periods, closed: "in 2024", "during Q3 2025", "in the first half of 2026" / "H1 2026",
 *   "early|mid|late 2025" (Jan–Apr, May–Aug, Sep–Dec), "the 2010s", "March 2025", "on 3 March 2025".
 *   A month or quarter named without a year is the most recent one that has begun by `now`.
 * - Ranges: "between A and B", "from A to B", "A to B", "A-B", "A through B" run from the start of A to
 *   the end of B; an end without a year borrows the other end's ("between January and March 2026").
 *   "in A and B" (or "or") is the span covering both, since one range cannot hold a gap.
 * - Open bounds: "since A", "from A", "starting A", "as of A", "A onwards" start at A and stay open;
 *   "after A" starts the day after A ends. "before A" ends the day before A begins, "until|by|through A"
 *   ends when A ends; both have no lower bound (`from` is OPEN_START).
 * - A bare year counts only after a preposition ("in", "since", "between", …) or beside another period,
 *   and a bare month name likewise ("March madness" is not a date).
 * Words that look like a period but follow none of these rules ("in the spring", "FY25", "a while ago")
 * are returned as `unclear`, so the planner leaves them out of the criteria and says so in the stream.
 */

/** The start of a range with no lower bound ("before 2025"). */
export const OPEN_START = '0001-01-01';

const MONTHS = [
  'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november',
  'december',
];
const MONTH_RE = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const NUMBER_WORDS: Record<string, number> = {
  a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, fifteen: 15, eighteen: 18, twenty: 20, 'twenty-four': 24, thirty: 30, ninety: 90,
  // Vague counts get one fixed reading each, so the same words always mean the same range.
  few: 3, 'a few': 3, 'couple of': 2, 'a couple of': 2, several: 3,
};
const COUNT = String.raw`(\d{1,3}|a\s+couple\s+of|couple\s+of|a\s+few|few|several|twenty-four|${Object.keys(NUMBER_WORDS).filter((w) => !w.includes(' ') && w !== 'twenty-four').join('|')})`;
const UNIT = '(day|week|month|quarter|year)s?';

export function monthIndex(word: string): number {
  const w = word.toLowerCase().slice(0, 3);
  return MONTHS.findIndex((m) => m.startsWith(w));
}

/** YYYY-MM-DD of a UTC date. */
export function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

function utc(y: number, m: number, d: number): Date {
  return new Date(Date.UTC(y, m, d));
}

function daysInMonth(y: number, m: number): number {
  return new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
}

/** Calendar months back (negative: ahead), clamping the day (Aug 31 − 6 months = Feb 28/29). */
export function monthsBack(now: Date, months: number): Date {
  const total = now.getUTCFullYear() * 12 + now.getUTCMonth() - months;
  const y = Math.floor(total / 12);
  const m = total - y * 12;
  return utc(y, m, Math.min(now.getUTCDate(), daysInMonth(y, m)));
}

/** Calendar days back (UTC), at the day's start. */
export function daysBack(now: Date, days: number): Date {
  return utc(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - days);
}

function dayOf(now: Date): Date {
  return utc(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
}

function countOf(word: string): number {
  const w = word.toLowerCase().replace(/\s+/g, ' ');
  return NUMBER_WORDS[w] ?? Number(w);
}

type CalendarUnit = 'day' | 'week' | 'month' | 'quarter' | 'year';

/** A closed period. */
interface Span {
  from: Date;
  to: Date;
}

/** The whole calendar unit containing `day`, shifted by `shift` units. */
function calendarUnit(day: Date, unit: CalendarUnit, shift: number): Span {
  const y = day.getUTCFullYear();
  const m = day.getUTCMonth();
  switch (unit) {
    case 'day': {
      const d = utc(y, m, day.getUTCDate() + shift);
      return { from: d, to: d };
    }
    case 'week': {
      // ISO weeks start on Monday.
      const monday = day.getUTCDate() - ((day.getUTCDay() + 6) % 7) + shift * 7;
      return { from: utc(y, m, monday), to: utc(y, m, monday + 6) };
    }
    case 'month':
      return { from: utc(y, m + shift, 1), to: utc(y, m + shift + 1, 0) };
    case 'quarter': {
      const q = Math.floor(m / 3) * 3 + shift * 3;
      return { from: utc(y, q, 1), to: utc(y, q + 3, 0) };
    }
    case 'year':
      return { from: utc(y + shift, 0, 1), to: utc(y + shift, 11, 31) };
  }
}

function unitOf(word: string): CalendarUnit {
  return word.toLowerCase().replace(/s$/, '') as CalendarUnit;
}

/** `count` calendar units back from `now` (rolling, day kept). */
function unitsBack(now: Date, unit: CalendarUnit, count: number): Date {
  switch (unit) {
    case 'day': return daysBack(now, count);
    case 'week': return daysBack(now, count * 7);
    case 'month': return monthsBack(now, count);
    case 'quarter': return monthsBack(now, count * 3);
    case 'year': return monthsBack(now, count * 12);
  }
}

/**
 * A period found in the text. `point` periods are closed and can be a range's end ("2024", "March",
 * "last year"); `window` periods are ranges already ("the last 6 months", "this year") and stand alone.
 */
interface Atom {
  start: number;
  end: number;
  kind: 'point' | 'window';
  from: Date;
  /** Null only for open windows. */
  to: Date | null;
  /** For a month, day or quarter named without a year: the same period in another year. */
  inYear?: (year: number) => Span;
  /** The year the words name, when they name one. */
  year?: number;
  /** Already a range of two periods ("March to June 2026"): "from"/"between" before it add nothing. */
  joined?: boolean;
}

type AtomRule = { re: RegExp; atom: (m: RegExpExecArray, now: Date) => Omit<Atom, 'start' | 'end'> | null };

/** The most recent period (of those `inYear` gives) that has begun by `now`. */
function mostRecent(inYear: (year: number) => Span, now: Date): Span {
  const y = now.getUTCFullYear();
  const thisYear = inYear(y);
  return thisYear.from.getTime() <= dayOf(now).getTime() ? thisYear : inYear(y - 1);
}

function yearless(inYear: (year: number) => Span, now: Date): Omit<Atom, 'start' | 'end'> {
  const span = mostRecent(inYear, now);
  return { kind: 'point', ...span, inYear };
}

function fullYear(text: string): number {
  const n = Number(text.replace(/^'/, ''));
  return n < 100 ? 2000 + n : n;
}

const ORDINAL: Record<string, number> = { first: 1, '1st': 1, second: 2, '2nd': 2, third: 3, '3rd': 3, fourth: 4, '4th': 4, last: 4 };

/** Forms read by rule; tried before chrono, and chrono's readings that overlap them are dropped. */
const ATOM_RULES: AtomRule[] = [
  {
    // Rolling windows back: "(in|over) the last 6 months", "past 30 days", "the past year", "the last quarter".
    re: new RegExp(String.raw`\b(?:(?:in|over|during|within|for)\s+)?(the\s+)?(last|past|previous|preceding|trailing)\s+(?:${COUNT}\s+)?${UNIT}\b`, 'gi'),
    atom(m, now) {
      const [, the, which, count, unit] = m;
      // "last year", "previous month" (no "the", no number): the calendar period, read by the next rule.
      if (!the && !count && which!.toLowerCase() !== 'past') return null;
      const n = count ? countOf(count) : 1;
      if (!Number.isFinite(n) || n <= 0) return null;
      return { kind: 'window', from: unitsBack(now, unitOf(unit!), n), to: null };
    },
  },
  {
    // Future windows: "in the next 6 months", "over the coming year".
    re: new RegExp(String.raw`\b(?:(?:in|over|during|within|for)\s+)?(?:the\s+)?(?:next|coming|upcoming)\s+(?:${COUNT}\s+)?${UNIT}\b`, 'gi'),
    atom(m, now) {
      const [whole, count, unit] = m;
      if (!count && !/\bthe\b/i.test(whole)) return null;
      const n = count ? countOf(count) : 1;
      if (!Number.isFinite(n) || n <= 0) return null;
      return { kind: 'window', from: dayOf(now), to: unitsBack(now, unitOf(unit!), -n) };
    },
  },
  {
    re: /\b(?:so\s+far\s+this\s+year|year[\s-]to[\s-]date|ytd)\b/gi,
    atom: (_m, now) => ({ kind: 'window', from: utc(now.getUTCFullYear(), 0, 1), to: null }),
  },
  {
    // Calendar periods relative to now: "last week", "this quarter", "next year", "previous month".
    re: /\b(last|previous|this|current|next|coming)\s+(week|month|quarter|year)\b/gi,
    atom(m, now) {
      const which = m[1]!.toLowerCase();
      const unit = unitOf(m[2]!);
      const day = dayOf(now);
      if (which === 'this' || which === 'current') return { kind: 'window', from: calendarUnit(day, unit, 0).from, to: null };
      const shift = which === 'next' || which === 'coming' ? 1 : -1;
      return { kind: 'point', ...calendarUnit(day, unit, shift) };
    },
  },
  {
    re: /\b(yesterday|today)\b/gi,
    atom: (m, now) => ({ kind: 'point', ...calendarUnit(dayOf(now), 'day', m[1]!.toLowerCase() === 'yesterday' ? -1 : 0) }),
  },
  {
    // "3 months ago", "two years ago": the whole calendar unit that far back.
    re: new RegExp(String.raw`\b${COUNT}\s+${UNIT}\s+ago\b`, 'gi'),
    atom(m, now) {
      const n = countOf(m[1]!);
      if (!Number.isFinite(n)) return null;
      const unit = unitOf(m[2]!);
      return { kind: 'point', ...calendarUnit(unitsBack(now, unit, n), unit, 0) };
    },
  },
  {
    // Quarters: "Q3 2025", "Q3'25", "the third quarter of 2025", "Q1" (most recent begun).
    re: /\b(?:q([1-4])|(first|second|third|fourth|1st|2nd|3rd|4th|last)\s+quarter)(?:\s*(?:of\s+)?(?:(\d{4})|'(\d{2}))\b)?/gi,
    atom(m, now) {
      const q = m[1] ? Number(m[1]) : ORDINAL[m[2]!.toLowerCase()]!;
      const inYear = (y: number): Span => ({ from: utc(y, (q - 1) * 3, 1), to: utc(y, q * 3, 0) });
      const year = m[3] ?? m[4];
      if (year) return { kind: 'point', ...inYear(fullYear(year)), year: fullYear(year) };
      return yearless(inYear, now);
    },
  },
  {
    // Halves: "H1 2026", "the first half of 2026", "second half of 2025".
    re: /\b(?:h([12])|(first|second|1st|2nd)\s+half)\s*(?:of\s+)?(\d{4})\b/gi,
    atom(m) {
      const h = m[1] ? Number(m[1]) : ORDINAL[m[2]!.toLowerCase()]!;
      const y = Number(m[3]);
      return { kind: 'point', from: utc(y, (h - 1) * 6, 1), to: utc(y, h * 6, 0), year: y };
    },
  },
  {
    // Thirds of a year: "early 2025" (Jan–Apr), "mid-2025" (May–Aug), "late 2025" / "end of 2025" (Sep–Dec).
    re: /\b(early|mid|late|(?:the\s+)?(?:end|start|beginning)\s+of)[\s-]+(\d{4})\b/gi,
    atom(m) {
      const word = m[1]!.toLowerCase();
      const third = /early|start|beginning/.test(word) ? 0 : word === 'mid' ? 1 : 2;
      const y = Number(m[2]);
      return { kind: 'point', from: utc(y, third * 4, 1), to: utc(y, third * 4 + 4, 0), year: y };
    },
  },
  {
    // Decades: "the 2010s", "in the 1990s".
    re: /\b(?:the\s+)?((?:19|20)\d0)s\b/gi,
    atom(m) {
      const y = Number(m[1]);
      return { kind: 'point', from: utc(y, 0, 1), to: utc(y + 9, 11, 31) };
    },
  },
  {
    // Decades without their century: "the seventies", "the '70s", "the 70s". The most recent such decade that
    // has begun by `now` ("the seventies" of 2026 are the 1970s); the decade we are in is left unread, as
    // "the twenties" of 2026 may mean either century. "in their 40s" (an age) has no "the" nor apostrophe.
    // The second of two ("the 50s and 60s", "the '80s or '90s") takes the first's "the".
    re: /\bthe\s+(?:['‘’]?([1-9]0)s|(twenties|thirties|forties|fifties|sixties|seventies|eighties|nineties))\b|(?<=\s|^)['‘’]([1-9]0)s\b|(?<=\bthe\s+['‘’]?[1-9]0s\s+(?:and|or|to|through)\s+)([1-9]0)s\b/gi,
    atom(m, now) {
      const digits = m[1] ?? m[3] ?? m[4] ?? String(DECADE_WORDS.indexOf(m[2]!.toLowerCase()) * 10 + 20);
      const within = Number(digits);
      const thisCentury = Math.floor(now.getUTCFullYear() / 100) * 100;
      const y = thisCentury + within <= now.getUTCFullYear() ? thisCentury + within : thisCentury - 100 + within;
      if (y + 9 >= now.getUTCFullYear()) return null;
      return { kind: 'point', from: utc(y, 0, 1), to: utc(y + 9, 11, 31) };
    },
  },
];

/** Decade words from the twenties on, in order (index 0 = the twenties). */
const DECADE_WORDS = ['twenties', 'thirties', 'forties', 'fifties', 'sixties', 'seventies', 'eighties', 'nineties'];

/** A bare year: a date only where a preposition or another period says so (checked in `bareYearAtoms`). */
const BARE_YEAR = /\b((?:19|20)\d{2})\b/g;
/** Words after which a bare year or month name is a date. */
const DATE_PREPOSITION = /\b(?:in|during|throughout|since|from|after|before|until|till|by|between|of|to|and|or|through|thru|starting|beginning|as\s+of|prior\s+to|up\s+to|than|over|for|on)\s+(?:the\s+(?:year|month)\s+(?:of\s+)?)?$|\b(?:post|pre)\s*$|[-–—]\s*$/i;

function claimed(atoms: readonly Atom[], start: number, end: number): boolean {
  return atoms.some((a) => start < a.end && end > a.start);
}

function ruleAtoms(text: string, now: Date): Atom[] {
  const atoms: Atom[] = [];
  for (const rule of ATOM_RULES) {
    for (const m of text.matchAll(rule.re)) {
      const start = m.index;
      const end = start + m[0].length;
      if (claimed(atoms, start, end)) continue;
      const atom = rule.atom(m as RegExpExecArray, now);
      if (atom) atoms.push({ ...atom, start, end });
    }
  }
  return atoms;
}

/** A span from chrono's components: the day when it knows the day, else the month. */
function componentSpan(c: ParsedComponents, year: number, monthMayBeImplied = false): Span | null {
  if (!monthMayBeImplied && !c.isCertain('month')) return null;
  const m = (c.get('month') ?? 1) - 1;
  if (c.isCertain('day')) {
    const d = utc(year, m, c.get('day') ?? 1);
    return { from: d, to: d };
  }
  return { from: utc(year, m, 1), to: utc(year, m + 1, 0) };
}

/** Absolute month and day expressions, read by chrono-node. */
function chronoAtoms(text: string, now: Date, taken: readonly Atom[]): Atom[] {
  const out: Atom[] = [];
  for (const r of chrono.parse(text, { instant: now, timezone: 'UTC' })) {
    const start = r.index;
    const end = start + r.text.length;
    if (claimed(taken, start, end) || !r.start.isCertain('month')) continue;
    const startYear = r.start.isCertain('year') ? r.start.get('year')! : null;
    const endYear = r.end?.isCertain('year') ? r.end.get('year')! : null;
    // Readings that stop inside a word ("6 Sept 6 Be…" as a Buddhist-era year) or name a year no web
    // page is about are not periods.
    if (/^[\p{L}\d]/u.test(text.slice(end)) || [startYear, endYear].some((y) => y !== null && (y < 1900 || y > 2100))) continue;
    // A month name alone needs a preposition before it ("in March"), so "March madness" stays a name.
    if (startYear === null && endYear === null && !r.start.isCertain('day') && !DATE_PREPOSITION.test(text.slice(0, start))) continue;
    const first = (y: number) => componentSpan(r.start, y)!;
    const point = (span: (y: number) => Span, year: number | null): Atom =>
      year !== null ? { start, end, kind: 'point', ...span(year), year } : { start, end, ...yearless(span, now) };
    if (r.end) {
      // chrono joined a range ("Jan 2025 - Mar 2025", "March to June 2026"): one reading, the range rule's.
      const last = (y: number) => componentSpan(r.end!, y, true)!;
      const joined = joinEnds(point(first, startYear), point(last, endYear));
      out.push({ start, end, kind: 'point', ...joined, joined: true });
      continue;
    }
    out.push(point(first, startYear));
  }
  return out;
}

function bareYearAtoms(text: string, taken: readonly Atom[]): Atom[] {
  const out: Atom[] = [];
  for (const m of text.matchAll(BARE_YEAR)) {
    const start = m.index;
    const end = start + m[0].length;
    if (claimed(taken, start, end)) continue;
    const y = Number(m[1]);
    const after = text.slice(end);
    const beside = /^\s*(?:[-–—]|to|and|or|through|thru|until)\s*(?:(?:19|20)\d{2}|q[1-4]|h[12]|the\s+\w+\s+(?:quarter|half)|(?:early|mid|late)\b)/i.test(after);
    if (!DATE_PREPOSITION.test(text.slice(0, start)) && !beside && !OPEN_AFTER.test(after) && !OPEN_BEFORE.test(after)) continue;
    out.push({ start, end, kind: 'point', from: utc(y, 0, 1), to: utc(y, 11, 31), year: y });
  }
  return out;
}

/**
 * Month names chrono left unread (it skips abbreviations standing alone: "between Jan and Mar"): read
 * where a preposition comes before them or a range connector after them, like a bare year.
 */
const MONTH_WORD = new RegExp(String.raw`\b${MONTH_RE}\b\.?`, 'gi');
const RANGE_AFTER = new RegExp(String.raw`^\s*(?:-|–|—|to|until|through|thru|and|or)\s*${MONTH_RE}\b`, 'i');

function monthWordAtoms(text: string, now: Date, taken: readonly Atom[]): Atom[] {
  const out: Atom[] = [];
  for (const m of text.matchAll(MONTH_WORD)) {
    const start = m.index;
    const end = start + m[0].length;
    if (claimed(taken, start, end)) continue;
    if (!DATE_PREPOSITION.test(text.slice(0, start)) && !RANGE_AFTER.test(text.slice(end))) continue;
    const month = monthIndex(m[1]!);
    out.push({ start, end, ...yearless((y) => ({ from: utc(y, month, 1), to: utc(y, month + 1, 0) }), now) });
  }
  return out;
}

/** Every period named in the text, in text order. */
function findAtoms(text: string, now: Date): Atom[] {
  const atoms = ruleAtoms(text, now);
  atoms.push(...chronoAtoms(text, now, atoms));
  atoms.push(...monthWordAtoms(text, now, atoms));
  atoms.push(...bareYearAtoms(text, atoms));
  return atoms.sort((a, b) => a.start - b.start);
}

/** Where a phrase stands in the query. */
export interface PhraseSpan {
  phrase: string;
  start: number;
  end: number;
}

export interface ParsedPeriod {
  range: DateRange;
  /** Character span of the phrase inside the query, so the planner can cut it out. */
  start: number;
  end: number;
}

/** Words that may be a period but are not read as one, and why. */
export interface UnclearPeriod extends PhraseSpan {
  /** `not_understood`: no rule reads it; `second_period`: a search filters on one period, the first. */
  reason: 'not_understood' | 'second_period';
}

export interface PeriodReading {
  /** The first period the query names, or null. */
  period: ParsedPeriod | null;
  /** Phrases that look like periods but are not applied; cut them from criteria and tell the user. */
  unclear: UnclearPeriod[];
}

const RANGE_GAP = /^\s*(?:-|–|—|to|until|till|through|thru)\s*$/i;
const AND_GAP = /^\s*(?:and|&|or)\s*$/i;
/** Words before a period, with what they do to it. Longest first. */
const PREFIX = /\b(?:(between|since|from|after|starting(?:\s+(?:in|from|on))?|beginning(?:\s+(?:in|on))?|as\s+of|no\s+earlier\s+than|before|prior\s+to|earlier\s+than|until|till|up\s+to|by|through|no\s+later\s+than|in|during|throughout|within|over|of|on|for)\s+(?:the\s+(?:(?:year|month)\s+(?:of\s+)?)?)?|(post|pre)(?:-|\s+))$/i;
const OPEN_AFTER = /^\s*(?:onwards?|and\s+(?:later|after|since)|or\s+later)\b/i;
const OPEN_BEFORE = /^\s*(?:and|or)\s+(?:earlier|before)\b/i;

function dayAfter(d: Date): Date {
  return utc(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
}
function dayBefore(d: Date): Date {
  return utc(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - 1);
}

/** Both ends of "A to B": an end without a year takes the other end's, kept in order. */
function joinEnds(a: Atom, b: Atom): { from: Date; to: Date } {
  let first: Span = { from: a.from, to: a.to ?? a.from };
  let last: Span = { from: b.from, to: b.to ?? b.from };
  if (a.inYear && b.inYear) {
    // Neither end names a year: the most recent A, then the first B after it.
    const y = first.from.getUTCFullYear();
    last = b.inYear(y);
    if (last.to < first.from) last = b.inYear(y + 1);
  } else if (a.inYear && b.year !== undefined) {
    first = a.inYear(b.year);
    if (first.from > last.from) first = a.inYear(b.year - 1);
  } else if (b.inYear && a.year !== undefined) {
    last = b.inYear(a.year);
    if (last.to < first.from) last = b.inYear(a.year + 1);
  }
  // Ends named backwards ("2025 to 2019") still name one stretch of time: the span covering both.
  if (last.to < first.from) return { from: last.from, to: first.to };
  return { from: first.from, to: last.to };
}

interface Reading {
  start: number;
  end: number;
  from: Date;
  to: Date | null;
  /** Atoms it consumed. */
  uses: number;
}

/** The phrase that starts at atoms[i]: a range of two periods, a bounded period, or the period alone. */
function readAt(text: string, atoms: readonly Atom[], i: number): Reading {
  const a = atoms[i]!;
  const before = text.slice(0, a.start);
  const prefix = PREFIX.exec(before);
  // "post-2018", "pre-1960": after and before, as people write them before a year.
  const word = (prefix?.[1] ?? { post: 'after', pre: 'before' }[prefix?.[2]?.toLowerCase() ?? ''])?.toLowerCase().replace(/\s+/g, ' ') ?? '';
  const start = prefix ? prefix.index : a.start;
  if (a.kind === 'window' || a.joined) return { start, end: a.end, from: a.from, to: a.to, uses: 1 };
  const b = atoms[i + 1];
  if (b && b.kind === 'point') {
    const gap = text.slice(a.end, b.start);
    const ranged = RANGE_GAP.test(gap) || (AND_GAP.test(gap) && /^(between|in|during|throughout|over|from)$/.test(word));
    if (ranged) {
      const { from, to } = joinEnds(a, b);
      return { start, end: b.end, from, to, uses: 2 };
    }
  }
  const after = text.slice(a.end);
  const openAfter = OPEN_AFTER.exec(after);
  if (openAfter) return { start, end: a.end + openAfter[0].length, from: a.from, to: null, uses: 1 };
  const openBefore = OPEN_BEFORE.exec(after);
  if (openBefore) return { start, end: a.end + openBefore[0].length, from: new Date(`${OPEN_START}T00:00:00Z`), to: a.to, uses: 1 };
  const to = a.to ?? a.from;
  switch (word) {
    // "from 2012" alone is of that time ("papers from the 1970s", "news from March 2025"); from a day it is a
    // start ("from March 3, 2025"); "from 2012 onwards" and "from 2012 to 2015" are read above.
    case 'from':
      if (to.getTime() - a.from.getTime() > 86_400_000) return { start, end: a.end, from: a.from, to, uses: 1 };
      return { start, end: a.end, from: a.from, to: null, uses: 1 };
    case 'since': case 'starting': case 'starting in': case 'starting from': case 'starting on':
    case 'beginning': case 'beginning in': case 'beginning on': case 'as of': case 'no earlier than':
      return { start, end: a.end, from: a.from, to: null, uses: 1 };
    case 'after':
      return { start, end: a.end, from: dayAfter(to), to: null, uses: 1 };
    case 'before': case 'prior to': case 'earlier than':
      return { start, end: a.end, from: new Date(`${OPEN_START}T00:00:00Z`), to: dayBefore(a.from), uses: 1 };
    case 'until': case 'till': case 'up to': case 'by': case 'through': case 'no later than':
      return { start, end: a.end, from: new Date(`${OPEN_START}T00:00:00Z`), to, uses: 1 };
    default:
      return { start, end: a.end, from: a.from, to, uses: 1 };
  }
}

/** Period-like words no rule reads. */
const UNCLEAR_PATTERNS: RegExp[] = [
  /\b(?:(?:in|during|over|since|before|after|by|until|this|last|next|past|coming)\s+)(?:the\s+)?(?:(?:early|late|mid)[\s-]?)?(?:spring|summer|autumn|fall|winter|holidays?|holiday\s+season|christmas|easter)\b(?:\s+(?:of\s+)?\d{4})?/gi,
  /\b(?:fy|fiscal\s+year)\s*'?\d{2,4}\b/gi,
  /\b(?:(?:a|the)\s+)?(?:while|long\s+time|some\s+time|little\s+while)\s+ago\b/gi,
  /\b(?:(?:in|over|during)\s+)?(?:the\s+)?(?:last|past|next|previous|coming|this)\s+(?:few\s+|couple\s+of\s+)?(?:decades?|centur(?:y|ies)|seasons?|semesters?|terms?|fiscal\s+years?)\b/gi,
  /\b(?:(?:in|over|during)\s+)?(?:the\s+)?(?:last|past|next|previous|coming)\s+[a-z-]+\s+(?:days|weeks|months|quarters|years)\b/gi,
  /\b(?:in|during|since|from|before|after)\s+(?:the\s+)?'?\d0s\b/gi,
  /\b\d+\s+(?:days?|weeks?|months?|years?)\s+(?:back|earlier|prior)\b/gi,
  /\b(?:q[1-4]|h[12])\b/gi,
];

function unclearPhrases(text: string, taken: readonly { start: number; end: number }[]): PhraseSpan[] {
  const out: PhraseSpan[] = [];
  for (const re of UNCLEAR_PATTERNS) {
    for (const m of text.matchAll(re)) {
      const start = m.index;
      const end = start + m[0].length;
      if (taken.some((t) => start < t.end && end > t.start) || out.some((t) => start < t.end && end > t.start)) continue;
      out.push({ phrase: m[0].trim(), start, end });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

/**
 * Reads the periods a query names: the first becomes the run's range; later ones and period-like words
 * no rule reads are returned as `unclear` (never half-read into a criterion).
 */
export function readPeriod(query: string, now: Date): PeriodReading {
  const atoms = findAtoms(query, now);
  const readings: Reading[] = [];
  for (let i = 0; i < atoms.length; ) {
    const r = readAt(query, atoms, i);
    readings.push(r);
    i += r.uses;
  }
  const unclear: UnclearPeriod[] = unclearPhrases(query, atoms).map((p) => ({ ...p, reason: 'not_understood' as const }));
  const [first, ...rest] = readings;
  for (const r of rest) unclear.push({ phrase: query.slice(r.start, r.end).trim(), start: r.start, end: r.end, reason: 'second_period' });
  unclear.sort((a, b) => a.start - b.start);
  if (!first) return { period: null, unclear };
  const phrase = query.slice(first.start, first.end).trim();
  return {
    period: { range: { from: isoDay(first.from), to: first.to ? isoDay(first.to) : null, phrase }, start: first.start, end: first.end },
    unclear,
  };
}

/** The first period named in the query, as an absolute range, or null when it names none. */
export function parsePeriod(query: string, now: Date): ParsedPeriod | null {
  return readPeriod(query, now).period;
}

/** The `status` message for a period-like phrase that is not applied. */
export function unclearPeriodMessage(p: Pick<UnclearPeriod, 'phrase' | 'reason'>): string {
  return p.reason === 'second_period'
    ? `Only one date range per search is applied; "${p.phrase}" is not used as a filter.`
    : `Could not read "${p.phrase}" as a date range; searching without it.`;
}

/** The year worth writing into a search query for a range: its start's, or its end's when it has no start. */
export function searchYear(range: Pick<DateRange, 'from' | 'to'> | null): string {
  if (!range) return '';
  if (range.from !== OPEN_START) return range.from.slice(0, 4);
  return range.to?.slice(0, 4) ?? '';
}

/** The range in words for criteria: "between A and B", "on or after A", "on or before B". */
export function describeRange(range: Pick<DateRange, 'from' | 'to'>): string {
  if (range.from === OPEN_START) return range.to ? `on or before ${range.to}` : 'at any date';
  return range.to ? `between ${range.from} and ${range.to}` : `on or after ${range.from}`;
}

/** A date stated in a sentence, with its granularity span. */
export interface StatedDate {
  text: string;
  from: string;
  to: string;
}

const DAY_MONTH_YEAR = new RegExp(String.raw`\b(\d{1,2})(?:st|nd|rd|th)?\s+${MONTH_RE}\.?,?\s+(\d{4})\b`, 'gi');
const MONTH_DAY_YEAR = new RegExp(String.raw`\b${MONTH_RE}\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b`, 'gi');
const ISO = /\b(\d{4})-(\d{2})-(\d{2})\b/g;
const MONTH_YEAR = new RegExp(String.raw`\b${MONTH_RE}\s+(\d{4})\b`, 'gi');

/** Dates stated in a text: full dates (day precision) first, then "March 2025" (month span). */
export function statedDates(text: string): StatedDate[] {
  const out: StatedDate[] = [];
  const taken: [number, number][] = [];
  const push = (m: RegExpExecArray, y: number, mo: number, d: number | null) => {
    if (mo < 0 || y < 1900 || y > 2100) return;
    const s = m.index;
    const e = s + m[0].length;
    if (taken.some(([a, b]) => s < b && e > a)) return;
    taken.push([s, e]);
    const from = utc(y, mo, d ?? 1);
    const to = d === null ? utc(y, mo + 1, 0) : from;
    out.push({ text: m[0], from: isoDay(from), to: isoDay(to) });
  };
  for (const m of text.matchAll(DAY_MONTH_YEAR)) push(m, Number(m[3]), monthIndex(m[2]!), Number(m[1]));
  for (const m of text.matchAll(MONTH_DAY_YEAR)) push(m, Number(m[3]), monthIndex(m[1]!), Number(m[2]));
  for (const m of text.matchAll(ISO)) push(m, Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  for (const m of text.matchAll(MONTH_YEAR)) push(m, Number(m[2]), monthIndex(m[1]!), null);
  return out;
}

/** True when [from, to] of a stated date lies wholly inside the range (open end = no upper bound). */
export function withinRange(date: { from: string; to: string }, range: { from: string; to: string | null }): boolean {
  return date.from >= range.from && (range.to === null || date.to <= range.to);
}

/** Widens a range by `factor` of its length, moving the start back (and the end forward when closed). */
export function widenRange(range: DateRange, now: Date, factor: number): DateRange {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const to = range.to ? Date.parse(`${range.to}T00:00:00Z`) : today;
  if (range.from === OPEN_START) {
    // No lower bound to move: a "before X" range grows forward only, by half the time from X to now.
    const extra = Math.max(Math.round(((today - to) * factor) / 86_400_000), 1) * 86_400_000;
    return { from: OPEN_START, to: range.to ? isoDay(new Date(to + extra)) : null, phrase: range.phrase };
  }
  const from = Date.parse(`${range.from}T00:00:00Z`);
  const span = Math.max(to - from, 86_400_000);
  const extra = Math.round((span * factor) / 2 / 86_400_000) * 86_400_000;
  // Closed ranges grow on both sides; open ones only backwards, since the future holds no events yet.
  const newFrom = new Date(from - (range.to ? extra : extra * 2));
  const newTo = range.to ? new Date(to + extra) : null;
  return { from: isoDay(newFrom), to: newTo ? isoDay(newTo) : null, phrase: range.phrase };
}
