import type { DateRange } from '@leadfinder/wire';

/**
 * Periods named in a query, turned into absolute UTC date ranges against the run start, and dates
 * stated in page sentences. Rules (tested with a fixed `now`):
 * - "in the last N days|weeks|months|years", "past year", "over the last 2 weeks": rolling window back from
 *   now (calendar months/years, day of month clamped), open-ended.
 * - "last year" / "last month" without "the"/a number: the previous calendar year / month, closed.
 * - "this year" / "this month": from its first day, open-ended.
 * - "in Q3 2025", "in March 2025", "in 2024"/"during 2024": closed quarter, month or year.
 * - "since March": first of the most recent March not after now, open-ended; "since 2023": from Jan 1.
 */

const MONTHS = [
  'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november',
  'december',
];
const MONTH_RE = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const NUMBER_WORDS: Record<string, number> = {
  a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, eighteen: 18, 'twenty-four': 24,
};

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

/** Calendar months back, clamping the day (Aug 31 − 6 months = Feb 28/29). */
export function monthsBack(now: Date, months: number): Date {
  const total = now.getUTCFullYear() * 12 + now.getUTCMonth() - months;
  const y = Math.floor(total / 12);
  const m = total - y * 12;
  return utc(y, m, Math.min(now.getUTCDate(), daysInMonth(y, m)));
}

function daysBack(now: Date, days: number): Date {
  return utc(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - days);
}

export interface ParsedPeriod {
  range: DateRange;
  /** Character span of the phrase inside the query, so the planner can cut it out. */
  start: number;
  end: number;
}

type Rule = { re: RegExp; build: (m: RegExpExecArray, now: Date) => { from: Date; to: Date | null } | null };

const RULES: Rule[] = [
  {
    // rolling windows: "in the last 6 months", "past year", "over the past two weeks", "last 30 days"
    re: new RegExp(
      String.raw`\b(?:(?:in|over|during|within)\s+)?(?:the\s+)?(?:last|past|previous)\s+(?:(\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|eighteen|twenty-four)\s+)?(day|week|month|quarter|year)s?\b`,
      'i',
    ),
    build(m, now) {
      const phrase = m[0].toLowerCase();
      const count = m[1] ? (NUMBER_WORDS[m[1].toLowerCase()] ?? Number(m[1])) : 1;
      const unit = m[2]!.toLowerCase();
      const bare = !m[1] && !/\b(the|past|previous)\b/.test(phrase);
      if (bare && unit === 'year') {
        const y = now.getUTCFullYear() - 1;
        return { from: utc(y, 0, 1), to: utc(y, 11, 31) };
      }
      if (bare && unit === 'month') {
        const start = monthsBack(utc(now.getUTCFullYear(), now.getUTCMonth(), 1), 1);
        return { from: start, to: utc(start.getUTCFullYear(), start.getUTCMonth(), daysInMonth(start.getUTCFullYear(), start.getUTCMonth())) };
      }
      switch (unit) {
        case 'day': return { from: daysBack(now, count), to: null };
        case 'week': return { from: daysBack(now, count * 7), to: null };
        case 'month': return { from: monthsBack(now, count), to: null };
        case 'quarter': return { from: monthsBack(now, count * 3), to: null };
        default: return { from: monthsBack(now, count * 12), to: null };
      }
    },
  },
  {
    re: /\b(?:(?:in|during)\s+)?(?:the\s+)?(q[1-4])\s+(?:of\s+)?(\d{4})\b/i,
    build(m) {
      const q = Number(m[1]!.slice(1)) - 1;
      const y = Number(m[2]);
      return { from: utc(y, q * 3, 1), to: utc(y, q * 3 + 3, 0) };
    },
  },
  {
    re: /\b(?:(?:in|during)\s+)?(?:the\s+)?(h[12])\s+(?:of\s+)?(\d{4})\b/i,
    build(m) {
      const h = Number(m[1]!.slice(1)) - 1;
      const y = Number(m[2]);
      return { from: utc(y, h * 6, 1), to: utc(y, h * 6 + 6, 0) };
    },
  },
  {
    re: /\b(?:so\s+far\s+)?this\s+(year|month)\b|\byear[\s-]to[\s-]date\b/i,
    build(m, now) {
      if (m[1]?.toLowerCase() === 'month') return { from: utc(now.getUTCFullYear(), now.getUTCMonth(), 1), to: null };
      return { from: utc(now.getUTCFullYear(), 0, 1), to: null };
    },
  },
  {
    re: new RegExp(String.raw`\bsince\s+${MONTH_RE}(?:\s+(\d{4}))?\b`, 'i'),
    build(m, now) {
      const month = monthIndex(m[1]!);
      if (m[2]) return { from: utc(Number(m[2]), month, 1), to: null };
      const y = month <= now.getUTCMonth() ? now.getUTCFullYear() : now.getUTCFullYear() - 1;
      return { from: utc(y, month, 1), to: null };
    },
  },
  {
    re: /\bsince\s+(\d{4})\b/i,
    build: (m) => ({ from: utc(Number(m[1]), 0, 1), to: null }),
  },
  {
    re: new RegExp(String.raw`\b(?:(?:in|during)\s+)?${MONTH_RE}\s+(\d{4})\b`, 'i'),
    build(m) {
      const month = monthIndex(m[1]!);
      const y = Number(m[2]);
      return { from: utc(y, month, 1), to: utc(y, month + 1, 0) };
    },
  },
  {
    re: /\b(?:in|during|throughout)\s+(?:the\s+year\s+)?((?:19|20)\d{2})\b/i,
    build: (m) => ({ from: utc(Number(m[1]), 0, 1), to: utc(Number(m[1]), 11, 31) }),
  },
];

/** The first period named in the query, as an absolute range, or null when it names none. */
export function parsePeriod(query: string, now: Date): ParsedPeriod | null {
  let best: { m: RegExpExecArray; rule: Rule } | null = null;
  for (const rule of RULES) {
    const m = rule.re.exec(query);
    // The first rule that matches wins: rules are ordered from most to least specific.
    if (m) {
      best = { m, rule };
      break;
    }
  }
  if (!best) return null;
  const built = best.rule.build(best.m, now);
  if (!built) return null;
  const phrase = best.m[0].trim();
  return {
    range: { from: isoDay(built.from), to: built.to ? isoDay(built.to) : null, phrase },
    start: best.m.index,
    end: best.m.index + best.m[0].length,
  };
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
  const from = Date.parse(`${range.from}T00:00:00Z`);
  const to = range.to ? Date.parse(`${range.to}T00:00:00Z`) : Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const span = Math.max(to - from, 86_400_000);
  const extra = Math.round((span * factor) / 2 / 86_400_000) * 86_400_000;
  // Closed ranges grow on both sides; open ones only backwards, since the future holds no events yet.
  const newFrom = new Date(from - (range.to ? extra : extra * 2));
  const newTo = range.to ? new Date(to + extra) : null;
  return { from: isoDay(newFrom), to: newTo ? isoDay(newTo) : null, phrase: range.phrase };
}
