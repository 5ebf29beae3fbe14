import { chunkPassage, normaliseSpace } from './text.js';
import { normaliseDate } from './dates.js';
import { MAX_PASSAGE_CHARS, type ExtractedPage } from './extracted-page.js';

/** Front matter `---\nkey: value\n---` at the top of a markdown file; keys lower-cased. */
export function parseFrontMatter(source: string): { fields: Record<string, string>; body: string } {
  const text = source.replace(/^\uFEFF/, '');
  const m = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!m) return { fields: {}, body: text };
  const fields: Record<string, string> = {};
  for (const line of m[1]!.split(/\r?\n/)) {
    const kv = /^\s*([A-Za-z_][\w-]*)\s*:\s*(.*?)\s*$/.exec(line);
    if (!kv) continue;
    fields[kv[1]!.toLowerCase()] = kv[2]!.replace(/^(["'])(.*)\1$/, '$2');
  }
  return { fields, body: text.slice(m[0].length) };
}

/** Minimal inline markdown → text: links and images keep their words, emphasis and code marks go. */
function stripInline(line: string): string {
  return line
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1')
    .replace(/<\/?[A-Za-z][^>]*>/g, ' ')
    .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, '$2')
    .replace(/(^|[\s(])[*_](?=\S)(.+?)(?<=\S)[*_](?=$|[\s).,;:!?])/g, '$1$2')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/~~(.+?)~~/g, '$1');
}

const LIST_ITEM = /^\s{0,3}(?:[-*+]|\d{1,3}[.)])\s+/;

/** One blank-line-separated block → passages (list items each become their own passage). */
function blockPassages(block: string): string[] {
  const lines = block.split(/\r?\n/).filter((l) => !/^\s*(?:```|~~~)/.test(l) && !/^\s*(?:[-*_]\s*){3,}$/.test(l));
  const items: string[] = [];
  let current = '';
  for (const raw of lines) {
    if (/^\s*\|?\s*:?-{3,}/.test(raw)) continue; // table separator row
    const isItem = LIST_ITEM.test(raw);
    const cleaned = raw
      .replace(/^\s{0,3}#{1,6}\s+/, '')
      .replace(/\s+#+\s*$/, '')
      .replace(/^\s*(?:>\s?)+/, '')
      .replace(LIST_ITEM, '')
      .replace(/\|/g, ' ');
    if (isItem && current) {
      items.push(current);
      current = '';
    }
    current += ` ${stripInline(cleaned)}`;
  }
  if (current) items.push(current);
  return items.map(normaliseSpace).filter(Boolean).flatMap((p) => chunkPassage(p, MAX_PASSAGE_CHARS));
}

function paragraphs(body: string, markdown: boolean): string[] {
  const blocks = body.split(/\r?\n[ \t]*\r?\n/);
  return blocks.flatMap((b) =>
    markdown ? blockPassages(b) : chunkPassage(normaliseSpace(b), MAX_PASSAGE_CHARS).filter(Boolean),
  );
}

/** Extract a markdown document (front matter gives url, title and published date). */
export function extractMarkdown(source: string): ExtractedPage {
  const { fields, body } = parseFrontMatter(source);
  const passages = paragraphs(body, true);
  const heading = /^\s{0,3}#\s+(.+?)\s*#*\s*$/m.exec(body)?.[1];
  const title = normaliseSpace(fields.title ?? (heading ? stripInline(heading) : ''));
  const publishedAt =
    normaliseDate(fields.published) ?? normaliseDate(fields.date) ?? normaliseDate(fields.published_at) ?? null;
  const canonicalUrl = fields.url ?? fields.canonical ?? null;
  return { title, publishedAt, canonicalUrl: canonicalUrl || null, passages, text: passages.join('\n') };
}

/** Extract plain text: paragraphs on blank lines, title = a short first line. */
export function extractPlainText(source: string): ExtractedPage {
  const passages = paragraphs(source.replace(/^\uFEFF/, ''), false);
  const first = passages[0] ?? '';
  return {
    title: first.length <= 120 ? first : '',
    publishedAt: null,
    canonicalUrl: null,
    passages,
    text: passages.join('\n'),
  };
}
