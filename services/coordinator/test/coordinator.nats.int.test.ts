import { afterAll, describe } from 'vitest';
import { recordSkippedSuite, serverUrl } from '@leadfinder/testkit';
import { describeCoordinatorSuite } from './coordinator-suite.js';
import { describeInterruptionSuite } from './interruptions-suite.js';
import { natsPorts } from './ports.js';

const url = await serverUrl('nats');
if (!url) recordSkippedSuite('services/coordinator/test/coordinator.nats.int.test.ts', 'nats');
// Streams, the durable consumer and the stop bucket are named per harness and deleted when it closes.
const ports = url ? natsPorts(url) : null;
afterAll(async () => {
  await ports?.destroyAll();
});

describe.skipIf(!ports)('NATS JetStream server', () => {
  describeCoordinatorSuite('on the JetStream event log, work queue and stop flags', ports!);
  describeInterruptionSuite('on the JetStream event log, work queue and stop flags', ports!);
});
