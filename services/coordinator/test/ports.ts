import { type EventLog, type Logger, type StopFlags, type WorkQueue } from '@leadfinder/platform';
import { createEmbeddedEventLog, createInProcessStopFlags, createInProcessWorkQueue } from '@leadfinder/platform/embedded';
import { connectNats, createNatsEventLog, createNatsStopFlags, createNatsWorkQueue, type NatsHandle } from '@leadfinder/platform/nats';
import { uniqueName } from '@leadfinder/testkit';

/** One process's handles on the shared event log, work queue and stop flags. */
export interface ProcessPorts {
  events: EventLog;
  work: WorkQueue;
  stops: StopFlags;
  /** Orderly close of this process's handles. */
  close(): Promise<void>;
  /** Drops this process's connections at once, as SIGKILL would: nothing is drained or acked. */
  sever(): Promise<void>;
}

/** The shared backing of one harness: the embedded objects, or a set of JetStream streams and a bucket. */
export interface PortsBacking {
  /** Another process's view of the same log, queue and flags (its own connection on JetStream). */
  open(): Promise<ProcessPorts>;
  /**
   * Ends the coordinators' pulls in progress at once, before they are stopped (else each stop waits out its
   * pull, a second on JetStream); only where the queue has pulls.
   */
  endPulls?(): Promise<void>;
  /** Work messages still in the queue (not acked); only where the adapter can tell. */
  backlog?(): Promise<number>;
  /** Closes what open() handed out and removes the streams and buckets. */
  destroy(): Promise<void>;
}

export type PortsFactory = (context: { dataDir: string; logger: Logger }) => Promise<PortsBacking>;

/** Embedded log in the data dir, in-process queue and flags: one set, shared by every "process". */
export const embeddedPorts: PortsFactory = async ({ dataDir, logger }) => {
  const events = await createEmbeddedEventLog({ dataDir, logger });
  const work = createInProcessWorkQueue({ logger });
  const stops = createInProcessStopFlags();
  const shared: ProcessPorts = { events, work, stops, close: async () => undefined, sever: async () => undefined };
  return {
    open: async () => shared,
    async destroy() {
      await work.close();
      await stops.close();
      await events.close();
    },
  };
};

/**
 * JetStream adapters on the real server at `url`, on streams, a durable and a bucket named for this
 * backing alone. Every open() is a new connection, like another replica.
 */
export function natsPorts(url: string): PortsFactory & { destroyAll(): Promise<void> } {
  const live = new Set<PortsBacking>();
  const factory: PortsFactory = async ({ logger }) => {
    const base = uniqueName('coord');
    const names = {
      eventsStream: `${base}_EVENTS`.toUpperCase(),
      subjectPrefix: `${base}_events`,
      workStream: `${base}_WORK`.toUpperCase(),
      workSubject: `${base}.work`,
      durable: `${base}_coordinators`,
      stopBucket: `${base}_stops`,
    };
    const admin = await connectNats({ url, name: `${base}-admin`, logger });
    const opened: ProcessPorts[] = [];
    const backing: PortsBacking = {
      async open() {
        const nats = await connectNats({ url, name: `${base}-${opened.length + 1}`, logger });
        const ports = await openOn(nats, names, logger);
        opened.push(ports);
        return ports;
      },
      async endPulls() {
        // The server answers the durable's waiting pulls "consumer deleted" when it goes.
        await admin.jsm.consumers.delete(names.workStream, names.durable).catch(() => undefined);
      },
      async backlog() {
        return (await admin.jsm.streams.info(names.workStream)).state.messages;
      },
      async destroy() {
        live.delete(backing);
        await Promise.allSettled(opened.map((p) => p.close()));
        for (const stream of [names.eventsStream, names.workStream, `KV_${names.stopBucket}`]) {
          await admin.jsm.streams.delete(stream).catch(() => undefined);
        }
        await admin.close();
      },
    };
    live.add(backing);
    return backing;
  };
  return Object.assign(factory, {
    /** For afterAll: removes whatever a failed test left behind. */
    async destroyAll() {
      await Promise.allSettled([...live].map((b) => b.destroy()));
    },
  });
}

interface NatsNames {
  eventsStream: string;
  subjectPrefix: string;
  workStream: string;
  workSubject: string;
  durable: string;
  stopBucket: string;
}

async function openOn(nats: NatsHandle, names: NatsNames, logger: Logger): Promise<ProcessPorts> {
  const events = await createNatsEventLog({ nats, logger, stream: names.eventsStream, subjectPrefix: names.subjectPrefix });
  const options = { nats, logger, stream: names.workStream, subject: names.workSubject, durable: names.durable, stopBucket: names.stopBucket };
  const work = await createNatsWorkQueue(options);
  const stops = await createNatsStopFlags(options);
  return {
    events,
    work,
    stops,
    async close() {
      await work.close();
      await stops.close();
      await events.close();
      await nats.close();
    },
    async sever() {
      // close(), not drain(): unacked work stays with the server and is redelivered after its ack wait.
      if (!nats.nc.isClosed()) await nats.nc.close();
    },
  };
}
