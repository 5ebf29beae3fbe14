import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { defineConfig } from 'vitest/config';
import { SlowFirstSequencer } from './test/support/slow-first-sequencer.js';

/**
 * Suites whose subject is timing under real processes (a stop within seconds, leases of a few seconds
 * that must not lapse under load) with a whole fleet of their own: they run after the others, one at a
 * time, so no other test file competes with them for the two cores.
 */
const ALONE = ['test/e2e/distributed.test.ts', 'test/e2e/coordinators-under-load.test.ts'];

/**
 * What a test file may not share a process with other files for: OpenTelemetry's global providers (set
 * by a provider's register(), the API's setGlobal* calls and startTelemetry) and the SDK packages that
 * install them or the instrumentations (which patch a driver only if they load before it, so
 * `instrumentations: true` counts too), fake timers (unless the test file restores the real ones), module
 * mocks, process.env and a service started in process (which starts telemetry). The OpenTelemetry packages
 * that set nothing when imported (the API, core, resources, the span and metric SDKs used without
 * register(), the OTLP codec) do not count, nor does createInMemoryTelemetry: it replaces whatever an
 * earlier file left installed, and our code looks its tracers and meters up when it uses them.
 */
const OTEL_WITHOUT_GLOBALS = "(?:api|core|resources|sdk-trace-base|sdk-metrics|semantic-conventions|otlp-transformer)['/]";
const PROCESS_STATE = new RegExp([
  `from '@opentelemetry\\/(?!${OTEL_WITHOUT_GLOBALS})`, `import\\('@opentelemetry\\/(?!${OTEL_WITHOUT_GLOBALS})`,
  '\\.register\\(\\)', '\\b(?:trace|context|propagation|metrics)\\.(?:setGlobal\\w*|disable)\\(',
  'instrumentations: true', 'startTelemetry', 'startService\\(', 'installFakeClock', 'vi\\.(?:mock|doMock|stubEnv|stubGlobal)',
  'process\\.env\\.\\w+\\s*=[^=]', 'process\\.env\\[[^\\]]+\\]\\s*=[^=]', 'delete process\\.env',
].join('|'));

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules') return [];
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

/** Whether a test file, or a test helper it imports (relative imports under a test/ folder, followed), touches PROCESS_STATE. */
function touchesProcessState(file: string, seen = new Set<string>()): boolean {
  if (seen.has(file)) return false;
  const testFile = seen.size === 0;
  seen.add(file);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return false;
  }
  if (PROCESS_STATE.test(text)) return true;
  // vitest's fake timers outlive the file in a shared process unless the test file itself puts the real
  // ones back (a helper that installs them cannot tell whether its callers restore them).
  if (/useFakeTimers/.test(text) && !(testFile && /vi\.useRealTimers\(\)/.test(text))) return true;
  return [...text.matchAll(/from '(\.{1,2}\/[^']+)'/g)]
    .map((m) => normalize(join(dirname(file), m[1]!.replace(/\.js$/, '.ts'))))
    .filter((helper) => helper.split('/').includes('test'))
    .some((helper) => touchesProcessState(helper, seen));
}

/**
 * The test files that can share a worker process (vitest's isolate: false), many files to a
 * process instead of a fresh process per file. A fresh process imports the module graph again (zod
 * schemas, the NLP lexicon and gazetteer, fastify, drivers) for every file: over the 102 files of
 * services/, 156 CPU-seconds isolated against 79 shared (load ~9). Files that touch PROCESS_STATE keep a
 * process of their own, in the 'parallel' project.
 */
const SHARED = [...filesUnder('services'), ...filesUnder('test')]
  .filter((f) => f.endsWith('.test.ts') && !ALONE.includes(f) && !touchesProcessState(f)).sort();

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits up to 10 s (vitest's default is 1 s): on two shared cores a page or a server can take
    // longer than a second to show what it already does; a passing poll returns as soon as it holds.
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    sequence: { sequencer: SlowFirstSequencer },
    // Compiles the service once per run (reused while the sources are unchanged): test children start
    // `leadfinder serve` from the bundle the image runs, 2 CPU-seconds a start instead of 3.5 through tsx.
    // Then starts the one embedded server the files that need no other settings share (test/support/shared-server.ts).
    globalSetup: ['test/support/serve-bundle.global.ts', 'test/support/nats-store-keeper.global.ts', 'test/support/shared-server.global.ts'],
    reporters: ['default'],
    projects: [
      {
        extends: true,
        // First, with 'parallel' beside it: one pool of three workers takes the files of both (vitest gives a
        // group one maxWorkers). Most files wait on processes and servers they start, so two workers left
        // about 40 % of two cores idle; a third took the vitest wall time from 275 s to 246 s here (quiet
        // machine, 1,502 tests, 2026-11-26). A shared worker runs its files one after another in one process.
        test: { name: 'shared', include: SHARED, isolate: false, maxWorkers: 3, sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        test: {
          name: 'parallel',
          include: ['services/*/src/**/*.test.ts', 'services/*/test/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: ['**/node_modules/**', ...ALONE, ...SHARED],
          // In the first group, in the same pool as 'shared' (so the same maxWorkers): run after it, in a
          // group of their own (two workers), these small files left a third of two cores idle for half a
          // minute, each fork mostly importing; beside it they fill the gaps its files leave while they
          // wait (vitest wall time 213 s → 206 s here, quiet machine, 1,669 tests, 2026-11-27). Suites
          // sharing the real NATS and MongoDB-wire servers use names unique per run (uniqueName); suites
          // whose processes use the production stream names start a nats-server of their own.
          maxWorkers: 3,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        // One process for both files, one after the other (each starts and stops its own fleet): a second
        // fork would import the same drivers and helpers again while nothing else runs.
        test: { name: 'alone', include: ALONE, isolate: false, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
