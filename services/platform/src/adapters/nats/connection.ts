import { readFileSync } from 'node:fs';
import { connect, credsAuthenticator, type NatsConnection, type NodeConnectionOptions } from '@nats-io/transport-node';
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
  /** Credentials: a .creds file (JWT and NKey seed), a user and password, or a token. @default none */
  auth?: { credsFile?: string | undefined; user?: string | undefined; password?: string | undefined; token?: string | undefined };
  /** TLS: a CA bundle that verifies the server; a client certificate and key for mutual TLS. @default none (a tls:// URL still uses TLS, with the system roots) */
  tls?: { caFile?: string | undefined; certFile?: string | undefined; keyFile?: string | undefined };
}

/** The credential and TLS half of the connection options. */
function securityOptions(options: ConnectNatsOptions): Partial<NodeConnectionOptions> {
  const { credsFile, user, password, token } = options.auth ?? {};
  const { caFile, certFile, keyFile } = options.tls ?? {};
  const tlsUrl = options.url.split(',').some((s) => s.trim().startsWith('tls://'));
  return {
    // Read at every (re)connect, so a rotated creds file in a mounted Secret is picked up.
    ...(credsFile ? { authenticator: credsAuthenticator(() => readFileSync(credsFile)) } : {}),
    ...(user ? { user, pass: password ?? '' } : {}),
    ...(token ? { token } : {}),
    ...(caFile || certFile || keyFile || tlsUrl
      ? { tls: { ...(caFile ? { caFile } : {}), ...(certFile ? { certFile } : {}), ...(keyFile ? { keyFile } : {}) } }
      : {}),
  };
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
      ...securityOptions(options),
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
