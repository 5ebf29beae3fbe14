import { describeInterruptionSuite } from './interruptions-suite.js';
import { embeddedPorts } from './ports.js';

describeInterruptionSuite('on the embedded event log, in-process queue and flags', embeddedPorts);
