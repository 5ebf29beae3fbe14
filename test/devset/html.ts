/**
 * Small HTML writing helpers for the development set's fake web. Every page is a complete document with a
 * canonical link (the URL the page is served under), a description and a publish date, like real pages.
 */

export function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export interface DocumentParts {
  url: string;
  title: string;
  description: string;
  /** YYYY-MM-DD or null. */
  published: string | null;
  siteName: string;
  /** Body HTML (already escaped). */
  body: string;
  /** JSON-LD objects written into the head. */
  jsonLd?: object[];
  /** Extra head HTML (OpenGraph type and the like). */
  head?: string;
}

export function documentHtml(p: DocumentParts): string {
  const jsonLd = (p.jsonLd ?? [])
    .map((o) => `<script type="application/ld+json">${JSON.stringify(o).replace(/</g, '\\u003c')}</script>`)
    .join('\n');
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${esc(p.title)}</title>`,
    `<link rel="canonical" href="${esc(p.url)}">`,
    `<meta name="description" content="${esc(p.description)}">`,
    `<meta property="og:site_name" content="${esc(p.siteName)}">`,
    `<meta property="og:title" content="${esc(p.title)}">`,
    p.published ? `<meta property="article:published_time" content="${p.published}T09:00:00Z">` : '',
    p.head ?? '',
    jsonLd,
    '</head><body>',
    `<header><nav><a href="/">${esc(p.siteName)}</a> · <a href="/about-us">About</a> · <a href="/contact">Contact</a></nav></header>`,
    p.body,
    `<footer><p>© ${esc(p.siteName)}. All rights reserved.</p></footer>`,
    '</body></html>',
  ].filter(Boolean).join('\n');
}

/** Visible text of a page this module wrote (tags dropped, scripts and styles removed), for the search index. */
export function visibleText(html: string): string {
  return html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<head>[\s\S]*?<\/head>/i, ' ')
    .replace(/<(header|footer)>[\s\S]*?<\/\1>/gi, ' ')
    // A table row is one line (its cells joined), as search engines show table snippets.
    .replace(/<\/(td|th)>/gi, ' · ')
    .replace(/<\/(p|li|dd|dt|h[1-6]|tr|div|section|article)>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&')
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').replace(/(\s·)+\s*$/, '').trim())
    .filter(Boolean)
    .join('\n');
}

/** Every string value of a JSON-LD object (what a search engine reads of structured data). */
export function jsonLdStrings(value: unknown): string[] {
  if (typeof value === 'string') return value.startsWith('http') || value.startsWith('@') ? [] : [value];
  if (typeof value === 'number') return [String(value)];
  if (Array.isArray(value)) return value.flatMap(jsonLdStrings);
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => (k.startsWith('@') ? [] : jsonLdStrings(v)));
  }
  return [];
}

/** A stable small hash, for choosing among phrasings without randomness. */
export function hashOf(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

export function pick<T>(options: readonly T[], seed: string): T {
  return options[hashOf(seed) % options.length]!;
}

export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 80);
}

/** YYYY-MM-DD plus `days`. */
export function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export function thousands(n: number): string {
  return n.toLocaleString('en-US');
}

/** A Nobel prize's full name: "Economics" is the Memorial Prize, "Medicine" is Physiology or Medicine. */
export function prizeName(category: string): string {
  return category === 'Economics' ? 'Nobel Memorial Prize in Economic Sciences' : `Nobel Prize in ${category === 'Medicine' ? 'Physiology or Medicine' : category}`;
}

/** "Winter 2012" → "W12". */
export function batchCode(batch: string): string {
  const m = /^(Winter|Summer|Spring|Fall)\s+(\d{4})$/.exec(batch);
  return m ? `${m[1]!.charAt(0)}${m[2]!.slice(2)}` : batch;
}
