import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { SearchHit } from '@leadfinder/wire';
import type { Clock } from '@leadfinder/platform';
import { buildBm25Index, type Bm25Index } from '../../domain/bm25.js';
import { extractByKind } from '../../domain/page-kind.js';
import type { ExtractedPage } from '../../domain/extracted-page.js';
import { passesDateFloor } from '../../domain/dates.js';
import { splitSiteTerms, urlOnDomains } from '../../domain/sites.js';
import { bestSnippet } from '../../domain/snippet.js';

/** One page of the corpus, extracted with the same code the fetcher uses. */
export interface CorpusPage extends ExtractedPage {
  url: string;
  /** Path relative to the corpus folder, with forward slashes. */
  path: string;
  contentType: 'text/html' | 'text/markdown';
  source: string;
}

export interface CorpusQuery {
  query: string;
  domains: readonly string[];
  publishedAfter: string | null;
  page: number;
  limit: number;
}

export interface CorpusIndex {
  readonly dir: string;
  /** Ranked hits (BM25), filtered by domains and date floor, for one result page. */
  search(query: CorpusQuery): Promise<SearchHit[]>;
  /** The page with this URL (normalised comparison), or null. */
  page(url: string): Promise<CorpusPage | null>;
  /** Every page, in path order (tests, diagnostics). */
  pages(): Promise<readonly CorpusPage[]>;
}

export interface CorpusIndexOptions {
  dir: string;
  /** Provider name on hits. @default 'corpus' */
  provider?: string;
  clock?: Clock;
  /** How often (ms) the folder is re-checked for changes. @default 1000 */
  recheckMs?: number;
}

interface Snapshot {
  signature: string;
  pages: CorpusPage[];
  byUrl: Map<string, CorpusPage>;
  bm25: Bm25Index;
}

/** URL identity inside the corpus: no fragment, no trailing slash, lower-case host. */
export function corpusUrlKey(url: string): string {
  try {
    const u = new URL(url);
    u.hash = '';
    return u.href.replace(/\/$/, '');
  } catch {
    return url.trim();
  }
}

async function listFiles(dir: string): Promise<{ path: string; mtimeMs: number; size: number }[]> {
  let entries: string[];
  try {
    entries = await readdir(dir, { recursive: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const files = entries.filter((e) => /\.(html?|md|markdown)$/i.test(e)).sort();
  const stats = await Promise.all(
    files.map(async (f) => {
      const s = await stat(join(dir, f)).catch(() => null);
      return s?.isFile() ? { path: f, mtimeMs: s.mtimeMs, size: s.size } : null;
    }),
  );
  return stats.filter((s): s is NonNullable<typeof s> => s !== null);
}

async function loadPage(dir: string, file: string): Promise<CorpusPage> {
  const source = await readFile(join(dir, file), 'utf8');
  const isMd = /\.(md|markdown)$/i.test(file);
  const extracted = extractByKind(isMd ? 'markdown' : 'html', source);
  const path = relative(dir, join(dir, file)).split(sep).join('/');
  const declared = extracted.canonicalUrl && /^https?:\/\//i.test(extracted.canonicalUrl) ? extracted.canonicalUrl : null;
  return {
    ...extracted,
    url: declared ?? `corpus://${encodeURI(path)}`,
    path,
    contentType: isMd ? 'text/markdown' : 'text/html',
    source,
  };
}

/**
 * A lazily built, self-refreshing BM25 index over a folder of .html and .md pages. Built on first use;
 * rebuilt when any file is added, removed or changed (names, sizes and mtimes, checked at most every
 * `recheckMs`).
 */
export function createCorpusIndex(options: CorpusIndexOptions): CorpusIndex {
  const { dir } = options;
  const provider = options.provider ?? 'corpus';
  const now = () => (options.clock ?? { now: () => Date.now() }).now();
  const recheckMs = options.recheckMs ?? 1000;
  let current: Snapshot | null = null;
  let checkedAt = -Infinity;
  let pending: Promise<Snapshot> | null = null;

  async function rebuild(): Promise<Snapshot> {
    const files = await listFiles(dir);
    const signature = files.map((f) => `${f.path}:${f.size}:${f.mtimeMs}`).join('|');
    if (current && current.signature === signature) return current;
    const pages = await Promise.all(files.map((f) => loadPage(dir, f.path)));
    const byUrl = new Map<string, CorpusPage>();
    for (const p of pages) if (!byUrl.has(corpusUrlKey(p.url))) byUrl.set(corpusUrlKey(p.url), p);
    return { signature, pages, byUrl, bm25: buildBm25Index(pages) };
  }

  async function snapshot(): Promise<Snapshot> {
    if (current && now() - checkedAt < recheckMs) return current;
    // One rebuild at a time; concurrent callers share it.
    pending ??= rebuild().finally(() => {
      pending = null;
    });
    const snap = await pending;
    current = snap;
    checkedAt = now();
    return snap;
  }

  return {
    dir,
    async search(q) {
      const snap = await snapshot();
      const { text, domains: inline } = splitSiteTerms(q.query);
      const domains = [...q.domains, ...inline];
      const ranked = snap.bm25
        .score(text)
        .map(({ doc }) => snap.pages[doc]!)
        // Two files declaring one URL are one page: only the one `page(url)` serves is a hit.
        .filter((p) => snap.byUrl.get(corpusUrlKey(p.url)) === p)
        .filter((p) => urlOnDomains(p.url, domains) && passesDateFloor(p.publishedAt, q.publishedAfter));
      const offset = (q.page - 1) * q.limit;
      return ranked.slice(offset, offset + q.limit).map((p, i) => ({
        url: p.url,
        title: p.title,
        snippet: bestSnippet(p.passages, text, new Set([p.title])),
        publishedAt: p.publishedAt,
        provider,
        rank: offset + i + 1,
      }));
    },
    async page(url) {
      const snap = await snapshot();
      return snap.byUrl.get(corpusUrlKey(url)) ?? null;
    },
    async pages() {
      return (await snapshot()).pages;
    },
  };
}
