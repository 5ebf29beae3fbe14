/** Precision and recall of returned rows against expected names, matched on a normalised name. */
export interface Score {
  precision: number;
  recall: number;
  truePositives: string[];
  falsePositives: string[];
  missed: string[];
}

export function normaliseName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/^(dr|prof)\.?\s+/, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * Empty expected and empty rows score 1/1 (nothing to find, nothing wrongly found). Duplicate rows for one
 * entity count once as found and the rest as false positives.
 */
export function scoreRows(expected: readonly string[], rows: readonly { name: string }[]): Score {
  const want = new Set(expected.map(normaliseName));
  const found = new Set<string>();
  const truePositives: string[] = [];
  const falsePositives: string[] = [];
  for (const row of rows) {
    const key = normaliseName(row.name);
    if (want.has(key) && !found.has(key)) {
      found.add(key);
      truePositives.push(row.name);
    } else falsePositives.push(row.name);
  }
  const missed = expected.filter((n) => !found.has(normaliseName(n)));
  return {
    precision: rows.length === 0 ? (want.size === 0 ? 1 : 0) : truePositives.length / rows.length,
    recall: want.size === 0 ? 1 : truePositives.length / want.size,
    truePositives,
    falsePositives,
    missed,
  };
}
