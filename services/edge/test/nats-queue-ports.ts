import { silentLogger } from '@leadfinder/platform';
import { connectNats, createNatsEventLog, createNatsStopFlags, createNatsWorkQueue, type NatsHandle } from '@leadfinder/platform/nats';
import { uniqueName } from '@leadfinder/testkit';
import type { QueuePorts, QueuePortsFactory } from './harness.js';

interface Opened {
  nats: NatsHandle;
  eventsStream: string;
  streams: string[];
}

/**
 * JetStream event log, work queue and stop flags on the real server at `url`, each harness on its own
 * connection and on streams, a durable and a bucket named for it alone; closing the harness deletes them.
 */
export function natsQueuePorts(url: string) {
  const live = new Map<QueuePorts, Opened>();
  let latest: Opened | undefined;

  const destroy = async (opened: Opened) => {
    for (const stream of opened.streams) await opened.nats.jsm.streams.delete(stream).catch(() => undefined);
    await opened.nats.close();
  };

  const factory: QueuePortsFactory = async () => {
    const base = uniqueName('edge');
    const eventsStream = `${base}_EVENTS`.toUpperCase();
    const workStream = `${base}_WORK`.toUpperCase();
    const stopBucket = `${base}_stops`;
    const nats = await connectNats({ url, name: base, logger: silentLogger });
    const opened: Opened = { nats, eventsStream, streams: [eventsStream, workStream, `KV_${stopBucket}`] };
    const events = await createNatsEventLog({ nats, logger: silentLogger, stream: eventsStream, subjectPrefix: `${base}_events` });
    const options = { nats, logger: silentLogger, stream: workStream, subject: `${base}.work`, durable: `${base}_coordinators`, stopBucket };
    const work = await createNatsWorkQueue(options);
    const stops = await createNatsStopFlags(options);
    const ports: QueuePorts = {
      events, work, stops,
      async close() {
        live.delete(ports);
        await Promise.allSettled([events.close(), work.close(), stops.close()]);
        await destroy(opened);
      },
    };
    live.set(ports, opened);
    latest = opened;
    return ports;
  };

  return {
    factory,
    /** The stored stream message at `seq` in the event stream opened last. */
    async storedAt(seq: number): Promise<{ subject: string; event: unknown } | null> {
      if (!latest) return null;
      const msg = await latest.nats.jsm.streams.getMessage(latest.eventsStream, { seq });
      return msg ? { subject: msg.subject, event: msg.json() } : null;
    },
    /** For afterAll: removes whatever a failed harness left behind. */
    async destroyAll() {
      await Promise.allSettled([...live.keys()].map((p) => p.close()));
    },
  };
}
