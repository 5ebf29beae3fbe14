import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger, type EventLog } from '@leadfinder/platform';
import { connectNats, createNatsEventLog, type NatsHandle } from '@leadfinder/platform/nats';
import { recordSkippedSuite, serverUrl, uniqueName } from '@leadfinder/testkit';
import { describeEventLogContract, newRunId, statusEvent } from './event-log-contract.js';

const url = await serverUrl('nats');
if (!url) recordSkippedSuite('services/platform/test/event-log.nats.int.test.ts', 'nats');

let nats: NatsHandle;
beforeAll(async () => {
  if (url) nats = await connectNats({ url, name: 'event-log-test', logger: silentLogger });
});
afterAll(async () => {
  await nats?.close();
});

/** A log on its own stream and subject prefix; closing it deletes the stream. */
async function makeLog(options?: { retentionMs?: number }) {
  const stream = uniqueName('EVENTS');
  const log = await createNatsEventLog({ nats, logger: silentLogger, stream, subjectPrefix: stream.toLowerCase(), retentionMs: options?.retentionMs });
  return Object.assign(Object.create(log) as EventLog, {
    stream,
    async close() {
      await log.close();
      await nats.jsm.streams.delete(stream);
    },
  });
}

describe.skipIf(!url)('NATS JetStream server', () => {
  describeEventLogContract('JetStream', makeLog);

  it('returns the JetStream stream sequence of the stored message as the seq', async () => {
    const log = await makeLog();
    try {
      const a = newRunId();
      await log.append(newRunId(), statusEvent(a, 'other run'), 'other:1');
      const event = statusEvent(a, 'hello');
      const seq = await log.append(a, event, `${a}:1`);
      const stored = await nats.jsm.streams.getMessage(log.stream, { seq });
      expect(stored?.subject).toBe(`${log.stream.toLowerCase()}.${a}.events`);
      expect(stored?.json()).toEqual(event);
      expect(stored?.header.get('Nats-Msg-Id')).toBe(`${a}:1`);
      const info = await nats.jsm.streams.info(log.stream);
      expect(info.state.last_seq).toBe(seq);
      expect(info.config.max_age).toBe(24 * 60 * 60 * 1e9);
    } finally {
      await log.close();
    }
  });

  it('adds the end-marker subject to a stream made before markers existed, and keeps its events', async () => {
    const stream = uniqueName('EVENTS');
    const prefix = stream.toLowerCase();
    await nats.jsm.streams.add({ name: stream, subjects: [`${prefix}.*.events`], allow_direct: true });
    const a = newRunId();
    const before = statusEvent(a, 'before markers');
    await nats.js.publish(`${prefix}.${a}.events`, JSON.stringify(before), { msgID: `${a}:1` });
    const log = await createNatsEventLog({ nats, logger: silentLogger, stream, subjectPrefix: prefix });
    try {
      const marker = await log.end(a);
      const stored = await nats.jsm.streams.getMessage(stream, { seq: marker });
      expect(stored?.subject).toBe(`${prefix}.${a}.end`);
      expect(await log.read(a, 0)).toEqual([{ seq: 1, event: before }]);
      const seen: unknown[] = [];
      for await (const item of log.follow(a, 0, new AbortController().signal)) seen.push(item);
      expect(seen).toEqual([{ seq: 1, event: before }]);
    } finally {
      await log.close();
      await nats.jsm.streams.delete(stream);
    }
  });
});
