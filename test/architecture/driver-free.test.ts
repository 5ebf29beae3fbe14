/**
 * The roles' packages and the platform core load no driver: MongoDB, NATS, gRPC and the OpenTelemetry SDK
 * are reached only through `@leadfinder/platform/<adapter>` subpaths, which the composition root imports.
 * Imports run in fresh Node processes with a resolution hook that records every module they pull in.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

const DRIVERS = /^(mongodb|bson|@grpc\/|@nats-io\/|@opentelemetry\/(sdk-|exporter-|resources)|grpc-health-check)/;
const here = new URL('.', import.meta.url).pathname;
const MARK = '\0import\t';

/**
 * The bare package specifiers resolved while importing each of `specifiers`, one after another in one
 * fresh process: a module an earlier import already loaded is listed under that one only. So one process
 * shows what the imports load together (what each loads alone is a part of it), and a package listed
 * under an import was loaded for the first time by it.
 */
function packagesLoadedBy(specifiers: string[]): Map<string, string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'lf-resolve-'));
  const log = join(dir, 'resolved.tsv');
  try {
    // The marker line goes in before each import; the hook appends the resolutions it makes.
    const script = specifiers.map((s) => `appendFileSync(${JSON.stringify(log)}, ${JSON.stringify(`${MARK}${s}\n`)}); await import(${JSON.stringify(s)});`).join('\n');
    const r = spawnSync(process.execPath, [
      '--import', 'tsx', '--import', join(here, 'register-resolution-log.mjs'),
      '--input-type=module', '-e', `import { appendFileSync } from 'node:fs';\n${script}`,
    ], { env: { ...process.env, LEADFINDER_RESOLVE_LOG: log }, encoding: 'utf8', timeout: 60_000 });
    expect(r.status, r.stderr).toBe(0);
    const loaded = new Map<string, Set<string>>();
    let current: Set<string> | undefined;
    for (const line of readFileSync(log, 'utf8').split('\n').filter(Boolean)) {
      if (line.startsWith(MARK)) loaded.set(line.slice(MARK.length), (current = new Set()));
      else {
        const specifier = line.split('\t')[0]!;
        if (!/^(\.|\/|file:|node:)/.test(specifier)) current?.add(specifier);
      }
    }
    return new Map([...loaded].map(([s, set]) => [s, [...set]]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('driver-free packages', () => {
  const DRIVER_FREE = ['@leadfinder/platform', '@leadfinder/filter', '@leadfinder/fetcher', '@leadfinder/coordinator', '@leadfinder/edge'];
  let together: Map<string, string[]>;
  beforeAll(() => {
    together = packagesLoadedBy(DRIVER_FREE);
  }, 60_000);

  it.each(DRIVER_FREE)('importing %s loads no database, messaging, RPC or telemetry-SDK driver', (specifier) => {
    const loaded = together.get(specifier) ?? [];
    expect(loaded).toContain(specifier); // the hook saw the import itself
    expect(loaded.filter((p) => DRIVERS.test(p))).toEqual([]);
  });

  // One process each: which driver a subpath loads first depends on what was imported before it.
  it.each([
    ['@leadfinder/platform/mongo', 'mongodb'], ['@leadfinder/platform/nats', '@nats-io/'],
    ['@leadfinder/platform/grpc', '@grpc/grpc-js'], ['@leadfinder/platform/telemetry', '@opentelemetry/sdk-'],
  ])('the composition root reaches its driver through %s', (subpath, driver) => {
    expect(packagesLoadedBy([subpath]).get(subpath)!.some((p) => p.startsWith(driver))).toBe(true);
  }, 60_000);
});
