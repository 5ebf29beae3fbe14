import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FetchedPage } from '@leadfinder/wire';

/**
 * A deliberately tiny reader for the sample corpus format (not the fetcher's extractor): each heading,
 * paragraph or list item is one passage; the text is the passages joined by single spaces.
 */
function unescape(s: string): string {
  return s.replace(/<[^>]+>/g, '').replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&').replace(/\s+/g, ' ').trim();
}

function page(url: string, title: string, publishedAt: string | null, passages: string[]): FetchedPage {
  return {
    url, finalUrl: url, status: 200, contentType: 'text/html', title, text: passages.join(' '), publishedAt, passages,
    fetchedAt: new Date(0).toISOString(),
  };
}

export function parseHtml(source: string): FetchedPage {
  const title = unescape(/<title>([\s\S]*?)<\/title>/i.exec(source)?.[1] ?? '');
  const url = /<link rel="canonical" href="([^"]+)"/i.exec(source)?.[1] ?? '';
  const published = /<meta property="article:published_time" content="([^"]+)"/i.exec(source)?.[1] ?? null;
  const blocks = [...source.matchAll(/<(h1|h2|p|li)>([\s\S]*?)<\/\1>/gi)].map((m) => unescape(m[2]!)).filter(Boolean);
  return page(url, title, published, blocks);
}

export function parseMarkdown(source: string): FetchedPage {
  const m = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(source);
  const front = new Map((m?.[1] ?? '').split('\n').map((l) => [l.slice(0, l.indexOf(':')).trim(), l.slice(l.indexOf(':') + 1).trim()] as const));
  const blocks = (m?.[2] ?? source).split(/\n\s*\n/).map((b) => b.replace(/^#+\s+/, '').replace(/\s+/g, ' ').trim()).filter(Boolean);
  return page(front.get('url') ?? '', front.get('title') ?? '', front.get('published') ?? null, blocks);
}

export async function loadCorpus(dir: string): Promise<FetchedPage[]> {
  const out: FetchedPage[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const source = await readFile(path, 'utf8');
    if (entry.name.endsWith('.html')) out.push(parseHtml(source));
    else if (entry.name.endsWith('.md')) out.push(parseMarkdown(source));
  }
  return out.sort((a, b) => a.url.localeCompare(b.url));
}
