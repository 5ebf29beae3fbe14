/**
 * @leadfinder/coordinator: one actor per run. It leases the run, drives the research pipeline through
 * the fetcher and filter ports, meters spend against the ceiling, emits the run's events, honours stop,
 * deadline and lease loss, and settles the hold when the run becomes terminal.
 *
 * @example
 * import { createCoordinator } from '@leadfinder/coordinator';
 * const coordinator = createCoordinator({ config, logger, clock, store, events, work, stops, billing,
 *   fetcher, filter, instanceId: 'coordinator-0' });
 * await coordinator.start();
 * // … on SIGTERM:
 * await coordinator.stop();
 */
export { createCoordinator } from './service/coordinator.js';
export { DEFAULT_DRIVE_TUNING } from './run/session.js';

export type { Coordinator, CoordinatorOptions } from './service/coordinator.js';
export type { DriveTuning } from './run/session.js';
export type { ResearchTimeouts } from './activities/research.js';
export type { WorkSource } from './activities/tracing.js';
