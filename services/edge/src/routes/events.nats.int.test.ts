import { afterAll, describe } from 'vitest';
import { recordSkippedSuite, serverUrl } from '@leadfinder/testkit';
import { describeEventsRoute } from '../../test/events-suite.js';
import { natsQueuePorts } from '../../test/nats-queue-ports.js';

const url = await serverUrl('nats');
if (!url) recordSkippedSuite('services/edge/src/routes/events.nats.int.test.ts', 'nats');
const nats = url ? natsQueuePorts(url) : null;
afterAll(async () => {
  await nats?.destroyAll();
});

describe.skipIf(!nats)('NATS JetStream server', () => {
  // Lazy: without a server the suite is only collected, never run.
  describeEventsRoute('on the JetStream event log', (context) => nats!.factory(context), { storedAt: (seq) => nats!.storedAt(seq) });
});
