/**
 * The grounding guarantee of the operator contract ("Guarantees tests hold the service to"), as a test
 * assertion: no row may rest on a page the service never saw, and nothing it quotes may be invented.
 *
 * For every row:
 * - every `source_urls` entry and every passage `url` (supporting_passages and by_filter passages) is a
 *   page the service actually fetched or a search result it actually received;
 * - every passage `text` occurs in that page's extracted text (the service's own extraction);
 * - the row's `name` occurs in the extracted text of at least one fetched page the row cites.
 *
 * Two sources of evidence: the fake web's request log (`fakeWebEvidence`), or a corpus folder the service
 * searched in corpus mode (`corpusEvidence`, e.g. `<LEADFINDER_DATA_DIR>/sample-corpus`).
 *
 * @example
 * assertRowsGrounded(rows, await fakeWebEvidence(web));
 * assertRowsGrounded(rows, await corpusEvidence(join(server.dataDir, 'sample-corpus')));
 */
import { createCorpusIndex, corpusUrlKey, extractHtml, extractMarkdown } from '@leadfinder/fetcher';
import type { CorpusPage } from '@leadfinder/fetcher';
import type { ResultRow } from '@leadfinder/wire';
import type { FakeWeb } from './fake-web.js';

export interface GroundingEvidence {
  /** What the evidence is (in failure messages). */
  label: string;
  /** True when the service fetched this page or received it as a search result. */
  seen(url: string): boolean;
  /** True when the service fetched (opened) this page. */
  fetched(url: string): boolean;
  /** Extracted text of a seen page (the service's own extraction), or null. */
  pageText(url: string): string | null;
}

/** A row as the tests read it from `final.table` (only the fields the guarantee is about). */
export type GroundedRow = Pick<ResultRow, 'name' | 'source_urls' | 'supporting_passages' | 'by_filter'>;

/** Whitespace-collapsed, for "occurs in" checks that do not depend on line breaks. */
function flat(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function extract(page: CorpusPage): string {
  return (page.contentType === 'text/markdown' ? extractMarkdown(page.source) : extractHtml(page.source)).text;
}

/**
 * Evidence from the fake web's request log: pages the fetcher requested (with their extracted text)
 * and result URLs the SearXNG fake served. Call after the run is terminal.
 */
export async function fakeWebEvidence(web: FakeWeb): Promise<GroundingEvidence> {
  const { pages } = web.requests();
  const fetched = new Map<string, string>();
  for (const url of pages) {
    const page = await web.page(url);
    if (page) fetched.set(corpusUrlKey(url), extract(page));
  }
  const results = new Map<string, string>();
  for (const url of web.servedResults()) {
    const page = await web.page(url);
    if (page) results.set(corpusUrlKey(url), extract(page));
  }
  return {
    label: `fake web (${fetched.size} pages fetched, ${results.size} results served)`,
    seen: (url) => fetched.has(corpusUrlKey(url)) || results.has(corpusUrlKey(url)),
    fetched: (url) => fetched.has(corpusUrlKey(url)),
    pageText: (url) => fetched.get(corpusUrlKey(url)) ?? results.get(corpusUrlKey(url)) ?? null,
  };
}

/**
 * Evidence from a corpus folder (corpus mode, where search and "fetching" both read the folder):
 * any page of the corpus counts as seen, with its extracted text.
 */
export async function corpusEvidence(dir: string): Promise<GroundingEvidence> {
  const index = createCorpusIndex({ dir });
  const byUrl = new Map<string, string>();
  for (const page of await index.pages()) byUrl.set(corpusUrlKey(page.url), extract(page));
  return {
    label: `corpus ${dir} (${byUrl.size} pages)`,
    seen: (url) => byUrl.has(corpusUrlKey(url)),
    fetched: (url) => byUrl.has(corpusUrlKey(url)),
    pageText: (url) => byUrl.get(corpusUrlKey(url)) ?? null,
  };
}

/** Every grounding violation of `rows` (empty when all hold). */
export function groundingProblems(rows: readonly GroundedRow[], evidence: GroundingEvidence): string[] {
  const problems: string[] = [];
  for (const row of rows) {
    const who = `row "${row.name}"`;
    const passages = [
      ...row.supporting_passages.map((p) => ({ ...p, where: 'supporting_passages' })),
      ...row.by_filter.flatMap((f) => f.passages.map((p) => ({ ...p, where: `by_filter[${f.index}]` }))),
    ];
    const cited = [...new Set([...row.source_urls, ...passages.map((p) => p.url)])];
    if (cited.length === 0) problems.push(`${who} cites no URL at all`);
    for (const url of row.source_urls) {
      if (!evidence.seen(url)) problems.push(`${who}: source URL ${url} was neither fetched nor a search result`);
    }
    for (const p of passages) {
      if (!evidence.seen(p.url)) {
        problems.push(`${who}: ${p.where} passage URL ${p.url} was neither fetched nor a search result`);
        continue;
      }
      const text = evidence.pageText(p.url);
      if (text === null) problems.push(`${who}: ${p.where} quotes ${p.url}, whose text is unknown`);
      else if (!flat(text).includes(flat(p.text))) problems.push(`${who}: ${p.where} passage not found on ${p.url}: "${p.text.slice(0, 160)}"`);
    }
    const name = flat(row.name).toLowerCase();
    const named = cited.some((url) => evidence.fetched(url) && flat(evidence.pageText(url) ?? '').toLowerCase().includes(name));
    if (!name) problems.push(`${who} has an empty name`);
    else if (!named) problems.push(`${who}: the name occurs on none of the fetched pages it cites (${cited.join(', ')})`);
  }
  return problems;
}

/** Throws, listing every violation, unless every row is grounded in `evidence`. */
export function assertRowsGrounded(rows: readonly GroundedRow[], evidence: GroundingEvidence): void {
  const problems = groundingProblems(rows, evidence);
  if (problems.length > 0) {
    throw new Error(`${problems.length} grounding violation(s) against ${evidence.label}:\n- ${problems.join('\n- ')}`);
  }
}
