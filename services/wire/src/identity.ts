import type { EntityType } from './rows.js';

/**
 * Canonical identity of an entity, shared by exclusions (`exclude`) and recall (`expected`): the entity's
 * own domain first, then its normalised name, plus the identifier its kind has (LinkedIn profile or company
 * page for companies and people, ORCID for researchers, DOI for papers and books). Pure: no I/O.
 *
 * Two entities are the same when they share a strong identifier (domain, LinkedIn, ORCID, DOI), or when
 * their normalised names are equal and their own domains do not contradict (both known and different
 * means two namesakes, as the run's candidate pool already treats them).
 */
export interface EntityIdentity {
  /** Normalised name ('' when none). */
  name: string;
  /** Own domain, lowercase, without `www.`; null when unknown. */
  domain: string | null;
  /** `linkedin:…`, `orcid:…`, `doi:…` keys read from the entity's URLs for its kind. */
  ids: string[];
}

const LEGAL_SUFFIXES = /\b(gmbh|ag|ug|kg|se|inc|llc|ltd|limited|plc|corp|corporation|co|sas|sarl|sa|srl|bv|nv|oy|ab|as|pty)\b\.?/g;
const TITLES = /^(dr|prof|professor|mr|mrs|ms)\b\.?\s+/;

/**
 * A name as identity: lowercase, no diacritics, titles, legal suffixes, middle initials or punctuation
 * (the same rule as the filter's candidate keys, so "Acme GmbH" and "ACME" are one entity).
 */
export function normaliseName(name: string): string {
  let s = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[“”"‘’']/g, '').trim();
  while (TITLES.test(s)) s = s.replace(TITLES, '');
  s = s.replace(/(?<=\p{L}{2,}\s)(?:\p{L}\.\s+)+(?=\p{L}{2,})/gu, '');
  s = s.replace(LEGAL_SUFFIXES, ' ');
  return s.replace(/[^\p{L}\p{N}]+/gu, ' ').trim().replace(/\s+/g, ' ');
}

const DOMAIN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** `https://www.Acme.com/about` or `acme.com` → `acme.com`; null when it is not a host name. */
export function normaliseDomain(value: string): string | null {
  let s = value.trim().toLowerCase();
  if (s === '') return null;
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(s)) {
    try {
      s = new URL(s).hostname;
    } catch {
      return null;
    }
  } else {
    s = s.split(/[/?#]/, 1)[0]!.replace(/:\d+$/, '');
  }
  s = s.replace(/^www\./, '').replace(/\.$/, '');
  return DOMAIN.test(s) ? s : null;
}

const LINKEDIN_KINDS: ReadonlySet<EntityType> = new Set(['company', 'professional', 'freelancer', 'clinician', 'lawyer', 'researcher']);
const ORCID_KINDS: ReadonlySet<EntityType> = new Set(['researcher']);
const DOI_KINDS: ReadonlySet<EntityType> = new Set(['paper', 'book']);

/** The kind's own identifiers among URLs: a LinkedIn profile/company page, an ORCID iD, a DOI. */
export function identifiersIn(kind: EntityType, urls: readonly string[]): string[] {
  const out = new Set<string>();
  for (const raw of urls) {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      continue;
    }
    const host = url.hostname.toLowerCase().replace(/^www\./, '');
    const path = decodeURIComponent(url.pathname).toLowerCase().replace(/\/+$/, '');
    if (LINKEDIN_KINDS.has(kind) && /(^|\.)linkedin\.com$/.test(host)) {
      const m = /^\/(in|company)\/([^/]+)/.exec(path);
      if (m) out.add(`linkedin:${m[1]}/${m[2]}`);
    } else if (ORCID_KINDS.has(kind) && host === 'orcid.org') {
      const m = /^\/(\d{4}-\d{4}-\d{4}-\d{3}[\dx])$/.exec(path);
      if (m) out.add(`orcid:${m[1]}`);
    } else if (DOI_KINDS.has(kind) && (host === 'doi.org' || host === 'dx.doi.org')) {
      const m = /^\/(10\.\d{4,9}\/.+)$/.exec(path);
      if (m) out.add(`doi:${m[1]}`);
    }
  }
  return [...out];
}

/** The identity of an entity from what a candidate or a row knows of it. */
export function entityIdentity(entity: { name: string; entityType: EntityType; domain?: string | null; urls?: readonly string[] }): EntityIdentity {
  return {
    name: normaliseName(entity.name),
    domain: entity.domain ? normaliseDomain(entity.domain) : null,
    ids: identifiersIn(entity.entityType, entity.urls ?? []),
  };
}

/**
 * A set of entities to recognise (an exclusion list, the caller's expected list). `match` answers the
 * entry an entity is, by the rule above, or undefined.
 */
export class IdentityIndex<T = true> {
  private readonly byStrong = new Map<string, T>();
  private readonly byName = new Map<string, { domain: string | null; value: T }[]>();
  private count = 0;

  add(identity: EntityIdentity, value: T): void {
    this.count += 1;
    if (identity.domain) this.byStrong.set(`domain:${identity.domain}`, value);
    for (const id of identity.ids) this.byStrong.set(id, value);
    if (identity.name) {
      const list = this.byName.get(identity.name) ?? [];
      list.push({ domain: identity.domain, value });
      this.byName.set(identity.name, list);
    }
  }

  /** A name alone (`exclude.names`) or a domain alone (`exclude.domains`). */
  addName(name: string, value: T): void {
    this.add({ name: normaliseName(name), domain: null, ids: [] }, value);
  }
  addDomain(domain: string, value: T): void {
    const d = normaliseDomain(domain);
    if (d) this.add({ name: '', domain: d, ids: [] }, value);
  }

  get size(): number {
    return this.count;
  }

  match(identity: EntityIdentity): T | undefined {
    if (identity.domain) {
      const hit = this.byStrong.get(`domain:${identity.domain}`);
      if (hit !== undefined) return hit;
    }
    for (const id of identity.ids) {
      const hit = this.byStrong.get(id);
      if (hit !== undefined) return hit;
    }
    if (!identity.name) return undefined;
    // Same name, unless both own domains are known and differ (namesakes).
    const entry = this.byName.get(identity.name)?.find((e) => !e.domain || !identity.domain || e.domain === identity.domain);
    return entry?.value;
  }
}

/** `acme.com` is read as a domain, anything else as a name (the caller's `expected` entries). */
export function identityOfNameOrDomain(value: string): EntityIdentity {
  const looksLikeDomain = !/\s/.test(value.trim()) && value.includes('.');
  const domain = looksLikeDomain ? normaliseDomain(value) : null;
  return domain ? { name: '', domain, ids: [] } : { name: normaliseName(value), domain: null, ids: [] };
}

/**
 * A run's exclusions as the edge resolved them at acceptance: the request's names and domains, and the
 * identities of every row the named runs (of the same account) returned. Stored with the run.
 */
export interface RunExclusions {
  names: string[];
  domains: string[];
  runs: string[];
  entities: EntityIdentity[];
}

/** The index a run drops candidates by. */
export function exclusionIndex(exclusions: RunExclusions): IdentityIndex {
  const index = new IdentityIndex();
  for (const name of exclusions.names) index.addName(name, true);
  for (const domain of exclusions.domains) index.addDomain(domain, true);
  for (const entity of exclusions.entities) index.add(entity, true);
  return index;
}
