import { afterAll, beforeAll, describe } from 'vitest';
import { silentLogger } from '@leadfinder/platform';
import { connectNats, createNatsStopFlags, createNatsWorkQueue, type NatsHandle } from '@leadfinder/platform/nats';
import { recordSkippedSuite, serverUrl, uniqueName } from '@leadfinder/testkit';
import { describeWorkQueueContract } from './work-queue-contract.js';

const url = await serverUrl('nats');
if (!url) recordSkippedSuite('services/platform/test/work-queue.nats.int.test.ts', 'nats');

let nats: NatsHandle;
beforeAll(async () => {
  if (url) nats = await connectNats({ url, name: 'work-queue-test', logger: silentLogger });
});
afterAll(async () => {
  await nats?.close();
});

describe.skipIf(!url)('NATS JetStream server', () => {
  describeWorkQueueContract('JetStream', async () => {
    const stream = uniqueName('WORK');
    const stopBucket = uniqueName('stops');
    const options = { nats, logger: silentLogger, stream, subject: `${stream.toLowerCase()}.runs`, stopBucket };
    const queue = await createNatsWorkQueue(options);
    const stopFlags = await createNatsStopFlags(options);
    return {
      queue,
      stopFlags,
      async endPulls() {
        // The server answers the durable's waiting pulls "consumer deleted" when it goes.
        await nats.jsm.consumers.delete(stream, 'coordinators').catch(() => undefined);
      },
      async close() {
        await queue.close();
        await stopFlags.close();
        await nats.jsm.streams.delete(stream);
        await nats.jsm.streams.delete(`KV_${stopBucket}`);
      },
    };
  });
});
