import { relative } from 'node:path';
import { BaseSequencer } from 'vitest/node';
import type { TestSpecification } from 'vitest/node';

/**
 * Seconds each of the longest test files took in a full run on this machine (2 cores, 2026-11-27): the
 * order a checkout without vitest's results cache (a fresh clone, CI's first round) starts them in. A file
 * not listed, or listed wrongly, only runs later than it could; a cached duration takes precedence.
 */
const EXPECTED_SECONDS: Record<string, number> = {
  'test/e2e/money.test.ts': 39,
  'test/devset/quality-floors.test.ts': 24,
  'test/readme/readme.test.ts': 24,
  'test/browser/web.test.ts': 23,
  'test/e2e/startup.test.ts': 13,
  'test/openapi/schemathesis.test.ts': 12,
  'test/e2e/webhooks-distributed.test.ts': 11,
  'test/architecture/driver-free.test.ts': 11,
  'services/cli/src/client-commands.test.ts': 10,
  'services/coordinator/test/coordinator.nats.int.test.ts': 9,
  'services/client/test/client.int.test.ts': 8,
  'services/platform/test/store.mongo.int.test.ts': 7,
  'services/client/test/pack.test.ts': 7,
  'services/platform/test/work-queue.nats.int.test.ts': 7,
  'test/openapi/validators.test.ts': 7,
  'services/platform/test/work-queue.embedded.test.ts': 6,
  'test/e2e/compiled-image.test.ts': 6,
  'test/e2e/deployment.test.ts': 6,
  'test/helm/gitops.test.ts': 6,
  'services/filter/src/domain/gazetteer-index.test.ts': 5,
  'test/devset/harness.test.ts': 5,
  'services/cli/test/pack.test.ts': 5,
  'test/e2e/nats-leftovers.test.ts': 5,
};

/**
 * Runs the longest files first (the longest-processing-time rule: the short ones fill the workers' gaps
 * at the end instead of one long file running alone), and in each group the files that share worker
 * processes before the files that get a process each (small, mostly imports: the best gap fillers).
 *
 * vitest's own order runs isolated projects first and, without its results cache, larger files first:
 * on a fresh clone that started the 35-second money suite 33 s in and ended with one or two cores busy
 * (vitest 206.9 s here, against 196.8 s with the cache of an earlier run). Projects stay in blocks: a
 * worker that switches project restarts (tried interleaved: 224 s).
 */
export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { cache, config } = this.ctx;
    // Each file's cache entries are looked up once, not in every comparison.
    const facts = new Map(files.map((file) => {
      const path = relative(config.root, file.moduleId);
      const key = `${file.project.name}:${path}`;
      const cached = cache.getFileTestResults(key);
      const failed = cached?.failed ?? false;
      const expectedMs = cached && !failed ? cached.duration : (EXPECTED_SECONDS[path] ?? 0) * 1000;
      return [file, { failed, expectedMs, size: cache.getFileStats(key)?.size ?? 0 }] as const;
    }));
    return [...files].sort((a, b) => {
      const fa = facts.get(a)!;
      const fb = facts.get(b)!;
      return a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder
        || Number(a.project.config.isolate) - Number(b.project.config.isolate)
        || (a.project.name < b.project.name ? -1 : a.project.name > b.project.name ? 1 : 0)
        // A file that failed last time first, as vitest does: its result comes soonest.
        || Number(fb.failed) - Number(fa.failed)
        || fb.expectedMs - fa.expectedMs
        || fb.size - fa.size;
    });
  }
}
