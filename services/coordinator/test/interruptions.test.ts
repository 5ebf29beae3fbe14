import { describeInterruptionSuite } from './interruptions-suite.js';
import { embeddedPorts } from './ports.js';
import { fakeTime } from './fake-time.js';

// Fake timers: leases lapse, deadlines pass and reapers run in milliseconds. The JetStream suite
// (coordinator.nats.int.test.ts) runs the same tests on real time, end to end.
describeInterruptionSuite('on the embedded event log, in-process queue and flags', embeddedPorts, () => fakeTime());
