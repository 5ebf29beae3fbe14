/**
 * Two dev-only probe shapes (issue 14), written from the records' fields, phrasing chosen per entity by a hash,
 * as sites the other shapes do not imitate write the same facts. Served only when named in `--shapes` (never in
 * the default dev web, so the figures of record do not move with them):
 *
 * - `facts-variants`: an entity's profile on a registry or database, its facts as that site prints them:
 *   a company register (`<dl>` per fact: "Registered office address", "Company status", "Incorporated on",
 *   "Nature of business (SIC)"), a startup network (`<p><b>Label</b><br>value</p>` blocks: "Locations" as
 *   "SF Bay Area", "Company size" as "51–200 people", "Markets", "Founded 2012"), a private-markets database (a
 *   two-column `td`/`td` table: "Year Founded", "Ownership Status", "Employees", "Corporate Office", "Primary
 *   Industry"), a knowledge base (`th`/`td` statements, or a `dl` whose `dt` has several `dd`, lower-case
 *   property names: "instance of", "inception" as "Jan 2015", "headquarters location", "country", "industry",
 *   "employer", "award received", "place of birth"), a researcher registry (`div`-wrapped `dl` groups:
 *   "Employment" as "Org: City, Country", "Distinctions"), a university staff page (`<p><b>…</b><br>…</p>`),
 *   and paper indexes ("Publication year", "Authors" with one `dd` each, "Fields of Study", "Topics").
 * - `article-variants`: news and blog articles naming several entities: a funding-style roundup with a bulleted
 *   list, a paragraph listing "X, Y and Z", a quote attributed to someone at the company, names linked to the
 *   entity's own page or not linked at all, a "(YC S21)" parenthetical, a byline naming the writer, and a
 *   "Related stories" box naming entities outside the article (noise).
 *
 * `npm run quality -- --split dev --shapes facts-variants` (and `article-variants`, or both together: the
 * articles then link to the profiles).
 */
import { countryName as country } from './extra-shapes.js';
import { addDays, batchCode, documentHtml, esc, hashOf, pick, prizeName, slugify, thousands } from './html.js';
import { authorName, sizeBucket } from './more-shapes.js';
import type { CompanyFields, DevEntity, PaperFields, Place, ResearcherFields } from './records.js';
import type { EntityGroup } from './site-model.js';

export type ProbeShape = 'facts-variants' | 'article-variants';

export interface ProbePage {
  url: string;
  shape: ProbeShape;
  title: string;
  description: string;
  published: string | null;
  html: string;
  entities: string[];
}

const STATES: Record<string, string> = {
  CA: 'California', NY: 'New York', MA: 'Massachusetts', WA: 'Washington', TX: 'Texas', IL: 'Illinois', CO: 'Colorado',
  GA: 'Georgia', PA: 'Pennsylvania', FL: 'Florida', UT: 'Utah', OR: 'Oregon', DC: 'District of Columbia', NJ: 'New Jersey',
  MI: 'Michigan', MN: 'Minnesota', NC: 'North Carolina', VA: 'Virginia', MD: 'Maryland', OH: 'Ohio', AZ: 'Arizona',
  CT: 'Connecticut', DE: 'Delaware', TN: 'Tennessee', MO: 'Missouri', WI: 'Wisconsin', IN: 'Indiana', NV: 'Nevada',
};
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const LONG_MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
/** Cities a startup network files under the Bay Area (as such sites do), by the record's city. */
const BAY_AREA = new Set(['San Francisco', 'Oakland', 'Berkeley', 'Palo Alto', 'Mountain View', 'San Mateo', 'Menlo Park', 'Redwood City', 'South San Francisco', 'Sunnyvale', 'San Jose', 'Santa Clara', 'Emeryville', 'Burlingame', 'Foster City']);

const seedOf = (e: DevEntity, what: string) => `${e.key}:probe:${what}`;

/** "San Francisco, California, United States" (a US state spelled out; other regions as the record codes them are left out). */
function longPlace(p: Place): string {
  const us = p.country === 'USA';
  return [p.city, us && p.region ? STATES[p.region] ?? p.region : null, country(p.country)].filter(Boolean).join(', ');
}

/** "San Francisco, CA" for US places, "Berlin, Germany" elsewhere. */
function shortPlace(p: Place): string {
  return p.country === 'USA' ? [p.city, p.region].filter(Boolean).join(', ') || 'United States' : [p.city, country(p.country)].filter(Boolean).join(', ');
}

/** "2015-03-12" → "Mar 2015" or "12 March 2015". */
function monthYear(iso: string): string {
  const [y, m] = iso.split('-').map(Number);
  return `${MONTHS[(m ?? 1) - 1]} ${y}`;
}
function dayMonthYear(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number);
  return `${d} ${LONG_MONTHS[(m ?? 1) - 1]} ${y}`;
}

function area(c: CompanyFields): string {
  return c.industry === 'Unspecified' ? (c.tags[0] ?? 'Technology') : (c.subindustry ?? c.industry);
}

function sizeRange(n: number, dash: string, unit: string): string {
  const b = sizeBucket(n);
  return b.max === null ? `${thousands(b.min)}+ ${unit}` : `${thousands(b.min)}${dash}${thousands(b.max)} ${unit}`;
}

// ── facts-variants ──────────────────────────────────────────────────────────────────────────────

type Markup = 'dl' | 'dl-groups' | 'dl-multi' | 'table-th' | 'table-td' | 'p-br';
/** One fact; several values are printed as several `dd` (or joined where the markup has one cell). */
type Fact = [label: string, values: string[]];

interface FactsSite {
  host: string;
  name: string;
  path: string;
  markup: Markup;
  facts: Fact[];
  /** A line under the heading, as the site prints one (never a fact). */
  kicker: string;
}

const one = (label: string, value: string | null | undefined): Fact[] => (value ? [[label, [value]]] : []);

function companySites(e: DevEntity, c: CompanyFields): FactsSite[] {
  const hq = c.places[0] ?? null;
  const founded = e.date;
  const sic = [c.subindustry ?? (c.industry !== 'Unspecified' ? c.industry : null), ...c.tags.slice(0, 1)].filter(Boolean).join(' — ');
  const register: FactsSite = {
    host: 'companyregister.example', name: 'Company Register', path: 'company', markup: pick<Markup>(['dl', 'dl-groups'], seedOf(e, 'reg')),
    kicker: `Company number ${String(hashOf(e.key) % 100000000).padStart(8, '0')}`,
    facts: [
      ...one('Registered office address', hq ? longPlace(hq) : null),
      ['Company status', [c.status === 'Inactive' ? 'Dissolved' : c.status === 'Acquired' ? 'Active - acquired' : 'Active']],
      ['Company type', [c.nonprofit ? 'Private company limited by guarantee (charity)' : c.status === 'Public' ? 'Public limited company' : 'Private limited company']],
      ...one('Incorporated on', founded ? dayMonthYear(founded) : null),
      ...one('Nature of business (SIC)', sic || null),
      ...one('Employees', c.teamSize !== null ? thousands(c.teamSize) : null),
    ],
  };
  const bay = hq?.city && BAY_AREA.has(hq.city) && hashOf(seedOf(e, 'bay')) % 2 === 0;
  const network: FactsSite = {
    host: 'startupnetwork.example', name: 'StartupNetwork', path: 'company', markup: 'p-br',
    kicker: c.oneLiner || area(c),
    facts: [
      ...one('Locations', c.places.length ? c.places.map((p, i) => (i === 0 && bay ? 'SF Bay Area' : shortPlace(p))).join(' · ') : c.remote ? 'Remote' : null),
      ...one('Company size', c.teamSize !== null ? sizeRange(c.teamSize, pick(['–', '-'], seedOf(e, 'dash')), 'people') : null),
      ...one('Markets', [area(c), ...c.tags].filter((t, i, all) => all.indexOf(t) === i).join(' · ')),
      ...one('Founded', founded ? pick([`Founded ${founded.slice(0, 4)}`, founded.slice(0, 4)], seedOf(e, 'fy')) : null),
      ...one('Accelerator', c.batch ? `YC ${batchCode(c.batch)}` : null),
      ['Jobs', [c.hiring ? pick(['Actively hiring', 'Hiring now'], seedOf(e, 'hiring')) : 'Not currently hiring']],
      ...one('Type', c.nonprofit ? 'Nonprofit' : null),
      ...one('Status', c.status === 'Acquired' ? 'Acquired' : c.status === 'Public' ? 'Public' : c.status === 'Inactive' ? pick(['Closed', 'Shut down'], seedOf(e, 'closed')) : null),
    ],
  };
  const ownership = c.status === 'Public' ? 'Publicly Held' : c.status === 'Acquired' ? pick(['Acquired/Merged', 'Acquired/Merged (Operating Subsidiary)'], seedOf(e, 'own')) : c.status === 'Inactive' ? 'Out of Business' : c.nonprofit ? 'Nonprofit' : 'Privately Held (backing)';
  const deals: FactsSite = {
    host: 'dealbase.example', name: 'DealBase', path: 'profiles/company', markup: 'table-td',
    kicker: `${e.name} General Information`,
    facts: [
      ...one('Year Founded', founded ? founded.slice(0, 4) : null),
      ['Ownership Status', [ownership]],
      ...one('Status', c.status === 'Public' ? 'Public' : c.status === 'Acquired' ? `Acquired by a larger company` : c.status === 'Inactive' ? 'Out of Business' : 'Private'),
      ...one('Employees', c.teamSize !== null ? thousands(c.teamSize) : null),
      ...one('Corporate Office', hq ? `${shortPlace(hq)}${hq.country === 'USA' ? ', United States' : ''}` : null),
      ...one('Primary Industry', area(c)),
      ...one('Verticals', c.tags.join(', ') || null),
      ...one('Financing Status', c.batch ? 'Accelerator/Incubator Backed' : null),
    ],
  };
  const instance = c.nonprofit ? 'nonprofit organization' : c.status === 'Public' ? 'public company' : c.status === 'Inactive' ? 'defunct organization' : c.status === 'Acquired' ? 'subsidiary' : pick(['business', 'startup company', 'enterprise'], seedOf(e, 'inst'));
  const kb: FactsSite = {
    host: 'knowledgebase.example', name: 'KnowledgeBase', path: 'entity', markup: pick<Markup>(['table-th', 'dl-multi'], seedOf(e, 'kb')),
    kicker: `${c.nonprofit ? 'nonprofit organization' : 'company'}`,
    facts: [
      ['instance of', [instance]],
      ...one('inception', founded ? pick([monthYear(founded), founded.slice(0, 4)], seedOf(e, 'inc')) : null),
      ...one('headquarters location', hq ? hq.city ?? (hq.region && hq.country === 'USA' ? STATES[hq.region] ?? hq.region : country(hq.country)) : null),
      ...one('country', hq ? (hq.country === 'USA' ? 'United States of America' : country(hq.country)) : null),
      ['industry', [area(c), ...c.tags.slice(0, 2)].filter((t, i, all) => all.indexOf(t) === i)],
      ...one('employees', c.teamSize !== null ? thousands(c.teamSize) : null),
      ...one('member of', c.batch ? `Y Combinator (${c.batch})` : null),
    ],
  };
  return [register, network, deals, kb];
}

function researcherSites(e: DevEntity, r: ResearcherFields): FactsSite[] {
  const field = r.category === 'Medicine' ? 'physiology or medicine' : r.category.toLowerCase();
  const born = [r.birthCity, country(r.birthCountry)].filter(Boolean).join(', ');
  const registry: FactsSite = {
    host: 'researcherid.example', name: 'ResearcherID', path: 'record', markup: 'dl-groups',
    kicker: `${String(hashOf(e.key) % 10000).padStart(4, '0')}-000${hashOf(e.key) % 10}-${String(hashOf(e.slug) % 10000).padStart(4, '0')}`,
    facts: [
      ...one('Employment', r.affiliations.map((a) => `${a.name}: ${[a.city, country(a.country)].filter(Boolean).join(', ')}`.replace(/: $/, '')).join('; ') || null),
      ['Keywords', [r.category === 'Medicine' ? 'Physiology, Medicine' : r.category]],
      ['Distinctions', [`${prizeName(r.category)} (${r.prizeYear})`]],
      ...one('Country', r.affiliations[0]?.country ? country(r.affiliations[0].country) : null),
    ],
  };
  const kb: FactsSite = {
    host: 'knowledgebase.example', name: 'KnowledgeBase', path: 'entity', markup: pick<Markup>(['table-th', 'dl-multi'], seedOf(e, 'kb')),
    kicker: `${r.gender === 'Female' ? 'female' : 'male'} ${r.category === 'Medicine' ? 'physician-scientist' : r.category === 'Economics' ? 'economist' : `${r.category.toLowerCase() === 'physics' ? 'physicist' : 'chemist'}`}`,
    facts: [
      ['instance of', ['human']],
      ['sex or gender', [r.gender.toLowerCase()]],
      ...one('date of birth', r.birthDate ? pick([dayMonthYear(r.birthDate), r.birthDate.slice(0, 4)], seedOf(e, 'dob')) : null),
      ...one('place of birth', born || null),
      ...(r.affiliations.length ? [['employer', r.affiliations.map((a) => a.name)] as Fact] : []),
      ['field of work', [field]],
      ['award received', [`${prizeName(r.category)} (${r.prizeYear})`]],
    ],
  };
  const aff = r.affiliations[0];
  const staff: FactsSite = {
    host: 'faculty.example', name: 'Faculty Directory', path: 'people', markup: 'p-br',
    kicker: pick(['Professor', 'Emeritus Professor', 'Distinguished Professor'], seedOf(e, 'rank')),
    facts: [
      ...one('Department', r.category === 'Economics' ? 'Department of Economics' : r.category === 'Medicine' ? 'School of Medicine' : `Department of ${r.category}`),
      ...one('Institution', aff?.name),
      ...one('Campus', aff ? [aff.city, country(aff.country)].filter(Boolean).join(', ') || null : null),
      ['Honours', [pick([`Nobel Laureate in ${r.category === 'Medicine' ? 'Physiology or Medicine' : r.category}, ${r.prizeYear}`, `${prizeName(r.category)}, ${r.prizeYear}`], seedOf(e, 'hon'))]],
      ...one('Born', r.birthDate ? `${monthYear(r.birthDate)}${born ? `, ${born}` : ''}` : born || null),
    ],
  };
  return [registry, kb, staff];
}

function paperSites(e: DevEntity, p: PaperFields): FactsSite[] {
  const authors = p.authors.map(authorName);
  const index: FactsSite = {
    host: 'openworks.example', name: 'OpenWorks', path: 'works', markup: pick<Markup>(['table-th', 'dl-multi'], seedOf(e, 'ow')),
    kicker: 'article',
    facts: [
      ['Publication year', [String(p.pubYear)]],
      ['Authors', authors],
      ['Type', ['article']],
      ['Topics', [p.field, ...(p.field === 'Physics' ? ['Physical Sciences'] : p.field === 'Chemistry' ? ['Physical Sciences'] : [])]],
    ],
  };
  const scholar: FactsSite = {
    host: 'paperscholar.example', name: 'PaperScholar', path: 'paper', markup: pick<Markup>(['dl', 'p-br'], seedOf(e, 'ps')),
    kicker: `${authors.length} author${authors.length === 1 ? '' : 's'}`,
    facts: [
      ['Published', [pick([`Published ${p.pubYear}`, `Jan ${p.pubYear}`, String(p.pubYear)], seedOf(e, 'pub'))]],
      ['Fields of Study', [p.field]],
      ['Authors', [authors.join(', ')]],
      ['Cited for', [`${prizeName(p.field)} ${p.prizeYear}`]],
    ],
  };
  return [index, scholar];
}

function sitesOf(e: DevEntity): FactsSite[] {
  const f = e.fields;
  return f.kind === 'company' ? companySites(e, f as CompanyFields) : f.kind === 'researcher' ? researcherSites(e, f as ResearcherFields) : paperSites(e, f as PaperFields);
}

function chosenSite(e: DevEntity): FactsSite {
  return pick(sitesOf(e), seedOf(e, 'site'));
}

export function factsVariantUrl(e: DevEntity): string {
  const s = chosenSite(e);
  return `https://${s.host}/${s.path}/${e.slug}`;
}

function factsMarkup(facts: readonly Fact[], markup: Markup): string {
  const joined = (vs: string[]) => esc(vs.join(', '));
  switch (markup) {
    case 'dl':
      // One dl per fact, as a company register prints its summary.
      return facts.map(([l, vs]) => `<dl><dt>${esc(l)}</dt><dd>${joined(vs)}</dd></dl>`).join('\n');
    case 'dl-groups':
      return `<dl class="facts">\n${facts.map(([l, vs]) => `<div class="row"><dt>${esc(l)}</dt>${vs.map((v) => `<dd>${esc(v)}</dd>`).join('')}</div>`).join('\n')}\n</dl>`;
    case 'dl-multi':
      return `<dl>\n${facts.map(([l, vs]) => `<dt>${esc(l)}</dt>\n${vs.map((v) => `<dd>${esc(v)}</dd>`).join('\n')}`).join('\n')}\n</dl>`;
    case 'table-th':
      return `<table class="statements"><tbody>\n${facts.map(([l, vs]) => `<tr><th>${esc(l)}</th><td>${vs.map(esc).join('<br>')}</td></tr>`).join('\n')}\n</tbody></table>`;
    case 'table-td':
      return `<table class="general-info">\n${facts.map(([l, vs]) => `<tr><td class="label">${esc(l)}</td><td>${joined(vs)}</td></tr>`).join('\n')}\n</table>`;
    case 'p-br':
      return facts.map(([l, vs]) => `<p><b>${esc(l)}</b><br>${joined(vs)}</p>`).join('\n');
  }
}

export function factsVariantPage(e: DevEntity, day: string): ProbePage {
  const site = chosenSite(e);
  const url = factsVariantUrl(e);
  const title = pick([`${e.name} - ${site.name}`, `${e.name} | ${site.name}`, `${e.name} (${site.kicker}) · ${site.name}`], seedOf(e, 'title'));
  const description = pick([`${e.name} on ${site.name}.`, `View ${e.name}'s profile on ${site.name}.`], seedOf(e, 'desc'));
  const heading = `<h1>${esc(e.name)}</h1>\n<p class="subtitle">${esc(site.kicker)}</p>`;
  const tabs = `<nav class="tabs"><a href="#overview">Overview</a> <a href="#people">People</a> <a href="#filings">Filings</a></nav>`;
  const body = `<main>${heading}\n${tabs}\n<section id="overview"><h2>Overview</h2>\n${factsMarkup(site.facts, site.markup)}\n</section></main>`;
  const published = e.date ?? day;
  return { url, shape: 'facts-variants', title, description, published, entities: [e.key], html: documentHtml({ url, title, description, published, siteName: site.name, body }) };
}

// ── article-variants ────────────────────────────────────────────────────────────────────────────

const BLOG = [{ host: 'technewswire.example', name: 'TechNewsWire' }, { host: 'founderletter.example', name: 'The Founder Letter' }, { host: 'sciencedesk.example', name: 'Science Desk' }];
const WRITERS = ['Dana Whitfield', 'Marcus Oyelaran', 'Priya Raman', 'Tomás Echeverría', 'Helen Kowalczyk', 'Jonah Brightwater'];
const PER_ARTICLE = 4;

/** "X, Y and Z". */
function series(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** A name as an article prints it: linked to the entity's page on this web, or not linked (hash). */
function named(e: DevEntity, linkOf: (e: DevEntity) => string | null): string {
  const href = linkOf(e);
  return href && hashOf(seedOf(e, 'linked')) % 3 !== 0 ? `<a href="${esc(href)}">${esc(e.name)}</a>` : esc(e.name);
}

function companyBits(e: DevEntity, c: CompanyFields): { where: string | null; what: string; yc: string; fate: string; size: string } {
  const hq = c.places[0];
  const where = hq ? (hq.city ?? (hq.region && hq.country === 'USA' ? STATES[hq.region] ?? hq.region : country(hq.country))) : null;
  const what = area(c).toLowerCase() === 'b2b' ? 'B2B' : area(c);
  const yc = c.batch ? ` (YC ${batchCode(c.batch)})` : '';
  const fate = c.status === 'Acquired' ? ' It was acquired last year.' : c.status === 'Public' ? ' It is publicly traded.' : c.status === 'Inactive' ? ' It has since shut down.' : '';
  const size = c.teamSize !== null ? ` and employs ${thousands(c.teamSize)} people` : '';
  return { where, what, yc, fate, size };
}

/** One entity's line in a bulleted roundup. */
function bullet(e: DevEntity, linkOf: (e: DevEntity) => string | null): string {
  const n = named(e, linkOf);
  const f = e.fields;
  if (f.kind === 'company') {
    const c = f as CompanyFields;
    const b = companyBits(e, c);
    const pitch = esc((c.oneLiner || b.what).replace(/\.$/, ''));
    return pick([
      `<li><strong>${n}</strong>${esc(b.yc)}${b.where ? `, ${esc(b.where)}` : ''}: ${pitch}.${c.nonprofit ? ' A nonprofit.' : ''}${esc(b.fate)}</li>`,
      `<li>${n}${esc(b.yc)} — ${b.where ? `the ${esc(b.where)}-based ` : 'the '}${esc(b.what)} ${c.nonprofit ? 'nonprofit' : 'startup'}${esc(b.size)}.${c.hiring ? ' It is hiring.' : ''}${esc(b.fate)}</li>`,
    ], seedOf(e, 'bullet'));
  }
  if (f.kind === 'researcher') {
    const r = f as ResearcherFields;
    const aff = r.affiliations[0];
    return `<li>${n}${aff ? ` (${esc(aff.name)}${aff.country ? `, ${esc(country(aff.country)!)}` : ''})` : ''} — ${esc(prizeName(r.category))}, ${r.prizeYear}</li>`;
  }
  const p = f as PaperFields;
  return `<li>${esc(p.authors.map(authorName).join(', '))}, “${n}” (${p.pubYear}), ${esc(p.field.toLowerCase())}</li>`;
}

/** A paragraph about one entity, with a quote where a company speaks. */
function paragraph(e: DevEntity, linkOf: (e: DevEntity) => string | null): string {
  const n = named(e, linkOf);
  const f = e.fields;
  if (f.kind === 'company') {
    const c = f as CompanyFields;
    const b = companyBits(e, c);
    const pitch = esc((c.oneLiner || b.what).replace(/\.$/, ''));
    const role = pick(['a co-founder of', 'the chief executive of', 'a spokesperson for'], seedOf(e, 'role'));
    return pick([
      `<p>${b.where ? `${esc(b.where)}-based ` : ''}${n}${esc(b.yc)} works in ${esc(b.what)}${esc(b.size)}. “${pitch},” said ${role} ${esc(e.name)}.${esc(b.fate)}</p>`,
      `<p>“We started because nobody else would,” ${role} ${n} told us. The ${c.nonprofit ? 'nonprofit' : 'company'}${b.where ? `, headquartered in ${esc(b.where)},` : ''} describes itself simply: ${pitch}.${c.hiring ? ' It is hiring.' : ''}${esc(b.fate)}</p>`,
      `<p>Then there is ${n}${b.where ? ` in ${esc(b.where)}` : ''}, a ${esc(b.what)} ${c.nonprofit ? 'nonprofit' : 'company'}${b.yc ? ` that went through Y Combinator's ${esc(c.batch!)} batch` : ''}. ${pitch}.${esc(b.fate)}</p>`,
    ], seedOf(e, 'para'));
  }
  if (f.kind === 'researcher') {
    const r = f as ResearcherFields;
    const aff = r.affiliations[0];
    const born = [r.birthCity, country(r.birthCountry)].filter(Boolean).join(', ');
    return pick([
      `<p>“It was a complete surprise,” said ${n}${aff ? `, a professor at ${esc(aff.name)}` : ''}, who shared the ${r.prizeYear} ${esc(prizeName(r.category))}.</p>`,
      `<p>${n}${born ? `, born in ${esc(born)},` : ''} was honoured with the ${esc(prizeName(r.category))} in ${r.prizeYear}${aff ? ` for work done at ${esc(aff.name)}` : ''}.</p>`,
    ], seedOf(e, 'para'));
  }
  const p = f as PaperFields;
  return `<p>The ${p.pubYear} paper ${n}, by ${esc(series(p.authors.map(authorName)))}, is one of the ${esc(p.field.toLowerCase())} papers behind the ${esc(prizeName(p.field))} ${p.prizeYear}.</p>`;
}

/** The trait a group's members share, said in a sentence with their names as "X, Y and Z". */
function listingSentence(g: EntityGroup, names: string[]): string {
  return `<p>Among the ${esc(g.listTitle.replace(/^./, (ch) => ch.toLowerCase()))}: ${series(names)}.</p>`;
}

function relatedBox(part: readonly DevEntity[], pool: readonly DevEntity[], seed: string, linkOf: (e: DevEntity) => string | null): string {
  const outside = pool.filter((o) => !part.some((p) => p.key === o.key));
  if (outside.length === 0) return '';
  const start = hashOf(seed) % outside.length;
  const picks = [0, 1, 2].map((i) => outside[(start + i * 11) % outside.length]!).filter((o, i, all) => all.indexOf(o) === i);
  const heads = picks.map((o) => {
    const href = linkOf(o);
    const name = href ? `<a href="${esc(href)}">${esc(o.name)}</a>` : esc(o.name);
    return `<li>${pick([`${name}: what comes next`, `Inside ${name}`, `Five questions for ${name}`], `${seed}:${o.key}`)}</li>`;
  }).join('');
  return `<aside class="related-stories"><h3>Related stories</h3><ul>${heads}</ul></aside>`;
}

/** Article pages for a group: four entities an article, in one of three layouts chosen by a hash. */
export function articleVariantPages(g: EntityGroup, members: readonly DevEntity[], pool: readonly DevEntity[], day: string, linkOf: (e: DevEntity) => string | null): ProbePage[] {
  const out: ProbePage[] = [];
  for (let i = 0; i < members.length; i += PER_ARTICLE) {
    const part = members.slice(i, i + PER_ARTICLE);
    const seed = `${g.id}:probe:article:${i}`;
    const site = members[0]?.kind === 'company' ? BLOG[hashOf(seed) % 2]! : BLOG[2]!;
    const dates = part.map((m) => m.date).filter((d): d is string => Boolean(d)).sort();
    const published = g.published ? addDays(g.published, 5 + (hashOf(seed) % 40)) : dates.at(-1) ? addDays(dates.at(-1)!, 30 + (hashOf(seed) % 90)) : day;
    const n = i / PER_ARTICLE + 1;
    const layout = hashOf(`${seed}:layout`) % 3;
    const topic = g.listTitle.replace(/^./, (ch) => ch.toLowerCase());
    const title = layout === 0 ? pick([`This week's roundup: ${topic}`, `Who's building what: ${topic}`], seed)
      : layout === 1 ? pick([`What we learned talking to ${topic}`, `Notes from the field: ${topic}`], seed)
        : pick([`${part.length} names to know among ${topic}`, `The shortlist: ${topic}`], seed);
    const writer = pick(WRITERS, seed);
    const byline = `<p class="byline">By <a href="/authors/${slugify(writer)}">${esc(writer)}</a> · ${published} · ${3 + (hashOf(seed) % 6)} min read</p>`;
    const names = part.map((m) => named(m, linkOf));
    const bodyParts = layout === 0
      ? [`<p>Here is who caught our eye this week.</p>`, `<ul>\n${part.map((m) => bullet(m, linkOf)).join('\n')}\n</ul>`]
      : layout === 1
        ? [listingSentence(g, names), ...part.map((m) => paragraph(m, linkOf))]
        : [`<p>We asked around and kept hearing the same names: ${series(names)}.</p>`, ...part.map((m) => paragraph(m, linkOf))];
    const body = `<main><article><h1>${esc(title)}</h1>\n${byline}\n${bodyParts.join('\n')}\n<p>Have a tip? Email the newsroom.</p></article>\n${relatedBox(part, pool, seed, linkOf)}</main>`;
    const url = `https://${site.host}/${published.slice(0, 4)}/${slugify(g.id)}/${slugify(title)}${n === 1 ? '' : `-${n}`}`;
    const description = pick([`${writer} on ${topic}.`, `${series(part.map((m) => m.name))}.`], `${seed}:desc`);
    out.push({ url, shape: 'article-variants', title, description, published, entities: part.map((m) => m.key),
      html: documentHtml({ url, title: `${title} | ${site.name}`, description, published, siteName: site.name, body, head: '<meta property="og:type" content="article">' }) });
  }
  return out;
}
