import type { Candidate, SupportingPassage } from '@leadfinder/wire';

/** Two candidates for the same entity combined: first one's fields, union of sources and passages. */
export function mergeCandidate(into: Candidate, from: Candidate): Candidate {
  return {
    ...into,
    domain: into.domain ?? from.domain,
    round: Math.min(into.round, from.round),
    sourceUrls: unionStrings(into.sourceUrls, from.sourceUrls),
    passages: unionPassages(into.passages, from.passages),
  };
}

function unionStrings(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])];
}

function unionPassages(a: readonly SupportingPassage[], b: readonly SupportingPassage[]): SupportingPassage[] {
  const seen = new Set(a.map((p) => `${p.url}\u0000${p.text}`));
  const out = [...a];
  for (const p of b) {
    const id = `${p.url}\u0000${p.text}`;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(p);
  }
  return out;
}

/**
 * Every candidate of a run, merged across pages and rounds. Two candidates are the same entity when they
 * share a `key` or a (non-null) `domain`. The canonical key of an entity is the key it was first seen with.
 */
export class CandidatePool {
  private readonly byCanonical = new Map<string, Candidate>();
  private readonly canonicalOfKey = new Map<string, string>();
  private readonly canonicalOfDomain = new Map<string, string>();

  /**
   * Adds candidates; returns the canonical keys of entities seen for the first time, in order. Identity is
   * the entity's own domain first, then its normalised name: two candidates with the same name but
   * different own domains are different entities (the second gets the key `name@domain`).
   */
  add(candidates: readonly Candidate[]): string[] {
    const fresh: string[] = [];
    for (const c of candidates) {
      const domain = c.domain?.toLowerCase() ?? null;
      const byDomain = domain ? this.canonicalOfDomain.get(domain) : undefined;
      let byKey = byDomain === undefined ? this.canonicalOfKey.get(c.key) : undefined;
      const namesake = byKey !== undefined ? this.byCanonical.get(byKey)!.domain?.toLowerCase() : undefined;
      if (domain && namesake && namesake !== domain) byKey = undefined;
      const canonical = byDomain ?? byKey;
      if (canonical === undefined) {
        const id = this.byCanonical.has(c.key) ? `${c.key}@${domain ?? this.byCanonical.size}` : c.key;
        this.byCanonical.set(id, { ...c, key: id });
        if (!this.canonicalOfKey.has(c.key)) this.canonicalOfKey.set(c.key, id);
        this.canonicalOfKey.set(id, id);
        if (domain) this.canonicalOfDomain.set(domain, id);
        fresh.push(id);
        continue;
      }
      this.byCanonical.set(canonical, mergeCandidate(this.byCanonical.get(canonical)!, c));
      this.canonicalOfKey.set(c.key, canonical);
      if (domain && !this.canonicalOfDomain.has(domain)) this.canonicalOfDomain.set(domain, canonical);
    }
    return fresh;
  }

  get(canonicalKey: string): Candidate | undefined {
    return this.byCanonical.get(canonicalKey);
  }

  get size(): number {
    return this.byCanonical.size;
  }

  /** Every entity so far, by canonical key, in first-seen order. */
  entries(): IterableIterator<[string, Candidate]> {
    return this.byCanonical.entries();
  }
}
