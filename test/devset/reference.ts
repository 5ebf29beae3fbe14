/**
 * A reference bar, not the product: a plain keyword matcher that sends the query text to the fake search
 * engine, reads the first `depth` results, and returns the entity of every single-entity page among them
 * (the entity a page is about is known here, so this is retrieval alone, with perfect reading). If the
 * engine scores below it, reading and judging pages cost more than they gave.
 *
 *   npx tsx test/devset/reference.ts [--split dev] [--depth 30]
 */
import { parseArgs } from 'node:util';
import { DEVSET_DAY, KIND_SITES, summarise, type QueryResult } from './harness.js';
import { buildWeb, type Split } from './pages.js';
import { allQueries, goldSet, targetFor } from './queries.js';
import { loadEntities } from './records.js';
import { EntityMatcher, scoreQuery } from './score.js';
import { createDevSearchIndex } from './search-index.js';

export async function keywordReference(split: Split, depth: number): Promise<QueryResult[]> {
  const entities = loadEntities();
  const byKey = new Map(entities.map((e) => [e.key, e]));
  const pages = buildWeb(KIND_SITES, entities, { split, day: DEVSET_DAY });
  const pageByUrl = new Map(pages.map((p) => [p.url, p]));
  const index = createDevSearchIndex(pages);
  const results: QueryResult[] = [];
  for (const query of allQueries().filter((q) => q.split === split)) {
    const gold = goldSet(query, entities);
    const target = targetFor(gold);
    const hits = [];
    for (let page = 1; hits.length < depth; page++) {
      const more = await index.search({ query: query.q, domains: [], publishedAfter: null, page, limit: 10 });
      hits.push(...more);
      if (more.length < 10) break;
    }
    const rows: { name: string; source_urls: string[] }[] = [];
    const seen = new Set<string>();
    for (const hit of hits.slice(0, depth)) {
      const page = pageByUrl.get(hit.url);
      if (!page || page.entities.length !== 1) continue;
      const e = byKey.get(page.entities[0]!)!;
      if (e.kind !== query.kind || seen.has(e.key) || rows.length >= target) continue;
      seen.add(e.key);
      rows.push({ name: e.name, source_urls: [hit.url] });
    }
    const matcher = new EntityMatcher(entities.filter((e) => e.kind === query.kind));
    results.push({
      id: query.id, q: query.q, kind: query.kind, split, target, status: 'done', seconds: 0, chargedUsd: 0, usage: null,
      gold: { yes: gold.yes.map((e) => e.name), maybe: gold.maybe.map((e) => e.name) },
      rows: rows.map((r) => ({ ...r, grounded: true, matched: r.name, why: [] })),
      score: scoreQuery(rows, gold, matcher, target),
      groundingProblems: [], plan: null, error: null,
    });
  }
  return results;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { split: { type: 'string', default: 'all' }, depth: { type: 'string', default: '30' } } });
  const splits: Split[] = values.split === 'all' ? ['dev', 'test'] : [values.split as Split];
  for (const split of splits) {
    const results = await keywordReference(split, Number(values.depth));
    const s = summarise(split, results);
    console.log(`keyword reference (top ${values.depth} results, single-entity pages) ${split}: precision ${s.meanPrecision.toFixed(3)} recall ${s.meanRecall.toFixed(3)} F1 ${s.f1.toFixed(3)}`);
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
