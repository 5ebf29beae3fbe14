import { sentenceSpans } from './text.js';
import { tokenize } from './tokenize.js';

const SNIPPET_TARGET = 240;
const SNIPPET_MAX = 320;

/**
 * The best-matching sentence(s) of a page for a query, as an exact substring of one passage (so it
 * occurs in the page's text). Adjacent sentences of the same passage are added up to ~240 characters.
 */
export function bestSnippet(passages: readonly string[], query: string, skip: ReadonlySet<string> = new Set()): string {
  const terms = new Set(tokenize(query));
  let best: { passage: string; spans: [number, number][]; i: number; score: number } | null = null;
  for (const passage of passages) {
    if (skip.has(passage)) continue;
    const spans = sentenceSpans(passage);
    spans.forEach(([s, e], i) => {
      const tokens = tokenize(passage.slice(s, e));
      const distinct = new Set(tokens.filter((t) => terms.has(t))).size;
      const hits = tokens.filter((t) => terms.has(t)).length;
      // Distinct query terms matter most; prefer sentences of readable length.
      const score = distinct * 10 + hits + Math.min(e - s, 200) / 1000;
      if (!best || score > best.score) best = { passage, spans, i, score };
    });
  }
  if (!best) return '';
  const { passage, spans, i } = best as { passage: string; spans: [number, number][]; i: number };
  const start = spans[i]![0];
  let end = spans[i]![1];
  for (let j = i + 1; j < spans.length && end - start < SNIPPET_TARGET && spans[j]![1] - start <= SNIPPET_MAX; j++) {
    end = spans[j]![1];
  }
  if (end - start > SNIPPET_MAX) {
    const cut = passage.lastIndexOf(' ', start + SNIPPET_MAX);
    end = cut > start ? cut : start + SNIPPET_MAX;
  }
  return passage.slice(start, end).trim();
}
