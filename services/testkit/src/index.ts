/**
 * @leadfinder/testkit: fixtures for tests against real servers (MongoDB-wire, NATS JetStream).
 *
 * @example
 * const url = await serverUrl('nats');
 * describe.skipIf(!url)('JetStream event log', () => { ... });
 */
export { serverUrl, toolPath, serversRequired, recordSkippedSuite, stopStartedServers, uniqueName, SKIPPED_SUITES_FILE } from './servers.js';
export type { ServerKind, ToolKind } from './servers.js';
export { clockEnv, withoutClockEnv } from './clock-env.js';
