import { describeEventsRoute } from '../../test/events-suite.js';
import { embeddedQueuePorts } from '../../test/harness.js';

describeEventsRoute('on the embedded event log', embeddedQueuePorts);
