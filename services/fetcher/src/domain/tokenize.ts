/** Lower-cased, accent-folded, lightly stemmed word tokens for the corpus index and snippet scoring. */

const STOPWORDS = new Set(
  ('a an and are as at be been but by for from has have in into is it its of on or that the their this to was ' +
    'were will with who what which when where how our we you your they them he she his her not no so than then ' +
    'there these those do does did can could would should about over after before also any all more most')
    .split(' '),
);

/** Strip common English suffixes so "raises", "raised" and "raising" meet. Deliberately light. */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('ing') && word.length > 5) return word.slice(0, -3).replace(/(.)\1$/, '$1');
  if (word.endsWith('ed') && word.length > 4) return word.slice(0, -2).replace(/(.)\1$/, '$1');
  if (word.endsWith('es') && /(?:ss|x|ch|sh|z)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us') && !word.endsWith('is')) return word.slice(0, -1);
  return word;
}

export function tokenize(text: string): string[] {
  const folded = text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
  const out: string[] = [];
  for (const m of folded.matchAll(/[\p{L}\p{N}]+(?:['’.-][\p{L}\p{N}]+)*/gu)) {
    // "series-a" and "u.s." keep their parts searchable: index the joined form's pieces.
    for (const part of m[0].split(/['’.-]/)) {
      if (part && !STOPWORDS.has(part)) out.push(stem(part));
    }
  }
  return out;
}
