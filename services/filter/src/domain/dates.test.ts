import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeRange, OPEN_START, parsePeriod, readPeriod, searchYear, statedDates, unclearPeriodMessage, widenRange } from './dates.js';

const NOW = new Date('2026-03-15T10:30:00Z');
const range = (q: string, now = NOW) => {
  const p = parsePeriod(q, now);
  return p ? { from: p.range.from, to: p.range.to } : null;
};

describe('periods named in a query become absolute ranges against the run start', () => {
  it('"in the last 6 months" starts six calendar months back and stays open', () => {
    expect(range('fintech startups that raised in the last 6 months')).toEqual({ from: '2025-09-15', to: null });
  });
  it('"past year" and "in the last year" are rolling twelve months', () => {
    expect(range('papers from the past year')).toEqual({ from: '2025-03-15', to: null });
    expect(range('raised a seed round in the last year')).toEqual({ from: '2025-03-15', to: null });
  });
  it('"last 2 weeks" counts back fourteen days', () => {
    expect(range('news from the last 2 weeks')).toEqual({ from: '2026-03-01', to: null });
  });
  it('clamps the day when the earlier month is shorter', () => {
    expect(range('in the last 6 months', new Date('2025-08-31T00:00:00Z'))).toEqual({ from: '2025-02-28', to: null });
  });
  it('"in Q3 2025" is the closed quarter', () => {
    expect(range('startups that raised in Q3 2025')).toEqual({ from: '2025-07-01', to: '2025-09-30' });
  });
  it('"since March" is the most recent March not after now', () => {
    expect(range('hiring since March')).toEqual({ from: '2026-03-01', to: null });
    expect(range('hiring since May')).toEqual({ from: '2025-05-01', to: null });
  });
  it('"during 2024" and "in 2024" are the closed year', () => {
    expect(range('papers published during 2024')).toEqual({ from: '2024-01-01', to: '2024-12-31' });
    expect(range('papers published in 2024')).toEqual({ from: '2024-01-01', to: '2024-12-31' });
  });
  it('"this year" runs from January 1 to now, open-ended', () => {
    expect(range('novels published this year')).toEqual({ from: '2026-01-01', to: null });
  });
  it('"last year" is the closed previous calendar year', () => {
    expect(range('raised a Series B last year')).toEqual({ from: '2025-01-01', to: '2025-12-31' });
  });
  it('"in March 2025" is the closed month', () => {
    expect(range('launched in March 2025')).toEqual({ from: '2025-03-01', to: '2025-03-31' });
  });
  it('keeps the words it came from and where they stand in the query', () => {
    const p = parsePeriod('AI startups in Berlin that raised a seed round in the last year', NOW)!;
    expect(p.range.phrase).toBe('in the last year');
    expect('AI startups in Berlin that raised a seed round in the last year'.slice(p.start, p.end).trim()).toBe('in the last year');
  });
  it('a query without a period has no range', () => {
    expect(parsePeriod('cardiologists in Munich', NOW)).toBeNull();
  });
});

describe('dates stated in page sentences', () => {
  it('reads day-month-year, month-day-year, ISO and month-year forms', () => {
    expect(statedDates('announced on 14 March 2025 that').map((d) => d.from)).toEqual(['2025-03-14']);
    expect(statedDates('on March 14, 2025,').map((d) => d.from)).toEqual(['2025-03-14']);
    expect(statedDates('dated 2025-03-14.').map((d) => d.from)).toEqual(['2025-03-14']);
    expect(statedDates('in March 2025.')).toEqual([{ text: 'March 2025', from: '2025-03-01', to: '2025-03-31' }]);
  });
});

describe('widening a range', () => {
  it('moves an open range start back by half its length', () => {
    const wide = widenRange({ from: '2025-09-15', to: null, phrase: 'x' }, NOW, 0.5);
    const days = (iso: string) => (Date.parse('2026-03-15') - Date.parse(iso)) / 86_400_000;
    expect(Math.abs(days(wide.from) - 1.5 * days('2025-09-15'))).toBeLessThanOrEqual(1);
    expect(wide.to).toBeNull();
  });
  it('grows a closed range on both sides', () => {
    const wide = widenRange({ from: '2024-01-01', to: '2024-12-31', phrase: 'in 2024' }, NOW, 0.5);
    expect(wide.from < '2024-01-01' && wide.to! > '2024-12-31').toBe(true);
  });
});

/**
 * One row per phrasing, against one injected clock (Sunday 2026-03-15): the query, the range it must
 * become (`to: null` = open-ended, OPEN_START = no lower bound) and the words it came from.
 */
const PHRASINGS: [query: string, from: string, to: string | null, phrase: string][] = [
  // Rolling windows back from the run start, open-ended.
  ['fintech startups that raised in the last 6 months', '2025-09-15', null, 'in the last 6 months'],
  ['papers from the past year', '2025-03-15', null, 'from the past year'],
  ['news from the past week', '2026-03-08', null, 'from the past week'],
  ['launches in the past 30 days', '2026-02-13', null, 'in the past 30 days'],
  ['raised over the last two weeks', '2026-03-01', null, 'over the last two weeks'],
  ['hiring within the last 18 months', '2024-09-15', null, 'within the last 18 months'],
  ['acquired in the last quarter', '2025-12-15', null, 'in the last quarter'],
  ['funded in the last 2 years', '2024-03-15', null, 'in the last 2 years'],
  ['past 90 days', '2025-12-15', null, 'past 90 days'],
  ['raised in the last few months', '2025-12-15', null, 'in the last few months'],
  ['trailing 12 months', '2025-03-15', null, 'trailing 12 months'],
  // Calendar periods relative to now, closed.
  ['raised last month', '2026-02-01', '2026-02-28', 'last month'],
  ['raised last year', '2025-01-01', '2025-12-31', 'last year'],
  ['raised last quarter', '2025-10-01', '2025-12-31', 'last quarter'],
  ['announced last week', '2026-03-02', '2026-03-08', 'last week'],
  ['results of previous month', '2026-02-01', '2026-02-28', 'of previous month'],
  ['announced yesterday', '2026-03-14', '2026-03-14', 'yesterday'],
  ['news today', '2026-03-15', '2026-03-15', 'today'],
  ['raised 3 months ago', '2025-12-01', '2025-12-31', '3 months ago'],
  ['founded two years ago', '2024-01-01', '2024-12-31', 'two years ago'],
  // The current period, open-ended.
  ['news from this week', '2026-03-09', null, 'from this week'],
  ['novels published this year', '2026-01-01', null, 'this year'],
  ['deals this month', '2026-03-01', null, 'this month'],
  ['deals this quarter', '2026-01-01', null, 'this quarter'],
  ['revenue so far this year', '2026-01-01', null, 'so far this year'],
  ['year to date filings', '2026-01-01', null, 'year to date'],
  // Future periods, closed.
  ['conferences next year', '2027-01-01', '2027-12-31', 'next year'],
  ['events next month', '2026-04-01', '2026-04-30', 'next month'],
  ['launches next quarter', '2026-04-01', '2026-06-30', 'next quarter'],
  ['conferences in the next 6 months', '2026-03-15', '2026-09-15', 'in the next 6 months'],
  // Absolute periods, closed.
  ['papers published in 2024', '2024-01-01', '2024-12-31', 'in 2024'],
  ['papers published during 2024', '2024-01-01', '2024-12-31', 'during 2024'],
  ['filings in the year 2023', '2023-01-01', '2023-12-31', 'in the year 2023'],
  ['startups that raised in Q3 2025', '2025-07-01', '2025-09-30', 'in Q3 2025'],
  ['results in the third quarter of 2025', '2025-07-01', '2025-09-30', 'in the third quarter of 2025'],
  ['deals in Q4', '2025-10-01', '2025-12-31', 'in Q4'],
  ['in the first half of 2026', '2026-01-01', '2026-06-30', 'in the first half of 2026'],
  ['in H2 2025', '2025-07-01', '2025-12-31', 'in H2 2025'],
  ['launched in early 2025', '2025-01-01', '2025-04-30', 'in early 2025'],
  ['launched mid-2025', '2025-05-01', '2025-08-31', 'mid-2025'],
  ['launched in late 2025', '2025-09-01', '2025-12-31', 'in late 2025'],
  ['bands of the 1990s', '1990-01-01', '1999-12-31', 'of the 1990s'],
  ['launched in March 2025', '2025-03-01', '2025-03-31', 'in March 2025'],
  ['launched in Sept 2025', '2025-09-01', '2025-09-30', 'in Sept 2025'],
  ['hired in January', '2026-01-01', '2026-01-31', 'in January'],
  ['hired in December', '2025-12-01', '2025-12-31', 'in December'],
  ['announced on 3 March 2025', '2025-03-03', '2025-03-03', 'on 3 March 2025'],
  ['announced on March 3rd, 2025', '2025-03-03', '2025-03-03', 'on March 3rd, 2025'],
  // Ranges: start of the first to the end of the last; a missing year is borrowed.
  ['raised funding between January and March 2026', '2026-01-01', '2026-03-31', 'between January and March 2026'],
  ['launched from March to June 2026', '2026-03-01', '2026-06-30', 'from March to June 2026'],
  ['papers published in 2024 and 2025', '2024-01-01', '2025-12-31', 'in 2024 and 2025'],
  ['from 2024 to 2025', '2024-01-01', '2025-12-31', 'from 2024 to 2025'],
  ['filings 2024-2025', '2024-01-01', '2025-12-31', '2024-2025'],
  ['deals Jan-Mar 2026', '2026-01-01', '2026-03-31', 'Jan-Mar 2026'],
  ['between Jan and Mar', '2026-01-01', '2026-03-31', 'between Jan and Mar'],
  ['between November and February', '2025-11-01', '2026-02-28', 'between November and February'],
  ['from Dec 2025 to Feb 2026', '2025-12-01', '2026-02-28', 'from Dec 2025 to Feb 2026'],
  ['between Q4 2025 and Q1 2026', '2025-10-01', '2026-03-31', 'between Q4 2025 and Q1 2026'],
  ['in Q1-Q3 2025', '2025-01-01', '2025-09-30', 'in Q1-Q3 2025'],
  ['in May or June 2025', '2025-05-01', '2025-06-30', 'in May or June 2025'],
  ['between 2024-01-01 and 2024-06-30', '2024-01-01', '2024-06-30', 'between 2024-01-01 and 2024-06-30'],
  ['on March 3-5, 2025', '2025-03-03', '2025-03-05', 'on March 3-5, 2025'],
  // Open bounds.
  ['founded before 2025', OPEN_START, '2024-12-31', 'before 2025'],
  ['founded before March 2026', OPEN_START, '2026-02-28', 'before March 2026'],
  ['filed until last month', OPEN_START, '2026-02-28', 'until last month'],
  ['shipped by the end of 2025', OPEN_START, '2025-12-31', 'by the end of 2025'],
  ['hiring since March', '2026-03-01', null, 'since March'],
  ['hiring since May', '2025-05-01', null, 'since May'],
  ['active since 2023', '2023-01-01', null, 'since 2023'],
  ['active since last year', '2025-01-01', null, 'since last year'],
  ['listed after June 2025', '2025-07-01', null, 'after June 2025'],
  ['after Q2 2025', '2025-07-01', null, 'after Q2 2025'],
  ['from March 3, 2025', '2025-03-03', null, 'from March 3, 2025'],
  // "from" a year or a decade alone is of that time; from a day it is a start.
  ['papers from the 1970s', '1970-01-01', '1979-12-31', 'from the 1970s'],
  // A decade without its century: the most recent one begun by the clock.
  ['physics publications of the seventies', '1970-01-01', '1979-12-31', 'of the seventies'],
  ['papers from the \'80s', '1980-01-01', '1989-12-31', 'from the \'80s'],
  ['bands of the 90s', '1990-01-01', '1999-12-31', 'of the 90s'],
  ['startups of the 10s', '2010-01-01', '2019-12-31', 'of the 10s'],
  ['laureates from 2012', '2012-01-01', '2012-12-31', 'from 2012'],
  ['2023 onwards', '2023-01-01', null, '2023 onwards'],
  ['in 2025 or later', '2025-01-01', null, 'in 2025 or later'],
];

describe(`${PHRASINGS.length} phrasings, one policy per form (clock: 2026-03-15)`, () => {
  it('has at least 60 rows', () => expect(PHRASINGS.length).toBeGreaterThanOrEqual(60));
  it.each(PHRASINGS)('%s → %s..%s', (query, from, to, phrase) => {
    const p = parsePeriod(query, NOW);
    expect(p?.range).toEqual({ from, to, phrase });
    expect(query.slice(p!.start, p!.end).trim()).toBe(phrase);
  });
});

describe('words that are not periods, or periods no rule reads', () => {
  it.each(['cardiologists in Munich', 'March madness fans', 'companies with 2000 employees', 'Fortune 500 companies', 'companies that may raise a round', 'founders in their 40s'])(
    '"%s" names no period and nothing unclear', (query) => {
      expect(readPeriod(query, NOW)).toEqual({ period: null, unclear: [] });
    },
  );
  it.each([
    ['startups that raised in the spring', 'in the spring'],
    ['results for FY25', 'FY25'],
    ['founded a while ago', 'a while ago'],
    ['growth over the past decade', 'over the past decade'],
  ])('"%s" is unclear, never a range: "%s"', (query, phrase) => {
    const r = readPeriod(query, NOW);
    expect(r.period).toBeNull();
    expect(r.unclear).toEqual([{ phrase, start: query.indexOf(phrase), end: query.indexOf(phrase) + phrase.length, reason: 'not_understood' }]);
    expect(unclearPeriodMessage(r.unclear[0]!)).toContain(phrase);
  });
  it('applies the first of two periods and reports the second', () => {
    const r = readPeriod('founded in 2019 that raised in 2025', NOW);
    expect(r.period?.range).toEqual({ from: '2019-01-01', to: '2019-12-31', phrase: 'in 2019' });
    expect(r.unclear).toMatchObject([{ phrase: 'in 2025', reason: 'second_period' }]);
  });
  it('leaves no date words behind once the phrase is cut (no garbled criterion)', () => {
    const q = 'fintech startups that raised funding between January and March 2026';
    const p = parsePeriod(q, NOW)!;
    expect(`${q.slice(0, p.start)}${q.slice(p.end)}`.trim()).toBe('fintech startups that raised funding');
  });
});

describe('ranges in words', () => {
  it('says open, closed and open-start ranges plainly', () => {
    expect(describeRange({ from: '2025-01-01', to: '2025-12-31' })).toBe('between 2025-01-01 and 2025-12-31');
    expect(describeRange({ from: '2025-01-01', to: null })).toBe('on or after 2025-01-01');
    expect(describeRange({ from: OPEN_START, to: '2024-12-31' })).toBe('on or before 2024-12-31');
  });
  it('gives the year a search query should carry, never the open start', () => {
    expect(searchYear({ from: '2025-01-01', to: '2025-12-31' })).toBe('2025');
    expect(searchYear({ from: OPEN_START, to: '2024-12-31' })).toBe('2024');
    expect(searchYear(null)).toBe('');
  });
  it('widens an open-start range forward only, keeping it open-start', () => {
    const wide = widenRange({ from: OPEN_START, to: '2024-12-31', phrase: 'before 2025' }, NOW, 0.5);
    expect(wide.from).toBe(OPEN_START);
    expect(wide.to! > '2024-12-31').toBe(true);
  });
});

describe('any mix of date words', () => {
  const WORDS = [
    'in', 'the', 'last', 'past', 'next', 'this', 'since', 'before', 'after', 'between', 'and', 'to', 'from', 'until', '-',
    'January', 'Mar', 'May', 'Sept', 'December', 'Q1', 'Q4', 'H2', 'first half of', 'early', 'late', '2019', '2024',
    '2025', '2030', '6', 'two', 'few', 'months', 'month', 'weeks', 'year', 'quarter', 'days', 'ago', 'onwards',
    'yesterday', 'spring', 'FY25', 'startups', 'raised', 'Berlin', 'the 2010s', '3 March 2025', '2025-06-30',
  ];
  it('always gives a well-formed range (ISO days, from ≤ to) whose phrase is the span it names', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 9 }), fc.integer({ min: 0, max: 3650 }), (words, days) => {
        const query = words.join(' ');
        const now = new Date(Date.UTC(2024, 0, 1) + days * 86_400_000);
        const { period, unclear } = readPeriod(query, now);
        for (const u of unclear) expect(query.slice(u.start, u.end).trim()).toBe(u.phrase);
        if (!period) return;
        expect(period.range.from).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        if (period.range.to !== null) {
          expect(period.range.to).toMatch(/^\d{4}-\d{2}-\d{2}$/);
          expect(period.range.from <= period.range.to).toBe(true);
        }
        expect(query.slice(period.start, period.end).trim()).toBe(period.range.phrase);
      }),
      { numRuns: 3000, seed: 16 },
    );
  });
});
