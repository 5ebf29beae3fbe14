import type { EntityType } from '@leadfinder/wire';
import type { SampleEntity } from '../../services/fetcher/src/providers/corpus/sample/index.js';

/**
 * The quality set: queries over the sample corpus and the rows a careful reader of those pages would
 * list. Expected rows come from the generator's records (what the pages were written from), never from
 * a reasoner's output. Dates are computed here independently of the filter's date rules.
 */
export interface QualityCase {
  query: string;
  entityType: EntityType;
  expect: (e: SampleEntity, now: Date) => boolean;
}

const DAY = 86_400_000;
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
    query: 'climate tech startups in London that raised a Series B last year',
    entityType: 'company',
    expect: (e, now) => e.type === 'company' && e.topic === 'climate tech' && e.city === 'London' && e.label === 'Series B' && year(e, now.getUTCFullYear() - 1),
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
  { query: 'papers on graph neural networks published in 2024', entityType: 'paper', expect: (e) => e.type === 'paper' && e.topic === 'graph neural networks' && year(e, 2024) },
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
  { query: 'crime novels published in 2025', entityType: 'book', expect: (e) => e.type === 'book' && e.topic === 'crime novel' && year(e, 2025) },
  {
    query: 'synth-pop music videos released in the last 6 months',
    entityType: 'music_video',
    expect: (e, now) => e.type === 'music_video' && e.topic === 'synth-pop' && on(e, monthsBefore(now, 6)),
  },
  { query: 'photography exhibitions in Paris', entityType: 'exhibition', expect: (e) => e.type === 'exhibition' && e.topic === 'photography' && e.city === 'Paris' },
  { query: 'AI conferences in London in 2026', entityType: 'conference', expect: (e) => e.type === 'conference' && e.topic === 'AI' && e.city === 'London' && year(e, 2026) },
  { query: 'freelance UX designers in Lisbon', entityType: 'freelancer', expect: (e) => e.type === 'freelancer' && e.topic === 'UX designer' && e.city === 'Lisbon' },
  {
    query: 'news about electric buses in Hamburg in the last 3 months',
    entityType: 'news',
    expect: (e, now) => e.type === 'news' && e.topic === 'electric buses' && e.city === 'Hamburg' && on(e, monthsBefore(now, 3)),
  },
  { query: 'smart thermostats launched in 2025', entityType: 'product', expect: (e) => e.type === 'product' && e.topic === 'smart thermostat' && year(e, 2025) },
];

/** The names a careful reader expects for a case. */
export function expectedNames(c: QualityCase, entities: readonly SampleEntity[], now: Date): string[] {
  return entities.filter((e) => c.expect(e, now)).map((e) => e.name);
}

void DAY;
