/** Whitespace and sentence helpers shared by extraction and snippets. */

/** Collapse every run of whitespace (incl. NBSP) to one space and trim. */
export function normaliseSpace(text: string): string {
  return text.replace(/[\s\u00a0\u200b]+/g, ' ').trim();
}

/** Initials and abbreviations whose full stop ends no sentence ("David J. Wineland", "Dr. Berg", "Acme Inc. and"). */
const NO_SENTENCE_END = /(?:^|[\s(])(?:(?:\p{Lu}\.)*\p{Lu}|Dr|Mr|Mrs|Ms|Prof|St|Jr|Sr|Inc|Co|Ltd|Corp|vs|No)$/u;

/** Whether the full stop at `at` in `text` closes an initial or an abbreviation, and so no sentence. */
export function closesInitial(text: string, at: number): boolean {
  return text[at] === '.' && NO_SENTENCE_END.test(text.slice(Math.max(0, at - 6), at));
}

/** Sentence spans `[start, end)` of a whitespace-normalised passage, so callers can slice exact substrings. */
export function sentenceSpans(passage: string): [number, number][] {
  const spans: [number, number][] = [];
  // A sentence ends at . ! ? (optionally followed by quotes/brackets) and a space before an upper-case
  // letter, digit or opening quote; not at the full stop of an initial ("Elizabeth H. Blackburn"), which
  // would cut a name in two.
  const boundary = /[.!?]["'”’)\]]*\s+(?=[\p{Lu}\p{N}"'“‘(])/gu;
  let start = 0;
  for (let m = boundary.exec(passage); m; m = boundary.exec(passage)) {
    if (closesInitial(passage, m.index)) continue;
    const end = m.index + m[0].trimEnd().length;
    spans.push([start, end]);
    start = m.index + m[0].length;
  }
  if (start < passage.length) spans.push([start, passage.length]);
  return spans;
}

/**
 * Split an over-long passage into chunks of at most `max` characters at sentence boundaries (or word
 * boundaries for a single huge sentence). Every chunk is a substring of the input.
 */
export function chunkPassage(passage: string, max: number): string[] {
  if (passage.length <= max) return [passage];
  const out: string[] = [];
  let current: [number, number] | null = null;
  const push = (s: number, e: number) => {
    const piece = passage.slice(s, e).trim();
    if (piece) out.push(piece);
  };
  for (const [s, e] of sentenceSpans(passage)) {
    if (current && e - current[0] <= max) {
      current[1] = e;
      continue;
    }
    if (current) push(current[0], current[1]);
    if (e - s <= max) {
      current = [s, e];
      continue;
    }
    current = null;
    // One sentence longer than max: cut at the last space before the limit.
    let at = s;
    while (e - at > max) {
      let cut = passage.lastIndexOf(' ', at + max);
      if (cut <= at) cut = at + max;
      push(at, cut);
      at = cut;
    }
    current = [at, e];
  }
  if (current) push(current[0], current[1]);
  return out;
}
