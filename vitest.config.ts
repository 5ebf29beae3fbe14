import { defineConfig } from 'vitest/config';

/**
 * Suites whose subject is timing under real processes (a stop within seconds, leases of a few seconds
 * that must not lapse under load) with a whole fleet of their own: they run after the others, one at a
 * time, so no other test file competes with them for the two cores.
 */
const ALONE = ['test/e2e/distributed.test.ts', 'test/e2e/coordinators-under-load.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Compiles the service once per run (reused while the sources are unchanged): test children start
    // `leadfinder serve` from the bundle the image runs, 2 CPU-seconds a start instead of 3.5 through tsx.
    globalSetup: ['test/support/serve-bundle.global.ts'],
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'parallel',
          include: ['services/*/src/**/*.test.ts', 'services/*/test/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: ['**/node_modules/**', ...ALONE],
          // Two files at a time, one per core (vitest's default here is cores - 1 = 1). Many files spend
          // much of their time waiting on processes they start and on the real servers, so a second worker
          // overlaps those waits; a third only added contention on two cores and pushed start-ups past
          // their timeouts. Suites sharing the real NATS and MongoDB-wire servers use names unique per run
          // (uniqueName); suites whose processes use the production stream names start a nats-server of their own.
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: { name: 'alone', include: ALONE, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
