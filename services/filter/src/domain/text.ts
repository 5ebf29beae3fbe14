/**
 * Lexical helpers shared by the reasoners: tokens, light stemming, sentence splitting and the
 * normalised identity key of a name. Pure functions; no I/O.
 */

import { stemmer as porter } from 'stemmer';

const STOPWORDS = new Set([
  'a', 'an', 'the', 'and', 'or', 'of', 'in', 'on', 'at', 'to', 'for', 'by', 'with', 'from', 'that', 'which',
  'who', 'whose', 'is', 'are', 'was', 'were', 'be', 'been', 'it', 'its', 'as', 'this', 'these', 'those', 'their',
  'has', 'have', 'had', 'than', 'into', 'about', 'all', 'any', 'some', 'me', 'find', 'list', 'show', 'give',
  'based', 'located', 'headquartered', 'during', 'since', 'last', 'past', 'recently', 'new', 'our', 'we',
]);

/** Lowercase word tokens; hyphens and punctuation split words ("Berlin-based" → berlin, based). */
export function tokens(text: string): string[] {
  return (
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}€$£]+/gu) ?? []
  );
}

/**
 * Words the stemmer must leave whole: endings that are not suffixes ("news" is not the plural of "new"),
 * and words Porter would fold into another ("organic" is not "organization", "employment" not "employer").
 */
const UNSTEMMED = new Set([
  'news', 'series', 'always', 'business', 'analysis', 'press', 'species', 'physics', 'need', 'speed', 'seed', 'feed',
  'organic', 'organ', 'organs', 'employment',
]);

/**
 * Porter's stemmer (the `stemmer` package), so word variants meet: "raised"/"raises", "startups"/"startup",
 * "condensate"/"condensation", "superconducting"/"superconductivity". Used alike on query terms and page text.
 */
export function stem(word: string): string {
  const w = word.toLowerCase();
  if (w.length <= 3 || UNSTEMMED.has(w)) return w;
  return porter(w);
}

/**
 * Inflection only ("raised"/"raises", "startups"/"startup"): for curated vocabulary, whose groups list their
 * variants already, where Porter's derivational folding would say too much ("secure" is not "security").
 */
export function lightStem(word: string): string {
  const w = word.toLowerCase();
  if (w.length <= 3 || UNSTEMMED.has(w)) return w;
  if (w.endsWith('ies') && w.length > 4) return `${w.slice(0, -3)}y`;
  for (const suffix of ['ing', 'ed', 'es', 's', 'e']) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3 && !(suffix === 's' && w.endsWith('ss'))) {
      return w.slice(0, -suffix.length);
    }
  }
  return w;
}

export function lightStems(text: string): string[] {
  return tokens(text).map(lightStem);
}

export function stems(text: string): string[] {
  return tokens(text).map(stem);
}

/** Content words of a phrase: tokens minus stopwords. */
export function contentWords(text: string): string[] {
  return tokens(text).filter((t) => !STOPWORDS.has(t));
}

/** How a stemmed word of a phrase is compared with a stemmed word of the text. */
export type SameWord = (phraseStem: string, textStem: string) => boolean;

const identical: SameWord = (a, b) => a === b;

/**
 * One word family, by Porter stem: equal stems, or a phrase stem of seven letters or more that begins the text's
 * longer stem. Porter folds inflection and some derivation ("magnetism" and "magnetic" are both "magnet") but not
 * agent nouns or compounds: "superconductivity" ("superconduct") meets "superconductors" ("superconductor"),
 * "proteins" meets "proteinase". A phrase stem's agent ending "-or" is dropped first, so "superconductors" meets
 * "superconductivity" too. Shorter stems stay exact ("public" is no "publicly", "magnet" no "magnetron").
 */
export const sameWordFamily: SameWord = (phraseStem, textStem) => {
  if (phraseStem === textStem) return true;
  const root = phraseStem.length >= 9 && phraseStem.endsWith('or') ? phraseStem.slice(0, -2) : phraseStem;
  return root.length >= 7 && textStem.startsWith(root);
};

/**
 * True when the stemmed token sequence of `phrase` occurs contiguously in `haystackStems`.
 * Phrase matching on tokens, so "AI" never matches inside "said".
 */
export function containsPhrase(haystackStems: readonly string[], phrase: string, stemmer: (word: string) => string = stem, same: SameWord = identical): boolean {
  const needle = tokens(phrase).map(stemmer);
  if (needle.length === 0) return false;
  outer: for (let i = 0; i + needle.length <= haystackStems.length; i++) {
    for (let j = 0; j < needle.length; j++) if (!same(needle[j]!, haystackStems[i + j]!)) continue outer;
    return true;
  }
  return false;
}

/** True when any synonym of the group occurs in the stems. */
export function matchesGroup(haystackStems: readonly string[], group: readonly string[], stemmer: (word: string) => string = stem, same: SameWord = identical): string | null {
  for (const phrase of group) if (containsPhrase(haystackStems, phrase, stemmer, same)) return phrase;
  return null;
}

/**
 * English derivational endings that turn a topic noun into the adjective titles print ("magnetism" →
 * "magnetic", "catalysis" → "catalytic", "spectroscopy" → "spectroscopic"): a search engine matches words, and
 * one that folds only inflection never finds "Magnetic properties of …" for "magnetism". Only endings whose
 * adjective is regular; first match wins.
 */
const DERIVED_ADJECTIVE: readonly [RegExp, string[]][] = [
  // "catalysis": "catalytic", the agent titles name ("catalysts") and the verb ("catalyzed", "catalysed").
  [/ysis$/, ['ytic', 'yst', 'yze', 'yse']],
  [/icity$/, ['ic']],
  [/ability$/, ['able']],
  [/ibility$/, ['ible']],
  [/graphy$/, ['graphic']],
  [/scopy$/, ['scopic']],
  [/metry$/, ['metric']],
  [/ology$/, ['ological']],
  [/escence$/, ['escent']],
  [/ism$/, ['ic']],
  [/ics$/, ['ic']],
  // "polymers", "isomers": the process titles name ("polymerization", "isomerisation").
  [/mers?$/, ['merization', 'merisation']],
];

/** The adjective a topic noun is printed as in titles, when its ending is a regular one; else none. */
export function derivedForms(word: string): string[] {
  const w = word.toLowerCase();
  if (w.length < 7 || !/^[a-z]+$/.test(w)) return [];
  for (const [ending, replacements] of DERIVED_ADJECTIVE) if (ending.test(w)) return replacements.map((r) => w.replace(ending, r));
  return [];
}

const ABBREVIATIONS = new Set(['dr', 'prof', 'mr', 'mrs', 'ms', 'st', 'inc', 'ltd', 'co', 'corp', 'vs', 'no', 'jr', 'sr', 'e.g', 'i.e', 'approx']);

/**
 * Sentences of a text, each a verbatim substring of it. Splits after . ! ? followed by space and an
 * upper-case letter, digit or opening quote, except after common abbreviations ("Dr. Berg").
 */
export function sentences(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  const boundary = /[.!?][”"')]?\s+(?=[\p{Lu}\p{N}“"‘(#])/gu;
  let m: RegExpExecArray | null;
  while ((m = boundary.exec(text)) !== null) {
    const before = text.slice(start, m.index);
    const word = /([\p{L}.]+)$/u.exec(before)?.[1] ?? '';
    const lastWord = word.toLowerCase();
    // An initial ("M. Smith", "D.J. Thouless") ends no sentence.
    if (text[m.index] === '.' && (ABBREVIATIONS.has(lastWord) || /^(?:\p{Lu}\.)*\p{Lu}$/u.test(word))) continue;
    const end = m.index + m[0].trimEnd().length;
    const piece = text.slice(start, end).trim();
    if (piece) out.push(piece);
    start = m.index + m[0].length;
  }
  const rest = text.slice(start).trim();
  if (rest) out.push(rest);
  return out;
}

const LEGAL_SUFFIXES = /\b(gmbh|ag|ug|kg|se|inc|llc|ltd|limited|plc|corp|corporation|co|sas|sarl|sa|srl|bv|nv|oy|ab|as|pty)\b\.?/g;
const TITLES = /^(dr|prof|professor|mr|mrs|ms)\b\.?\s+/;

/** Normalised identity of a name: lowercase, no diacritics, titles, legal suffixes or punctuation. */
export function normaliseKey(name: string): string {
  let s = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[“”"‘’']/g, '')
    .trim();
  while (TITLES.test(s)) s = s.replace(TITLES, '');
  // A middle initial is often left out ("Ada E. Yonath" and "Ada Yonath" are one person); a leading one stays.
  s = s.replace(/(?<=\p{L}{2,}\s)(?:\p{L}\.\s+)+(?=\p{L}{2,})/gu, '');
  s = s.replace(LEGAL_SUFFIXES, ' ');
  return s.replace(/[^\p{L}\p{N}]+/gu, ' ').trim().replace(/\s+/g, ' ');
}

/** Case-sensitive check that a quoted text really is in the page (whitespace-tolerant). */
export function occursIn(haystack: string, needle: string): boolean {
  if (!needle.trim()) return false;
  return haystack.includes(needle);
}

/**
 * Sentences of a fetched page, each a substring of its text: split within each passage (so a heading
 * passage stays apart), with a heading that ran into the first sentence cut off.
 */
export function pageSentences(page: { text: string; title: string; passages: readonly string[] }): string[] {
  const blocks = page.passages.length > 0 ? page.passages.filter((p) => page.text.includes(p)) : [page.text];
  const out: string[] = [];
  for (const block of blocks.length > 0 ? blocks : [page.text]) {
    for (let s of sentences(block)) {
      const title = page.title.trim();
      // Only when a new sentence follows: "Dr. Berg is a …" must keep its subject.
      if (title && s.startsWith(title) && /^\s+[\p{Lu}\p{N}“"]/u.test(s.slice(title.length))) {
        out.push(title);
        s = s.slice(title.length).trim();
      }
      s = s.replace(/^#+\s+/, '');
      if (s) out.push(s);
    }
  }
  return [...new Set(out)];
}
