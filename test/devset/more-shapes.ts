/**
 * Three more page shapes of the tuning half (dev), written from the records' fields after conventions of the
 * open web, not from any other shape's labels or sentences:
 *
 * - `profile-card`: a business or scholarly database profile (the Crunchbase / LinkedIn / Google Scholar
 *   kind): facts as `dl` groups (`<div><dt>…</dt><dd>…</dd></div>`) under those sites' labels, values as those
 *   sites print them: a headcount bucket ("501-1,000 employees"), a US state spelled out ("San Francisco,
 *   California, United States"), a funding status ("IPO", "M&A"), an operating status ("Closed"), a company
 *   type ("Non-profit"), "Actively recruiting", a batch code ("Y Combinator W12"), a date of birth in words.
 * - `homepage-ld`: an entity's own home page whose facts are only in a schema.org JSON-LD `@graph` (a WebSite,
 *   a WebPage pointing at the entity by `@id`, the entity itself): a text address, an employee range
 *   (minValue/maxValue), keywords as an array, PropertyValue facts, worksFor and birthPlace objects.
 * - `roundup`: a press roundup (a "week in review" column) naming three entities per page in prose, each name
 *   linked to the entity's own page, its facts said in sentences (where, what, how many, what became of it).
 *
 * Together they make a dev web shaped like much of the open web: no directory or table of every fact, single
 * entity pages in two unlike shapes, and prose that names several entities. `npm run quality -- --split dev
 * --shapes profile-card,homepage-ld,roundup` measures the engine on them alone.
 */
import { addDays, batchCode, documentHtml, esc, hashOf, pick, prizeName, slugify, thousands } from './html.js';
import type { CompanyFields, DevEntity, PaperFields, Place, ResearcherFields } from './records.js';
import type { EntityGroup } from './site-model.js';

export type MoreShape = 'profile-card' | 'homepage-ld' | 'roundup';

export interface MorePage {
  url: string;
  shape: MoreShape;
  title: string;
  description: string;
  published: string | null;
  html: string;
  entities: string[];
}

const DATABASE: Record<DevEntity['kind'], { host: string; name: string; path: string }> = {
  company: { host: 'bizgraph.example', name: 'BizGraph', path: 'organization' },
  researcher: { host: 'scholarindex.example', name: 'Scholar Index', path: 'profile' },
  paper: { host: 'paperhub.example', name: 'PaperHub', path: 'paper' },
};
const OWN_FALLBACK: Record<DevEntity['kind'], string> = {
  company: 'orgsites.example', researcher: 'researcherpages.example', paper: 'scholarlyarchive.example',
};
const ROUNDUP = { host: 'dailybrief.example', name: 'The Daily Brief' };
const PER_ROUNDUP = 3;

const US_STATES: Record<string, string> = {
  AL: 'Alabama', AK: 'Alaska', AZ: 'Arizona', AR: 'Arkansas', CA: 'California', CO: 'Colorado', CT: 'Connecticut', DE: 'Delaware',
  DC: 'District of Columbia', FL: 'Florida', GA: 'Georgia', HI: 'Hawaii', ID: 'Idaho', IL: 'Illinois', IN: 'Indiana', IA: 'Iowa',
  KS: 'Kansas', KY: 'Kentucky', LA: 'Louisiana', ME: 'Maine', MD: 'Maryland', MA: 'Massachusetts', MI: 'Michigan', MN: 'Minnesota',
  MS: 'Mississippi', MO: 'Missouri', MT: 'Montana', NE: 'Nebraska', NV: 'Nevada', NH: 'New Hampshire', NJ: 'New Jersey',
  NM: 'New Mexico', NY: 'New York', NC: 'North Carolina', ND: 'North Dakota', OH: 'Ohio', OK: 'Oklahoma', OR: 'Oregon',
  PA: 'Pennsylvania', RI: 'Rhode Island', SC: 'South Carolina', SD: 'South Dakota', TN: 'Tennessee', TX: 'Texas', UT: 'Utah',
  VT: 'Vermont', VA: 'Virginia', WA: 'Washington', WV: 'West Virginia', WI: 'Wisconsin', WY: 'Wyoming',
};
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function country(c: string | null): string | null {
  if (!c) return null;
  return c === 'USA' || c === 'United States of America' ? 'United States' : c;
}

/** As business databases print a place: a US state spelled out, other regions' codes left out. */
function databasePlace(p: Place): string {
  const us = p.country === 'USA';
  const region = us && p.region ? US_STATES[p.region] ?? p.region : null;
  return [p.city, region, country(p.country)].filter(Boolean).join(', ');
}

/** "1951-03-03" → "March 3, 1951". */
function usDate(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number);
  return `${MONTHS[(m ?? 1) - 1]} ${d}, ${y}`;
}

/** The headcount bucket a professional network shows. */
export function sizeBucket(n: number): { min: number; max: number | null; text: string } {
  const buckets: [number, number | null][] = [[1, 10], [11, 50], [51, 200], [201, 500], [501, 1000], [1001, 5000], [5001, 10000], [10001, null]];
  const [min, max] = buckets.find(([lo, hi]) => n >= lo && (hi === null || n <= hi)) ?? [1, 10];
  return { min, max, text: max === null ? `${thousands(min)}+ employees` : `${thousands(min)}-${thousands(max)} employees` };
}

/** "thouless, dj" → "D.J. Thouless" (another way of printing the record's abbreviated names). */
export function authorName(raw: string): string {
  const [last, given] = raw.split(',').map((s) => s.trim());
  const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
  const family = (last ?? '').split(/\s+/).map(cap).join(' ');
  if (!given) return family;
  const first = /^[a-z]{1,3}$/.test(given) ? given.toUpperCase().split('').map((c) => `${c}.`).join('') : given.split(/\s+/).map(cap).join(' ');
  return `${first} ${family}`;
}

function databaseUrl(e: DevEntity): string {
  const d = DATABASE[e.kind];
  return `https://${d.host}/${d.path}/${e.slug}`;
}

function homepageUrl(e: DevEntity): string {
  return e.domain ? `https://${e.domain}/` : `https://${OWN_FALLBACK[e.kind]}/${e.slug}/`;
}

// ── profile-card ────────────────────────────────────────────────────────────────────────────────

function cardFacts(e: DevEntity): [string, string][] {
  const f = e.fields;
  if (f.kind === 'company') {
    const c = f as CompanyFields;
    const funding = c.status === 'Public' ? 'IPO' : c.status === 'Acquired' ? 'M&A' : c.stage === 'Growth' ? 'Late Stage Venture' : 'Early Stage Venture';
    const work = c.regions.includes('Fully Remote') ? 'Remote' : c.regions.includes('Partly Remote') ? 'Hybrid' : 'On-site';
    const rows: [string, string | null][] = [
      ['Industries', [c.industry !== 'Unspecified' ? c.industry : null, c.subindustry].filter(Boolean).join(', ') || null],
      ['HQ', c.places[0] ? databasePlace(c.places[0]) : c.remote ? 'Remote' : null],
      ['Other offices', c.places.slice(1).map(databasePlace).join('; ') || null],
      ['Company size', c.teamSize !== null ? sizeBucket(c.teamSize).text : null],
      ['Launch year', e.date ? e.date.slice(0, 4) : null],
      ['Operating status', c.status === 'Inactive' ? 'Closed' : 'Active'],
      ['Funding status', c.nonprofit ? null : funding],
      ['Company type', c.nonprofit ? 'Non-profit' : 'For Profit'],
      ['Specialties', c.tags.join(', ') || null],
      ['Careers', c.hiring ? 'Actively recruiting' : 'No openings right now'],
      ['Program', c.batch ? `Y Combinator ${batchCode(c.batch)}` : null],
      ['Work arrangement', work],
      ['Website', c.website ? c.website.replace(/^https?:\/\//, '').replace(/\/$/, '') : null],
    ];
    return rows.filter((r): r is [string, string] => r[1] !== null);
  }
  if (f.kind === 'researcher') {
    const r = f as ResearcherFields;
    const aff = r.affiliations.map((a) => [a.name, a.city, country(a.country)].filter(Boolean).join(', '));
    const rows: [string, string | null][] = [
      ['Research areas', r.category === 'Medicine' ? 'Physiology, Medicine' : r.category],
      ['Current affiliation', aff[0] ?? null],
      ['Past affiliations', aff.slice(1).join('; ') || null],
      ['Honours', `${prizeName(r.category)} (${r.prizeYear})`],
      ['Date of birth', r.birthDate ? usDate(r.birthDate) : null],
      ['Place of birth', [r.birthCity, country(r.birthCountry)].filter(Boolean).join(', ') || null],
      ['Pronouns', r.gender === 'Female' ? 'she/her' : 'he/him'],
    ];
    return rows.filter((x): x is [string, string] => x[1] !== null);
  }
  const p = f as PaperFields;
  return [
    ['Authors', p.authors.map(authorName).join(', ')],
    ['Year', String(p.pubYear)],
    ['Fields of study', p.field],
    ['Honours', `Cited for the ${prizeName(p.field)} ${p.prizeYear}`],
  ];
}

function cardTagline(e: DevEntity): string {
  const f = e.fields;
  if (f.kind === 'company') return (f as CompanyFields).oneLiner || `${e.name} on ${DATABASE.company.name}`;
  if (f.kind === 'researcher') {
    const r = f as ResearcherFields;
    return `${r.category === 'Medicine' ? 'Medical researcher' : r.category === 'Economics' ? 'Economist' : `${r.category} researcher`}${r.affiliations[0] ? `, ${r.affiliations[0].name}` : ''}`;
  }
  const p = f as PaperFields;
  return `${p.field} · ${p.pubYear}`;
}

export function profileCardPage(e: DevEntity, day: string): MorePage {
  const site = DATABASE[e.kind];
  const url = databaseUrl(e);
  const tagline = cardTagline(e);
  const facts = cardFacts(e).map(([label, value]) => `<div class="field"><dt>${esc(label)}</dt><dd>${esc(value)}</dd></div>`).join('\n');
  const title = `${e.name} - ${e.kind === 'company' ? 'Company Profile' : e.kind === 'researcher' ? 'Scholar Profile' : 'Paper details'} | ${site.name}`;
  const body = `<main><section class="hero"><h1>${esc(e.name)}</h1>\n<p class="tagline">${esc(tagline)}</p></section>\n<section><h2>Details</h2>\n<dl class="details">\n${facts}\n</dl></section></main>`;
  const published = e.date ?? day;
  return { url, shape: 'profile-card', title, description: tagline, published, entities: [e.key], html: documentHtml({ url, title, description: tagline, published, siteName: site.name, body }) };
}

// ── homepage-ld ─────────────────────────────────────────────────────────────────────────────────

function entityLd(e: DevEntity, url: string): Record<string, unknown> {
  const f = e.fields;
  const id = `${url}#entity`;
  if (f.kind === 'company') {
    const c = f as CompanyFields;
    const size = c.teamSize !== null ? sizeBucket(c.teamSize) : null;
    const status = c.status === 'Public' ? 'Publicly traded' : c.status === 'Acquired' ? 'Acquired' : c.status === 'Inactive' ? 'Closed' : 'Independent';
    return {
      '@type': c.nonprofit ? ['Organization', 'NGO'] : 'Organization',
      '@id': id,
      name: e.name,
      url,
      description: c.oneLiner,
      ...(c.places.length ? { address: c.places.map((p) => [p.city, p.region, country(p.country)].filter(Boolean).join(', ')).join('; ') } : {}),
      ...(e.date ? { foundingDate: e.date.slice(0, 4) } : {}),
      ...(size ? { numberOfEmployees: { '@type': 'QuantitativeValue', minValue: size.min, ...(size.max !== null ? { maxValue: size.max } : {}) } } : {}),
      ...(c.tags.length ? { keywords: c.tags } : {}),
      ...(c.industry !== 'Unspecified' ? { industry: c.subindustry ?? c.industry } : {}),
      ...(c.nonprofit ? { nonprofitStatus: 'https://schema.org/Nonprofit501c3' } : {}),
      additionalProperty: [
        { '@type': 'PropertyValue', name: 'Ownership', value: status },
        { '@type': 'PropertyValue', name: 'Open roles', value: c.hiring ? 'Yes' : 'No' },
        ...(c.batch ? [{ '@type': 'PropertyValue', name: 'Accelerator batch', value: `YC ${batchCode(c.batch)}` }] : []),
        ...(c.regions.includes('Fully Remote') ? [{ '@type': 'PropertyValue', name: 'Workplace', value: 'Fully remote' }] : []),
      ],
    };
  }
  if (f.kind === 'researcher') {
    const r = f as ResearcherFields;
    return {
      '@type': 'Person',
      '@id': id,
      name: e.name,
      url,
      ...(r.birthDate ? { birthDate: r.birthDate } : {}),
      ...(r.birthCity || r.birthCountry ? { birthPlace: { '@type': 'Place', address: { '@type': 'PostalAddress', ...(r.birthCity ? { addressLocality: r.birthCity } : {}), ...(r.birthCountry ? { addressCountry: country(r.birthCountry) } : {}) } } } : {}),
      ...(r.affiliations.length ? {
        worksFor: r.affiliations.map((a) => ({ '@type': 'CollegeOrUniversity', name: a.name, ...(a.city || a.country ? { location: [a.city, country(a.country)].filter(Boolean).join(', ') } : {}) })),
      } : {}),
      award: `${prizeName(r.category)} ${r.prizeYear}`,
      knowsAbout: r.category === 'Medicine' ? ['Physiology', 'Medicine'] : [r.category],
      gender: `https://schema.org/${r.gender === 'Female' ? 'Female' : 'Male'}`,
    };
  }
  const p = f as PaperFields;
  return {
    '@type': 'ScholarlyArticle',
    '@id': id,
    headline: e.name,
    author: p.authors.map((a) => ({ '@type': 'Person', name: authorName(a) })),
    datePublished: `${p.pubYear}`,
    genre: p.field,
    award: `${prizeName(p.field)} ${p.prizeYear}`,
  };
}

export function homepageLdPage(e: DevEntity, day: string): MorePage {
  const url = homepageUrl(e);
  const tagline = cardTagline(e);
  const siteName = e.domain ? e.name : OWN_FALLBACK[e.kind];
  const graph = {
    '@context': 'https://schema.org',
    '@graph': [
      { '@type': 'WebSite', '@id': `${url}#website`, url, name: siteName },
      { '@type': e.kind === 'researcher' ? 'ProfilePage' : 'WebPage', '@id': `${url}#webpage`, url, isPartOf: { '@id': `${url}#website` }, about: { '@id': `${url}#entity` }, ...(e.kind === 'researcher' ? { mainEntity: { '@id': `${url}#entity` } } : {}) },
      entityLd(e, url),
    ],
  };
  const title = e.kind === 'company' ? `${e.name} | Home` : `${e.name} — home page`;
  const body = `<main><section class="hero"><h1>${esc(e.name)}</h1>\n<p>${esc(tagline)}</p>\n<p><a href="${esc(url)}contact">Get in touch</a></p></section></main>`;
  const published = e.date ?? day;
  return { url, shape: 'homepage-ld', title, description: tagline, published, entities: [e.key], html: documentHtml({ url, title, description: tagline, published, siteName, body, jsonLd: [graph] }) };
}

// ── roundup ─────────────────────────────────────────────────────────────────────────────────────

/** Hosts of each kind's prose page when the entity has no domain of its own (pages.ts aboutUrl). */
function aboutUrl(e: DevEntity): string {
  return e.domain ? `https://${e.domain}/about` : `https://${OWN_FALLBACK[e.kind]}/${e.slug}/about`;
}

/** The entity's own page on this web: its home page, else its database profile, else its about page. */
function link(e: DevEntity, shapes: readonly string[]): string {
  const target = shapes.includes('homepage-ld') ? homepageUrl(e) : shapes.includes('profile-card') ? databaseUrl(e) : shapes.includes('about') ? aboutUrl(e) : databaseUrl(e);
  return `<a href="${esc(target)}">${esc(e.name)}</a>`;
}

function roundupParagraph(e: DevEntity, shapes: readonly string[]): string {
  const a = link(e, shapes);
  const f = e.fields;
  const seed = `${e.slug}:roundup`;
  if (f.kind === 'company') {
    const c = f as CompanyFields;
    const city = c.places[0]?.city ?? null;
    const where = c.places[0] ? databasePlace(c.places[0]) : null;
    const area = c.industry === 'Unspecified' ? (c.tags[0] ?? 'technology') : (c.subindustry ?? c.industry);
    const pitch = esc((c.oneLiner || area).replace(/\.$/, ''));
    const fate = c.status === 'Acquired' ? ' It was later bought by a larger company.' : c.status === 'Public' ? ' Its shares now trade on a public stock exchange.' : c.status === 'Inactive' ? ' It has since closed its doors.' : '';
    const size = c.teamSize !== null ? ` The team counts ${thousands(c.teamSize)} people.` : '';
    const jobs = c.hiring ? ' It is recruiting, too.' : '';
    const form = c.nonprofit ? ' It is a non-profit.' : '';
    return pick([
      `${a} (${esc(where ?? 'location undisclosed')}) pitches itself simply: ${pitch}.${size}${fate}${form}`,
      `${city ? `Out of ${esc(city)} comes ${a}` : `Next up is ${a}`}, working in ${esc(area.toLowerCase() === 'b2b' ? 'B2B' : area)}.${form} ${pitch}.${fate}${jobs}`,
      `We also spoke with ${a}${where ? `, headquartered in ${esc(where)}` : ''}. In its own words: ${pitch}.${size}${jobs}${form}${fate}`,
    ], seed);
  }
  if (f.kind === 'researcher') {
    const r = f as ResearcherFields;
    const aff = r.affiliations[0];
    const born = r.birthCity || r.birthCountry ? [r.birthCity, country(r.birthCountry)].filter(Boolean).join(', ') : null;
    return pick([
      `${a}${aff ? `, of ${esc(aff.name)}${aff.city ? ` in ${esc(aff.city)}` : ''},` : ''} received the ${esc(prizeName(r.category))} in ${r.prizeYear}.${born ? ` ${r.gender === 'Female' ? 'She' : 'He'} was born in ${esc(born)}.` : ''}`,
      `${born ? `Born in ${esc(born)}, ${a}` : a} ${aff ? `now works at ${esc(aff.name)}${aff.country ? ` (${esc(country(aff.country)!)})` : ''}` : 'was also honoured'} and shares the ${r.prizeYear} ${esc(prizeName(r.category))}.`,
    ], seed);
  }
  const p = f as PaperFields;
  const authors = p.authors.map(authorName).join(', ');
  return pick([
    `“${a}” (${p.pubYear}), by ${esc(authors)}, is among the ${esc(p.field.toLowerCase())} work cited for the ${esc(prizeName(p.field))} ${p.prizeYear}.`,
    `In ${p.pubYear} ${esc(authors)} published ${a}; the ${esc(prizeName(p.field))} followed in ${p.prizeYear}.`,
  ], seed);
}

/** Roundup pages for a group: three entities a page, dated a little after the latest of them. */
export function roundupPages(g: EntityGroup, members: readonly DevEntity[], day: string, shapes: readonly string[]): MorePage[] {
  const out: MorePage[] = [];
  for (let i = 0; i < members.length; i += PER_ROUNDUP) {
    const part = members.slice(i, i + PER_ROUNDUP);
    const dates = part.map((m) => m.date).filter((d): d is string => Boolean(d)).sort();
    const published = g.published ? addDays(g.published, 3 + (hashOf(`${g.id}:${i}`) % 30)) : dates.at(-1) ? addDays(dates.at(-1)!, 20 + (hashOf(`${g.id}:${i}`) % 60)) : day;
    const n = i / PER_ROUNDUP + 1;
    const url = `https://${ROUNDUP.host}/roundups/${members[0]?.kind ?? 'all'}/${slugify(g.id)}${n === 1 ? '' : `-${n}`}`;
    const title = `The week in review: ${g.listTitle.replace(/^./, (c) => c.toLowerCase())}${n === 1 ? '' : `, part ${n}`}`;
    const paragraphs = part.map((m) => `<p>${roundupParagraph(m, shapes)}</p>`).join('\n');
    const description = `${part.map((m) => m.name).join(', ')}: this week's roundup.`;
    const body = `<main><article><h1>${esc(title)}</h1>\n<p class="byline">${esc(ROUNDUP.name)} · ${published}</p>\n${paragraphs}\n<p>That's all for this week. Tips and corrections are welcome.</p></article></main>`;
    out.push({ url, shape: 'roundup', title, description, published, entities: part.map((m) => m.key),
      html: documentHtml({ url, title: `${title} | ${ROUNDUP.name}`, description, published, siteName: ROUNDUP.name, body, head: '<meta property="og:type" content="article">' }) });
  }
  return out;
}
