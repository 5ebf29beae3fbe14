import { tokenize } from './tokenize.js';

/** Okapi BM25 over title + text. Title terms count `TITLE_WEIGHT` times (a simple BM25F). Pure. */

const K1 = 1.2;
const B = 0.75;
const TITLE_WEIGHT = 3;

export interface Bm25Document {
  title: string;
  text: string;
}

export interface Bm25Index {
  readonly size: number;
  /** Scores of documents with at least one query term, best first (ties: lower index first). */
  score(query: string): { doc: number; score: number }[];
}

export function buildBm25Index(docs: readonly Bm25Document[]): Bm25Index {
  const postings = new Map<string, { doc: number; tf: number }[]>();
  const lengths: number[] = [];
  docs.forEach((d, doc) => {
    const counts = new Map<string, number>();
    let length = 0;
    for (const t of tokenize(d.title)) {
      counts.set(t, (counts.get(t) ?? 0) + TITLE_WEIGHT);
      length += TITLE_WEIGHT;
    }
    for (const t of tokenize(d.text)) {
      counts.set(t, (counts.get(t) ?? 0) + 1);
      length += 1;
    }
    lengths.push(length);
    for (const [term, tf] of counts) {
      let list = postings.get(term);
      if (!list) postings.set(term, (list = []));
      list.push({ doc, tf });
    }
  });
  const n = docs.length;
  const avgLength = lengths.reduce((a, b) => a + b, 0) / Math.max(1, n) || 1;

  return {
    size: n,
    score(query) {
      const scores = new Map<number, number>();
      for (const term of new Set(tokenize(query))) {
        const list = postings.get(term);
        if (!list) continue;
        const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
        for (const { doc, tf } of list) {
          const norm = tf + K1 * (1 - B + (B * lengths[doc]!) / avgLength);
          scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf * (K1 + 1)) / norm);
        }
      }
      return [...scores].map(([doc, score]) => ({ doc, score })).sort((a, b) => b.score - a.score || a.doc - b.doc);
    },
  };
}
