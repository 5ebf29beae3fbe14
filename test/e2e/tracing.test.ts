import { silentLogger } from '@leadfinder/platform';
import { createInProcessWorkQueue } from '@leadfinder/platform/embedded';
import { describeOneTracePerRun } from './one-trace-suite.js';

describeOneTracePerRun('in-process work queue', async () => {
  const work = createInProcessWorkQueue({ logger: silentLogger });
  return { work, source: { system: 'inprocess', destination: 'work.runs' }, close: () => work.close() };
});
