import { describe, expect, it } from 'vitest';
import { parsePeriod, statedDates, widenRange } from './dates.js';

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
