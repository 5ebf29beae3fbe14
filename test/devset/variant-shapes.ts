/**
 * A robustness slice of the tuning half (dev): three more page shapes written from the same records, the way
 * real sites vary what the other dev shapes say, with the noise real pages carry. They exist to tell reading
 * that generalises from reading fitted to the other shapes' templates; none copies a label set, a markup or a
 * sentence of another shape.
 *
 * - `tracker-profile`: a startup tracker's / people directory's / paper catalogue's profile of one entity.
 *   Breadcrumbs as an `ol` in the content, a "·" or "|" separated one-liner under the title, facts under labels
 *   that vary from entity to entity (HQ, Headquarters, Based in, Location; Sector, Vertical, Industry,
 *   Category; Team size, Employees, Headcount; Year founded, Founded, Est. …) in one of three markups (label in
 *   `<b>` then text in an `li`; `<strong>Label:</strong>` then text in a `p`; label and value in two `span`s of
 *   a `div`), a cookie banner, and a "similar" widget naming OTHER entities with their own lines and links
 *   (a precision trap: their lines are not the subject's facts, and they are not the subject).
 *   Some pages have no `<main>` at all (a content `div` beside a sidebar `div`).
 * - `spotlight`: a publisher's article about one entity in prose written unlike the about / roundup pages
 *   ("Founded in 2019, X builds …", "San Francisco-based X …", "X, which is headquartered in …", "X (YC W21)
 *   …", "Born in Kyoto, X …", "X, who works at …"), with a "Read next" paragraph linking OTHER entities, a
 *   newsletter box and a footer.
 * - `ranked-list`: a listing page of a group, either as `<article>` cards (name in an `h3` link, a line, a "|"
 *   separated meta line) or as a ranked table whose first column is the rank and whose name column is headed
 *   "Organization name" / "Researcher" / "Paper title", with columns under other labels; plus a "Sponsored"
 *   card naming an entity outside the group.
 * - `profile-ld`: a data site's page whose facts are only in JSON-LD, arranged as other sites arrange it: a
 *   `ProfilePage` whose `mainEntity` is the entity, types as full schema.org URLs, addresses as a list of
 *   PostalAddress objects, an employee count as a `QuantitativeValue` with one `value`, full founding dates,
 *   `alumniOf`/`affiliation` arrays, `author` as plain strings, `about` as a `Thing`; its visible text is the
 *   name, a line, and a "Similar" widget.
 */
import { addDays, batchCode, documentHtml, esc, hashOf, pick, prizeName, slugify, thousands } from './html.js';
import { authorName } from './extra-shapes.js';
import type { CompanyFields, DevEntity, PaperFields, Place, ResearcherFields } from './records.js';
import type { EntityGroup } from './site-model.js';

export type VariantShape = 'tracker-profile' | 'spotlight' | 'ranked-list' | 'profile-ld' | 'journal-page' | 'bibliography';

export interface VariantPage {
  url: string;
  shape: VariantShape;
  title: string;
  description: string;
  published: string | null;
  html: string;
  entities: string[];
}

const TRACKER: Record<DevEntity['kind'], { host: string; name: string; path: string; crumb: string }> = {
  company: { host: 'startuptracker.example', name: 'Startup Tracker', path: 'startups', crumb: 'Startups' },
  researcher: { host: 'scientistsdirectory.example', name: 'Scientists Directory', path: 'scientists', crumb: 'Scientists' },
  paper: { host: 'citationcatalog.example', name: 'Citation Catalog', path: 'records', crumb: 'Records' },
};
const SPOTLIGHT = { host: 'techandscience.example', name: 'Tech & Science Weekly' };
const LISTS = { host: 'toplists.example', name: 'Top Lists' };

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const US_STATES: Record<string, string> = {
  CA: 'California', NY: 'New York', MA: 'Massachusetts', WA: 'Washington', TX: 'Texas', IL: 'Illinois', CO: 'Colorado',
  GA: 'Georgia', PA: 'Pennsylvania', FL: 'Florida', UT: 'Utah', OR: 'Oregon', DC: 'District of Columbia', NJ: 'New Jersey',
  MI: 'Michigan', MN: 'Minnesota', NC: 'North Carolina', VA: 'Virginia', MD: 'Maryland', OH: 'Ohio', AZ: 'Arizona',
};

function country(c: string | null): string | null {
  if (!c) return null;
  return c === 'USA' || c === 'United States of America' ? 'United States' : c;
}

/** A place written one of the ways sites write it, chosen by the seed. */
function placeText(p: Place, seed: string): string {
  const us = p.country === 'USA';
  if (us && p.city && p.region) {
    return pick([`${p.city}, ${p.region}`, `${p.city}, ${US_STATES[p.region] ?? p.region}`, `${p.city}, ${p.region}, US`], seed);
  }
  if (us && p.region) return `${US_STATES[p.region] ?? p.region}, United States`;
  return [p.city, country(p.country)].filter(Boolean).join(', ');
}

function longDate(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number);
  return `${MONTHS[(m ?? 1) - 1]} ${d}, ${y}`;
}

function area(c: CompanyFields): string {
  return c.industry === 'Unspecified' ? (c.tags[0] ?? 'Technology') : (c.subindustry ?? c.industry);
}

export function trackerUrl(e: DevEntity): string {
  const t = TRACKER[e.kind];
  return `https://${t.host}/${t.path}/${e.slug}`;
}

export function spotlightUrl(e: DevEntity): string {
  return `https://${SPOTLIGHT.host}/spotlight/${e.kind}/${e.slug}`;
}

// ── tracker-profile ─────────────────────────────────────────────────────────────────────────────

/** Facts under labels that vary by entity, as different trackers label the same field. */
function trackerFacts(e: DevEntity): [string, string][] {
  const f = e.fields;
  const s = (field: string) => `${e.slug}:${field}`;
  if (f.kind === 'company') {
    const c = f as CompanyFields;
    const status = c.status === 'Public' ? 'Public' : c.status === 'Acquired' ? 'Acquired' : c.status === 'Inactive' ? pick(['Closed', 'Inactive', 'Shut down'], s('st')) : 'Active';
    const rows: [string, string | null][] = [
      [pick(['HQ', 'Headquarters', 'Based in', 'Location'], s('hq')), c.places[0] ? placeText(c.places[0], s('place')) : c.remote ? 'Remote' : null],
      [pick(['Sector', 'Vertical', 'Industry', 'Category'], s('ind')), c.industry === 'Unspecified' ? null : [c.industry, c.subindustry].filter(Boolean).join(' / ')],
      [pick(['Team size', 'Employees', 'Headcount'], s('size')), c.teamSize !== null ? thousands(c.teamSize) : null],
      [pick(['Year founded', 'Founded', 'Est.'], s('year')), e.date ? e.date.slice(0, 4) : null],
      [pick(['Status', 'Stage'], s('stl')), status],
      [pick(['Legal form', 'Organization type'], s('form')), c.nonprofit ? pick(['Nonprofit', '501(c)(3) nonprofit'], s('np')) : 'For-profit'],
      [pick(['Hiring', 'Open jobs'], s('hire')), c.hiring ? pick(['Yes', 'Hiring now'], s('hv')) : 'No'],
      [pick(['Accelerator', 'YC batch'], s('yc')), c.batch ? pick([`Y Combinator ${batchCode(c.batch)}`, c.batch], s('ycv')) : null],
      [pick(['Work model', 'Remote policy'], s('rem')), c.regions.includes('Fully Remote') ? 'Fully remote' : c.regions.includes('Partly Remote') ? 'Hybrid' : null],
      [pick(['Tags', 'Topics'], s('tags')), c.tags.join(', ') || null],
      ['Website', c.website ? c.website.replace(/^https?:\/\//, '').replace(/\/$/, '') : null],
    ];
    return rows.filter((r): r is [string, string] => r[1] !== null);
  }
  if (f.kind === 'researcher') {
    const r = f as ResearcherFields;
    const aff = r.affiliations.map((a) => [a.name, a.city, country(a.country)].filter(Boolean).join(', '));
    const rows: [string, string | null][] = [
      [pick(['Affiliation', 'Institution', 'Works at', 'University'], s('aff')), aff.join('; ') || null],
      [pick(['Field', 'Discipline', 'Research area'], s('field')), r.category === 'Medicine' ? 'Physiology or Medicine' : r.category],
      [pick(['Born', 'Date of birth'], s('bd')), r.birthDate ? longDate(r.birthDate) : null],
      [pick(['Birthplace', 'Place of birth', 'Native of'], s('bp')), [r.birthCity, country(r.birthCountry)].filter(Boolean).join(', ') || null],
      [pick(['Prize', 'Award', 'Honors'], s('prize')), `${prizeName(r.category)}, ${r.prizeYear}`],
      ['Gender', r.gender],
    ];
    return rows.filter((x): x is [string, string] => x[1] !== null);
  }
  const p = f as PaperFields;
  return [
    [pick(['Authors', 'Written by', 'By'], s('au')), p.authors.map(authorName).join(', ')],
    [pick(['Year', 'Published', 'Publication year'], s('yr')), String(p.pubYear)],
    [pick(['Field', 'Subject', 'Discipline'], s('fd')), p.field],
    [pick(['Cited for', 'Recognition'], s('rc')), `${prizeName(p.field)} ${p.prizeYear}`],
  ];
}

function factsMarkup(facts: readonly [string, string][], seed: string): string {
  const style = hashOf(`${seed}:markup`) % 3;
  if (style === 0) return `<ul class="details">\n${facts.map(([l, v]) => `<li><b>${esc(l)}</b> ${esc(v)}</li>`).join('\n')}\n</ul>`;
  if (style === 1) return facts.map(([l, v]) => `<p><strong>${esc(l)}:</strong> ${esc(v)}</p>`).join('\n');
  return `<div class="facts">\n${facts.map(([l, v]) => `<div class="fact"><span class="fact-label">${esc(l)}</span> <span class="fact-value">${esc(v)}</span></div>`).join('\n')}\n</div>`;
}

/** The unlabelled one-liner under a profile's title: "Fintech · San Francisco, CA · 2010". */
function metaLine(e: DevEntity): string {
  const f = e.fields;
  const sep = pick([' · ', ' | '], `${e.slug}:sep`);
  if (f.kind === 'company') {
    const c = f as CompanyFields;
    return [area(c), c.places[0] ? placeText(c.places[0], `${e.slug}:place`) : null, e.date?.slice(0, 4) ?? null].filter(Boolean).join(sep);
  }
  if (f.kind === 'researcher') {
    const r = f as ResearcherFields;
    return [r.category, r.affiliations[0]?.name ?? null, `Laureate ${r.prizeYear}`].filter(Boolean).join(sep);
  }
  const p = f as PaperFields;
  return [p.field, String(p.pubYear), `${p.authors.length} author${p.authors.length === 1 ? '' : 's'}`].join(sep);
}

function tagline(e: DevEntity): string {
  const f = e.fields;
  if (f.kind === 'company') return (f as CompanyFields).oneLiner || area(f as CompanyFields);
  if (f.kind === 'researcher') return `${(f as ResearcherFields).category} laureate`;
  return `A ${(f as PaperFields).field.toLowerCase()} paper`;
}

/** Others of the same kind a "similar" widget shows: neighbours in the list, never the entity itself. */
function others(e: DevEntity, pool: readonly DevEntity[], n: number): DevEntity[] {
  const rest = pool.filter((o) => o.key !== e.key);
  if (rest.length === 0) return [];
  const start = hashOf(`${e.slug}:similar`) % rest.length;
  return Array.from({ length: Math.min(n, rest.length) }, (_, i) => rest[(start + i * 7) % rest.length]!);
}

const COOKIE_BANNER = '<div class="cookie-banner" id="cookie-consent"><p>We use cookies to personalise content and to analyse our traffic. By continuing you accept our cookie policy.</p><a href="/privacy">Privacy settings</a></div>';

export function trackerProfilePage(e: DevEntity, pool: readonly DevEntity[], day: string): VariantPage {
  const site = TRACKER[e.kind];
  const url = trackerUrl(e);
  const line = tagline(e);
  const crumbCategory = e.fields.kind === 'company' ? area(e.fields as CompanyFields) : e.fields.kind === 'researcher' ? (e.fields as ResearcherFields).category : (e.fields as PaperFields).field;
  const crumbs = `<ol class="breadcrumb"><li><a href="/">Home</a></li><li><a href="/${site.path}">${esc(site.crumb)}</a></li><li><a href="/${site.path}/category/${slugify(crumbCategory)}">${esc(crumbCategory)}</a></li><li>${esc(e.name)}</li></ol>`;
  const similar = others(e, pool, 3).map((o) => `<li><a href="${esc(trackerUrl(o))}">${esc(o.name)}</a> — ${esc(tagline(o))}</li>`).join('\n');
  const similarBlock = `<section class="similar"><h2>${pick(['Similar', 'People also viewed', 'Related'], `${e.slug}:simh`)}</h2>\n<ul>\n${similar}\n</ul></section>`;
  const content = `${crumbs}\n<h1>${esc(e.name)}</h1>\n<p class="meta">${esc(metaLine(e))}</p>\n<p class="lead">${esc(line)}</p>\n<h2>Details</h2>\n${factsMarkup(trackerFacts(e), e.slug)}`;
  // Some trackers mark their content up as <main>, some only with divs (content beside a sidebar).
  const withMain = hashOf(`${e.slug}:main`) % 2 === 0;
  const body = withMain
    ? `${COOKIE_BANNER}\n<main>\n${content}\n${similarBlock}\n</main>`
    : `${COOKIE_BANNER}\n<div class="container"><div class="content">\n${content}\n</div>\n<div class="sidebar">${similarBlock}\n<p>Get the weekly digest of new ${esc(site.crumb.toLowerCase())}.</p></div></div>`;
  const title = pick([`${e.name} | ${site.name}`, `${e.name} - ${site.crumb} - ${site.name}`, `${e.name} profile · ${site.name}`], `${e.slug}:title`);
  const published = e.date ?? day;
  return { url, shape: 'tracker-profile', title, description: line, published, entities: [e.key], html: documentHtml({ url, title, description: line, published, siteName: site.name, body }) };
}

// ── spotlight ───────────────────────────────────────────────────────────────────────────────────

function companyProse(e: DevEntity, c: CompanyFields): string[] {
  const seed = `${e.slug}:prose`;
  const p = c.places[0] ?? null;
  const city = p?.city ?? null;
  const where = p ? placeText(p, `${e.slug}:sp`) : null;
  const pitch = (c.oneLiner || area(c)).replace(/\.$/, '');
  const what = pitch.charAt(0).toLowerCase() + pitch.slice(1);
  const year = e.date?.slice(0, 4) ?? null;
  const yc = c.batch ? ` (YC ${batchCode(c.batch)})` : '';
  const opening = pick([
    year ? `Founded in ${year}, ${e.name} makes ${what}.` : `${e.name} makes ${what}.`,
    city ? `${city}-based ${e.name}${yc} makes ${what}.` : `${e.name}${yc} makes ${what}.`,
    where ? `${e.name}, which is headquartered in ${where}, makes ${what}.` : `${e.name} makes ${what}.`,
    `${e.name}${yc} makes ${what}.`,
  ], seed);
  const more: string[] = [];
  if (where && !opening.includes(where) && !(city && opening.includes(`${city}-based`))) more.push(pick([`The team works out of ${where}.`, `Its headquarters are in ${where}.`], `${seed}:w`));
  if (c.industry !== 'Unspecified') more.push(`It operates in ${(c.subindustry ?? c.industry).toLowerCase() === 'b2b' ? 'B2B' : (c.subindustry ?? c.industry)}${c.tags.length ? `, with a focus on ${c.tags.slice(0, 2).join(' and ').toLowerCase()}` : ''}.`);
  if (year && !opening.startsWith('Founded')) more.push(`The company got its start in ${year}.`);
  if (c.batch && !opening.includes('(YC')) more.push(`It went through Y Combinator in ${c.batch}.`);
  if (c.teamSize !== null) more.push(pick([`${e.name} employs about ${thousands(c.teamSize)} people.`, `Headcount stands at ${thousands(c.teamSize)}.`], `${seed}:n`));
  if (c.nonprofit) more.push(`${e.name} is organised as a nonprofit.`);
  if (c.status === 'Acquired') more.push(`${e.name} has since been acquired.`);
  if (c.status === 'Public') more.push(`${e.name} is now publicly traded.`);
  if (c.status === 'Inactive') more.push(`${e.name} is no longer operating.`);
  if (c.hiring) more.push(pick(['The company is hiring across several teams.', 'It currently has open positions.'], `${seed}:h`));
  if (c.regions.includes('Fully Remote')) more.push('The whole team works remotely.');
  return [opening, more.join(' ')].filter(Boolean);
}

function researcherProse(e: DevEntity, r: ResearcherFields): string[] {
  const seed = `${e.slug}:prose`;
  const born = [r.birthCity, country(r.birthCountry)].filter(Boolean).join(', ');
  const aff = r.affiliations[0];
  const affText = aff ? [aff.name, aff.city, country(aff.country)].filter(Boolean).join(', ') : null;
  const subject = r.gender === 'Female' ? 'She' : 'He';
  const discipline = r.category === 'Medicine' ? 'physiology and medicine' : r.category.toLowerCase();
  const opening = pick([
    born ? `Born in ${born}, ${e.name} shared the ${r.prizeYear} ${prizeName(r.category)}.` : `${e.name} shared the ${r.prizeYear} ${prizeName(r.category)}.`,
    affText ? `${e.name}, who works at ${affText}, shared the ${r.prizeYear} ${prizeName(r.category)}.` : `${e.name} shared the ${r.prizeYear} ${prizeName(r.category)}.`,
    `${e.name} (${prizeName(r.category)} ${r.prizeYear}) has spent a career in ${discipline}.`,
  ], seed);
  const more: string[] = [];
  if (affText && !opening.includes(affText)) more.push(`${subject} is affiliated with ${affText}.`);
  if (born && !opening.includes(born)) more.push(`${subject} was born in ${born}${r.birthDate ? ` on ${longDate(r.birthDate)}` : ''}.`);
  more.push(`The committee cited work ${r.motivation.replace(/^for\s+/i, 'for ')}.`);
  return [opening, more.join(' ')];
}

function paperProse(e: DevEntity, p: PaperFields): string[] {
  const seed = `${e.slug}:prose`;
  const authors = p.authors.map(authorName).join(' and ');
  const opening = pick([
    `Published in ${p.pubYear}, “${e.name}” by ${authors} is a landmark of ${p.field.toLowerCase()}.`,
    `In this ${p.pubYear} ${p.field.toLowerCase()} paper, ${authors} reported “${e.name}”.`,
  ], seed);
  return [opening, `The work was later cited for the ${prizeName(p.field)} ${p.prizeYear}.`];
}

export function spotlightPage(e: DevEntity, pool: readonly DevEntity[], day: string): VariantPage {
  const f = e.fields;
  const url = spotlightUrl(e);
  const paragraphs = f.kind === 'company' ? companyProse(e, f as CompanyFields) : f.kind === 'researcher' ? researcherProse(e, f as ResearcherFields) : paperProse(e, f as PaperFields);
  const title = f.kind === 'paper'
    ? pick([`Paper of the week: ${e.name}`, `Revisiting a classic: ${e.name}`], `${e.slug}:st`)
    : pick([`Spotlight: ${e.name}`, `Inside ${e.name}`, `${e.name} at a glance`], `${e.slug}:st`);
  const readNext = others(e, pool, 2).map((o) => `<a href="${esc(spotlightUrl(o))}">${esc(o.name)}</a>`).join(' and ');
  const later = e.date ? addDays(e.date, 30 + (hashOf(`${e.slug}:sd`) % 200)) : day;
  // A spotlight appears some weeks after what it is about, never after the set's day.
  const published = later <= day ? later : day;
  const body = [
    COOKIE_BANNER,
    `<main><article><h1>${esc(title)}</h1>`,
    `<p class="byline">By the ${esc(SPOTLIGHT.name)} desk · ${published}</p>`,
    ...paragraphs.map((p) => `<p>${esc(p)}</p>`),
    `<p>Read next: our spotlights on ${readNext}.</p>`,
    '</article>',
    `<div class="newsletter"><p>Subscribe to ${esc(SPOTLIGHT.name)} for one spotlight a week. No spam, unsubscribe at any time.</p></div></main>`,
  ].join('\n');
  return { url, shape: 'spotlight', title, description: paragraphs[0]!.slice(0, 160), published, entities: [e.key], html: documentHtml({ url, title: `${title} | ${SPOTLIGHT.name}`, description: paragraphs[0]!.slice(0, 160), published, siteName: SPOTLIGHT.name, body, head: '<meta property="og:type" content="article">' }) };
}

// ── ranked-list ─────────────────────────────────────────────────────────────────────────────────

function listColumns(kind: DevEntity['kind']): { name: string; cols: string[] } {
  if (kind === 'company') return { name: 'Organization name', cols: ['Based in', 'Vertical', 'Headcount', 'Est.'] };
  if (kind === 'researcher') return { name: 'Researcher', cols: ['Discipline', 'Institution', 'Birthplace'] };
  return { name: 'Paper title', cols: ['Written by', 'Publication year', 'Subject'] };
}

function listCells(e: DevEntity): string[] {
  const f = e.fields;
  if (f.kind === 'company') {
    const c = f as CompanyFields;
    return [c.places[0] ? placeText(c.places[0], `${e.slug}:lp`) : '—', area(c), c.teamSize !== null ? thousands(c.teamSize) : '—', e.date?.slice(0, 4) ?? '—'];
  }
  if (f.kind === 'researcher') {
    const r = f as ResearcherFields;
    const aff = r.affiliations[0];
    return [r.category, aff ? [aff.name, country(aff.country)].filter(Boolean).join(', ') : '—', [r.birthCity, country(r.birthCountry)].filter(Boolean).join(', ') || '—'];
  }
  const p = f as PaperFields;
  return [p.authors.map(authorName).join(', '), String(p.pubYear), p.field];
}

function card(e: DevEntity, link: string): string {
  const sep = ' | ';
  const meta = listCells(e).filter((c) => c !== '—').join(sep);
  return `<article class="card"><h3><a href="${esc(link)}">${esc(e.name)}</a></h3>\n<p>${esc(tagline(e))}</p>\n<p class="card-meta">${esc(meta)}</p></article>`;
}

const PER_LIST = 10;

/**
 * Listing pages for a group: cards or a ranked table (by the group's hash), ten entities a page, each name
 * linked to `linkOf(entity)`, with a sponsored card naming an entity outside the group.
 */
export function rankedListPages(g: EntityGroup, members: readonly DevEntity[], pool: readonly DevEntity[], day: string, linkOf: (e: DevEntity) => string): VariantPage[] {
  const out: VariantPage[] = [];
  const asTable = hashOf(`${g.id}:ranked`) % 2 === 0;
  const memberKeys = new Set(members.map((m) => m.key));
  const outsiders = pool.filter((o) => !memberKeys.has(o.key));
  for (let i = 0; i < members.length; i += PER_LIST) {
    const part = members.slice(i, i + PER_LIST);
    const n = i / PER_LIST + 1;
    const dates = part.map((m) => m.date).filter((d): d is string => Boolean(d)).sort();
    const published = g.published ? addDays(g.published, 5 + (hashOf(`${g.id}:rl`) % 25)) : dates.at(-1) ? addDays(dates.at(-1)!, 15 + (hashOf(`${g.id}:${i}:rl`) % 70)) : day;
    const url = `https://${LISTS.host}/${part[0]?.kind ?? 'all'}/${slugify(g.id)}${n === 1 ? '' : `/page/${n}`}`;
    const heading = pick([`${g.listTitle}: the list`, `${members.length} to know: ${g.listTitle.replace(/^./, (c) => c.toLowerCase())}`, `Ranked: ${g.listTitle.replace(/^./, (c) => c.toLowerCase())}`], g.id);
    const title = `${heading}${n === 1 ? '' : ` (page ${n})`}`;
    let listing: string;
    if (asTable) {
      const { name, cols } = listColumns(part[0]!.kind);
      const head = `<tr><th>#</th><th>${esc(name)}</th>${cols.map((c) => `<th>${esc(c)}</th>`).join('')}</tr>`;
      const rows = part.map((e, k) => `<tr><td>${i + k + 1}</td><td><a href="${esc(linkOf(e))}">${esc(e.name)}</a></td>${listCells(e).map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`).join('\n');
      listing = `<table class="ranking">\n<thead>${head}</thead>\n<tbody>\n${rows}\n</tbody>\n</table>`;
    } else {
      listing = `<div class="cards">\n${part.map((e) => card(e, linkOf(e))).join('\n')}\n</div>`;
    }
    const sponsor = outsiders.length ? outsiders[hashOf(`${g.id}:${n}:sponsor`) % outsiders.length]! : null;
    const sponsored = sponsor ? `<div class="sponsored"><p class="label">Sponsored</p>\n<h3><a href="${esc(linkOf(sponsor))}">${esc(sponsor.name)}</a></h3>\n<p>${esc(tagline(sponsor))}</p></div>` : '';
    const next = i + PER_LIST < members.length ? `<p><a href="https://${LISTS.host}/${part[0]!.kind}/${slugify(g.id)}/page/${n + 1}">Next page</a></p>` : '';
    const description = `${title}. ${part.slice(0, 3).map((m) => m.name).join(', ')} and more.`;
    const body = `${COOKIE_BANNER}\n<main><h1>${esc(title)}</h1>\n<p>Our editors' picks, updated ${published}.</p>\n${listing}\n${next}\n${sponsored}\n</main>`;
    out.push({ url, shape: 'ranked-list', title, description, published, entities: part.map((m) => m.key),
      html: documentHtml({ url, title: `${title} | ${LISTS.name}`, description, published, siteName: LISTS.name, body }) });
  }
  return out;
}

// ── profile-ld ──────────────────────────────────────────────────────────────────────────────────

const DATA_SITE = { host: 'entitydata.example', name: 'Entity Data' };

export function profileLdUrl(e: DevEntity): string {
  return `https://${DATA_SITE.host}/${e.kind}/${e.slug}`;
}

function entityJsonLd(e: DevEntity): Record<string, unknown> {
  const f = e.fields;
  const S = 'https://schema.org/';
  const address = (p: Place) => ({ '@type': `${S}PostalAddress`, ...(p.city ? { addressLocality: p.city } : {}), ...(p.region ? { addressRegion: p.region } : {}), ...(p.country ? { addressCountry: country(p.country) } : {}) });
  if (f.kind === 'company') {
    const c = f as CompanyFields;
    return {
      '@type': `${S}${c.nonprofit ? 'NGO' : 'Corporation'}`,
      name: e.name,
      description: c.oneLiner,
      ...(c.places.length ? { address: c.places.map(address) } : {}),
      ...(e.date ? { foundingDate: e.date } : {}),
      ...(c.teamSize !== null ? { numberOfEmployees: { '@type': `${S}QuantitativeValue`, value: c.teamSize } } : {}),
      ...(c.industry !== 'Unspecified' ? { knowsAbout: [c.industry, ...(c.subindustry ? [c.subindustry] : []), ...c.tags] } : c.tags.length ? { knowsAbout: c.tags } : {}),
      ...(c.batch ? { memberOf: { '@type': `${S}Organization`, name: `Y Combinator ${c.batch}` } } : {}),
      additionalProperty: [
        ...(c.status === 'Acquired' || c.status === 'Public' ? [{ '@type': `${S}PropertyValue`, name: 'Company status', value: c.status === 'Public' ? 'Public company' : 'Acquired' }] : []),
        { '@type': `${S}PropertyValue`, name: 'Hiring', value: c.hiring ? 'Yes' : 'No' },
        ...(c.regions.includes('Fully Remote') ? [{ '@type': `${S}PropertyValue`, name: 'Remote', value: 'Fully remote' }] : []),
      ],
      ...(c.status === 'Inactive' ? { dissolutionDate: 'Closed' } : {}),
      ...(c.website ? { sameAs: [c.website] } : {}),
    };
  }
  if (f.kind === 'researcher') {
    const r = f as ResearcherFields;
    return {
      '@type': `${S}Person`,
      name: e.name,
      ...(r.birthDate ? { birthDate: r.birthDate } : {}),
      ...(r.birthCity || r.birthCountry ? { birthPlace: [r.birthCity, country(r.birthCountry)].filter(Boolean).join(', ') } : {}),
      ...(r.affiliations.length ? { affiliation: r.affiliations.map((a) => ({ '@type': `${S}Organization`, name: a.name, ...(a.city || a.country ? { address: { '@type': `${S}PostalAddress`, ...(a.city ? { addressLocality: a.city } : {}), ...(a.country ? { addressCountry: country(a.country) } : {}) } } : {}) })) } : {}),
      award: [`${prizeName(r.category)} (${r.prizeYear})`],
      knowsAbout: { '@type': `${S}Thing`, name: r.category === 'Medicine' ? 'Physiology or Medicine' : r.category },
      gender: r.gender,
    };
  }
  const p = f as PaperFields;
  return {
    '@type': `${S}ScholarlyArticle`,
    name: e.name,
    author: p.authors.map(authorName),
    datePublished: `${p.pubYear}-01-01`,
    about: { '@type': `${S}Thing`, name: p.field },
    citation: `${prizeName(p.field)} ${p.prizeYear}`,
  };
}

export function profileLdPage(e: DevEntity, pool: readonly DevEntity[], day: string): VariantPage {
  const url = profileLdUrl(e);
  const line = tagline(e);
  const ld = { '@context': 'https://schema.org', '@type': 'https://schema.org/ProfilePage', url, mainEntity: entityJsonLd(e) };
  const similar = others(e, pool, 3).map((o) => `<li><a href="${esc(profileLdUrl(o))}">${esc(o.name)}</a></li>`).join('\n');
  const body = `${COOKIE_BANNER}\n<main><h1>${esc(e.name)}</h1>\n<p>${esc(line)}</p>\n<section class="similar"><h2>Similar</h2><ul>\n${similar}\n</ul></section></main>`;
  const title = `${e.name} — ${DATA_SITE.name}`;
  const published = e.date ?? day;
  return { url, shape: 'profile-ld', title, description: line, published, entities: [e.key], html: documentHtml({ url, title, description: line, published, siteName: DATA_SITE.name, body, jsonLd: [ld] }) };
}

// ── journal-page and bibliography (papers only) ─────────────────────────────────────────────────
//
// How real scholarly pages carry a paper: a publisher's article page with Google Scholar's `citation_*`
// meta tags (citation_title, one citation_author per author, citation_publication_date,
// citation_journal_title), an `h1` that is the title as the publisher cases it (title case with roman
// numerals upper-cased, or lower case), authors as links, an abstract and a "Subjects" line, no facts list;
// and a reading list of references in a citation style (APA, Vancouver or MLA with the title quoted), each
// reference's title linking to its article page (about one in three unlinked, as reading lists vary). Only record fields are written (the journal is the field's
// journal of this fake web, so it says no more than the field).

export type PaperShape = 'journal-page' | 'bibliography';

const JOURNAL = { host: 'journals.example', name: 'Journals Online' };
const READING = { host: 'readinglists.example', name: 'Reading Lists' };
const SMALL_WORDS = new Set(['a', 'an', 'the', 'of', 'in', 'on', 'and', 'for', 'to', 'at', 'by', 'with', 'from', 'as', 'or']);

export function journalUrl(e: DevEntity): string {
  return `https://${JOURNAL.host}/article/${e.slug}`;
}

/** "Journal of Physics": the fake web's journal of a field. */
function journalOf(p: PaperFields): string {
  return `Journal of ${p.field}`;
}

/** The title as publishers case it: title case (roman numerals upper-cased), or lower case; by the seed. */
function casedTitle(title: string, seed: string): string {
  const style = hashOf(`${seed}:case`) % 3;
  if (style === 2) return title.toLowerCase();
  if (style === 1) return title;
  return title.split(' ').map((w, i) => {
    if (/^(i|ii|iii|iv|v|vi)$/i.test(w)) return w.toUpperCase();
    if (i > 0 && SMALL_WORDS.has(w.toLowerCase())) return w.toLowerCase();
    return w.charAt(0).toUpperCase() + w.slice(1);
  }).join(' ');
}

/** The record's "thouless, dj" / "nambu, yoichiro" split into family name and given names ("D. J.", "Yoichiro"). */
function nameParts(raw: string): { last: string; given: string; initials: string } {
  const [lastRaw, firstRaw] = raw.split(',').map((x) => x.trim());
  const cap = (x: string) => x.split(/\s+/).filter(Boolean).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');
  const last = cap(lastRaw ?? '');
  const first = (firstRaw ?? '').replace(/\./g, ' ').trim();
  const bare = /^[a-z]{1,3}$/i.test(first);
  const letters = bare ? first.split('') : first.split(/\s+/).filter(Boolean).map((w) => w.charAt(0));
  const given = bare ? letters.map((c) => `${c.toUpperCase()}.`).join(' ') : cap(first);
  return { last, given, initials: letters.map((c) => c.toUpperCase()).join('') };
}

/** "Thouless, D. J." */
function invertedAuthor(raw: string): string {
  const n = nameParts(raw);
  return n.given ? `${n.last}, ${n.given}` : n.last;
}

/** "D. J. Thouless" / "Yoichiro Nambu". */
function displayAuthor(raw: string): string {
  const n = nameParts(raw);
  return n.given ? `${n.given} ${n.last}` : n.last;
}

export function journalPage(e: DevEntity, day: string): VariantPage | null {
  if (e.fields.kind !== 'paper') return null;
  const p = e.fields as PaperFields;
  const url = journalUrl(e);
  const title = casedTitle(e.name, e.slug);
  const authors = p.authors.map(displayAuthor);
  const journal = journalOf(p);
  const head = [
    '<meta property="og:type" content="article">',
    `<meta name="citation_title" content="${esc(title)}">`,
    ...p.authors.map((a) => `<meta name="citation_author" content="${esc(invertedAuthor(a))}">`),
    `<meta name="citation_publication_date" content="${p.pubYear}/06/01">`,
    `<meta name="citation_journal_title" content="${esc(journal)}">`,
    `<meta name="citation_keywords" content="${esc(p.field)}">`,
  ].join('\n');
  const byline = authors.map((a) => `<a href="/search?author=${encodeURIComponent(a)}" class="author">${esc(a)}</a>`).join(', ');
  const abstract = pick([
    `This ${p.field.toLowerCase()} article, first published in ${p.pubYear}, was later cited for the ${prizeName(p.field)} ${p.prizeYear}.`,
    `The committee of the ${prizeName(p.field)} ${p.prizeYear} pointed to this work.`,
  ], `${e.slug}:abs`);
  const body = `${COOKIE_BANNER}\n<header><p class="journal"><a href="/">${esc(journal)}</a></p></header>\n<main><article>\n<h1>${esc(title)}</h1>\n<p class="authors">${byline}</p>\n<p class="pubinfo">${esc(journal)} · ${pick(['Published', 'First published', 'Issue date'], `${e.slug}:pub`)} ${p.pubYear}</p>\n<section class="abstract"><h2>Abstract</h2><p>${esc(abstract)}</p></section>\n<p class="subjects">Subjects: <a href="/subject/${slugify(p.field)}">${esc(p.field)}</a></p>\n<section class="access"><p>Access through your institution, or buy this article.</p></section>\n</article></main>`;
  const pageTitle = pick([`${title} | ${journal}`, `${title} - ${JOURNAL.name}`], `${e.slug}:jt`);
  const published = e.date ?? day;
  return { url, shape: 'journal-page', title: pageTitle, description: abstract, published, entities: [e.key], html: documentHtml({ url, title: pageTitle, description: abstract, published, siteName: JOURNAL.name, body, head }) };
}

/** One reference in a citation style chosen by the seed, its title linked to `link`. */
function reference(e: DevEntity, link: string, seed: string): string {
  const p = e.fields as PaperFields;
  const inv = p.authors.map(invertedAuthor);
  const t = casedTitle(e.name, `${seed}:ref`);
  // Some reading lists link each title, some only some, some none: about one reference in three is plain text.
  const a = hashOf(`${seed}:linked`) % 3 === 0 ? esc(t) : `<a href="${esc(link)}">${esc(t)}</a>`;
  const journal = `<i>${esc(journalOf(p))}</i>`;
  const style = hashOf(`${seed}:style`) % 3;
  if (style === 0) {
    const names = inv.length > 1 ? `${inv.slice(0, -1).join(', ')}, & ${inv.at(-1)}` : inv[0] ?? '';
    return `${esc(names)} (${p.pubYear}). ${a}. ${journal}.`;
  }
  if (style === 1) {
    const vanc = p.authors.map((r) => { const n = nameParts(r); return `${n.last} ${n.initials}`.trim(); });
    return `${esc(vanc.join(', '))}. ${a}. ${journal}. ${p.pubYear}.`;
  }
  return `${esc(inv.join(', and ')).replace(/\.$/, '')}. “${a}.” ${journal}, ${p.pubYear}.`;
}

/** A reading list of a group's papers as references, each linking to `linkOf(paper)`. */
export function bibliographyPages(g: EntityGroup, members: readonly DevEntity[], day: string, linkOf: (e: DevEntity) => string): VariantPage[] {
  const papers = members.filter((m) => m.fields.kind === 'paper');
  if (papers.length === 0) return [];
  const url = `https://${READING.host}/lists/${slugify(g.id)}`;
  const dates = papers.map((m) => m.date).filter((d): d is string => Boolean(d)).sort();
  const published = g.published ? addDays(g.published, 12) : dates.at(-1) ? addDays(dates.at(-1)!, 40) : day;
  const title = pick([`Reading list: ${g.listTitle.replace(/^./, (c) => c.toLowerCase())}`, `Further reading — ${g.listTitle}`, `References: ${g.listTitle.replace(/^./, (c) => c.toLowerCase())}`], `${g.id}:bib`);
  const ordered = [...papers].sort((x, y) => x.name.localeCompare(y.name));
  const asOl = hashOf(`${g.id}:ol`) % 2 === 0;
  const items = ordered.map((m) => `<li class="ref">${reference(m, linkOf(m), m.slug)}</li>`).join('\n');
  const list = asOl ? `<ol class="references">\n${items}\n</ol>` : `<ul class="bibliography">\n${items}\n</ul>`;
  const description = `${title}: ${papers.length} references.`;
  const body = `<main><h1>${esc(title)}</h1>\n<p>A course reading list, compiled ${published}. References in the style the course uses.</p>\n${list}\n<p>Suggest a reference to the compilers.</p></main>`;
  return [{ url, shape: 'bibliography', title, description, published, entities: papers.map((m) => m.key),
    html: documentHtml({ url, title: `${title} | ${READING.name}`, description, published, siteName: READING.name, body }) }];
}
