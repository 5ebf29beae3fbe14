import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The TypeScript launcher (registers tsx, runs the sources as they are): the development path. */
export const TS_LAUNCHER = join(process.cwd(), 'services', 'cli', 'bin', 'leadfinder.mjs');

/** Set by test/support/serve-bundle.global.ts to the compiled bundle built for this test run. */
export const SERVE_BUNDLE_ENV = 'LEADFINDER_TEST_SERVE_BUNDLE';

/**
 * The entry point a test starts a healthy `leadfinder serve` child with: under vitest, the compiled
 * bundle of the current sources, exactly what the production image runs (`node dist/leadfinder.mjs
 * serve`); it is ready in about 2 CPU-seconds instead of 3.5 through tsx. Anywhere else (a script run
 * with tsx), the TypeScript launcher.
 */
export function serveBin(): string {
  const bundle = process.env[SERVE_BUNDLE_ENV];
  if (!bundle || process.env.LEADFINDER_TEST_SERVE === 'launcher') return TS_LAUNCHER;
  if (!existsSync(bundle)) throw new Error(`${SERVE_BUNDLE_ENV} names ${bundle}, which does not exist`);
  return bundle;
}
