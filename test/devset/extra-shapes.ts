/**
 * Two more page shapes of the tuning half (dev), written from the records' fields directly, after conventions
 * of the open web rather than the other shapes' labels:
 *
 * - `infobox`: an encyclopedia article, a lead paragraph and a two-column infobox table (`th` label, `td`
 *   value) with Wikipedia's labels (Infobox company: Type, Industry, Launched, Headquarters, Services, Number of
 *   employees, Website; Infobox scientist: Born, Institutions, Fields, Awards; a publication's Authors,
 *   Published, Subject).
 * - `microdata`: a registry profile marked up with schema.org microdata (`itemscope`/`itemprop`: nested
 *   PostalAddress, foundingDate, numberOfEmployees, affiliation, award, author, datePublished), its labels
 *   partly visible, partly only in `content` attributes.
 *
 * They exercise what generalises (label–value facts under other labels, schema.org vocabulary) without
 * showing the held-out shapes (dl profiles, JSON-LD pages, news).
 */
import { documentHtml, esc, prizeName } from './html.js';
import type { CompanyFields, DevEntity, PaperFields, Place, ResearcherFields } from './records.js';

export type ExtraShape = 'infobox' | 'microdata';

export interface ExtraPage {
  url: string;
  shape: ExtraShape;
  title: string;
  description: string;
  published: string | null;
  html: string;
  entities: string[];
}

const ENCYCLOPEDIA = { host: 'openencyclopedia.example', name: 'Open Encyclopedia' };
const REGISTRY: Record<DevEntity['kind'], { host: string; name: string; path: string }> = {
  company: { host: 'orgregistry.example', name: 'Org Registry', path: 'org' },
  researcher: { host: 'academicprofiles.example', name: 'Academic Profiles', path: 'people' },
  paper: { host: 'worksindex.example', name: 'Works Index', path: 'works' },
};

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "2011-11-23" → "23 November 2011" (encyclopedia style). */
function longDate(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number);
  return `${d} ${MONTHS[(m ?? 1) - 1]} ${y}`;
}

export function countryName(country: string | null): string | null {
  if (!country) return null;
  return country === 'USA' || country === 'United States of America' ? 'United States' : country;
}

export function placeLine(p: Place): string {
  return [p.city, p.region, countryName(p.country)].filter(Boolean).join(', ');
}

/** "thouless, dj" → "D. J. Thouless". */
export function authorName(raw: string): string {
  const [last, initials] = raw.split(',').map((s) => s.trim());
  const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
  const lastName = (last ?? '').split(/\s+/).map(cap).join(' ');
  const first = (initials ?? '').replace(/[^a-z]/gi, '').toUpperCase().split('').map((c) => `${c}.`).join(' ');
  return first ? `${first} ${lastName}` : lastName;
}

function companyType(f: CompanyFields): string {
  if (f.nonprofit) return 'Nonprofit organization';
  if (f.status === 'Public') return 'Public company';
  if (f.status === 'Acquired') return 'Subsidiary (acquired)';
  if (f.status === 'Inactive') return 'Defunct';
  return 'Private company';
}

function fieldName(category: string): string {
  return category === 'Medicine' ? 'Physiology, Medicine' : category;
}

function row(label: string, value: string | null): string {
  return value ? `<tr><th scope="row">${esc(label)}</th><td>${esc(value)}</td></tr>` : '';
}

// ── infobox ─────────────────────────────────────────────────────────────────────────────────────

function infoboxRows(e: DevEntity): { lead: string; rows: string[]; description: string } {
  const f = e.fields;
  if (f.kind === 'company') {
    const industry = [f.industry, f.subindustry && f.subindustry !== f.industry ? f.subindustry.replace(/^.*->\s*/, '') : null].filter(Boolean).join(', ');
    const hq = f.places[0] ? placeLine(f.places[0]) : null;
    return {
      lead: f.longDescription || f.oneLiner,
      description: `${e.name}: ${f.oneLiner}`,
      rows: [
        row('Type', companyType(f)),
        row('Industry', industry),
        // The record's date is when the company launched (yc-oss launched_at), not a founding date.
        row('Launched', e.date ? longDate(e.date) : null),
        row('Headquarters', hq),
        row('Services', f.tags.join(', ') || null),
        row('Area served', f.regions.filter((r) => !/remote/i.test(r)).join(', ') || null),
        row('Number of employees', f.teamSize !== null ? f.teamSize.toLocaleString('en-US') : null),
        row('Accelerator', f.batch ? `Y Combinator (${f.batch})` : null),
        row('Website', f.website ? f.website.replace(/^https?:\/\//, '').replace(/\/$/, '') : null),
      ],
    };
  }
  if (f.kind === 'researcher') {
    const born = [f.birthDate ? longDate(f.birthDate) : null, f.birthCity, countryName(f.birthCountry)].filter(Boolean).join(', ');
    const institutions = f.affiliations.map((a) => [a.name, a.city, countryName(a.country)].filter(Boolean).join(', ')).join('; ');
    const pronoun = f.gender === 'Female' ? 'She' : 'He';
    return {
      lead: `${pronoun} shared the ${f.prizeYear} ${prizeName(f.category)} ${f.motivation}.`,
      description: `${e.name}, ${f.prizeYear} ${prizeName(f.category)}`,
      rows: [
        row('Born', born || null),
        row('Fields', fieldName(f.category)),
        row('Institutions', institutions || null),
        row('Awards', `${prizeName(f.category)} (${f.prizeYear})`),
      ],
    };
  }
  const p = f as PaperFields;
  return {
    lead: `A ${p.pubYear} paper in ${p.field.toLowerCase()} by ${p.authors.map(authorName).join(' and ')}, later cited for the ${p.prizeYear} ${prizeName(p.field)}.`,
    description: `${p.title} (${p.pubYear})`,
    rows: [
      row('Authors', p.authors.map(authorName).join(', ')),
      row('Published', String(p.pubYear)),
      row('Subject', p.field),
      row('Recognition', `${prizeName(p.field)} ${p.prizeYear}`),
    ],
  };
}

export function infoboxPage(e: DevEntity, day: string): ExtraPage {
  const url = `https://${ENCYCLOPEDIA.host}/wiki/${e.slug}`;
  const { lead, rows, description } = infoboxRows(e);
  const title = `${e.name} - ${ENCYCLOPEDIA.name}`;
  const body = `<main><h1>${esc(e.name)}</h1>\n<table class="infobox">\n<caption>${esc(e.name)}</caption>\n${rows.filter(Boolean).join('\n')}\n</table>\n<p>${esc(lead)}</p></main>`;
  const published = e.date ?? day;
  return {
    url, shape: 'infobox', title, description, published, entities: [e.key],
    html: documentHtml({ url, title, description, published, siteName: ENCYCLOPEDIA.name, body }),
  };
}

// ── microdata ───────────────────────────────────────────────────────────────────────────────────

function prop(name: string, value: string, tag = 'span'): string {
  return `<${tag} itemprop="${name}">${esc(value)}</${tag}>`;
}

function postalAddress(p: Place): string {
  const parts = [
    p.city ? prop('addressLocality', p.city) : '',
    p.region ? prop('addressRegion', p.region) : '',
    p.country ? prop('addressCountry', countryName(p.country)!) : '',
  ].filter(Boolean);
  return `<span itemprop="address" itemscope itemtype="https://schema.org/PostalAddress">${parts.join(', ')}</span>`;
}

function microdataBody(e: DevEntity): { type: string; inner: string; description: string } {
  const f = e.fields;
  if (f.kind === 'company') {
    const c = f as CompanyFields;
    const lines = [
      `<p>${prop('description', c.oneLiner)}</p>`,
      c.places[0] ? `<p>Based in ${postalAddress(c.places[0])}</p>` : '',
      e.date ? `<p>Since <time itemprop="foundingDate" datetime="${e.date}">${e.date.slice(0, 4)}</time></p>` : '',
      c.teamSize !== null ? `<p>${prop('numberOfEmployees', String(c.teamSize))} people</p>` : '',
      `<p>Works on: ${prop('knowsAbout', [c.industry, ...c.tags].join(', '))}</p>`,
      c.nonprofit ? '<meta itemprop="nonprofitStatus" content="Nonprofit501c3">' : '',
      c.status !== 'Active' ? `<p>Status: ${esc(c.status)}</p>` : '',
      c.website ? `<p><a itemprop="url" href="${esc(c.website)}">${esc(c.website.replace(/^https?:\/\//, '').replace(/\/$/, ''))}</a></p>` : '',
    ];
    return { type: c.nonprofit ? 'NGO' : 'Organization', inner: lines.filter(Boolean).join('\n'), description: c.oneLiner };
  }
  if (f.kind === 'researcher') {
    const r = f as ResearcherFields;
    const affiliations = r.affiliations.map((a) => {
      const where = [a.city, countryName(a.country)].filter(Boolean).join(', ');
      return `<li itemprop="affiliation" itemscope itemtype="https://schema.org/CollegeOrUniversity">${prop('name', a.name)}${where ? ` — <span itemprop="address">${esc(where)}</span>` : ''}</li>`;
    }).join('\n');
    const lines = [
      `<p>${prop('award', `${prizeName(r.category)} ${r.prizeYear}`)}</p>`,
      `<p>Research: ${prop('knowsAbout', fieldName(r.category))}</p>`,
      r.birthDate ? `<p>Born <time itemprop="birthDate" datetime="${r.birthDate}">${longDate(r.birthDate)}</time>${r.birthCity ? ` in ${prop('birthPlace', [r.birthCity, countryName(r.birthCountry)].filter(Boolean).join(', '))}` : ''}</p>` : '',
      `<meta itemprop="gender" content="${esc(r.gender)}">`,
      affiliations ? `<h2>Affiliations</h2>\n<ul>\n${affiliations}\n</ul>` : '',
    ];
    return { type: 'Person', inner: lines.filter(Boolean).join('\n'), description: `${prizeName(r.category)} ${r.prizeYear}` };
  }
  const p = f as PaperFields;
  const lines = [
    `<p>By ${p.authors.map((a) => `<span itemprop="author" itemscope itemtype="https://schema.org/Person">${prop('name', authorName(a))}</span>`).join(', ')}</p>`,
    `<p>Published <time itemprop="datePublished" datetime="${p.pubYear}">${p.pubYear}</time> · ${prop('about', p.field)}</p>`,
    `<p>Cited in the ${prop('award', `${prizeName(p.field)} ${p.prizeYear}`)} scientific background.</p>`,
  ];
  return { type: 'ScholarlyArticle', inner: lines.join('\n'), description: `${p.title}, ${p.pubYear}` };
}

export function microdataPage(e: DevEntity, day: string): ExtraPage {
  const site = REGISTRY[e.kind];
  const url = `https://${site.host}/${site.path}/${e.slug}`;
  const { type, inner, description } = microdataBody(e);
  const title = `${e.name} · ${site.name}`;
  const body = `<main><div itemscope itemtype="https://schema.org/${type}">\n<h1 itemprop="name">${esc(e.name)}</h1>\n${inner}\n</div></main>`;
  const published = e.date ?? day;
  return {
    url, shape: 'microdata', title, description, published, entities: [e.key],
    html: documentHtml({ url, title, description, published, siteName: site.name, body }),
  };
}
