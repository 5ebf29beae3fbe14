/**
 * One pass over an htmlparser2 tree (as cheerio parses it), collecting everything extraction needs.
 * Walking nodes directly instead of running a CSS selector per question keeps extraction near parse
 * speed, which the corpus index (hundreds of pages at start) depends on.
 */

/** Structural view of htmlparser2 nodes (avoids depending on domhandler directly). */
export interface DomNode {
  type: string;
  name?: string;
  data?: string;
  attribs?: Record<string, string>;
  children?: DomNode[];
  parent?: DomNode | null;
}

const SKIP_TAGS = new Set([
  'script', 'style', 'noscript', 'template', 'svg', 'canvas', 'iframe', 'object', 'embed', 'nav', 'aside', 'form',
  'button', 'select', 'dialog', 'footer', 'head', 'title',
]);
const CHROME_ROLES = new Set(['navigation', 'banner', 'contentinfo']);

export function isElement(node: DomNode): boolean {
  return node.type === 'tag' || node.type === 'script' || node.type === 'style';
}

function isContentRoot(node: DomNode): boolean {
  return node.name === 'main' || node.name === 'article' || node.attribs?.role === 'main';
}

/**
 * True for elements whose text is never page content: scripts, navigation, forms, hidden elements and
 * site-wide headers (an article's own header, inside main/article, is content: headline and byline).
 */
export function isBoilerplate(node: DomNode, insideContent: boolean): boolean {
  if (!isElement(node)) return false;
  const name = node.name ?? '';
  if (SKIP_TAGS.has(name)) return true;
  const a = node.attribs ?? {};
  if ('hidden' in a || a['aria-hidden'] === 'true' || CHROME_ROLES.has(a.role ?? '')) return true;
  return name === 'header' && !insideContent;
}

/** All text below a node (metadata use: <title>, <h1>, JSON-LD). */
export function rawText(node: DomNode): string {
  if (node.type === 'text') return node.data ?? '';
  let out = '';
  for (const c of node.children ?? []) out += rawText(c);
  return out;
}

/** Visible content text below a node, skipping boilerplate. A line break reads as a space, as the page's passages
 * print it (extract.ts): "<b>Locations</b><br>SF Bay Area" is "Locations SF Bay Area", not "LocationsSF Bay Area". */
export function contentText(node: DomNode, insideContent = false): string {
  if (node.type === 'text') return node.data ?? '';
  if (node.type === 'tag' && node.name === 'br') return ' ';
  if (isBoilerplate(node, insideContent)) return '';
  const inside = insideContent || isContentRoot(node);
  let out = '';
  for (const c of node.children ?? []) out += contentText(c, inside);
  return out;
}

export interface DomScan {
  root: DomNode;
  body: DomNode;
  /** First value per meta key (property, name or itemprop, lower-cased). */
  metas: Map<string, string>;
  /**
   * Every `citation_*` meta tag in order, repeated keys kept (Google Scholar's inclusion guidelines: one
   * citation_author per author), keys lower-cased.
   */
  citationMetas: [string, string][];
  title: string;
  firstH1: string;
  canonical: string;
  jsonLd: string[];
  /** datetime values of <time>/[itemprop=datePublished] elements; `preferred` when marked as publish date. */
  times: { value: string; preferred: boolean }[];
  /** <main>/role=main and <article> elements outside boilerplate. */
  mains: DomNode[];
  articles: DomNode[];
  /** <p> elements outside boilerplate. */
  paragraphs: DomNode[];
}

export function scanDocument(root: DomNode): DomScan {
  const scan: DomScan = {
    root, body: root, metas: new Map(), citationMetas: [], title: '', firstH1: '', canonical: '', jsonLd: [], times: [], mains: [],
    articles: [], paragraphs: [],
  };
  let titleSeen = false;
  const visit = (node: DomNode, inBoilerplate: boolean, insideContent: boolean) => {
    if (!isElement(node) && node.type !== 'root') return;
    const name = node.name ?? '';
    const a = node.attribs ?? {};
    switch (name) {
      case 'body':
        scan.body = node;
        break;
      case 'meta': {
        const key = (a.property ?? a.name ?? a.itemprop ?? '').trim().toLowerCase();
        if (key && a.content && !scan.metas.has(key)) scan.metas.set(key, a.content);
        if (key.startsWith('citation_') && a.content?.trim()) scan.citationMetas.push([key, a.content.trim()]);
        break;
      }
      case 'title':
        if (!titleSeen) [scan.title, titleSeen] = [rawText(node), true];
        break;
      case 'h1':
        if (!scan.firstH1) scan.firstH1 = rawText(node);
        break;
      case 'link':
        if (!scan.canonical && /(^|\s)canonical(\s|$)/i.test(a.rel ?? '') && a.href) scan.canonical = a.href;
        break;
      case 'script':
        if ((a.type ?? '').toLowerCase().trim() === 'application/ld+json') scan.jsonLd.push(rawText(node));
        break;
    }
    const published = a.itemprop === 'datePublished';
    if ((name === 'time' || published) && (a.datetime ?? (published ? a.content : undefined))) {
      scan.times.push({ value: a.datetime ?? a.content!, preferred: published || 'pubdate' in a });
    }
    const skipped = inBoilerplate || isBoilerplate(node, insideContent);
    if (!skipped) {
      if (name === 'main' || a.role === 'main') scan.mains.push(node);
      else if (name === 'article') scan.articles.push(node);
      if (name === 'p') scan.paragraphs.push(node);
    }
    const inside = insideContent || isContentRoot(node);
    for (const c of node.children ?? []) visit(c, skipped, inside);
  };
  visit(root, false, false);
  return scan;
}
