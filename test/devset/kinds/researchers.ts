/**
 * Researcher pages of the fake web, written from the Nobel laureate records (TidyTuesday 2019-05-14): every
 * fact is a record field; phrasings vary per person by a hash of the name.
 */
import { esc, pick } from '../html.js';
import type { DevEntity, ResearcherFields } from '../records.js';
import type { EntityGroup, EntityView, KindSite } from '../site-model.js';

const PRIZE: Record<string, string> = {
  Physics: 'Nobel Prize in Physics',
  Chemistry: 'Nobel Prize in Chemistry',
  Medicine: 'Nobel Prize in Physiology or Medicine',
  Economics: 'Sveriges Riksbank Prize in Economic Sciences',
};
const ROLE: Record<string, string> = { Physics: 'physicist', Chemistry: 'chemist', Medicine: 'medical researcher', Economics: 'economist' };
const SHORT_COUNTRY: Record<string, string> = { 'United States of America': 'USA', 'United Kingdom': 'UK' };

function fieldsOf(e: DevEntity): ResearcherFields {
  if (e.fields.kind !== 'researcher') throw new Error(`${e.key} is not a researcher`);
  return e.fields;
}

function affiliationText(a: ResearcherFields['affiliations'][number]): string {
  return [a.name, a.city, a.country].filter(Boolean).join(', ');
}

function born(f: ResearcherFields): string {
  const place = [f.birthCity, f.birthCountry].filter(Boolean).join(', ');
  return [f.birthDate, place ? `${f.birthDate ? 'in ' : ''}${place}` : null].filter(Boolean).join(' ') || 'Not known';
}

function view(e: DevEntity): EntityView {
  const f = fieldsOf(e);
  const prize = `${PRIZE[f.category] ?? f.category} ${f.prizeYear}`;
  const role = ROLE[f.category] ?? 'researcher';
  const main = f.affiliations[0];
  const she = f.gender === 'Female';
  const tagline = `${role.charAt(0).toUpperCase() + role.slice(1)}${main ? ` at ${main.name}` : ''}; ${prize}`;
  const devFacts: [string, string][] = [
    ['Field', f.category],
    ['Award', prize],
    ['Prize motivation', f.motivation],
    ['Affiliation', f.affiliations.map(affiliationText).join('; ') || 'None listed'],
    ['Born', born(f)],
    ['Gender', f.gender],
  ];
  const testFacts: [string, string][] = [
    ['Discipline', f.category === 'Medicine' ? 'Physiology or Medicine' : f.category],
    ['Laureate of', prize],
    ['Cited for', f.motivation],
    ['Institution', f.affiliations.map(affiliationText).join(' / ') || '—'],
    ['Birth', born(f)],
    ['Sex', f.gender],
  ];
  const pronoun = she ? 'She' : 'He';
  const where = f.affiliations.map((a) => `${a.name}${a.city ? ` in ${a.city}` : ''}${a.country ? ` (${SHORT_COUNTRY[a.country] ?? a.country})` : ''}`);
  const prose = [
    pick([
      `${e.name} is a ${role}${where.length ? ` working at ${where.join(' and at ')}` : ''}.`,
      `${e.name}, a ${role}, ${where.length ? `is affiliated with ${where.join(' and ')}` : 'works independently'}.`,
    ], `${e.slug}:who`),
    `${pronoun} was born${f.birthDate ? ` on ${f.birthDate}` : ''}${f.birthCity || f.birthCountry ? ` in ${[f.birthCity, f.birthCountry].filter(Boolean).join(', ')}` : ''}.`,
    pick([
      `In ${f.prizeYear}, ${e.name} was awarded the ${PRIZE[f.category]} ${f.motivation}.`,
      `${pronoun} received the ${prize} ${f.motivation}.`,
    ], `${e.slug}:prize`),
  ];
  const jsonLd: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': 'Person',
    name: e.name,
    gender: f.gender,
    jobTitle: role,
    ...(f.birthDate ? { birthDate: f.birthDate } : {}),
    ...(f.birthCity || f.birthCountry ? { birthPlace: { '@type': 'Place', name: [f.birthCity, f.birthCountry].filter(Boolean).join(', ') } } : {}),
    ...(f.affiliations.length ? {
      affiliation: f.affiliations.map((a) => ({
        '@type': 'Organization', name: a.name,
        ...(a.city || a.country ? { address: { '@type': 'PostalAddress', ...(a.city ? { addressLocality: a.city } : {}), ...(a.country ? { addressCountry: a.country } : {}) } } : {}),
      })),
    } : {}),
    award: `${prize}, ${f.motivation}`,
    knowsAbout: f.category,
  };
  const line = `${prize}${main ? ` (${main.name})` : ''}`;
  const newsSentence = (name: string) => pick([
    `${name}${main ? ` of ${esc(main.name)}` : ''} shared the ${esc(prize)} ${esc(f.motivation)}.`,
    `${name}, whose work was honoured with the ${esc(prize)}, ${main ? `is at ${esc(main.name)}${main.city ? ` in ${esc(main.city)}` : ''}` : 'was also recognised'}.`,
    `Then there is ${name} (${esc(role)}${main ? `, ${esc(main.name)}` : ''}), ${esc(prize)}.`,
  ], `${e.slug}:news`);
  const cells = {
    Field: f.category,
    Year: String(f.prizeYear),
    Affiliation: f.affiliations.map((a) => a.name).join('; ') || '—',
    Country: [...new Set(f.affiliations.map((a) => a.country).filter(Boolean))].join('; ') || '—',
    Born: born(f),
  };
  return { entity: e, tagline, devFacts, testFacts, prose, jsonLd, line, newsSentence, cells };
}

function groups(entities: readonly DevEntity[]): EntityGroup[] {
  const people = entities.filter((e) => e.fields.kind === 'researcher');
  const f = (e: DevEntity) => e.fields as ResearcherFields;
  const out: EntityGroup[] = [];
  const add = (id: string, listTitle: string, newsTitle: string, newsLead: string, members: DevEntity[]) => {
    if (members.length >= 2) out.push({ id, listTitle, newsTitle, newsLead, members: members.map((m) => m.key) });
  };
  for (const category of [...new Set(people.map((e) => f(e).category))].sort()) {
    add(`field-${category}`, `${PRIZE[category]} laureates`, `Meet the ${category.toLowerCase()} laureates`, `The ${PRIZE[category]} in recent years.`, people.filter((e) => f(e).category === category));
  }
  for (const year of [...new Set(people.map((e) => f(e).prizeYear))].sort()) {
    add(`year-${year}`, `Nobel laureates in the sciences, ${year}`, `The ${year} science prizes`, `This year's prizes in physics, chemistry, medicine and economics.`, people.filter((e) => f(e).prizeYear === year));
  }
  const countries = [...new Set(people.flatMap((e) => f(e).affiliations.map((a) => a.country).filter((c): c is string => Boolean(c))))].sort();
  for (const country of countries) {
    add(`country-${country}`, `Nobel laureates working in ${country}`, `${country}'s Nobel laureates`, `Laureates whose institutions are in ${country}.`, people.filter((e) => f(e).affiliations.some((a) => a.country === country)));
  }
  add('women', 'Women Nobel laureates in the sciences', 'Women who won the science prizes', 'Recent laureates in physics, chemistry, medicine and economics.', people.filter((e) => f(e).gender === 'Female'));
  return out;
}

export const researcherSite: KindSite = {
  kind: 'researcher',
  plural: 'laureates',
  nameColumn: 'Laureate',
  proseTitle: (name) => ({ title: `${name} – biography`, heading: name }),
  columns: ['Field', 'Year', 'Affiliation', 'Country', 'Born'],
  views: (entities) => entities.filter((e) => e.kind === 'researcher').map(view),
  groups,
  sites: {
    profileDev: { host: 'laureatefacts.example', name: 'Laureate Facts' },
    profileTest: { host: 'scholarsdb.example', name: 'ScholarsDB' },
    directory: { host: 'laureatefacts.example', name: 'Laureate Facts' },
    table: { host: 'prizestats.example', name: 'Prize Stats' },
    news: { host: 'sciencedaily-news.example', name: 'Science Daily News' },
    ownFallback: { host: 'researcherpages.example', name: 'Researcher Pages' },
  },
};
