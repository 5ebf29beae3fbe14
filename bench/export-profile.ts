/**
 * `npx tsx bench/export-profile.ts <dir>`: where an exporting edge's extra CPU goes, from the CPU profiles of
 * an `--only export` run's hosts:
 *
 *   LEADFINDER_BENCH_HOST_NODE_ARGS="--cpu-prof --cpu-prof-dir=<dir>" LEADFINDER_BENCH_EXPORT_TOGETHER=1 \
 *     LEADFINDER_BENCH_EXPORT_ONLY=post npm run bench -- --only export
 *
 * For each host's main-thread profile (`*.0.001.cpuprofile`; the `.1.` ones are the loader's thread): its
 * busy time (samples not idle), the part spent under the export path (frames of the OTLP encoder and
 * processor, the OTLP transport and exporters, the metrics SDK), garbage collection, and the export path's
 * entry points. A sample counts once, under the outermost export frame of its stack; modules being loaded
 * at start-up are not counted as exporting. The profiler samples
 * on a wall clock, so on a loaded machine time spent preempted inflates every figure alike: compare shares
 * of busy time, between the two hosts of one run, rather than milliseconds between runs.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

const LOADING = /^node:internal\/modules\//;
const EXPORT_PATH = /otlp-json|otlp-proto|otlp-batch-processor|otlp-exporter-base|exporter-trace-otlp|exporter-metrics-otlp|sdk-metrics|server-metrics/;

function short(url: string): string {
  return url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(services|bench)\//, '$1/');
}

function summarise(file: string): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  /** The outermost export-path frame of a node's stack, or null. */
  const entry = new Map<number, ProfileNode | null>();
  const entryOf = (id: number): ProfileNode | null => {
    const known = entry.get(id);
    if (known !== undefined) return known;
    const node = byId.get(id)!;
    const up = parent.get(id);
    let found: ProfileNode | null;
    // Modules being loaded at start-up (the exporters' own code among them) are not exporting.
    if (LOADING.test(node.callFrame.url)) found = null;
    else if (up !== undefined && loading(up)) found = null;
    else found = (up === undefined ? null : entryOf(up)) ?? (EXPORT_PATH.test(node.callFrame.url) ? node : null);
    entry.set(id, found);
    return found;
  };
  const loadingMemo = new Map<number, boolean>();
  const loading = (id: number): boolean => {
    const known = loadingMemo.get(id);
    if (known !== undefined) return known;
    const up = parent.get(id);
    const result = LOADING.test(byId.get(id)!.callFrame.url) || (up !== undefined && loading(up));
    loadingMemo.set(id, result);
    return result;
  };
  let busy = 0;
  let gc = 0;
  let exporting = 0;
  const entries = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    const { functionName } = byId.get(id)!.callFrame;
    if (functionName === '(idle)') return;
    busy += us;
    if (functionName === '(garbage collector)') gc += us;
    const top = entryOf(id);
    if (!top) return;
    exporting += us;
    const name = `${top.callFrame.functionName || '(top level)'} ${short(top.callFrame.url)}`;
    entries.set(name, (entries.get(name) ?? 0) + us);
  });
  const ms = (us: number) => `${(us / 1000).toFixed(0)} ms`;
  const pct = (us: number) => `${((100 * us) / busy).toFixed(2)} %`;
  const lines = [`${file}: busy ${ms(busy)}, export path ${ms(exporting)} (${pct(exporting)}), GC ${pct(gc)}`];
  for (const [name, us] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, 6)) lines.push(`  ${ms(us).padStart(8)}  ${name}`);
  return lines.join('\n');
}

const dir = process.argv[2];
if (!dir) {
  console.error('usage: npx tsx bench/export-profile.ts <dir of .cpuprofile files>');
  process.exit(2);
}
for (const name of readdirSync(dir).filter((f) => f.endsWith('.0.001.cpuprofile')).sort()) console.log(summarise(join(dir, name)));
