import { silentLogger } from '@leadfinder/platform';
import { createInProcessStopFlags, createInProcessWorkQueue } from '@leadfinder/platform/embedded';
import { describeWorkQueueContract } from './work-queue-contract.js';

describeWorkQueueContract('in-process', async () => {
  const queue = createInProcessWorkQueue({ logger: silentLogger });
  const stopFlags = createInProcessStopFlags();
  return {
    queue,
    stopFlags,
    async close() {
      await queue.close();
      await stopFlags.close();
    },
  };
});
