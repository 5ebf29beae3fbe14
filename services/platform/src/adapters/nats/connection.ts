import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { UnavailableError } from '../../errors.js';
import type { Logger } from '../../logger.js';

/** A NATS connection with its JetStream clients, shared by the NATS adapters. Adapters never close it. */
export interface NatsHandle {
  readonly nc: NatsConnection;
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  /** Round trip to the server (readiness). */
  ping(): Promise<void>;
  /** Drains: in-flight publishes and subscriptions finish, then the connection closes. */
  close(): Promise<void>;
}

export interface ConnectNatsOptions {
  /** One URL or a comma-separated list, e.g. `nats://127.0.0.1:4222`. */
  url: string;
  /** Connection name shown by the server's monitoring (the role and pod). */
  name: string;
  logger: Logger;
}

/** Connect to NATS with JetStream; reconnects forever and logs status changes. */
export async function connectNats(options: ConnectNatsOptions): Promise<NatsHandle> {
  const logger = options.logger.child({ component: 'nats' });
  let nc: NatsConnection;
  try {
    nc = await connect({
      servers: options.url.split(',').map((s) => s.trim()).filter(Boolean),
      name: options.name,
      maxReconnectAttempts: -1,
    });
  } catch (err) {
    throw new UnavailableError('nats', `cannot connect to NATS: ${String(err)}`, { cause: err });
  }
  void logStatus(nc, logger);
  let jsm: JetStreamManager;
  try {
    // Fails fast when the server runs without JetStream, rather than at the first publish.
    jsm = await jetstreamManager(nc);
  } catch (err) {
    await nc.close();
    throw new UnavailableError('nats', `JetStream unavailable: ${String(err)}`, { cause: err });
  }
  const js = jetstream(nc);
  let closing: Promise<void> | undefined;
  return {
    nc,
    js,
    jsm,
    async ping() {
      await nc.flush();
    },
    close() {
      closing ??= nc.isClosed() ? Promise.resolve() : nc.drain();
      return closing;
    },
  };
}

async function logStatus(nc: NatsConnection, logger: Logger): Promise<void> {
  for await (const status of nc.status()) {
    if (status.type === 'ping') continue;
    logger.info('nats status', { type: status.type });
  }
}
