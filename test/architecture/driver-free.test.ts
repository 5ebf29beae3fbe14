/**
 * The roles' packages and the platform core load no driver: MongoDB, NATS, gRPC and the OpenTelemetry SDK
 * are reached only through `@leadfinder/platform/<adapter>` subpaths, which the composition root imports.
 * Each import runs in a fresh Node process with a resolution hook that records every module it pulls in.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const DRIVERS = /^(mongodb|bson|@grpc\/|@nats-io\/|@opentelemetry\/(sdk-|exporter-|resources)|grpc-health-check)/;
const here = new URL('.', import.meta.url).pathname;

/** Every bare package specifier that importing `specifier` resolved, in a fresh process. */
function packagesLoadedBy(specifier: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'lf-resolve-'));
  const log = join(dir, 'resolved.tsv');
  try {
    const r = spawnSync(process.execPath, [
      '--import', 'tsx', '--import', join(here, 'register-resolution-log.mjs'),
      '--input-type=module', '-e', `await import(${JSON.stringify(specifier)});`,
    ], { env: { ...process.env, LEADFINDER_RESOLVE_LOG: log }, encoding: 'utf8', timeout: 60_000 });
    expect(r.status, r.stderr).toBe(0);
    const specifiers = readFileSync(log, 'utf8').split('\n').filter(Boolean).map((line) => line.split('\t')[0]!);
    return [...new Set(specifiers.filter((s) => !s.startsWith('.') && !s.startsWith('/') && !s.startsWith('file:') && !s.startsWith('node:')))];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('driver-free packages', () => {
  it.each(['@leadfinder/platform', '@leadfinder/filter', '@leadfinder/fetcher', '@leadfinder/coordinator', '@leadfinder/edge'])(
    'importing %s loads no database, messaging, RPC or telemetry-SDK driver', (specifier) => {
      const loaded = packagesLoadedBy(specifier);
      expect(loaded).toContain(specifier); // the hook saw the import itself
      expect(loaded.filter((p) => DRIVERS.test(p))).toEqual([]);
    }, 60_000);

  it.each([
    ['@leadfinder/platform/mongo', 'mongodb'], ['@leadfinder/platform/nats', '@nats-io/'],
    ['@leadfinder/platform/grpc', '@grpc/grpc-js'], ['@leadfinder/platform/telemetry', '@opentelemetry/sdk-'],
  ])('the composition root reaches its driver through %s', (subpath, driver) => {
    expect(packagesLoadedBy(subpath).some((p) => p.startsWith(driver))).toBe(true);
  }, 60_000);
});
