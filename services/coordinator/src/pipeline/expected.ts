import { entityIdentity, identityOfNameOrDomain, IdentityIndex, type Candidate, type ExpectedMiss, type QuotedPassage, type ResultRow } from '@leadfinder/wire';

/** The filter that dropped a candidate, and that verdict's rationale and passages. */
export interface FilterDrop {
  filter: { index: number; title: string };
  rationale: string;
  passages: QuotedPassage[];
}

/**
 * Recall against what the caller knows: each `expected` entry (a name or a domain) is found when a row of
 * the table is that entity (canonical identity, wire `identity.ts`); otherwise the miss says why, from the
 * run's own record: the candidate it was found as was excluded, dropped by a filter (which, with the
 * verdict's rationale and passages), or never judged into the table; or no page named it. Pure.
 */
export function expectedReport(input: {
  expected: readonly string[];
  rows: readonly ResultRow[];
  candidates: readonly (readonly [string, Candidate])[];
  excluded: ReadonlySet<string>;
  drops: ReadonlyMap<string, FilterDrop>;
}): { expected_found: string[]; expected_missed: ExpectedMiss[] } {
  const rowIds = input.rows.map((r) => entityIdentity({ name: r.name, entityType: r.entity_type, domain: r.domain ?? null, urls: r.source_urls }));
  const candidateIds = input.candidates.map(([key, c]) => ({
    key, candidate: c, identity: entityIdentity({ name: c.name, entityType: c.entityType, domain: c.domain, urls: c.sourceUrls }),
  }));
  const found: string[] = [];
  const missed: ExpectedMiss[] = [];
  for (const entry of input.expected) {
    const index = new IdentityIndex();
    index.add(identityOfNameOrDomain(entry), true);
    if (rowIds.some((id) => index.match(id))) {
      found.push(entry);
      continue;
    }
    const seen = candidateIds.filter((c) => index.match(c.identity));
    // The most telling record first: excluded, then dropped by a filter, then found but not judged in.
    const excluded = seen.find((c) => input.excluded.has(c.key));
    const dropped = seen.find((c) => input.drops.has(c.key));
    if (excluded) missed.push({ expected: entry, reason: 'excluded', name: excluded.candidate.name });
    else if (dropped) {
      const drop = input.drops.get(dropped.key)!;
      missed.push({
        expected: entry, reason: 'dropped', name: dropped.candidate.name, filter: { ...drop.filter },
        rationale: drop.rationale, passages: drop.passages.map((p) => ({ ...p })),
      });
    } else if (seen[0]) missed.push({ expected: entry, reason: 'not_judged', name: seen[0].candidate.name });
    else missed.push({ expected: entry, reason: 'never_found' });
  }
  return { expected_found: found, expected_missed: missed };
}
