import type { FastifyPluginAsync } from 'fastify';
import type { Billing, Clock, Config, EventLog, Ids, Logger, StopFlags, Store, WorkQueue } from '@leadfinder/platform';
import type { SessionSigner } from './auth/sessions.js';

/** Tunables that are not configuration (tests shorten them). */
export interface EdgeOptions {
  /** Keepalive comment interval on event streams; must stay ≤ 15 s. @default 15000 */
  sseKeepaliveMs?: number;
}

/** Everything the edge needs, built by the entry point (embedded or distributed adapters alike). */
export interface EdgeDeps {
  config: Config;
  logger: Logger;
  clock: Clock;
  ids: Ids;
  store: Store;
  events: EventLog;
  work: WorkQueue;
  stops: StopFlags;
  billing: Billing;
  sessions: SessionSigner;
  /** The web page plugin, registered at the root (owned by the web role). */
  web?: FastifyPluginAsync;
  /** Extra readiness check (e.g. false while draining on SIGTERM); throw when not ready. */
  ready?: () => Promise<void>;
  options?: EdgeOptions;
}
