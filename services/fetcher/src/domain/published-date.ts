import { normaliseDate } from './dates.js';
import type { DomScan } from './dom.js';

/** Meta names/properties that carry a publish date, most specific first. */
const META_KEYS = [
  'article:published_time', 'og:published_time', 'og:article:published_time', 'datepublished',
  'published_time', 'publishdate', 'publish-date', 'publish_date', 'pubdate', 'date', 'dc.date',
  'dc.date.issued', 'dc.date.created', 'dcterms.date', 'dcterms.issued', 'dcterms.created',
  'citation_publication_date', 'citation_date', 'sailthru.date', 'parsely-pub-date', 'article.published',
];

function datePublishedIn(node: unknown, depth = 0): string | null {
  if (depth > 8 || node === null || typeof node !== 'object') return null;
  if (Array.isArray(node)) {
    for (const item of node) {
      const d = datePublishedIn(item, depth + 1);
      if (d) return d;
    }
    return null;
  }
  const obj = node as Record<string, unknown>;
  const own = normaliseDate(obj.datePublished) ?? normaliseDate(obj.dateCreated);
  if (own) return own;
  for (const key of ['@graph', 'mainEntity', 'mainEntityOfPage', 'itemListElement']) {
    const d = datePublishedIn(obj[key], depth + 1);
    if (d) return d;
  }
  return null;
}

function fromJsonLd(blocks: readonly string[]): string | null {
  for (const block of blocks) {
    try {
      const d = datePublishedIn(JSON.parse(block));
      if (d) return d;
    } catch {
      // Broken JSON-LD is common; other sources still apply.
    }
  }
  return null;
}

/** The page's publish date from meta tags, then JSON-LD, then <time> (publish-marked first). */
export function findPublishedDate(scan: DomScan): string | null {
  for (const key of META_KEYS) {
    const date = normaliseDate(scan.metas.get(key));
    if (date) return date;
  }
  const ld = fromJsonLd(scan.jsonLd);
  if (ld) return ld;
  const time = scan.times.find((t) => t.preferred) ?? scan.times[0];
  return normaliseDate(time?.value);
}
