import type { FastifyPluginAsync } from 'fastify';
import type { Billing, Clock, Config, EventLog, IdempotencyStore, Ids, Logger, StopFlags, Store, WorkQueue } from '@leadfinder/platform';
import type { SessionSigner } from './auth/sessions.js';
import type { WebhookService } from './webhooks/index.js';

/** Tunables that are not configuration (tests shorten them). */
export interface EdgeOptions {
  /** Keepalive comment interval on event streams; must stay ≤ 15 s. @default 15000 */
  sseKeepaliveMs?: number;
  /** A whole request (headers and body) must arrive within this (408 otherwise). @default 30000 */
  requestTimeoutMs?: number;
  /** A connection with no traffic at all for this long is closed. @default 60000 */
  idleTimeoutMs?: number;
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
  /**
   * Idempotency-Key records of `POST /v1/searches` (the store's sibling: embedded or MongoDB). Without
   * one the edge keeps them in memory, which holds for one process only.
   */
  idempotency?: IdempotencyStore;
  /** Signed webhooks (`webhook` of a search, `/api/webhooks`); without it neither is served. */
  webhooks?: WebhookService;
  sessions: SessionSigner;
  /** The web page plugin, registered at the root (owned by the web role). */
  web?: FastifyPluginAsync;
  /** Extra readiness check (e.g. false while draining on SIGTERM); throw when not ready. */
  ready?: () => Promise<void>;
  options?: EdgeOptions;
}
