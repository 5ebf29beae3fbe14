import { describeCoordinatorSuite } from './coordinator-suite.js';
import { embeddedPorts } from './ports.js';

describeCoordinatorSuite('on the embedded event log, in-process queue and flags', embeddedPorts);
