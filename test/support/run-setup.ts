import type { TestProject } from 'vitest/node';

/**
 * Whether a global setup call is the run's own. vitest calls the root config's `globalSetup` once for the
 * root project and once more for every project that inherits it (`extends: true`), all before the first
 * test file: each inheriting call would build nothing new but start another shared server the files never
 * use (the root's call, made last, sets the environment they read). So the setups act for the root only.
 */
export function isRunSetup(project: TestProject): boolean {
  return project.isRootProject();
}
