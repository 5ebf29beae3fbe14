import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { TestProject } from 'vitest/node';
import { isRunSetup } from './run-setup.js';
import { SERVE_BUNDLE_ENV } from './serve-bin.js';

/**
 * vitest global setup: compiles the service once per test run with deploy/build.mjs, the build the
 * production image runs (`node dist/leadfinder.mjs serve`), and hands its path to the test files in
 * LEADFINDER_TEST_SERVE_BUNDLE (test/support/serve-bin.ts). A `leadfinder serve` child started from
 * the bundle is ready in about 2 CPU-seconds; through the TypeScript launcher (tsx) it takes about 3.5.
 *
 * The bundle is kept under node_modules/.cache (there its third-party imports resolve in node_modules,
 * as in the image) in a folder named by a hash of everything the build reads: every file of the
 * workspaces, the TypeScript configuration, the lockfile and the build script. A change to any of them
 * gives another name, so a stale bundle is never used; an unchanged tree reuses the last build.
 */
const ROOT = process.cwd();
const CACHE = join(ROOT, 'node_modules', '.cache', 'leadfinder-test-serve');
/**
 * Builds kept, the most recently used first: another vitest run (another source tree state) may still be
 * using one. By count, not age: a run under a moved clock (libfaketime) would find every build old.
 */
const KEEP_BUILDS = 8;

function filesUnder(dir: string, out: string[]): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) filesUnder(path, out);
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

/** Hash of the build's inputs: paths and contents, in a fixed order. */
export function sourcesHash(): string {
  const files = [
    ...filesUnder(join(ROOT, 'services'), []),
    ...['tsconfig.json', 'tsconfig.base.json', 'package.json', 'package-lock.json', 'deploy/build.mjs'].map((f) => join(ROOT, f)).filter((f) => existsSync(f)),
  ].sort();
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

/** The bundle for the current sources: reused when already built, else built (into a temporary folder, then renamed). */
export async function serveBundle(): Promise<string> {
  const dir = join(CACHE, sourcesHash());
  const bin = join(dir, 'leadfinder.mjs');
  if (!existsSync(bin)) {
    mkdirSync(CACHE, { recursive: true });
    const building = `${dir}.building-${process.pid}`;
    const { buildImage } = (await import(join(ROOT, 'deploy', 'build.mjs'))) as { buildImage(outdir: string): Promise<string[]> };
    await buildImage(building);
    try {
      renameSync(building, dir);
    } catch {
      // Another vitest run built the same sources at the same moment; its folder is as good as ours.
      rmSync(building, { recursive: true, force: true });
    }
  }
  const now = new Date();
  utimesSync(dir, now, now);
  prune(dir);
  return bin;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Removes all but the KEEP_BUILDS most recently used builds (never `current`), and builds left half-done by a process that is gone. */
function prune(current: string): void {
  const builds: { path: string; usedAt: number }[] = [];
  for (const name of readdirSync(CACHE)) {
    const path = join(CACHE, name);
    const builder = /\.building-(\d+)$/.exec(name);
    if (builder) {
      if (!alive(Number(builder[1]))) rmSync(path, { recursive: true, force: true });
    } else if (path !== current) {
      // Another vitest run may be pruning too: a build gone meanwhile is skipped.
      const usedAt = statSync(path, { throwIfNoEntry: false })?.mtimeMs;
      if (usedAt !== undefined) builds.push({ path, usedAt });
    }
  }
  builds.sort((a, b) => b.usedAt - a.usedAt);
  for (const { path } of builds.slice(KEEP_BUILDS - 1)) rmSync(path, { recursive: true, force: true });
}

export default async function setup(project: TestProject): Promise<void> {
  // LEADFINDER_TEST_SERVE=launcher: children run the TypeScript sources through tsx, no build (to compare).
  if (process.env.LEADFINDER_TEST_SERVE === 'launcher' || !isRunSetup(project)) return;
  process.env[SERVE_BUNDLE_ENV] = await serveBundle();
  // Watch mode: sources edited between reruns get a fresh bundle.
  project.onTestsRerun?.(async () => {
    process.env[SERVE_BUNDLE_ENV] = await serveBundle();
  });
}
