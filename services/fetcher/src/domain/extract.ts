import { load } from 'cheerio/slim';
import { chunkPassage, normaliseSpace } from './text.js';
import { findPublishedDate } from './published-date.js';
import { contentText, isBoilerplate, scanDocument, type DomNode, type DomScan } from './dom.js';
import { MAX_PASSAGE_CHARS, type ExtractedPage } from './extracted-page.js';
import { readPageModel } from './page-model.js';

/**
 * Pure HTML extraction: title, publish date, main text and passages. No I/O; the same function serves
 * HTTP pages and corpus pages, so a snippet taken from the corpus index occurs in the fetched text.
 */

/** Elements that start a new passage. Anything else is inline and joins the surrounding text. */
const BLOCKS = new Set([
  'p', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'dt', 'dd', 'figcaption',
  'caption', 'address', 'div', 'section', 'article', 'main', 'header', 'ul', 'ol', 'dl', 'table', 'tr',
  'thead', 'tbody', 'tfoot', 'figure', 'hr', 'details', 'summary', 'body', 'center', 'fieldset', 'legend',
]);

/** Table cells are inline: a table row is one passage (a listing's line), its cells apart by a space. */
const CELLS = new Set(['td', 'th']);

/** Paragraph-sized passages in document order: each block boundary flushes the running inline text. */
function collectPassages(root: DomNode, rootInsideContent: boolean): string[] {
  const passages: string[] = [];
  let buffer = '';
  const flush = () => {
    const text = normaliseSpace(buffer);
    buffer = '';
    if (text) passages.push(...chunkPassage(text, MAX_PASSAGE_CHARS));
  };
  const walk = (node: DomNode, insideContent: boolean) => {
    if (node.type === 'text') {
      buffer += node.data ?? '';
      return;
    }
    if (node.type !== 'tag' && node.type !== 'root') return;
    if (isBoilerplate(node, insideContent)) return;
    const name = node.name ?? '';
    if (name === 'br') {
      buffer += ' ';
      return;
    }
    const block = BLOCKS.has(name);
    if (block) flush();
    if (CELLS.has(name)) buffer += ' ';
    const inside = insideContent || name === 'main' || name === 'article' || node.attribs?.role === 'main';
    for (const child of node.children ?? []) walk(child, inside);
    if (block) flush();
  };
  walk(root, rootInsideContent);
  flush();
  return passages;
}

const length = (node: DomNode) => normaliseSpace(contentText(node, true)).length;

function contains(ancestor: DomNode, node: DomNode): boolean {
  for (let n: DomNode | null | undefined = node; n; n = n.parent) if (n === ancestor) return true;
  return false;
}

/**
 * The element holding the main content: <main>, role=main, a single <article>, or the block holding
 * most paragraph text (only when it holds most of the page's paragraph text; otherwise the whole body,
 * since dropping real content costs more than keeping some chrome). `content` says whether it is a
 * declared content root (whose own <header> is kept).
 */
function mainRoot(scan: DomScan): { node: DomNode; content: boolean } {
  const mains = scan.mains.filter((el) => length(el) >= 80);
  if (mains.length === 1) return { node: mains[0]!, content: true };
  if (scan.articles.length === 1 && length(scan.articles[0]!) >= 80) return { node: scan.articles[0]!, content: true };
  if (mains.length > 1 || scan.articles.length > 1) return { node: scan.body, content: false };

  // Densest block: each paragraph credits its parent fully and its grandparent by half.
  const scores = new Map<DomNode, number>();
  const lengths: [DomNode, number][] = [];
  let total = 0;
  for (const p of scan.paragraphs) {
    const len = length(p);
    if (len < 25) continue;
    lengths.push([p, len]);
    total += len;
    const parent = p.parent;
    if (parent) scores.set(parent, (scores.get(parent) ?? 0) + len);
    const grand = parent?.parent;
    if (grand) scores.set(grand, (scores.get(grand) ?? 0) + len / 2);
  }
  let best: DomNode | null = null;
  let bestScore = 0;
  for (const [node, score] of scores) if (score > bestScore) [best, bestScore] = [node, score];
  if (best && best !== scan.body && total > 0) {
    const inside = lengths.reduce((n, [p, len]) => (contains(best!, p) ? n + len : n), 0);
    if (inside >= total * 0.8) return { node: best, content: false };
  }
  return { node: scan.body, content: false };
}

function findTitle(scan: DomScan): string {
  for (const c of [scan.metas.get('og:title'), scan.metas.get('twitter:title'), scan.title, scan.firstH1]) {
    const t = normaliseSpace(c ?? '');
    if (t) return t.slice(0, 500);
  }
  return '';
}

/** Extract one HTML document. */
export function extractHtml(html: string): ExtractedPage {
  const scan = scanDocument(load(html).root()[0] as unknown as DomNode);
  const root = mainRoot(scan);
  const passages = collectPassages(root.node, root.content);
  const { extraPassages, ...model } = readPageModel(scan, root.node, passages.join('\n'));
  // Structured-data values no visible element shows are passages of their own, so they can be quoted.
  passages.push(...extraPassages);
  return {
    title: findTitle(scan),
    publishedAt: findPublishedDate(scan),
    canonicalUrl: normaliseSpace(scan.canonical || scan.metas.get('og:url') || '') || null,
    passages,
    text: passages.join('\n'),
    model,
  };
}
