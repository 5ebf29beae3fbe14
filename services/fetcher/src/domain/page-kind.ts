import { extractHtml } from './extract.js';
import { extractMarkdown, extractPlainText } from './markdown.js';
import type { ExtractedPage } from './extracted-page.js';

export type PageKind = 'html' | 'markdown' | 'text';

/** Which extractor a Content-Type calls for; null means unsupported. Missing type: sniff the body. */
export function pageKind(contentType: string, head = '', path = ''): PageKind | null {
  const mime = contentType.split(';')[0]!.trim().toLowerCase();
  if (mime === 'text/html' || mime === 'application/xhtml+xml') return 'html';
  if (mime === 'text/markdown' || mime === 'text/x-markdown') return 'markdown';
  if (mime === 'text/plain') return /\.(md|markdown)$/i.test(path) ? 'markdown' : 'text';
  if (mime === '' || mime === 'application/octet-stream') {
    if (/^\s*</.test(head)) return 'html';
    if (/\.(md|markdown)$/i.test(path)) return 'markdown';
    return mime === '' ? 'text' : null;
  }
  return null;
}

/** Run the extractor for a kind. */
export function extractByKind(kind: PageKind, body: string): ExtractedPage {
  switch (kind) {
    case 'html':
      return extractHtml(body);
    case 'markdown':
      return extractMarkdown(body);
    case 'text':
      return extractPlainText(body);
  }
}
