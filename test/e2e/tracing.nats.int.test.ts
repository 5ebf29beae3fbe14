import { describe, it } from 'vitest';
import { silentLogger } from '@leadfinder/platform';
import { connectNats, createNatsWorkQueue } from '@leadfinder/platform/nats';
import { recordSkippedSuite, serverUrl, uniqueName } from '@leadfinder/testkit';
import { describeOneTracePerRun } from './one-trace-suite.js';

const url = await serverUrl('nats');
if (!url) recordSkippedSuite('test/e2e/tracing.nats.int.test.ts', 'nats');

if (url) {
  // The trace context crosses from edge to coordinator in the JetStream message's headers.
  describeOneTracePerRun('NATS JetStream work queue', async () => {
    const nats = await connectNats({ url, name: 'tracing-test', logger: silentLogger });
    const stream = uniqueName('TRACEWORK');
    const subject = `${stream.toLowerCase()}.runs`;
    const work = await createNatsWorkQueue({ nats, logger: silentLogger, stream, subject, durable: uniqueName('coordinators') });
    return {
      work,
      source: { system: 'nats', destination: subject },
      async close() {
        await work.close();
        await nats.jsm.streams.delete(stream).catch(() => undefined);
        await nats.close();
      },
    };
  });
} else {
  describe.skip('one trace per run over NATS (no NATS server)', () => {
    it('needs LEADFINDER_TEST_NATS_URL', () => undefined);
  });
}
