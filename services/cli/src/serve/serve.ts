import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildAdminApp, buildEdgeApp, createSessionSigner, createWebhookService, createWebPlugin, signInMethod } from '@leadfinder/edge';
import { createCoordinator } from '@leadfinder/coordinator';
import { devSignInRefusal, randomIds, systemClock } from '@leadfinder/platform';
import { MetricsListenError, startTelemetry } from '@leadfinder/platform/telemetry';
import type { Config, Logger, Role } from '@leadfinder/platform';
import { ensureDataDir, openInfrastructure, StartupError } from './adapters.js';
import type { Infrastructure } from './adapters.js';
import { startHealthServer, listenError } from './health-server.js';
import { localFetcher, localFilter, openResearchPorts } from './research.js';
import { serveFetcher } from './fetcher-rpc.js';
import { serveFilter } from './filter-rpc.js';

export interface RunningService {
  /** Where the public HTTP API listens (edge and all-in-one). */
  url: string | null;
  /** Graceful stop, in dependency order (see below). */
  stop(): Promise<void>;
}

/**
 * Starts one role (or every role in one process for `all`). Stop order, and why:
 * 1. readiness goes false and the HTTP edge stops accepting, draining in-flight requests;
 * 2. the coordinator stops taking work (runs in flight lapse and are found by another replica);
 * 3. gRPC servers finish in-flight calls; 4. adapters close (messaging, then storage); 5. telemetry flushes.
 */
export async function startService(config: Config, role: Role, logger: Logger): Promise<RunningService> {
  const telemetry = await startTelemetry({ serviceName: config.OTEL_SERVICE_NAME ?? `leadfinder-${role}`, role, logger, config })
    .catch((error: unknown) => {
      // A taken metrics port is reported like a taken PORT: one line naming the variable.
      throw error instanceof MetricsListenError ? listenError(error.cause, error.host, error.port, 'LEADFINDER_METRICS_PORT') : error;
    });
  const stops: (() => Promise<void>)[] = [];
  let draining = false;
  const stopAll = async () => {
    draining = true;
    for (const stop of stops) {
      await stop().catch((error: unknown) => logger.warn('stop step failed', { error: String(error) }));
    }
    await telemetry.shutdown().catch(() => undefined);
  };

  try {
    const refusal = devSignInRefusal(config, role);
    if (refusal) throw new StartupError(refusal);
    if (role === 'fetcher' || role === 'filter') {
      const grpc = role === 'fetcher'
        ? await serveFetcher({ port: config.LEADFINDER_GRPC_PORT, host: config.HOST, fetcher: await localFetcher(config, logger), logger })
        : await serveFilter({ port: config.LEADFINDER_GRPC_PORT, host: config.HOST, filter: await localFilter(config, logger), logger });
      stops.push(() => grpc.stop());
      const health = await startHealthServer({ host: config.HOST, port: config.LEADFINDER_HEALTH_PORT, ready: async () => !draining, logger });
      stops.unshift(() => health.stop());
      logger.info(`${role} serving gRPC`, { port: grpc.port });
      return { url: null, stop: stopAll };
    }

    if (role !== 'all' && (!config.LEADFINDER_NATS_URL || !config.LEADFINDER_MONGODB_URL)) {
      throw new StartupError(`${!config.LEADFINDER_NATS_URL ? 'LEADFINDER_NATS_URL' : 'LEADFINDER_MONGODB_URL'}: required when the ${role} runs as a separate service`);
    }
    const infra: Infrastructure = await openInfrastructure(config, logger, role === 'all');
    stops.push(() => infra.close());
    const ready = async () => {
      if (draining) return false;
      await Promise.all([infra.store.ping(), infra.events.ping(), infra.work.ping()]);
      return true;
    };

    if (role === 'all' || role === 'coordinator') {
      const research = await openResearchPorts(config, logger);
      const coordinator = createCoordinator({
        config, logger: logger.child({ role: 'coordinator' }), clock: systemClock, ids: randomIds,
        store: infra.store, events: infra.events, work: infra.work, stops: infra.stops, billing: infra.billing,
        fetcher: research.fetcher, filter: research.filter,
        instanceId: `coordinator-${randomBytes(4).toString('hex')}`,
        // The in-process queue does not survive a restart: accepted runs nobody claimed are queued again.
        requeueUnclaimedOnStart: infra.mode.messaging === 'embedded',
      });
      await coordinator.start();
      stops.unshift(async () => {
        await coordinator.stop();
        await research.close();
      });
      if (role === 'coordinator') {
        const health = await startHealthServer({ host: config.HOST, port: config.LEADFINDER_HEALTH_PORT, ready, logger });
        stops.unshift(() => health.stop());
        logger.info('coordinator started');
        return { url: null, stop: stopAll };
      }
    }

    const secret = await sessionSecret(config, role);
    const sessions = createSessionSigner({ secret, ttlSeconds: config.LEADFINDER_SESSION_TTL_S });
    const web = createWebPlugin({
      config, logger: logger.child({ role: 'web' }), clock: systemClock, store: infra.store, billing: infra.billing, sessions, secret,
    });
    // Webhooks are watched and sent by the edge (why: services/edge/src/webhooks/service.ts).
    const webhooks = createWebhookService({
      config, logger: logger.child({ role: 'webhooks' }), clock: systemClock, store: infra.store, events: infra.events,
      webhooks: infra.webhooks, watchQueue: infra.webhookWatch, deliveryQueue: infra.webhookDeliveries,
    });
    // The in-process queues do not survive a restart: open watches and pending deliveries are queued again.
    await webhooks.start({ requeue: infra.mode.messaging === 'embedded' });
    stops.unshift(() => webhooks.stop());
    const app = await buildEdgeApp({
      config, logger: logger.child({ role: 'edge' }), clock: systemClock, ids: randomIds,
      store: infra.store, events: infra.events, work: infra.work, stops: infra.stops, billing: infra.billing,
      idempotency: infra.idempotency, webhooks, sessions, web, ready: async () => { if (!(await ready())) throw new Error('draining'); },
    });
    try {
      await app.listen({ host: config.HOST, port: config.PORT });
    } catch (error) {
      throw listenError(error, config.HOST, config.PORT, 'PORT');
    }
    stops.unshift(() => app.close());
    if (config.LEADFINDER_ADMIN_PORT !== undefined && config.LEADFINDER_ADMIN_TOKEN) {
      // The admin API on its own listener (buildEdgeApp leaves /admin out when this port is set).
      const admin = await buildAdminApp({
        config, logger: logger.child({ role: 'admin' }), clock: systemClock, ids: randomIds,
        store: infra.store, events: infra.events, work: infra.work, stops: infra.stops, billing: infra.billing, sessions,
      }, config.LEADFINDER_ADMIN_TOKEN);
      try {
        await admin.listen({ host: config.HOST, port: config.LEADFINDER_ADMIN_PORT });
      } catch (error) {
        throw listenError(error, config.HOST, config.LEADFINDER_ADMIN_PORT, 'LEADFINDER_ADMIN_PORT');
      }
      stops.unshift(() => admin.close());
      logger.info('admin API listening apart from the public port', { port: config.LEADFINDER_ADMIN_PORT });
    }
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.PORT;
    const url = `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${port}`;
    logger.info('leadfinder ready', { url, role, storage: infra.mode.storage, messaging: infra.mode.messaging });
    const signIn = signInMethod(config);
    const signInLine = {
      oidc: `web sign-in: OpenID Connect (${config.LEADFINDER_OIDC_ISSUER})`,
      development: 'web sign-in: DEVELOPMENT sign-in (an email, no password; loopback only)',
      none: 'web sign-in: none (no LEADFINDER_OIDC_ISSUER); API keys come from the admin API',
    }[signIn];
    if (signIn === 'development') logger.warn(signInLine, { signIn });
    else logger.info(signInLine, { signIn });
    return { url, stop: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** The session-signing secret: configured, or (all-in-one only) created once and kept in the data dir. */
async function sessionSecret(config: Config, role: Role): Promise<string> {
  if (config.LEADFINDER_SESSION_SECRET) return config.LEADFINDER_SESSION_SECRET;
  if (role !== 'all') throw new StartupError('LEADFINDER_SESSION_SECRET: required when the edge runs as a separate service');
  const file = join(await ensureDataDir(config.LEADFINDER_DATA_DIR), 'session-secret');
  let kept: string | null = null;
  try {
    kept = (await readFile(file, 'utf8')).trim();
  } catch {
    const secret = randomBytes(32).toString('base64url');
    await writeFile(file, secret + '\n', { mode: 0o600 });
    return secret;
  }
  // The same rule as for a configured secret: a short one can be guessed offline.
  if (Buffer.byteLength(kept, 'utf8') < 32) {
    throw new StartupError(`LEADFINDER_SESSION_SECRET: the secret kept in ${file} is shorter than 32 bytes; delete the file to have a new one made`);
  }
  return kept;
}
