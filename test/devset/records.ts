/**
 * The development set's entities, read from real public records (see data/PROVENANCE files), and the typed
 * fields the gold rules of queries.ts are computed from. Nothing here is written by hand about any one
 * entity: every fact is a field of a record.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const DATA = join(dirname(fileURLToPath(import.meta.url)), 'data');

export type DevKind = 'company' | 'researcher' | 'paper';

export interface Place {
  city: string | null;
  /** State or province code as written in the record ("CA", "KA"), or null. */
  region: string | null;
  country: string | null;
}

export interface CompanyFields {
  kind: 'company';
  places: Place[];
  remote: boolean;
  industry: string;
  subindustry: string | null;
  tags: string[];
  status: 'Active' | 'Acquired' | 'Public' | 'Inactive' | string;
  teamSize: number | null;
  hiring: boolean;
  nonprofit: boolean;
  /** "Winter 2012", or null when the record has none (most nonprofits). */
  batch: string | null;
  batchYear: number | null;
  stage: string;
  regions: string[];
  oneLiner: string;
  longDescription: string;
  website: string | null;
  formerNames: string[];
  launchedAt: string | null;
}

export interface ResearcherFields {
  kind: 'researcher';
  /** Nobel Prize category as the record writes it: Physics, Chemistry, Medicine, Economics. */
  category: string;
  prizeYear: number;
  motivation: string;
  gender: string;
  birthDate: string | null;
  birthCity: string | null;
  birthCountry: string | null;
  affiliations: { name: string; city: string | null; country: string | null }[];
}

export interface PaperFields {
  kind: 'paper';
  field: string;
  pubYear: number;
  prizeYear: number;
  /** Laureate names as the record writes them ("thouless, dj"). */
  authors: string[];
  title: string;
}

export type EntityFields = CompanyFields | ResearcherFields | PaperFields;

export interface DevEntity {
  /** Stable key, e.g. `yc:gusto`. */
  key: string;
  kind: DevKind;
  name: string;
  /** Other names a correct row may carry (former names, name without honorifics). */
  aliases: string[];
  /** The entity's own web domain (lower case, no `www.`), or null when it has none. */
  domain: string | null;
  slug: string;
  /** YYYY-MM-DD the entity's own pages are dated with (from the record), or null. */
  date: string | null;
  fields: EntityFields;
}

// ---------------------------------------------------------------- companies (yc-oss/api)

interface YcRecord {
  name: string;
  slug: string;
  former_names: string[];
  website: string;
  all_locations: string;
  long_description: string;
  one_liner: string;
  team_size: number | null;
  industry: string;
  subindustry: string;
  launched_at: number | null;
  tags: string[];
  isHiring: boolean;
  nonprofit: boolean;
  batch: string;
  status: string;
  regions: string[];
  stage: string;
}

function parsePlaces(all: string): { places: Place[]; remote: boolean } {
  const places: Place[] = [];
  let remote = false;
  for (const part of all.split(';').map((p) => p.trim()).filter(Boolean)) {
    if (/^remote$/i.test(part)) {
      remote = true;
      continue;
    }
    const bits = part.split(',').map((b) => b.trim());
    if (bits.length >= 3) places.push({ city: bits[0]!, region: bits[1]!, country: bits.slice(2).join(', ') });
    else if (bits.length === 2) places.push({ city: null, region: bits[0]!, country: bits[1]! });
    else places.push({ city: null, region: null, country: bits[0]! });
  }
  return { places, remote };
}

export function domainOf(url: string): string | null {
  try {
    const host = new URL(url).hostname.toLowerCase().replace(/^www\./, '');
    return host.includes('.') ? host : null;
  } catch {
    return null;
  }
}

function isoDay(unixSeconds: number | null): string | null {
  return unixSeconds ? new Date(unixSeconds * 1000).toISOString().slice(0, 10) : null;
}

function loadYc(file: string): DevEntity[] {
  const records = JSON.parse(readFileSync(join(DATA, 'yc', file), 'utf8')) as YcRecord[];
  return records.map((r) => {
    const { places, remote } = parsePlaces(r.all_locations ?? '');
    const batchYear = /\b(\d{4})\b/.exec(r.batch ?? '')?.[1];
    const subindustry = r.subindustry?.includes('->') ? r.subindustry.split('->').pop()!.trim() : null;
    const fields: CompanyFields = {
      kind: 'company',
      places,
      remote,
      industry: r.industry,
      subindustry,
      tags: r.tags ?? [],
      status: r.status,
      teamSize: typeof r.team_size === 'number' ? r.team_size : null,
      hiring: r.isHiring === true,
      nonprofit: r.nonprofit === true,
      batch: r.batch && r.batch !== 'Unspecified' ? r.batch : null,
      batchYear: batchYear ? Number(batchYear) : null,
      stage: r.stage,
      regions: r.regions ?? [],
      oneLiner: (r.one_liner ?? '').trim(),
      longDescription: (r.long_description ?? '').replace(/\r\n/g, '\n').replace(/\u200b/g, '').trim(),
      website: domainOf(r.website ?? '') ? r.website : null,
      formerNames: r.former_names ?? [],
      launchedAt: isoDay(r.launched_at),
    };
    return {
      key: `yc:${r.slug}`,
      kind: 'company' as const,
      name: r.name.trim(),
      aliases: fields.formerNames,
      domain: domainOf(r.website ?? ''),
      slug: r.slug,
      date: fields.launchedAt,
      fields,
    };
  });
}

// ---------------------------------------------------------------- CSV (RFC 4180 quoting)

export function parseCsv(text: string): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += ch;
  }
  if (cell || row.length) {
    row.push(cell);
    rows.push(row);
  }
  const [header, ...body] = rows.filter((r) => r.some((c) => c.trim()));
  return body.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i] ?? ''])));
}

const na = (v: string | undefined): string | null => (v === undefined || v === '' || v === 'NA' ? null : v.trim());

// ---------------------------------------------------------------- researchers (Nobel laureates)

function slugOf(text: string): string {
  return text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

function loadResearchers(): DevEntity[] {
  const rows = parseCsv(readFileSync(join(DATA, 'nobel', 'nobel_winners_2008-2016_sciences.csv'), 'utf8'));
  const byId = new Map<string, DevEntity>();
  for (const r of rows) {
    const id = r.laureate_id!;
    let e = byId.get(id);
    if (!e) {
      const fields: ResearcherFields = {
        kind: 'researcher',
        category: r.category!,
        prizeYear: Number(r.prize_year),
        // The source wraps motivations in literal quotes.
        motivation: (r.motivation ?? '').replace(/^"+|"+$/g, ''),
        gender: r.gender!,
        birthDate: na(r.birth_date),
        birthCity: na(r.birth_city),
        birthCountry: na(r.birth_country),
        affiliations: [],
      };
      const name = r.full_name!.trim();
      e = {
        key: `nobel:${id}`,
        kind: 'researcher',
        name,
        aliases: name.startsWith('Sir ') ? [name.slice(4)] : [],
        domain: null,
        slug: slugOf(name),
        // The prizes are announced in early October.
        date: `${r.prize_year}-10-08`,
        fields,
      };
      byId.set(id, e);
    }
    const f = e.fields as ResearcherFields;
    const org = na(r.organization_name);
    if (org && !f.affiliations.some((a) => a.name === org)) f.affiliations.push({ name: org, city: na(r.organization_city), country: na(r.organization_country) });
  }
  return [...byId.values()];
}

// ---------------------------------------------------------------- papers (prize-winning papers)

function paperTitle(raw: string): string {
  const t = raw.trim().replace(/\s+/g, ' ');
  return t.charAt(0).toUpperCase() + t.slice(1);
}

function loadPapers(): DevEntity[] {
  const rows = parseCsv(readFileSync(join(DATA, 'nobel', 'prize-winning-papers_subset.csv'), 'utf8'));
  const byId = new Map<string, DevEntity>();
  for (const r of rows) {
    const title = paperTitle(r.Title!);
    const id = na(r['Paper ID']) ?? `${slugOf(title)}-${r['Pub year']}`;
    let e = byId.get(id);
    if (!e) {
      const fields: PaperFields = { kind: 'paper', field: r.Field!, pubYear: Number(r['Pub year']), prizeYear: Number(r['Prize year']), authors: [], title };
      e = { key: `paper:${id}`, kind: 'paper', name: title, aliases: [], domain: null, slug: `${slugOf(title).slice(0, 60)}-${id}`, date: `${r['Pub year']}-06-01`, fields };
      byId.set(id, e);
    }
    const f = e.fields as PaperFields;
    const author = r['Laureate name']!.trim();
    if (!f.authors.includes(author)) f.authors.push(author);
    f.prizeYear = Math.min(f.prizeYear, Number(r['Prize year']));
  }
  return [...byId.values()];
}

let cache: DevEntity[] | null = null;

/** Every entity of the development set, in a fixed order. */
export function loadEntities(): DevEntity[] {
  cache ??= [...loadYc('top.json'), ...loadYc('nonprofit.json'), ...loadResearchers(), ...loadPapers()];
  return cache;
}

export function companyFields(e: DevEntity): CompanyFields | null {
  return e.fields.kind === 'company' ? e.fields : null;
}
