/**
 * Looks inside one split's fake web without running the service:
 *
 *   npx tsx test/devset/inspect.ts --split dev                       # pages per shape and per host
 *   npx tsx test/devset/inspect.ts --split dev --search "fintech San Francisco" [--pageno 2]
 *   npx tsx test/devset/inspect.ts --split test --page https://venturedb.example/company/stripe
 *   npx tsx test/devset/inspect.ts --gold c01                       # a query's gold set (yes and maybe)
 *   npx tsx test/devset/inspect.ts --queries                         # every query: id, split, kind, gold sizes
 */
import { parseArgs } from 'node:util';
import { DEVSET_DAY, KIND_SITES } from './harness.js';
import { buildWeb, type Shape, type Split } from './pages.js';
import { allQueries, goldSet, targetFor } from './queries.js';
import { loadEntities } from './records.js';
import { createDevSearchIndex } from './search-index.js';

const { values } = parseArgs({
  options: {
    split: { type: 'string', default: 'dev' },
    search: { type: 'string' },
    pageno: { type: 'string', default: '1' },
    page: { type: 'string' },
    gold: { type: 'string' },
    queries: { type: 'boolean', default: false },
    /** Only these of the split's page shapes (comma-separated). */
    shapes: { type: 'string' },
  },
});

async function main(): Promise<void> {
  const entities = loadEntities();
  if (values.queries) {
    for (const q of allQueries()) {
      const gold = goldSet(q, entities);
      console.log(`${q.id}  ${q.split.padEnd(4)}  ${q.kind.padEnd(10)}  yes ${String(gold.yes.length).padStart(2)}  maybe ${String(gold.maybe.length).padStart(2)}  target ${String(targetFor(gold)).padStart(2)}  ${q.q}`);
    }
    return;
  }
  if (values.gold) {
    const q = allQueries().find((x) => x.id === values.gold);
    if (!q) throw new Error(`no query ${values.gold}`);
    const gold = goldSet(q, entities);
    console.log(`${q.id} (${q.split}) "${q.q}" target ${targetFor(gold)}`);
    console.log(`yes (${gold.yes.length}): ${gold.yes.map((e) => e.name).join('; ')}`);
    console.log(`maybe (${gold.maybe.length}): ${gold.maybe.map((e) => e.name).join('; ')}`);
    return;
  }
  const shapes = values.shapes ? { shapes: values.shapes.split(',').map((s) => s.trim()) as Shape[] } : {};
  const pages = buildWeb(KIND_SITES, entities, { split: values.split as Split, day: DEVSET_DAY, ...shapes });
  const index = createDevSearchIndex(pages);
  if (values.search) {
    const hits = await index.search({ query: values.search, domains: [], publishedAfter: null, page: Number(values.pageno), limit: 10 });
    for (const h of hits) console.log(`${String(h.rank).padStart(3)}  ${h.url}  [${h.publishedAt}]\n     ${h.title}\n     ${h.snippet}`);
    return;
  }
  if (values.page) {
    const page = pages.find((p) => p.url === values.page || p.url === `${values.page}/`);
    if (!page) throw new Error(`no page ${values.page} in the ${values.split} web`);
    console.log(page.html);
    return;
  }
  const byShape = new Map<string, number>();
  const byHost = new Map<string, number>();
  for (const p of pages) {
    byShape.set(p.shape, (byShape.get(p.shape) ?? 0) + 1);
    const host = new URL(p.url).hostname;
    byHost.set(host, (byHost.get(host) ?? 0) + 1);
  }
  console.log(`${values.split} web: ${pages.length} pages on ${byHost.size} hosts`);
  for (const [shape, n] of byShape) console.log(`  ${shape}: ${n}`);
  for (const [host, n] of [...byHost].filter(([, n]) => n > 1)) console.log(`  ${host}: ${n} pages`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
