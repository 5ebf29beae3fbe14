/**
 * Paper pages of the fake web, written from the prize-winning paper records (TidyTuesday 2019-05-14):
 * title, authors (as the record abbreviates them), publication year, field and the prize that cited it.
 */
import { esc, pick } from '../html.js';
import type { DevEntity, PaperFields } from '../records.js';
import type { EntityGroup, EntityView, KindSite } from '../site-model.js';

function fieldsOf(e: DevEntity): PaperFields {
  if (e.fields.kind !== 'paper') throw new Error(`${e.key} is not a paper`);
  return e.fields;
}

/** "geim, andre k." → "Andre K. Geim"; "thouless, dj" → "D. J. Thouless"; other forms kept. */
export function authorName(raw: string): string {
  const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
  const m = /^([^,]+),\s*(.+)$/.exec(raw.trim());
  if (!m) return raw.trim().split(/\s+/).map(cap).join(' ');
  const family = m[1]!.trim().split(/\s+/).map(cap).join(' ');
  const given = m[2]!.trim();
  const initials = /^[a-z]{1,3}$/.test(given) ? given.split('').map((c) => `${c.toUpperCase()}.`).join(' ') : given.split(/\s+/).map(cap).join(' ');
  return `${initials} ${family}`;
}

function view(e: DevEntity): EntityView {
  const f = fieldsOf(e);
  const authors = f.authors.map(authorName);
  const byline = authors.length > 1 ? `${authors.slice(0, -1).join(', ')} and ${authors.at(-1)}` : authors[0] ?? 'unknown authors';
  const prize = `Nobel Prize in ${f.field} ${f.prizeYear}`;
  const tagline = `${f.field} paper by ${byline} (${f.pubYear})`;
  const devFacts: [string, string][] = [
    ['Authors', authors.join(', ')],
    ['Published', String(f.pubYear)],
    ['Field', f.field],
    ['Recognition', `Prize-winning paper of the ${prize}`],
  ];
  const testFacts: [string, string][] = [
    ['Written by', authors.join('; ')],
    ['Year', String(f.pubYear)],
    ['Subject', f.field],
    ['Cited by the Nobel committee', prize],
  ];
  const prose = [
    pick([
      `In ${f.pubYear}, ${byline} published “${e.name}”.`,
      `“${e.name}” appeared in ${f.pubYear}; its author${authors.length > 1 ? 's were' : ' was'} ${byline}.`,
    ], `${e.slug}:who`),
    pick([
      `The ${f.field.toLowerCase()} paper was later named among the prize-winning work behind the ${prize}.`,
      `Decades of citations followed, and the work was recognised with the ${prize}.`,
    ], `${e.slug}:prize`),
  ];
  const jsonLd: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': 'ScholarlyArticle',
    headline: e.name,
    name: e.name,
    author: authors.map((a) => ({ '@type': 'Person', name: a })),
    datePublished: String(f.pubYear),
    about: f.field,
    award: `Prize-winning paper, ${prize}`,
  };
  const line = `${byline}, ${f.pubYear} (${f.field})`;
  const newsSentence = (name: string) => pick([
    `${esc(byline)} wrote ${name} in ${f.pubYear}, the ${esc(f.field.toLowerCase())} paper the ${esc(prize)} rests on.`,
    `Among the papers behind the ${esc(prize)}: ${name} (${f.pubYear}).`,
  ], `${e.slug}:news`);
  const cells = { Authors: authors.join(', '), Year: String(f.pubYear), Field: f.field, Prize: prize };
  return { entity: e, tagline, devFacts, testFacts, prose, jsonLd, line, newsSentence, cells };
}

function groups(entities: readonly DevEntity[]): EntityGroup[] {
  const papers = entities.filter((e) => e.fields.kind === 'paper');
  const f = (e: DevEntity) => e.fields as PaperFields;
  const out: EntityGroup[] = [];
  const add = (id: string, listTitle: string, newsTitle: string, newsLead: string, members: DevEntity[], published?: string) => {
    if (members.length >= 2) out.push({ id, listTitle, newsTitle, newsLead, members: members.map((m) => m.key), ...(published ? { published } : {}) });
  };
  for (const field of [...new Set(papers.map((e) => f(e).field))].sort()) {
    for (const decade of [...new Set(papers.filter((e) => f(e).field === field).map((e) => Math.floor(f(e).pubYear / 10) * 10))].sort()) {
      const members = papers.filter((e) => f(e).field === field && Math.floor(f(e).pubYear / 10) * 10 === decade);
      // A list of prize-winning papers can only be written after the last of those prizes.
      const lastPrize = Math.max(...members.map((e) => f(e).prizeYear));
      add(`${field}-${decade}s`, `Prize-winning ${field.toLowerCase()} papers of the ${decade}s`, `${field}: the ${decade}s papers that won Nobel prizes`,
        `Papers published in the ${decade}s that Nobel committees later cited.`, members, `${lastPrize}-11-01`);
    }
  }
  for (const year of [...new Set(papers.map((e) => f(e).prizeYear))].sort()) {
    // Written about the prize, so dated after its announcement, not after the papers.
    add(`prize-${year}`, `Papers behind the ${year} Nobel prizes`, `The papers behind the ${year} prizes`, 'Which papers the committee pointed to.',
      papers.filter((e) => f(e).prizeYear === year), `${year}-10-10`);
  }
  return out;
}

export const paperSite: KindSite = {
  kind: 'paper',
  plural: 'papers',
  nameColumn: 'Title',
  proseTitle: (name) => ({ title: `${name} – summary`, heading: name }),
  columns: ['Authors', 'Year', 'Field', 'Prize'],
  views: (entities) => entities.filter((e) => e.kind === 'paper').map(view),
  groups,
  sites: {
    profileDev: { host: 'paperindex.example', name: 'Paper Index' },
    profileTest: { host: 'citationsdb.example', name: 'CitationsDB' },
    directory: { host: 'paperindex.example', name: 'Paper Index' },
    table: { host: 'prizestats.example', name: 'Prize Stats' },
    news: { host: 'sciencedaily-news.example', name: 'Science Daily News' },
    ownFallback: { host: 'scholarlyarchive.example', name: 'Scholarly Archive' },
  },
};
