/**
 * Matching returned rows to the development set's entities by canonical identity (the entity's own domain
 * first, then its normalised name), and scoring one query's table against its gold set.
 */
import { normaliseName } from '../quality/score.js';
import type { DevEntity } from './records.js';
import type { GoldSet } from './queries.js';

/** A row as the harness reads it from `final.table`. */
export interface RowLike {
  name: string;
  source_urls: string[];
}

const LEGAL_SUFFIX = /\s+(inc|llc|ltd|limited|corp|corporation|co|gmbh|plc|pbc)$/;

/** Name key: accents, case, punctuation, honorifics and legal suffixes do not matter. */
export function nameKey(name: string): string {
  let key = normaliseName(name.replace(/[’']/g, ''));
  key = key.replace(/^(the|sir|lord|lady)\s+/, '');
  while (LEGAL_SUFFIX.test(key)) key = key.replace(LEGAL_SUFFIX, '');
  return key.trim();
}

/** Every name a correct row about `e` may carry. */
export function nameKeys(e: DevEntity): Set<string> {
  const names = [e.name, ...e.aliases];
  for (const n of [e.name, ...e.aliases]) {
    const paren = /^(.*?)\s*\(([^)]*)\)\s*(.*)$/.exec(n);
    if (paren) {
      names.push(`${paren[1]} ${paren[3]}`.trim());
      names.push(paren[2]!.replace(/^(formerly|née|nee|born)\s+/i, ''));
    }
    const comma = /^([^,]+),\s*(née|nee|born)\s+/i.exec(n);
    if (comma) names.push(comma[1]!);
  }
  return new Set(names.map(nameKey).filter(Boolean));
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return null;
  }
}

function domainLike(name: string): string | null {
  const m = /^(?:https?:\/\/)?(?:www\.)?([a-z0-9-]+(?:\.[a-z0-9-]+)+)\/?$/i.exec(name.trim());
  return m ? m[1]!.toLowerCase() : null;
}

/** Whole-word containment either way ("Moxion Power" and "Moxion Power Co.", "Scale" and "Scale AI"). */
function wordsOverlap(a: string, b: string): boolean {
  if (!a || !b) return false;
  const pad = (s: string) => ` ${s} `;
  return pad(a).includes(pad(b)) || pad(b).includes(pad(a));
}

export class EntityMatcher {
  private readonly byDomain = new Map<string, DevEntity>();
  /** Current names first: "Wave" is the company Wave, not Sendwave, whose former name it was. */
  private readonly byName = new Map<string, DevEntity[]>();
  private readonly byAlias = new Map<string, DevEntity[]>();

  constructor(private readonly entities: readonly DevEntity[]) {
    const add = (map: Map<string, DevEntity[]>, k: string, e: DevEntity) => {
      const list = map.get(k) ?? [];
      if (!list.includes(e)) list.push(e);
      map.set(k, list);
    };
    for (const e of entities) {
      if (e.domain) this.byDomain.set(e.domain, e);
      const own = nameKey(e.name);
      add(this.byName, own, e);
      for (const k of nameKeys(e)) if (k !== own) add(this.byAlias, k, e);
    }
  }

  /**
   * The entity a row is about, or null. Domain first: a row named by a domain, or citing a page on an
   * entity's own domain under a name that overlaps the entity's; then the exact normalised name.
   */
  match(row: RowLike): DevEntity | null {
    const key = nameKey(row.name);
    const named = domainLike(row.name);
    if (named && this.byDomain.has(named)) return this.byDomain.get(named)!;
    for (const url of row.source_urls) {
      const host = hostOf(url);
      const e = host ? this.byDomain.get(host) : undefined;
      if (e && [...nameKeys(e)].some((k) => wordsOverlap(k, key))) return e;
    }
    const byName = this.byName.get(key);
    if (byName) return byName.length === 1 ? byName[0]! : null;
    const byAlias = this.byAlias.get(key);
    return byAlias?.length === 1 ? byAlias[0]! : null;
  }

  get size(): number {
    return this.entities.length;
  }
}

export interface QueryScore {
  precision: number;
  recall: number;
  /** Names of rows matching a yes entity (first row per entity). */
  correct: string[];
  /** Rows matching a no entity, no entity at all, or repeating an entity already returned. */
  wrong: { name: string; entity: string | null; why: 'no' | 'unknown' | 'duplicate' }[];
  /** Rows matching a maybe entity: counted neither way. */
  maybe: string[];
  /** Yes entities no row matched. */
  missed: string[];
  /** Entities recall is measured against: min(|yes|, target). */
  recallBase: number;
}

/**
 * Precision over the rows that count (maybe rows excluded); an empty table is precision 0 when there was
 * something to find and 1 when there was not. Recall over min(|yes|, target), so a target below the gold
 * size does not cap it.
 */
export function scoreQuery(rows: readonly RowLike[], gold: GoldSet, matcher: EntityMatcher, target: number): QueryScore {
  const yes = new Set(gold.yes.map((e) => e.key));
  const maybeKeys = new Set(gold.maybe.map((e) => e.key));
  const found = new Set<string>();
  const correct: string[] = [];
  const wrong: QueryScore['wrong'] = [];
  const maybe: string[] = [];
  for (const row of rows) {
    const e = matcher.match(row);
    if (!e) wrong.push({ name: row.name, entity: null, why: 'unknown' });
    else if (found.has(e.key)) wrong.push({ name: row.name, entity: e.name, why: 'duplicate' });
    else if (yes.has(e.key)) {
      found.add(e.key);
      correct.push(row.name);
    } else if (maybeKeys.has(e.key)) {
      found.add(e.key);
      maybe.push(row.name);
    } else wrong.push({ name: row.name, entity: e.name, why: 'no' });
  }
  const counted = correct.length + wrong.length;
  const recallBase = Math.min(gold.yes.length, target);
  return {
    precision: counted === 0 ? (gold.yes.length === 0 ? 1 : 0) : correct.length / counted,
    recall: recallBase === 0 ? 1 : Math.min(1, correct.length / recallBase),
    correct,
    wrong,
    maybe,
    missed: gold.yes.filter((e) => !found.has(e.key)).map((e) => e.name),
    recallBase,
  };
}
