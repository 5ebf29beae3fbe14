import type { EntityType } from '@leadfinder/wire';
import type { SampleEntity } from '@leadfinder/fetcher';

/**
 * The quality set: queries over the sample corpus and the rows a careful reader of those pages would
 * list. Expected rows come from the generator's records (what the pages were written from), never from
 * a reasoner's output. Dates are computed here independently of the filter's date rules.
 *
 * The corpus is dated relative to the day it is written, so a fixed year in a query would have no answer
 * on many days. A dated case therefore names the calendar year holding the most records of its subject in
 * that day's world (see `resolveCases`): the question always has answers; the answers are still every
 * record that matches.
 */
export interface QualityCase {
  /** The query text; a function for dated cases, given the year they ask about. */
  query: string | ((year: number) => string);
  entityType: EntityType;
  /** Whether a record is a right answer; `year` is the year the query names (dated cases only). */
  expect: (e: SampleEntity, now: Date, year: number) => boolean;
}

/** A case made concrete for one day's world. */
export interface ResolvedCase {
  query: string;
  entityType: EntityType;
  /** Names a careful reader lists, each once. */
  expected: string[];
}

function day(d: Date): string {
  return d.toISOString().slice(0, 10);
}
/** The same calendar day `months` months earlier (day clamped to the month's length). */
function monthsBefore(now: Date, months: number): string {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth() - months;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return day(new Date(Date.UTC(y, m, Math.min(now.getUTCDate(), last))));
}
const on = (e: SampleEntity, from: string, to: string | null = null) => e.date !== null && e.date >= from && (to === null || e.date <= to);
const year = (e: SampleEntity, y: number) => on(e, `${y}-01-01`, `${y}-12-31`);

export const QUALITY_CASES: QualityCase[] = [
  {
    query: 'AI startups in Berlin that raised a seed round in the last year',
    entityType: 'company',
    expect: (e, now) => e.type === 'company' && e.topic === 'AI' && e.city === 'Berlin' && e.label === 'seed' && on(e, monthsBefore(now, 12)),
  },
  {
    query: 'fintech startups in Berlin that raised a Series A in the last 6 months',
    entityType: 'company',
    expect: (e, now) => e.type === 'company' && e.topic === 'fintech' && e.city === 'Berlin' && e.label === 'Series A' && on(e, monthsBefore(now, 6)),
  },
  { query: 'healthtech startups in Munich', entityType: 'company', expect: (e) => e.type === 'company' && e.topic === 'healthtech' && e.city === 'Munich' },
  {
    query: (y) => `climate tech startups in London that raised a Series B in ${y}`,
    entityType: 'company',
    expect: (e, _now, y) => e.type === 'company' && e.topic === 'climate tech' && e.city === 'London' && e.label === 'Series B' && year(e, y),
  },
  { query: 'cybersecurity companies in Paris', entityType: 'company', expect: (e) => e.type === 'company' && e.topic === 'cybersecurity' && e.city === 'Paris' },
  {
    query: 'e-commerce startups in Amsterdam that raised funding in the past year',
    entityType: 'company',
    expect: (e, now) => e.type === 'company' && e.topic === 'e-commerce' && e.city === 'Amsterdam' && on(e, monthsBefore(now, 12)),
  },
  {
    query: 'CTOs of fintech companies in London',
    entityType: 'professional',
    expect: (e) => e.type === 'professional' && e.label === 'CTO' && e.topic === 'fintech' && e.city === 'London',
  },
  { query: 'heads of marketing in Amsterdam', entityType: 'professional', expect: (e) => e.type === 'professional' && e.label === 'Head of Marketing' && e.city === 'Amsterdam' },
  { query: 'machine learning researchers in Munich', entityType: 'researcher', expect: (e) => e.type === 'researcher' && e.topic === 'machine learning' && e.city === 'Munich' },
  {
    query: (y) => `papers on graph neural networks published in ${y}`,
    entityType: 'paper',
    expect: (e, _now, y) => e.type === 'paper' && e.topic === 'graph neural networks' && year(e, y),
  },
  {
    query: 'reinforcement learning papers published in the last year',
    entityType: 'paper',
    expect: (e, now) => e.type === 'paper' && e.topic === 'reinforcement learning' && on(e, monthsBefore(now, 12)),
  },
  { query: 'employment lawyers in Hamburg', entityType: 'lawyer', expect: (e) => e.type === 'lawyer' && e.topic === 'employment' && e.city === 'Hamburg' },
  { query: 'cardiologists in Munich', entityType: 'clinician', expect: (e) => e.type === 'clinician' && e.topic === 'cardiologist' && e.city === 'Munich' },
  { query: 'dermatologists in Berlin', entityType: 'clinician', expect: (e) => e.type === 'clinician' && e.topic === 'dermatologist' && e.city === 'Berlin' },
  {
    query: 'science fiction novels published this year',
    entityType: 'book',
    expect: (e, now) => e.type === 'book' && e.topic === 'science fiction novel' && on(e, `${now.getUTCFullYear()}-01-01`),
  },
  { query: (y) => `crime novels published in ${y}`, entityType: 'book', expect: (e, _now, y) => e.type === 'book' && e.topic === 'crime novel' && year(e, y) },
  {
    query: 'synth-pop music videos released in the last 6 months',
    entityType: 'music_video',
    expect: (e, now) => e.type === 'music_video' && e.topic === 'synth-pop' && on(e, monthsBefore(now, 6)),
  },
  { query: 'photography exhibitions in Paris', entityType: 'exhibition', expect: (e) => e.type === 'exhibition' && e.topic === 'photography' && e.city === 'Paris' },
  {
    query: (y) => `AI conferences in London in ${y}`,
    entityType: 'conference',
    expect: (e, _now, y) => e.type === 'conference' && e.topic === 'AI' && e.city === 'London' && year(e, y),
  },
  { query: 'freelance UX designers in Lisbon', entityType: 'freelancer', expect: (e) => e.type === 'freelancer' && e.topic === 'UX designer' && e.city === 'Lisbon' },
  {
    query: 'news about electric buses in Hamburg in the last 3 months',
    entityType: 'news',
    expect: (e, now) => e.type === 'news' && e.topic === 'electric buses' && e.city === 'Hamburg' && on(e, monthsBefore(now, 3)),
  },
  {
    // "last year" is the previous calendar year; the generator dates four thermostats in it every day.
    query: 'smart thermostats launched last year',
    entityType: 'product',
    expect: (e, now) => e.type === 'product' && e.topic === 'smart thermostat' && year(e, now.getUTCFullYear() - 1),
  },
];

/** The year a dated case asks about: the one holding the most of its answers in this world (ties: later). */
function busiestYear(c: QualityCase, entities: readonly SampleEntity[], now: Date): number {
  const years = new Set(entities.filter((e) => e.date !== null).map((e) => Number(e.date!.slice(0, 4))));
  let best = now.getUTCFullYear();
  let bestCount = -1;
  for (const y of [...years].sort()) {
    const count = entities.filter((e) => c.expect(e, now, y)).length;
    if (count >= bestCount) [best, bestCount] = [y, count];
  }
  return best;
}

/**
 * The cases made concrete for the world of `now`. Each expected name is listed once: two records can
 * share a name (news headlines are written from city, topic and a number), and a table keyed by name
 * can only list such a name once.
 */
export function resolveCases(entities: readonly SampleEntity[], now: Date): ResolvedCase[] {
  return QUALITY_CASES.map((c) => {
    const y = typeof c.query === 'string' ? now.getUTCFullYear() : busiestYear(c, entities, now);
    return {
      query: typeof c.query === 'string' ? c.query : c.query(y),
      entityType: c.entityType,
      expected: [...new Set(entities.filter((e) => c.expect(e, now, y)).map((e) => e.name))],
    };
  });
}
