import type { EntityType, PageEntity, PageFact, PageModel } from '@leadfinder/wire';
import { contentText, isBoilerplate, type DomNode, type DomScan } from './dom.js';
import { closesInitial, normaliseSpace, sentenceSpans } from './text.js';

/**
 * The page model: what a page says before any sentence is read. Structure comes first, in this order:
 * schema.org JSON-LD and microdata, OpenGraph, the page's subject (h1, title, og:site_name), facts as
 * label–value pairs (`li` "Label: value", `dl`, two-column tables), and listings (tables with a header
 * row, lists and repeated cards whose items name and link an entity). Every name, value and passage is
 * text of the page: visible text, or a structured-data value that `extractHtml` adds to the text as a
 * passage of its own, so grounding holds for all of them.
 */

/** schema.org types (and their common subtypes) → the API's entity kinds. */
const SCHEMA_KIND: Record<string, EntityType> = {
  organization: 'company', corporation: 'company', localbusiness: 'company', ngo: 'company', nonprofit: 'company',
  onlinebusiness: 'company', educationalorganization: 'company', governmentorganization: 'company', company: 'company',
  person: 'professional', product: 'product', softwareapplication: 'product', webapplication: 'product',
  mobileapplication: 'product', softwaresourcecode: 'product', book: 'book', scholarlyarticle: 'paper',
  newsarticle: 'news', reportagenewsarticle: 'news', article: 'news', blogposting: 'news', musicvideoobject: 'music_video',
  exhibitionevent: 'exhibition', event: 'conference', businessevent: 'conference', educationevent: 'conference',
  physician: 'clinician', medicalbusiness: 'clinician', attorney: 'lawyer', legalservice: 'lawyer',
};

/** OpenGraph og:type → kind (only the ones that say what the page is about). */
const OG_KIND: Record<string, EntityType> = {
  article: 'news', book: 'book', profile: 'professional', product: 'product', 'video.other': 'music_video', 'music.song': 'music_video',
};

/** schema.org properties worth a fact, with the label a person would print. */
const SCHEMA_LABELS: Record<string, string> = {
  address: 'Location', location: 'Location', areaserved: 'Area served', foundingdate: 'Founded', foundinglocation: 'Founded in',
  numberofemployees: 'Team size', industry: 'Industry', knowsabout: 'Industry', keywords: 'Tags', description: 'Description',
  slogan: 'Tagline', nonprofitstatus: 'Nonprofit status', jobtitle: 'Job title', worksfor: 'Works for', affiliation: 'Affiliation',
  datepublished: 'Published', datecreated: 'Created', releasedate: 'Released', startdate: 'Starts', enddate: 'Ends',
  author: 'Author', publisher: 'Publisher', brand: 'Brand', category: 'Category', applicationcategory: 'Category',
  memberof: 'Member of', award: 'Award', genre: 'Genre', about: 'About', url: 'Website', sameas: 'Also at',
  alumniof: 'Alumni of', parentorganization: 'Parent organization', legalname: 'Legal name', email: 'Email',
  telephone: 'Telephone', status: 'Status', headline: 'Headline',
  tickersymbol: 'Ticker symbol', dissolutiondate: 'Dissolved', founder: 'Founder', founders: 'Founders',
  worklocation: 'Work location', homelocation: 'Location', birthdate: 'Born', birthplace: 'Birth place', deathdate: 'Died',
  nationality: 'Nationality', hasoccupation: 'Occupation', ispartof: 'Published in', numberofpages: 'Pages',
};

/** URL path words of taxonomy and listing pages (web conventions, not one site's). */
const TAXONOMY_SEGMENTS = /^(?:tags?|categor(?:y|ies)|topics?|industr(?:y|ies)|sectors?|lists?|search|cit(?:y|ies)|countr(?:y|ies)|batch(?:es)?|fields?|keywords?|subjects?)$/;

/** A label of a facts line: short, starts with a letter, no sentence punctuation. */
const FACT_LINE = /^([\p{Lu}][\p{L}\p{N} /&().'’-]{0,38}?)\s*:\s+(\S.{0,600})$/u;

/**
 * Labels profile pages print before a value, across business directories, encyclopedias, scholarly
 * databases and people directories (a label may carry a trailing word: "Year founded", "Company size").
 * Used only where markup alone cannot tell a label from a name: a bold lead without a colon ("<b>HQ</b>
 * Berlin") is a label when a list's leads are mostly such words, and a name ("<b>Stripe</b> — payments")
 * otherwise.
 */
const PROFILE_LABEL = new RegExp(String.raw`^(?:(?:year|date|place|country|city|company|organi[sz]ation|team|current|primary|main|research|legal|total|open|work|yc)\s+)?(?:` + [
  'location', 'locations', 'headquarters', 'hq', 'head office', 'based in', 'city', 'country', 'region', 'address', 'offices?',
  'industry', 'industries', 'sector', 'sectors', 'vertical', 'verticals', 'category', 'categories', 'market', 'markets',
  'tags', 'topics', 'keywords', 'focus', 'specialties', 'specialities', 'services', 'products',
  'founded', 'year founded', 'founding year', 'established', 'est\\.?', 'launched', 'launch year', 'since', 'incorporated', 'inception',
  'employees', 'size', 'team size', 'headcount', 'staff', 'workforce', 'people',
  'status', 'stage', 'type', 'form', 'ownership', 'funding', 'funding stage', 'investors', 'founders?', 'ceo', 'parent', 'ticker',
  'website', 'web', 'url', 'homepage', 'email', 'phone', 'telephone',
  'hiring', 'jobs', 'careers', 'roles', 'positions', 'openings',
  'accelerator', 'batch', 'cohort', 'program', 'programme',
  'model', 'policy', 'remote', 'remote policy', 'arrangement',
  'born', 'birth', 'date of birth', 'birthplace', 'place of birth', 'native of', 'nationality', 'citizenship', 'gender', 'pronouns', 'died',
  'affiliation', 'affiliations', 'institution', 'institutions', 'employer', 'works at', 'works for', 'university', 'department', 'lab',
  'field', 'fields', 'discipline', 'area', 'areas', 'research areas?', 'interests', 'expertise', 'known for',
  'prize', 'prizes', 'award', 'awards', 'honou?rs', 'recognition', 'cited for',
  'authors?', 'written by', 'by', 'editors?', 'year', 'published', 'publication', 'publication year', 'journal', 'venue', 'subject', 'doi', 'pages', 'language', 'languages',
].join('|') + String.raw`)$`, 'i');

/** Headings of widgets that name other entities than the page's own: they never make a page a listing. */
const ASIDE_HEADING = /^(?:similar|related|see also|people also (?:viewed|search(?:ed)? for)|you (?:may|might) also like|more (?:like this|from|spotlights)|trending|recommended|sponsored|promoted|advertisement|read next|also on)\b/i;

export interface RawPageModel extends PageModel {
  /** Passages the structured data adds to the page text (values not otherwise visible). */
  extraPassages: string[];
}

/** Host of a URL or a bare domain ("acme.org"), lower case without www., or null. */
function hostOf(value: string): string | null {
  const v = value.trim();
  if (!v) return null;
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(v) ? v : `https://${v}`).hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return null;
  }
}

function clean(text: string): string {
  return normaliseSpace(text);
}

/** A JSON-LD `@type` value's type names, one or several, without a vocabulary prefix ("https://schema.org/Place" → "Place"). */
function schemaTypeNames(type: unknown): string[] {
  return [type].flat().filter((t): t is string => typeof t === 'string').map((t) => t.replace(/^.*[/#]/, ''));
}

function kindOfSchemaType(type: unknown): EntityType | null {
  for (const t of schemaTypeNames(type)) {
    const k = SCHEMA_KIND[t.toLowerCase()];
    if (k) return k;
  }
  return null;
}

/**
 * The form an organisation's schema.org type states ("NGO", "GovernmentOrganization", "Corporation"), as
 * the type's own name: a type more specific than Organization says what kind of organisation it is, as a
 * "Type" fact would on a profile.
 */
function organisationForm(type: unknown): string | null {
  return schemaTypeNames(type).find((n) => SCHEMA_KIND[n.toLowerCase()] === 'company' && !/^(?:organization|company)$/i.test(n)) ?? null;
}

// ── JSON-LD ─────────────────────────────────────────────────────────────────────────────────────

/** JSON-LD nodes by their @id, so a reference ({"@id": "#org"}) reads as the node it points to. */
type NodeIndex = ReadonlyMap<string, Record<string, unknown>>;

/** A schema.org JobPosting: the role's title and the organisation that posts it. */
interface JobPosting {
  org: Record<string, unknown> | string;
  title: string;
}

/** The node a bare reference ({"@id": "#org"}) points to, else the object itself. */
function dereference(o: Record<string, unknown>, nodes: NodeIndex): Record<string, unknown> {
  return typeof o['@id'] === 'string' && Object.keys(o).length === 1 ? nodes.get(o['@id']) ?? o : o;
}

/** Plain text of a JSON-LD value: strings as they are, nested things by their name or address parts. */
function valueText(value: unknown, depth = 0, nodes: NodeIndex = new Map()): string {
  if (depth > 4 || value === null || value === undefined) return '';
  if (typeof value === 'string') return clean(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  // Several places (an organisation's offices: `address` or `location` as an array), or several things each with its
  // place (a scientist's two universities), are written as pages list them, ";" between them, so "San Francisco, CA,
  // USA; Santa Clara, CA, USA" is not read as one place, nor "Kyoto University, Kyoto, Japan; Gladstone Institutes,
  // San Francisco, CA, USA" as one university in the last country named.
  if (Array.isArray(value)) {
    const separate = value.length > 1 && value.every((v) => placeLike(v) || placed(v, nodes));
    return value.map((v) => valueText(v, depth + 1, nodes)).filter(Boolean).join(separate ? '; ' : ', ');
  }
  if (typeof value === 'object') {
    const o = dereference(value as Record<string, unknown>, nodes);
    // An organisation with its address ("affiliation": a university in Uppsala) keeps where it is.
    const where = typeof o.name === 'string' && (o.address || o.location) ? valueText(o.address ?? o.location, depth + 1, nodes) : '';
    // A Place named by its own first address part ({name: "Boston", address: {addressLocality: "Boston", …}}) says it once.
    if (typeof o.name === 'string') return where && !where.toLowerCase().startsWith(`${clean(o.name).toLowerCase()},`) ? `${clean(o.name)}, ${where}` : where && placeLike(o) ? where : clean(o.name);
    const address = ['streetAddress', 'addressLocality', 'addressRegion', 'addressCountry', 'postalCode']
      .map((k) => valueText(o[k], depth + 1, nodes))
      .filter(Boolean);
    if (address.length > 0) return address.join(', ');
    if (o.address) return valueText(o.address, depth + 1, nodes);
    if (o.value !== undefined) return valueText(o.value, depth + 1, nodes);
    if (o.minValue !== undefined || o.maxValue !== undefined) return [o.minValue, o.maxValue].filter((v) => v !== undefined).join('–');
  }
  return '';
}

/** schema.org's place types (Place and its subtypes a page uses for a site or an office) and PostalAddress. */
const PLACE_TYPE = /^(?:Place|PostalAddress|City|State|Country|AdministrativeArea)$/i;

/** A JSON-LD value that is a place: typed as one, or an untyped object with address parts. */
function placeLike(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const o = value as Record<string, unknown>;
  const types = schemaTypeNames(o['@type']);
  if (types.length > 0) return types.some((t) => PLACE_TYPE.test(t));
  return ['addressLocality', 'addressRegion', 'addressCountry', 'streetAddress'].some((k) => k in o);
}

/** schema.org's types of a journal and its parts; a Newspaper is a Periodical too, but its articles are news. */
const JOURNAL_TYPE = /^(?:Periodical|PublicationVolume|PublicationIssue)$/i;

/**
 * A plain schema.org `Article` that is part of a journal (`isPartOf` a Periodical, or a volume or issue of one) is a
 * journal article, as a ScholarlyArticle would say: many publishers write the generic type with the journal beside it.
 */
function journalArticle(o: Record<string, unknown>, nodes: NodeIndex): boolean {
  if (!schemaTypeNames(o['@type']).some((t) => /^article$/i.test(t))) return false;
  const journalPart = (value: unknown, depth: number): boolean => {
    if (depth > 3 || value === null || typeof value !== 'object') return false;
    if (Array.isArray(value)) return value.some((v) => journalPart(v, depth + 1));
    const part = dereference(value as Record<string, unknown>, nodes);
    const types = schemaTypeNames(part['@type']);
    if (types.some((t) => /^newspaper$/i.test(t))) return false;
    return types.some((t) => JOURNAL_TYPE.test(t)) || journalPart(part.isPartOf, depth + 1);
  };
  return journalPart(o.isPartOf, 0);
}

/** A named thing that carries its own place (an organisation with an address or a location), by value or by @id. */
function placed(value: unknown, nodes: NodeIndex): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const o = dereference(value as Record<string, unknown>, nodes);
  return typeof o.name === 'string' && Boolean(o.address || o.location);
}

/** "isHiring" → "Is hiring", "team_size" → "Team size". */
function humanise(key: string): string {
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').trim().toLowerCase();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : '';
}

interface JsonLdThing {
  kind: EntityType;
  name: string;
  link: string | null;
  /** `shown`: the visible text that states the value, when it is not the value itself (a link's text for its href). */
  facts: { label: string; value: string; shown?: string }[];
}

function jsonLdThings(blocks: readonly string[]): { things: JsonLdThing[]; listed: boolean } {
  const things: JsonLdThing[] = [];
  let listed = false;
  const roots: unknown[] = [];
  for (const block of blocks) {
    try {
      roots.push(JSON.parse(block));
    } catch {
      // A malformed block says nothing; the rest of the page still does.
    }
  }
  // Nodes with an @id, and the ids other nodes point to: a graph's Organization that a Person's worksFor
  // refers to is that person's employer, not a second thing the page is about.
  const nodes = new Map<string, Record<string, unknown>>();
  const referenced = new Set<string>();
  const refsIn = (value: unknown, depth: number): void => {
    if (depth > 6 || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const v of value) refsIn(v, depth + 1);
      return;
    }
    const o = value as Record<string, unknown>;
    if (typeof o['@id'] === 'string' && Object.keys(o).length === 1) referenced.add(o['@id']);
    for (const [key, v] of Object.entries(o)) if (!LISTING_PROPS.has(key)) refsIn(v, depth + 1);
  };
  const index = (node: unknown, depth: number) => {
    if (depth > 8 || node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const n of node) index(n, depth + 1);
      return;
    }
    const o = node as Record<string, unknown>;
    if (typeof o['@id'] === 'string' && Object.keys(o).length > 1) nodes.set(o['@id'], o);
    // Only an entity's own properties make another node part of it (a WebSite's publisher or a WebPage's
    // mainEntity do not: they point at what the page is about).
    if (kindOfSchemaType(o['@type'])) {
      for (const [key, v] of Object.entries(o)) if (!key.startsWith('@') && !LISTING_PROPS.has(key) && key !== 'mainEntityOfPage') refsIn(v, depth + 1);
    }
    for (const key of ['@graph', ...LISTING_PROPS]) index(o[key], depth + 1);
  };
  for (const root of roots) index(root, 0);
  const postings: JobPosting[] = [];
  const visit = (node: unknown, depth: number) => {
    if (depth > 8 || node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const n of node) visit(n, depth + 1);
      return;
    }
    const o = node as Record<string, unknown>;
    const type = o['@type'];
    if (typeof type === 'string' && /ItemList$/i.test(type)) listed = true;
    const posting = jobPostingOf(o, nodes);
    if (posting) postings.push(posting);
    const kind = journalArticle(o, nodes) ? 'paper' : kindOfSchemaType(type);
    const name = typeof o.name === 'string' ? clean(o.name) : typeof o.headline === 'string' ? clean(o.headline) : '';
    const partOfAnother = typeof o['@id'] === 'string' && referenced.has(o['@id']);
    if (kind && name && !partOfAnother) {
      const facts: { label: string; value: string }[] = [];
      // schema.org's way to state any other fact: additionalProperty: [{ "@type": "PropertyValue", name, value }].
      for (const pv of [o.additionalProperty].flat()) {
        if (!pv || typeof pv !== 'object') continue;
        const { name: label, value } = pv as Record<string, unknown>;
        const text = valueText(value, 0, nodes);
        if (typeof label === 'string' && label.trim() && text) facts.push({ label: clean(label), value: text });
      }
      for (const [key, value] of Object.entries(o)) {
        if (key.startsWith('@') || key === 'name' || key === 'image' || key === 'logo' || key === 'additionalProperty') continue;
        // Known properties get the label a person would print; others their own name, spelled out.
        const label = SCHEMA_LABELS[key.toLowerCase()] ?? humanise(key);
        if (!label) continue;
        const text = valueText(value, 0, nodes);
        if (text && text.length <= 600) facts.push({ label, value: text });
      }
      const form = organisationForm(type);
      if (form && kind === 'company' && !facts.some((f) => f.label === 'Type')) facts.push({ label: 'Type', value: form });
      const url = typeof o.url === 'string' ? o.url : null;
      things.push({ kind, name, link: url, facts });
    }
    for (const key of LISTING_PROPS) visit(o[key], depth + 1);
  };
  for (const root of roots) visit(root, 0);
  addJobPostings(postings, things);
  return { things, listed };
}

/** A schema.org JobPosting's role and the organisation it hires for (a name, or the node it points to), if the node is one. */
function jobPostingOf(o: Record<string, unknown>, nodes: NodeIndex): JobPosting | null {
  const org = o.hiringOrganization;
  const title = typeof o.title === 'string' ? clean(o.title) : typeof o.name === 'string' ? clean(o.name) : '';
  if (!schemaTypeNames(o['@type']).some((t) => /^jobposting$/i.test(t)) || !title || !org || (typeof org !== 'string' && typeof org !== 'object')) return null;
  return { org: typeof org === 'string' ? org : dereference(org as Record<string, unknown>, nodes), title };
}

/**
 * schema.org JobPosting (what careers pages and job boards mark up for search engines): each posting says its
 * hiringOrganization has that role open, a "Job posting" fact of the organisation (the role's title as its value).
 * The organisation is the page's thing of that name when there is one, else a thing of its own: a careers page
 * whose only structured data is its postings is about the organisation that posts them.
 */
function addJobPostings(postings: readonly JobPosting[], things: JsonLdThing[]): void {
  for (const { org, title } of postings) {
    const name = typeof org === 'string' ? clean(org) : typeof org.name === 'string' ? clean(org.name) : '';
    if (!name) continue;
    let thing = things.find((t) => t.kind === 'company' && t.name.toLowerCase() === name.toLowerCase());
    if (!thing) {
      thing = { kind: 'company', name, link: typeof org === 'object' && typeof org.url === 'string' ? org.url : null, facts: [] };
      things.push(thing);
    }
    if (!thing.facts.some((f) => f.label === 'Job posting' && f.value === title)) thing.facts.push({ label: 'Job posting', value: title });
  }
}

// ── citation_* meta tags ───────────────────────────────────────────────────────────────────────

/**
 * citation_* keys (the Highwire Press tags Google Scholar asks publishers for) → the label a person would
 * print; the title is the thing's name.
 */
const CITATION_LABELS: Record<string, string> = {
  citation_author: 'Author', citation_authors: 'Author', citation_publication_date: 'Published', citation_date: 'Published',
  citation_online_date: 'Published online', citation_year: 'Published', citation_journal_title: 'Published in',
  citation_conference_title: 'Published in', citation_inbook_title: 'Published in', citation_publisher: 'Publisher',
  citation_volume: 'Volume', citation_issue: 'Issue', citation_firstpage: 'First page', citation_doi: 'DOI',
  citation_keywords: 'Tags', citation_keyword: 'Tags', citation_language: 'Language', citation_dissertation_institution: 'Institution',
};

/**
 * A scholarly work described by citation_* meta tags: a paper named by citation_title, with its authors,
 * date and venue as facts (repeated keys joined, as JSON-LD arrays are). Null when the page has no title tag.
 */
function citationThing(metas: readonly [string, string][]): JsonLdThing | null {
  const title = clean(metas.find(([k]) => k === 'citation_title')?.[1] ?? '');
  if (!title) return null;
  const byLabel = new Map<string, string[]>();
  for (const [key, value] of metas) {
    const label = CITATION_LABELS[key];
    const v = clean(value);
    if (!label || !v) continue;
    const values = byLabel.get(label) ?? [];
    if (!values.includes(v)) values.push(v);
    byLabel.set(label, values);
  }
  const facts = [...byLabel].map(([label, values]) => ({ label: label === 'Author' && values.length > 1 ? 'Authors' : label, value: values.join(label === 'Author' ? '; ' : ', ') }));
  return { kind: 'paper', name: title, link: null, facts };
}

// ── microdata ───────────────────────────────────────────────────────────────────────────────────

/** Properties whose items are things of their own: a listing's entries, a page's main entity, its parts. */
const LISTING_PROPS = new Set(['itemListElement', 'item', 'mainEntity', 'hasPart', '@graph']);

function microdataThings(root: DomNode): JsonLdThing[] {
  const out: JsonLdThing[] = [];
  const walk = (node: DomNode) => {
    const a = node.attribs ?? {};
    // An item that is another item's property value (an affiliation, an author, an address) is part of that
    // item, not a thing of its own, unless it is a listing's entry (as JSON-LD's itemListElement and hasPart).
    const valueOfAnother = a.itemprop !== undefined && !a.itemprop.split(/\s+/).some((p) => LISTING_PROPS.has(p));
    if ('itemscope' in a && a.itemtype && !valueOfAnother) {
      const kind = kindOfSchemaType(a.itemtype.split(/\s+/));
      if (kind) {
        // Every value of every property, in page order (a person has several affiliations, a paper several authors).
        const props: { key: string; prop: string; value: string; shown?: string }[] = [];
        const collect = (n: DomNode) => {
          for (const c of n.children ?? []) {
            const ca = c.attribs ?? {};
            if (ca.itemprop) {
              const visibleText = clean(contentText(c));
              for (const prop of ca.itemprop.split(/\s+/).filter(Boolean)) {
                const key = prop.toLowerCase();
                // A link's href (itemprop="url") or a time's datetime is the value; the text a reader sees states it.
                const attribute = ca.content ?? (c.name === 'a' && key === 'url' ? ca.href : c.name === 'time' ? ca.datetime : undefined);
                const value = clean(attribute ?? visibleText);
                if (!value || props.some((p) => p.key === key && p.value === value)) continue;
                props.push({ key, prop, value, ...(attribute !== undefined && visibleText && visibleText !== value ? { shown: visibleText } : {}) });
              }
            }
            if (!('itemscope' in ca)) collect(c);
          }
        };
        collect(node);
        const first = (key: string) => props.find((p) => p.key === key)?.value;
        const name = first('name');
        if (name) {
          const facts = props
            .filter((p) => !['name', 'image', 'logo'].includes(p.key))
            // Known properties get the label a person would print; others their own name, spelled out (as in JSON-LD).
            .map((p) => ({ label: SCHEMA_LABELS[p.key] ?? humanise(p.prop), value: p.value, ...(p.shown ? { shown: p.shown } : {}) }))
            .filter((f) => f.label && f.value.length <= 600);
          out.push({ kind, name, link: first('url') ?? null, facts });
        }
      }
    }
    for (const c of node.children ?? []) walk(c);
  };
  walk(root);
  return out;
}

// ── facts and listings from visible structure ───────────────────────────────────────────────────

const text = (n: DomNode) => clean(contentText(n, true));

function childrenNamed(node: DomNode, names: ReadonlySet<string>): DomNode[] {
  return (node.children ?? []).filter((c) => c.type === 'tag' && names.has(c.name ?? ''));
}

function descendants(node: DomNode, name: string, out: DomNode[] = [], insideContent = true): DomNode[] {
  for (const c of node.children ?? []) {
    if (c.type !== 'tag' || isBoilerplate(c, insideContent)) continue;
    if (c.name === name) out.push(c);
    descendants(c, name, out, insideContent);
  }
  return out;
}

function firstLink(node: DomNode): { href: string; text: string } | null {
  for (const c of node.children ?? []) {
    if (c.type !== 'tag') continue;
    if (c.name === 'a' && c.attribs?.href) return { href: c.attribs.href, text: text(c) };
    const inner = firstLink(c);
    if (inner) return inner;
  }
  return null;
}

function tableRows(table: DomNode): DomNode[] {
  const rows: DomNode[] = [];
  for (const c of table.children ?? []) {
    if (c.name === 'tr') rows.push(c);
    else if (c.name === 'thead' || c.name === 'tbody' || c.name === 'tfoot') rows.push(...childrenNamed(c, new Set(['tr'])));
  }
  return rows;
}

const CELLS = new Set(['td', 'th']);

/** Elements that end a line inside a table cell. */
const CELL_LINE_BREAKS = new Set(['br', 'li', 'p', 'div', 'dd']);

/** The lines of a cell: its text cut at line breaks and at its block children, each cleaned, none empty. */
function cellLines(cell: DomNode): string[] {
  let out = '';
  const walk = (node: DomNode) => {
    if (node.type === 'text') {
      out += node.data ?? '';
      return;
    }
    if (node.type !== 'tag' || isBoilerplate(node, true)) return;
    if (node.name === 'br') {
      out += '\n';
      return;
    }
    for (const c of node.children ?? []) walk(c);
    if (CELL_LINE_BREAKS.has(node.name ?? '')) out += '\n';
  };
  for (const c of cell.children ?? []) walk(c);
  return out.split('\n').map(clean).filter(Boolean);
}

/** A table row as extraction prints it: its cells apart by one space. */
function rowText(row: DomNode): string {
  return clean(childrenNamed(row, CELLS).map((c) => contentText(c, true)).join(' '));
}

/** A name as a listing prints it: short, starts like a name, not a sentence. */
function plausibleItemName(name: string): boolean {
  // Long enough for a paper's or a book's title; a sentence ends with a full stop and is no name.
  if (name.length < 2 || name.length > 250) return false;
  if (name.split(/\s+/).length > 30) return false;
  if (/[.!?]$/.test(name) && !/\b(Inc|Co|Ltd|Corp)\.$/.test(name)) return false;
  return /^[\p{Lu}\p{N}“"]/u.test(name) || /^[a-z][a-z0-9]*[A-Z.]/.test(name);
}

interface Structure {
  facts: PageFact[];
  items: PageEntity[];
}

const EMPHASIS = new Set(['b', 'strong', 'em', 'span', 'label', 'th', 'dfn']);
/** Elements extraction keeps on one line with their neighbours (extract.ts starts a passage at any other). */
const INLINE = new Set(['span', 'b', 'strong', 'em', 'i', 'label', 'small', 'a', 'abbr', 'time', 'code', 'dfn', 'mark', 'sup', 'sub']);

/** A label as pages print one: short, a few words, starting with a letter, no sentence in it. */
function labelLike(label: string): boolean {
  return label.length >= 2 && label.length <= 40 && label.split(/\s+/).length <= 5 && /^\p{L}/u.test(label) && !/[!?;]|\.\s/.test(label);
}

/**
 * An element that opens with an emphasised, unlinked label and goes on with its value ("<li><b>HQ</b>
 * Berlin</li>", "<p><strong>Founded:</strong> 2019</p>"): the label (without a colon), the value, and
 * whether a colon marks it as a label.
 */
function emphasisedLabel(node: DomNode): { label: string; value: string; colon: boolean } | null {
  const line = text(node);
  for (const c of node.children ?? []) {
    if (c.type === 'text' && !clean(c.data ?? '')) continue;
    if (c.type !== 'tag' || !EMPHASIS.has(c.name ?? '') || firstLink(c)) return null;
    const shown = text(c);
    if (!shown || !line.startsWith(shown)) return null;
    const rest = line.slice(shown.length);
    const colon = /:$/.test(shown) || /^\s*:/.test(rest);
    const label = shown.replace(/\s*:$/, '').trim();
    const value = rest.replace(/^\s*:?\s*/, '').trim();
    if (!labelLike(label) || !value || value.length > 600) return null;
    return { label, value, colon };
  }
  return null;
}

/** Element children and non-blank text of a node, in order. */
function visibleChildren(node: DomNode): DomNode[] {
  return (node.children ?? []).filter((c) => (c.type === 'text' ? Boolean(clean(c.data ?? '')) : c.type === 'tag'));
}

/** A block that opens with an emphasised label and a line break before its value ("<p><b>Campus</b><br>Kyoto</p>"). */
function labelOnItsOwnLine(node: DomNode): boolean {
  const [first, second] = visibleChildren(node);
  return Boolean(first && second && first.type === 'tag' && EMPHASIS.has(first.name ?? '') && second.type === 'tag' && second.name === 'br');
}

/** How many other blocks beside this one (same parent, same element) open with a label on its own line. */
function labelBlockSiblings(node: DomNode): number {
  return (node.parent?.children ?? []).filter((c) => c !== node && c.type === 'tag' && c.name === node.name && labelOnItsOwnLine(c)).length;
}

/** Path words of an author's page (a byline's link: /author/jane-doe, /contributors/jane-doe). */
const AUTHOR_SEGMENTS = /^(?:authors?|writers?|contributors?|columnists?|reporters?|byline)$/i;
/** Class or id words of a byline. */
const BYLINE_CLASS = /\b(?:byline|author|authors|contributor|dateline)\b/i;

/** A link to who wrote the page (rel="author", an author page's path, inside a byline), not to what it is about. */
function authorLink(a: DomNode, within: DomNode): boolean {
  if (/\bauthor\b/i.test(a.attribs?.rel ?? '')) return true;
  try {
    const segments = new URL(a.attribs?.href ?? '', 'http://this.page/').pathname.split('/').filter(Boolean);
    if (segments.length >= 2 && AUTHOR_SEGMENTS.test(segments.at(-2)!)) return true;
  } catch {
    return false;
  }
  for (let n: DomNode | null | undefined = a; n; n = n.parent) {
    if (BYLINE_CLASS.test(`${n.attribs?.class ?? ''} ${n.attribs?.id ?? ''}`)) return true;
    if (n === within) break;
  }
  return false;
}

/** A name that starts a line before a separator ("Segment (YC S11), San Francisco: …", "PagerDuty — …"). */
function plainLead(line: string): string | null {
  const m = /^(.{2,60}?)(?:\s+[—–(]|\s+-\s|:\s|,\s)/u.exec(line);
  const name = m?.[1]?.trim() ?? '';
  if (!name || !plausibleItemName(name) || name.split(/\s+/).length > 5 || !/^[\p{Lu}\p{N}]/u.test(name)) return null;
  // A name's words are capitalised ("GOAT Group", "Our World in Data" keeps its short words); a phrase is not.
  const words = name.split(/\s+/);
  return words.filter((w) => /^[\p{Lu}\p{N}]/u.test(w)).length * 2 > words.length ? name : null;
}

/**
 * The unlinked members of a series ("A, B, C and D") in which at least two members are `linked` names: each
 * a short capitalised name. A series whose unlinked members outnumber its linked ones is left alone.
 */
function seriesSiblings(paragraph: string, linked: readonly string[]): string[] {
  const out: string[] = [];
  for (const [start, end] of sentenceSpans(paragraph)) {
    const sentence = paragraph.slice(start, end).replace(/[.!?]+$/, '');
    // A linked name is one member whatever it holds ("Sanitation and Health Rights in India (SHRI)"): the series is
    // cut around the linked names first.
    let tail = sentence.slice(sentence.lastIndexOf(':') + 1);
    const held = [...linked].sort((a, b) => b.length - a.length);
    held.forEach((name, i) => { tail = tail.split(name).join(`\uE000${i}\uE000`); });
    // A series is "A, B and C": commas between its members and one "and" (or "or") before the last, so an "and"
    // elsewhere belongs to a member's own name.
    const cut = tail.split(/,\s+/);
    const last = (cut.pop() ?? '').replace(/^(?:and|or)\s+/, '');
    const conjunction = Math.max(last.lastIndexOf(' and '), last.lastIndexOf(' or '));
    const members = conjunction > 0 ? [...cut, last.slice(0, conjunction), last.slice(conjunction).replace(/^\s+(?:and|or)\s+/, '')] : [...cut, last];
    const parts = members.map((x) => x.replace(/\uE000(\d+)\uE000/g, (_, i: string) => held[Number(i)]!).trim()).filter(Boolean);
    if (parts.length < 3) continue;
    // The first part may carry the words that lead into the series ("… the same names Fivestars"): only a
    // part that is a whole name counts.
    const named = parts.filter((x) => linked.includes(x));
    const rest = parts.filter((x) => !linked.includes(x));
    if (named.length < 2 || rest.length > named.length) continue;
    for (const x of rest) if (plainLead(`${x}, `) === x && paragraph.includes(x)) out.push(x);
  }
  return out;
}

/** A block under a heading that is a label profiles use ("Affiliations", "Awards"): the subject's facts, not a listing. */
function underLabel(node: DomNode): boolean {
  for (let n: DomNode | null | undefined = node, depth = 0; n && depth < 3; n = n.parent, depth += 1) {
    const siblings = n.parent?.children ?? [];
    for (let i = siblings.indexOf(n) - 1; i >= 0; i--) {
      const s = siblings[i]!;
      if (s.type !== 'tag') continue;
      if (/^h[1-6]$/.test(s.name ?? '')) return PROFILE_LABEL.test(text(s).replace(/\s*:$/, ''));
    }
  }
  return false;
}

/** Labels a reader takes for labels: marked by a colon, or words profiles label values with. */
const isLabel = (l: { label: string; colon: boolean }) => l.colon || PROFILE_LABEL.test(l.label);

/**
 * Label–value rows written as two elements side by side ("<div><span>Team size</span> <span>120</span></div>"):
 * a row is an element with exactly two element children and no text of its own, the first a short label
 * without a link. Rows count when their parent repeats the pattern (three or more) or the label is one
 * profiles use.
 */
function pairRows(root: DomNode): PageFact[] {
  const byParent = new Map<DomNode, PageFact[]>();
  const visit = (node: DomNode) => {
    for (const c of node.children ?? []) {
      if (c.type !== 'tag' || isBoilerplate(c, true)) continue;
      const kids = (c.children ?? []).filter((k) => !(k.type === 'text' && !clean(k.data ?? '')));
      if (['div', 'p', 'li'].includes(c.name ?? '') && kids.length === 2 && kids.every((k) => k.type === 'tag' && !['ul', 'ol', 'table', 'dl', 'dt', 'dd'].includes(k.name ?? '')) && !firstLink(kids[0]!)) {
        const label = text(kids[0]!).replace(/\s*:$/, '');
        const value = text(kids[1]!);
        // A heading as the label ("<h4>Headquarters</h4><p>Berlin</p>") only with a label profiles use: a
        // card's heading is its name ("<h3>Stripe</h3><p>Payments</p>").
        const heading = /^h[1-6]$/.test(kids[0]!.name ?? '');
        if (labelLike(label) && value && value.length <= 600 && (!heading || PROFILE_LABEL.test(label))) {
          const list = byParent.get(node) ?? [];
          // Inline halves print as one line ("Team size 120"); block halves as two, the value's line its passage.
          const inline = kids.every((k) => INLINE.has(k.name ?? ''));
          list.push({ label, value, passage: inline ? text(c) : value });
          byParent.set(node, list);
          continue;
        }
      }
      visit(c);
    }
  };
  visit(root);
  return [...byParent.values()].flatMap((rows) => rows.filter((r) => rows.length >= 3 || PROFILE_LABEL.test(r.label)));
}

/**
 * Labels printed as small headings with the value as the next element, without a wrapper per pair
 * ("<h4>Headquarters</h4><p>Berlin</p><h4>Sector</h4><p>Fintech</p>"): a heading whose text is a label
 * profiles use, and a short next element that is no heading.
 */
function headingFacts(root: DomNode): PageFact[] {
  const out: PageFact[] = [];
  for (const level of ['h3', 'h4', 'h5', 'h6']) {
    for (const h of descendants(root, level)) {
      const label = text(h).replace(/\s*:$/, '');
      if (!PROFILE_LABEL.test(label)) continue;
      const siblings = (h.parent?.children ?? []).filter((c) => c.type === 'tag');
      const next = siblings[siblings.indexOf(h) + 1];
      if (!next || /^h[1-6]$/.test(next.name ?? '') || ['ul', 'ol', 'table', 'dl'].includes(next.name ?? '')) continue;
      const value = text(next);
      if (value && value.length <= 200 && !/[.!?]\s/.test(value)) out.push({ label, value, passage: value });
    }
  }
  return out;
}

/** The column of a listing table that names its items: a header saying so, else the linked column, else the first not of numbers. */
function nameColumn(labels: readonly string[], body: readonly DomNode[], cellsOf: (r: DomNode) => DomNode[]): number {
  const exact = labels.findIndex((l) => /^(name|company|startup|organi[sz]ation|product|title|project|person)$/i.test(l));
  if (exact >= 0) return exact;
  const share = (test: (c: DomNode) => boolean) => labels.map((_, i) => body.filter((r) => {
    const c = cellsOf(r)[i];
    return c !== undefined && test(c);
  }).length);
  const linked = share((c) => firstLink(c) !== null);
  const mostLinked = linked.indexOf(Math.max(...linked));
  if (linked[mostLinked]! * 2 > body.length) return mostLinked;
  const worded = labels.findIndex((l) => /\b(?:name|company|startup|organi[sz]ation|product|title|project|person|researcher|scientist|laureate|paper|article|book)\b/i.test(l));
  if (worded >= 0) return worded;
  const numeric = share((c) => /^[#\d.,\s]*$/.test(text(c)));
  const words = numeric.findIndex((n) => n * 2 < body.length);
  return Math.max(0, words);
}

function readStructure(root: DomNode): Structure {
  const facts: PageFact[] = [];
  const items: PageEntity[] = [];
  const itemPassages = new Set<string>();

  // Tables: a header row and two or more data rows is a listing (one item per row, header cells as
  // labels); rows of exactly two cells without such a header are an infobox of facts.
  for (const table of descendants(root, 'table')) {
    const rows = tableRows(table);
    if (rows.length === 0) continue;
    const cellsOf = (r: DomNode) => childrenNamed(r, CELLS);
    const headerCells = cellsOf(rows[0]!);
    const isHeader = headerCells.length >= 2 && headerCells.every((c) => c.name === 'th');
    const body = isHeader ? rows.slice(1) : rows;
    // One data row under a header of three or more columns is a listing too (the last page of a ranking).
    if (isHeader && (body.length >= 2 || (body.length === 1 && headerCells.length >= 3))) {
      const labels = headerCells.map(text);
      const nameAt = nameColumn(labels, body, cellsOf);
      for (const row of body) {
        const cells = cellsOf(row);
        const nameCell = cells[nameAt];
        if (!nameCell) continue;
        const name = text(nameCell);
        const passage = rowText(row);
        if (!plausibleItemName(name) || !passage) continue;
        const link = firstLink(nameCell)?.href ?? firstLink(row)?.href ?? null;
        const rowFacts = cells
          .map((c, i) => ({ label: labels[i] ?? '', value: text(c), passage }))
          .filter((f, i) => i !== nameAt && f.label && f.value);
        items.push({ name, kind: null, link, passage, facts: rowFacts, source: 'table' });
        itemPassages.add(passage);
      }
      continue;
    }
    for (const row of rows) {
      const cells = cellsOf(row);
      if (cells.length !== 2) continue;
      const label = text(cells[0]!).replace(/:$/, '');
      const value = text(cells[1]!);
      if (!label || !value || label.length > 40) continue;
      // A cell that puts several values on lines of their own ("Kyoto University<br>Gladstone Institutes", a
      // list) states each: one fact per line, the row its passage.
      // Lines that are blocks of their own (a list in the cell) are passages of their own in the page text.
      const lines = cellLines(cells[1]!);
      const blocks = ['li', 'p', 'div', 'dd'].some((b) => descendants(cells[1]!, b).length > 0);
      for (const v of lines.length > 1 ? lines : [value]) facts.push({ label, value: v, passage: blocks && lines.length > 1 ? v : rowText(row) });
    }
  }

  // Definition lists: each dt labels the dd values after it.
  for (const dl of descendants(root, 'dl')) {
    let label = '';
    for (const c of definitionTerms(dl)) {
      if (c.name === 'dt') label = text(c).replace(/:$/, '');
      else if (c.name === 'dd' && label) {
        const value = text(c);
        if (value) facts.push({ label, value, passage: value });
      }
    }
  }

  // Lists: "Label: value" lines are facts; a list whose lines each start with a linked or emphasised
  // name is a directory (one item per line).
  for (const list of [...descendants(root, 'ul'), ...descendants(root, 'ol')]) {
    const lis = childrenNamed(list, new Set(['li']));
    const named: PageEntity[] = [];
    // Bold leads without a colon are labels when most of the list's leads read as labels ("<b>HQ</b> Berlin",
    // "<b>Sector</b> Fintech"); a list of bold names ("<b>Stripe</b> — payments") stays a directory.
    const leads = lis.map(emphasisedLabel);
    const labelled = leads.filter((l) => l !== null && isLabel(l)).length;
    const factList = labelled >= 2 && labelled * 2 >= lis.length;
    const aside = asideOf(list);
    const factsBefore = facts.length;
    for (const [at, li] of lis.entries()) {
      const line = text(li);
      const fact = FACT_LINE.exec(line);
      if (fact && !firstLinkAtStart(li)) {
        facts.push({ label: fact[1]!.trim(), value: fact[2]!.trim(), passage: line });
        continue;
      }
      const lead = leads[at];
      if (lead && (factList || lead.colon)) {
        facts.push({ label: lead.label, value: lead.value, passage: line });
        continue;
      }
      const first = firstLinkAtStart(li) ?? emphasisAtStart(li);
      const cited = first ? null : referenceLink(li, line);
      if (cited) {
        named.push({ name: cited.text, kind: null, link: cited.href, passage: line, facts: [], source: 'list' });
        continue;
      }
      // A widget's bare links ("Similar: <a>Lumenrail</a>") are entries too: what the page says of others.
      if (first && plausibleItemName(first.text) && (line.length > first.text.length + 3 || (aside && first.href))) {
        named.push({ name: first.text, kind: null, link: first.href, passage: line, facts: factsInside(li, line), source: 'list' });
      }
    }
    // A directory that links or bolds most of its names may print some plainly ("Segment (YC S11) — …"): the
    // lead before a separator is that line's name, when the other lines open with their names too (a reading
    // list's lines open with their authors, not with the titles they link).
    const opening = named.filter((n) => n.passage.startsWith(n.name)).length;
    if (opening >= 2 && opening * 2 > named.length && named.length * 2 >= lis.length && !factList) {
      for (const li of lis) {
        const line = text(li);
        if (named.some((n) => n.passage === line) || facts.some((f) => f.passage === line)) continue;
        const name = plainLead(line);
        if (name) named.push({ name, kind: null, link: null, passage: line, facts: factsInside(li, line), source: 'list' });
      }
    }
    // A list that links and bolds none of its names, each line opening with a name before a separator ("David J.
    // Thouless (University of Washington, United States) — Nobel Prize in Physics, 2016"), is a directory too.
    if (named.length === 0 && !factList && factsBefore === facts.length && lis.length >= 2 && !underLabel(list)) {
      const plain = lis.map((li) => {
        const line = text(li);
        const lead = plainLead(line);
        // "M. Smith, “Oligonucleotide directed mutagenesis …” (1982)": a line that quotes a title after its lead
        // (an author) lists the work it quotes.
        const title = lead ? /^,\s*[“"]([^”"]{2,250})[”"]/u.exec(line.slice(lead.length))?.[1]?.trim() : undefined;
        const name = title ?? lead;
        // "Perlmutter, S. (1998). …": a reference opens with its author, not with what the list is about.
        return name && lead && line.length > lead.length + 3 && !/^,\s*(?:\p{Lu}\.\s*)+/u.test(line.slice(lead.length)) ? { name, line, li } : null;
      });
      if (plain.every((p) => p !== null)) for (const p of plain) named.push({ name: p!.name, kind: null, link: null, passage: p!.line, facts: factsInside(p!.li, p!.line), source: 'list' });
    }
    if (named.length >= 2) for (const item of named) if (!itemPassages.has(item.passage)) { items.push(aside ? { ...item, source: 'related' } : item); itemPassages.add(item.passage); }
  }

  // A paragraph that is one short "Label: value" line ("Status: Acquired", "Headquarters: Berlin") is a fact
  // as much as a list line is; longer paragraphs are prose.
  for (const p of descendants(root, 'p')) {
    const line = text(p);
    const fact = line.length <= 160 ? FACT_LINE.exec(line) : null;
    // "Read next: …", "Sponsored: …" introduce other pages, not a fact.
    if (fact && fact[1]!.trim().split(/\s+/).length <= 4 && !/[.!?]\s/.test(fact[2]!) && !ASIDE_HEADING.test(fact[1]!)) {
      facts.push({ label: fact[1]!.trim(), value: fact[2]!.trim(), passage: line });
      continue;
    }
    // "<p><b>Headquarters</b> Berlin</p>": a bold label a profile uses, then its value. A bold lead on a line of
    // its own ("<p><b>Campus</b><br>Rehovot, Israel</p>") is a label whatever its words when the paragraphs
    // beside it are written the same way: the markup, repeated, says label and value.
    // Such a value may hold sentence punctuation ("D. J. Thouless, J. M. Kosterlitz"): the line break, not the
    // words, ends the label.
    const blockLabel = labelOnItsOwnLine(p) && labelBlockSiblings(p) >= 2;
    const lead = line.length <= 160 || blockLabel ? emphasisedLabel(p) : null;
    if (lead && (blockLabel || (PROFILE_LABEL.test(lead.label) && !/[.!?]\s/.test(lead.value)))) facts.push({ label: lead.label, value: lead.value, passage: line });
  }
  // Label and value side by side in two elements ("<div><span>Team size</span> <span>120</span></div>"), or a
  // label heading and its value.
  for (const f of [...pairRows(root), ...headingFacts(root)]) if (!facts.some((g) => g.passage === f.passage || (g.label === f.label && g.value === f.value))) facts.push(f);

  // Prose that links an organisation's name to its own site ("… said <a href="https://acme.com">Acme</a> …"):
  // each such name is an item, its sentence the passage, its site the lead.
  for (const p of descendants(root, 'p')) {
    const paragraph = text(p);
    const linked: string[] = [];
    for (const a of descendants(p, 'a')) {
      const href = a.attribs?.href ?? '';
      const name = text(a);
      if (!href || href.startsWith('#') || !plausibleItemName(name) || authorLink(a, p)) continue;
      let path = '/';
      let external = false;
      try {
        const url = new URL(href, 'http://this.page/');
        path = url.pathname;
        external = url.hostname !== 'this.page';
      } catch {
        continue;
      }
      // The entity's own page: an external homepage or about page, or any page whose path carries its name
      // ("/companies/plangrid" for PlanGrid); not an article elsewhere.
      const slug = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
      const ownSite = external && /^\/(?:about(?:-us)?\/?)?$/i.test(path);
      const segments = path.toLowerCase().split('/').filter(Boolean);
      const last = segments.at(-1) ?? '';
      // Taxonomy pages (/tags/construction, /industry/fintech) list many entities; they are no entity's own page.
      const taxonomy = TAXONOMY_SEGMENTS.test(segments.at(-2) ?? '');
      const own = last === 'about' ? segments.at(-2) ?? '' : last;
      const named = slug.length >= 3 && !taxonomy && (own === slug || own.startsWith(`${slug}-`) || truncatedSlugOf(own, slug));
      if (!ownSite && !named) continue;
      // A long link text is a name only when the page it opens carries it (a paper's title and its slug).
      if (name.split(/\s+/).length > 5 && !named) continue;
      linked.push(name);
      const earlier = items.find((i) => i.name === name);
      if (earlier) {
        // Named again: a passage about it alone says more than a sentence that lists it with others ("… Fivestars,
        // Presto and PagerDuty."), so the later one replaces it.
        const others = items.filter((i) => i !== earlier).map((i) => i.name);
        const passage = namingPassage(paragraph, name, descendants(p, 'a').map((x) => text(x)).filter((n) => n && n !== name));
        if (earlier.source === 'link' && others.some((o) => earlier.passage.includes(o)) && !others.some((o) => passage.includes(o))) earlier.passage = passage;
        continue;
      }
      // Its passage is the sentence that names it: a news paragraph often names several entities, and
      // "Ibadan-based Mendwell …" says nothing of the next sentence's company. The sentences right after it
      // that refer back to it ("It was later acquired.", "The team counts 70 people.") are about it too, up to
      // the first that does not or that names another entity.
      const passage = namingPassage(paragraph, name, descendants(p, 'a').map((x) => text(x)).filter((n) => n && n !== name));
      items.push({ name, kind: null, link: href, passage, facts: [], source: ASIDE_HEADING.test(paragraph) || asideOf(p) ? 'related' : 'link' });
    }
    // "… Fivestars, Presto, PagerDuty and Optimizely.": a series whose members are mostly linked names names the
    // same sort of thing in its unlinked members too.
    if (linked.length >= 2 && !ASIDE_HEADING.test(paragraph) && !asideOf(p)) {
      for (const name of seriesSiblings(paragraph, linked)) {
        if (items.some((i) => i.name === name)) continue;
        items.push({ name, kind: null, link: null, passage: namingPassage(paragraph, name, linked), facts: [], source: 'link' });
      }
    }
  }

  // "We kept hearing the same names: A, B and C.", "Among them: A and B.": a series a sentence announces after a
  // colon, whose members the article then takes up one by one, names what the article is about, linked or not.
  const announced = announcedSeries(root);
  for (const item of announced) {
    // A name the prose links is the same entry: the series says the article lists it, not mentions it in passing.
    const linked = items.find((i) => i.name === item.name && i.source === 'link');
    if (linked) {
      linked.source = 'series';
      // The paragraph about it alone says more than its one sentence.
      // The paragraph about it alone says more than its one sentence, or than the series that lists it with others.
      const withOthers = announced.some((o) => o.name !== item.name && linked.passage.includes(o.name));
      if ((item.passage.length > linked.passage.length && item.passage.includes(linked.passage)) || (withOthers && !announced.some((o) => o.name !== item.name && item.passage.includes(o.name)))) linked.passage = item.passage;
    }
    if (items.some((i) => i.name === item.name || (i.source !== 'related' && (i.name.includes(item.name) || item.name.includes(i.name))))) continue;
    items.push(item);
  }

  // Cards: three or more sibling-level headings (h2/h3) with a line under each; the heading names the
  // item when the page repeats the pattern.
  for (const level of ['h2', 'h3', 'h4']) {
    const heads = descendants(root, level);
    if (heads.length < 2) continue;
    const cards: PageEntity[] = [];
    for (const h of heads) {
      const name = text(h);
      // "Headquarters" over "Berlin" is a label, not a card's name.
      if (!plausibleItemName(name) || PROFILE_LABEL.test(name)) continue;
      const following = nextContent(h);
      if (!following) continue;
      const link = firstLink(h)?.href ?? null;
      const card = h.parent && h.parent !== root ? h.parent : null;
      cards.push({ name, kind: null, link, passage: following, facts: card ? cardFacts(card) : [], source: asideOf(h) ? 'related' : 'heading' });
    }
    if (cards.length >= 2 && cards.filter((c) => c.link || c.facts.length > 0).length >= 2) {
      // Cards may share a line ("Chemistry laureate" under each name): one item per name, unless a list already gave its line.
      for (const c of cards) if (!itemPassages.has(c.passage) || !items.some((i) => i.name === c.name)) { items.push(c); itemPassages.add(c.passage); }
      break;
    }
  }
  return { facts, items };
}

/** Where the sentence that runs on from `from` ends in `paragraph` (its last character), initials read as part of names. */
function sentenceEnd(paragraph: string, from: number): number {
  const boundary = /[.!?]["'”’)\]]*(?:\s+|$)/gu;
  boundary.lastIndex = from;
  for (let m = boundary.exec(paragraph); m; m = boundary.exec(paragraph)) {
    if (m.index + m[0].length < paragraph.length && closesInitial(paragraph, m.index)) continue;
    return m.index;
  }
  return paragraph.length;
}

/** The sentences of `paragraph`, a full stop after an initial or an abbreviation ending none ("David J. Wineland, …"). */
function namedSentenceSpans(paragraph: string): [number, number][] {
  const spans: [number, number][] = [];
  for (let start = 0; start < paragraph.length;) {
    const stop = sentenceEnd(paragraph, start);
    const end = Math.min(paragraph.length, stop + 1);
    spans.push([start, end]);
    start = end;
    while (start < paragraph.length && /[\s"'”’)\]]/u.test(paragraph[start]!)) start += 1;
  }
  return spans;
}

/** Separators between a series' members: a comma, a comma and "and"/"or", or "and"/"or" alone. */
const SERIES_SEPARATOR = /,\s+(?:and\s+|or\s+)?|\s+(?:and|or)\s+/g;

/**
 * Entities an article announces in a series after a colon ("… kept hearing the same names: A, B and C.",
 * "Among the fintech companies: A and B.") and takes up again further on: each member the rest of the article
 * repeats (outside widgets) is an item, passage the sentence that takes it up. The repetition is what makes it a
 * name and fixes where it ends, so a member that holds "and" or a comma itself ("Sanitation and Health Rights in
 * India") is read whole when the article repeats it whole; a member the article never takes up is left out.
 */
function announcedSeries(root: DomNode): PageEntity[] {
  const blocks = [...descendants(root, 'p'), ...descendants(root, 'li')].filter((b) => !asideOf(b));
  const texts = blocks.map(text);
  const out: PageEntity[] = [];
  for (const [at, b] of blocks.entries()) {
    if (b.name !== 'p') continue;
    const paragraph = texts[at]!;
    if (ASIDE_HEADING.test(paragraph)) continue;
    const rest = texts.filter((_, i) => i !== at).join('\n');
    for (let colon = paragraph.indexOf(': '); colon >= 0; colon = paragraph.indexOf(': ', colon + 2)) {
      // The words before the colon are a sentence leading into the series ("We kept hearing the same names:"), not
      // a label ("Vertical: B2B / Analytics").
      const lead = paragraph.slice(0, colon).split(/[.!?]\s+/).pop() ?? '';
      if (lead.split(/\s+/).length < 3 || !/\s\p{Ll}/u.test(lead)) continue;
      const start = colon + 2;
      const tail = paragraph.slice(start, sentenceEnd(paragraph, start));
      // A series goes on to the end of its sentence: a later colon starts the real one ("Among the delivery: Y
      // Combinator companies: A, B and C.").
      if (tail.includes(': ')) continue;
      const cuts = [0];
      for (const m of tail.matchAll(SERIES_SEPARATOR)) cuts.push(m.index, m.index + m[0].length);
      cuts.push(tail.length);
      // Segments [cuts[2k], cuts[2k+1]]; a member is the longest run of segments the rest of the article repeats.
      const segments: [number, number][] = [];
      for (let i = 0; i + 1 < cuts.length; i += 2) segments.push([cuts[i]!, cuts[i + 1]!]);
      const members: string[] = [];
      for (let i = 0; i < segments.length;) {
        let taken = 0;
        for (let j = segments.length; j > i; j -= 1) {
          const name = tail.slice(segments[i]![0], segments[j - 1]![1]).trim();
          if (plausibleItemName(name) && /^[\p{Lu}\p{N}“"]/u.test(name) && /\p{L}{2}/u.test(name) && hasWords(rest, name)) {
            members.push(name);
            taken = j - i;
            break;
          }
        }
        i += Math.max(1, taken);
      }
      // One name after a colon is as often a label's value ("In its own words: Consumer."): a series has two or more.
      if (members.length < 2) continue;
      for (const name of members) {
        if (out.some((o) => o.name === name)) continue;
        const others = members.filter((m) => m !== name);
        const alone = texts.find((t, i) => i !== at && hasWords(t, name) && !others.some((o) => t.includes(o)));
        const later = alone ?? texts.find((t, i) => i !== at && hasWords(t, name))!;
        // A paragraph that takes up this one name alone is about it whole ("Then there is Presto in San Francisco, …
        // Digital meets physical for big chain restaurants. It is publicly traded."); one that names others too gives
        // its sentence and those that refer back to it.
        out.push({ name, kind: null, link: null, passage: alone && alone.length <= 600 ? alone : namingPassage(later, name, others, namedSentenceSpans), facts: [], source: 'series' });
      }
    }
  }
  return out;
}

/**
 * A sentence that opens by referring back to the entity just named: a pronoun ("It", "Its", "She", "Their"), "The
 * team"/"The company"/"The paper" and the like, or a possessive among its first words ("In its own words: …").
 */
const REFERS_BACK = /^(?:(?:it|its|it's|he|she|his|her|they|their)\b|the\s+(?:team|company|firm|startup|start-up|organi[sz]ation|non-?profit|charity|group|lab|laboratory|paper|study|article|work|book|product|project)\b|(?:\S+\s+){1,3}(?:its|his|her|their)\b)/i;

/**
 * The sentence of `paragraph` that names `name`, with the sentences after it that refer back to it and name
 * none of `others` (only when that sentence is about it alone); the paragraph when no sentence names it.
 * Always one span of the paragraph's text.
 */
export function namingPassage(paragraph: string, name: string, others: readonly string[], spansOf: (text: string) => [number, number][] = sentenceSpans): string {
  const spans = spansOf(paragraph);
  const at = spans.findIndex(([s, e]) => paragraph.slice(s, e).includes(name));
  if (at < 0) return paragraph;
  let last = at;
  const own = paragraph.slice(spans[at]![0], spans[at]![1]);
  // A sentence that is itself about someone named before ("It shares investors with Ramp.") or that names
  // another entity too: whom the next sentence's "it" means is not clear, so it stays alone.
  const alone = !REFERS_BACK.test(own) && !others.some((o) => own.includes(o));
  for (let i = at + 1; alone && i < spans.length; i += 1) {
    const sentence = paragraph.slice(spans[i]![0], spans[i]![1]);
    if (!REFERS_BACK.test(sentence) || others.some((o) => sentence.includes(o))) break;
    last = i;
  }
  return paragraph.slice(spans[at]![0], spans[last]![1]);
}

/**
 * Sites cut long slugs ("ordering-metastability-and-phase-transitions-in-two-dimensio-2086860422" for a
 * paper's 70-character title): a path segment that starts with the first 40 characters (at least five
 * words) of the name's slug and goes on with no other word carries the name.
 */
function truncatedSlugOf(segment: string, slug: string): boolean {
  if (slug.length < 40) return false;
  let common = 0;
  while (common < segment.length && common < slug.length && segment[common] === slug[common]) common += 1;
  if (common < 40 || slug.slice(0, common).split('-').length < 5) return false;
  // What follows the shared part may only finish the cut word and add an id ("-2086860422").
  return /^[a-z0-9]*(?:-[0-9a-f]{4,})?$/.test(segment.slice(common));
}

/** Class or id words of widgets beside the content (readability's negative cues): related, sponsored, promo. */
const ASIDE_CLASS = /\b(?:related|similar|sponsor(?:ed)?|promo(?:ted)?|recommend(?:ed|ations)?|sidebar|advert(?:isement)?|also-viewed|read-next|more-stories)\b/i;

/**
 * A block that names other entities than the page's own: inside an element classed as a widget, or under a
 * heading such as "Similar", "Related", "People also viewed", "Sponsored" (the nearest heading or short label
 * before it, at its level or up to three levels up).
 */
function asideOf(node: DomNode): boolean {
  let n: DomNode | null | undefined = node;
  for (let depth = 0; n && depth < 4; depth++, n = n.parent) {
    const a = n.attribs ?? {};
    if (ASIDE_CLASS.test(`${a.class ?? ''} ${a.id ?? ''}`)) return true;
    const siblings = n.parent?.children ?? [];
    for (let i = siblings.indexOf(n) - 1; i >= 0; i--) {
      const s = siblings[i]!;
      if (s.type !== 'tag') continue;
      const t = text(s);
      if (/^h[1-6]$/.test(s.name ?? '') || (t.length > 0 && t.length <= 40)) {
        if (ASIDE_HEADING.test(t)) return true;
        if (/^h[1-6]$/.test(s.name ?? '')) return false;
      }
      if (t.length > 40) break;
    }
  }
  return false;
}

/** The dt and dd of a dl in order, also when grouped in div wrappers (as HTML allows: <dl><div><dt>…<dd>…</div></dl>). */
function definitionTerms(dl: DomNode): DomNode[] {
  return (dl.children ?? []).flatMap((c) => (c.name === 'div' ? (c.children ?? []) : [c]));
}

function firstLinkAtStart(li: DomNode): { href: string | null; text: string } | null {
  for (const c of li.children ?? []) {
    if (c.type === 'text' && !clean(c.data ?? '')) continue;
    if (c.type !== 'tag') return null;
    if (c.name === 'a' && c.attribs?.href) return { href: c.attribs.href, text: text(c) };
    if (c.name === 'strong' || c.name === 'b' || c.name === 'h3' || c.name === 'h4') {
      const inner = firstLink(c);
      return inner ? { href: inner.href, text: inner.text } : null;
    }
    return null;
  }
  return null;
}

function emphasisAtStart(li: DomNode): { href: string | null; text: string } | null {
  for (const c of li.children ?? []) {
    if (c.type === 'text' && !clean(c.data ?? '')) continue;
    if (c.type === 'tag' && (c.name === 'strong' || c.name === 'b')) return { href: null, text: text(c) };
    return null;
  }
  return null;
}

/** A year as references print it: "(1964)", "1964.", ", 1964" (four digits from 1500 on). */
const REFERENCE_YEAR = /\b(?:1[5-9]\d\d|20\d\d)[a-z]?\b/;

/**
 * The work a bibliography line cites, by its one link: "Higgs, P. W. (1964). <a>Broken symmetries …</a>.
 * Journal of Physics." (APA, Vancouver, MLA with the title quoted …). A line of a reference list carries a
 * year and links exactly one title of two or more words, which names the item whatever its case ("broken
 * symmetries and …" as some catalogues lower-case titles); the authors before it are not its name.
 */
function referenceLink(li: DomNode, line: string): { href: string | null; text: string } | null {
  const links = descendants(li, 'a').filter((a) => a.attribs?.href);
  if (links.length !== 1 || !REFERENCE_YEAR.test(line)) return null;
  const title = text(links[0]!).replace(/^[“"‘']+|[”"’'.,]+$/g, '').trim();
  if (title.split(/\s+/).length < 2 || title.length > 250 || !/\p{L}{2}/u.test(title) || !line.includes(title)) return null;
  return { href: links[0]!.attribs!.href!, text: title };
}

/** "Label: value" lines inside one list item (nested lists), with the item's line as passage. */
function factsInside(node: DomNode, line: string): PageFact[] {
  const out: PageFact[] = [];
  for (const li of descendants(node, 'li')) {
    const m = FACT_LINE.exec(text(li));
    if (m) out.push({ label: m[1]!.trim(), value: m[2]!.trim(), passage: line });
  }
  return out;
}

function cardFacts(card: DomNode): PageFact[] {
  const out: PageFact[] = [];
  for (const li of descendants(card, 'li')) {
    const line = text(li);
    const m = FACT_LINE.exec(line);
    if (m) out.push({ label: m[1]!.trim(), value: m[2]!.trim(), passage: line });
  }
  for (const dl of descendants(card, 'dl')) {
    let label = '';
    for (const c of definitionTerms(dl)) {
      if (c.name === 'dt') label = text(c).replace(/:$/, '');
      else if (c.name === 'dd' && label) out.push({ label, value: text(c), passage: text(c) });
    }
  }
  return out;
}

/** The text of the first content element after a heading (its card's line). */
function nextContent(h: DomNode): string | null {
  const siblings = h.parent?.children ?? [];
  let after = false;
  for (const s of siblings) {
    if (s === h) {
      after = true;
      continue;
    }
    if (!after || s.type !== 'tag') continue;
    if (/^h[1-6]$/.test(s.name ?? '')) return null;
    const t = text(s);
    if (t) return t;
  }
  return null;
}

// ── the subject ────────────────────────────────────────────────────────────────────────────────

const TITLE_SEPARATORS = /\s+[|–—·:-]\s+|\s+[|–—·]\s*/;

/** Words a headline puts before or around the name it is about ("Inside Stripe", "Spotlight: Stripe", "Meet Ada Lovelace"). */
const KICKER = /^(?:about(?: us)?|meet|inside|introducing|welcome to|spotlight(?: on)?|profile(?: of)?|interview(?: with)?|a look at|revisiting|remembering|who is|what is)\s+/i;

/** Names of a document's sections ("References", "Further reading"): a heading made of one names no entity. */
const SECTION_NAME = /^(?:references|bibliography|further reading|reading list|works cited|sources|notes|contents|table of contents|overview|abstract|summary|introduction|see also|external links|citations)$/i;

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** A lone article, determiner, pronoun or question word: never a name on its own. */
const FUNCTION_WORD = /^(?:the|a|an|this|that|these|those|our|my|your|its|their|his|her|we|what|who|how|why|when|where|which|here|there)$/i;

/** The code point that ends just before `index` (a surrogate pair read whole), or '' at the start. */
function charBefore(text: string, index: number): string {
  if (index <= 0) return '';
  const unit = text.charCodeAt(index - 1);
  const start = unit >= 0xdc00 && unit <= 0xdfff && index >= 2 ? index - 2 : index - 1;
  return String.fromCodePoint(text.codePointAt(start)!);
}

/**
 * The text occurs as words of their own ("Stripe" in "Stripe's API", not in "Stripes"). Found with indexOf
 * and checked at each occurrence: it runs for every candidate name against a whole page's text, and a
 * regular expression with a Unicode lookbehind tried at every position cost a run on the sample corpus half
 * its time.
 */
function hasWords(text: string, words: string): boolean {
  if (words === '') return false;
  for (let at = text.indexOf(words); at !== -1; at = text.indexOf(words, at + 1)) {
    const after = text.codePointAt(at + words.length);
    if (!LETTER_OR_DIGIT.test(charBefore(text, at)) && !(after !== undefined && LETTER_OR_DIGIT.test(String.fromCodePoint(after)))) return true;
  }
  return false;
}

/**
 * The name a headline is about, when the headline itself is not a name ("Inside Stripe", "Spotlight:
 * Stripe", "Stripe at a glance", "Paper of the week: <title>"): a part of it between separators, without a
 * leading kicker or trailing lower-case words, that the page's other text repeats. The longest such part.
 */
function headlineSubject(headline: string, body: string): string | null {
  let best: string | null = null;
  for (const part of headline.split(/\s*[:|–—]\s+|\s+[-·]\s+/).map((p) => p.trim()).filter(Boolean)) {
    const bare = part.replace(KICKER, '').trim();
    const words = bare.split(/\s+/);
    let end = words.length;
    while (end > 1 && /^\p{Ll}/u.test(words[end - 1]!)) end -= 1;
    for (const option of [bare, words.slice(0, end).join(' ')]) {
      const name = option.replace(/[,;:]+$/, '');
      // A name has letters: "11" of "11 to know: …" is a count, whatever row the number also starts.
      // "The" of "The shortlist: …" is what is left of a phrase, not a name.
      if (name.length < 2 || !/\p{L}{2}/u.test(name) || FUNCTION_WORD.test(name) || SECTION_NAME.test(name) || !plausibleItemName(name) || !hasWords(body, name)) continue;
      if (!best || name.length > best.length) best = name;
      break;
    }
  }
  return best;
}

/** The subject's name: the h1 when it is a name, else the title's first part, else og:site_name. */
function subjectName(scan: DomScan, siteName: string | null, pageText: string): { name: string; source: string } | null {
  const h1 = clean(scan.firstH1);
  const titleParts = clean(scan.title).split(TITLE_SEPARATORS).map((p) => p.trim()).filter(Boolean);
  const candidates: { name: string; source: string }[] = [];
  if (h1) candidates.push({ name: h1, source: 'heading' });
  if (titleParts[0]) candidates.push({ name: titleParts[0], source: 'title' });
  if (siteName) candidates.push({ name: siteName, source: 'opengraph' });
  // The page's text without its headline, to tell a name the page goes on about from a headline's wording.
  const body = h1 ? pageText.split(h1).join('\n') : pageText;
  for (const c of candidates) {
    // "About Stripe" names Stripe.
    const name = c.name.replace(/^(about|meet|welcome to)\s+/i, '').trim();
    if (!plausibleItemName(name) || SECTION_NAME.test(name) || !pageText.includes(name)) continue;
    // A headline the text never repeats is no name; the name inside it that the text repeats is.
    if (c.source === 'heading' && !hasWords(body, name)) {
      const inner = headlineSubject(c.name, body);
      if (inner && inner !== name) return { name: inner, source: 'headline' };
    }
    return { name, source: c.source };
  }
  return null;
}

/** Facts that belong to the subject: label–value pairs outside any listing. */
export function readPageModel(scan: DomScan, content: DomNode, pageText: string): RawPageModel {
  const siteName = clean(scan.metas.get('og:site_name') ?? '') || null;
  const extraPassages: string[] = [];
  const visible = (s: string) => pageText.includes(s) || extraPassages.includes(s);
  /** A structured value as a passage: the visible passage holding it, else the value added to the text. */
  const passageFor = (value: string): string => {
    if (pageText.includes(value)) {
      // The line that states this value most nearly: the shortest holding it ("Research: Chemistry", not
      // "Nobel Prize in Chemistry 2008" above it).
      const line = pageText.split('\n').filter((l) => l.includes(value)).sort((a, b) => a.length - b.length)[0];
      return line && line.length <= 400 ? line : value;
    }
    if (!extraPassages.includes(value)) extraPassages.push(value);
    return value;
  };

  const jsonLd = jsonLdThings(scan.jsonLd);
  const cited = citationThing(scan.citationMetas);
  // A citation_title naming what JSON-LD or microdata already describe adds nothing; otherwise it is the
  // page's scholarly work.
  const marked = [...jsonLd.things, ...microdataThings(scan.root)];
  const structured = cited && !marked.some((t) => t.name.toLowerCase() === cited.name.toLowerCase()) ? [...marked, cited] : marked;
  const structure = readStructure(content);
  const ogKind = OG_KIND[(scan.metas.get('og:type') ?? '').toLowerCase()] ?? null;

  const toEntity = (t: JsonLdThing, source: string): PageEntity => {
    const name = visible(t.name) ? t.name : passageFor(t.name);
    const facts = t.facts.map((f) => ({ label: f.label, value: f.value, passage: passageFor(f.shown ?? f.value) }));
    return { name, kind: t.kind, link: t.link, passage: passageFor(t.name), facts, source };
  };

  const items: PageEntity[] = [...structure.items];
  let subject: PageEntity | null = null;
  const listedByData = jsonLd.listed || structured.length > 1;
  if (structured.length === 1 && !jsonLd.listed) {
    subject = toEntity(structured[0]!, structured[0] === cited ? 'citation' : jsonLd.things.length > 0 ? 'jsonld' : 'microdata');
  } else if (listedByData) {
    const seen = new Set(items.map((i) => i.name));
    for (const t of structured) if (!seen.has(t.name)) items.push(toEntity(t, 'jsonld'));
  }
  // A page with a facts list and no listing is about one thing: its heading or title names it. Widgets naming
  // others ("Similar", "Sponsored") make no listing, and three facts of its own outside any listing say the
  // page is a profile whatever else it names.
  const listing = items.filter((i) => i.source !== 'related' && (i.source !== 'series' || items.filter((s) => s.source === 'series').length >= 2));
  if (!subject && (listing.length === 0 || structure.facts.length >= 3)) {
    const named = subjectName(scan, siteName, pageText);
    if (named) {
      const line = pageText.split('\n').find((l) => l.includes(named.name)) ?? named.name;
      // An article's og:type says what the page is (news), not what the name inside its headline is.
      subject = { name: named.name, kind: named.source === 'headline' ? null : ogKind, link: null, passage: line, facts: [], source: named.source };
    }
  }
  if (subject) {
    const own = new Set(subject.facts.map((f) => `${f.label.toLowerCase()}\u0000${f.value}`));
    for (const f of structure.facts) if (!own.has(`${f.label.toLowerCase()}\u0000${f.value}`)) subject.facts.push(f);
  }
  // A profile's link to the subject's own website ("acme.org" under its facts) is the subject, not another entity.
  const subjectHosts = new Set(
    [subject?.link, ...(subject?.facts ?? []).filter((f) => /^(website|url|homepage)$/i.test(f.label)).map((f) => f.value)]
      .map((u) => hostOf(u ?? ''))
      .filter((h): h is string => h !== null),
  );
  const others = subjectHosts.size > 0 ? items.filter((i) => i.source !== 'link' || !subjectHosts.has(hostOf(i.link ?? '') ?? '')) : items;
  return { subject, items: others, siteName, extraPassages };
}

