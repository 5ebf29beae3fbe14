import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['services/*/src/**/*.test.ts', 'services/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two files at a time, one per core (vitest's default here is cores - 1 = 1). Many files spend much
    // of their time waiting on processes they start and on the real servers, so a second worker overlaps
    // those waits; a third only added contention on two cores and pushed start-ups past their timeouts. Suites
    // sharing the real NATS and MongoDB-wire servers use names unique per run (uniqueName); suites whose
    // processes use the production stream names start a nats-server of their own.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
