import type { FastifyPluginAsync } from 'fastify';
import { CreateWebhookEndpointRequest } from '@leadfinder/wire';
import type { CreatedWebhookEndpoint, WebhookDelivery, WebhookDeliveryList, WebhookEndpoint, WebhookEndpointList, WebhookSecret } from '@leadfinder/wire';
import type { WebhookDeliveryDoc, WebhookEndpointDoc } from '@leadfinder/platform';
import type { EdgeDeps } from '../deps.js';
import type { WebhookService } from '../webhooks/index.js';
import { SECRET_OVERLAP_MS, newWebhookSecret, webhookUrlProblem } from '../webhooks/index.js';
import { callerOf } from '../auth/guards.js';
import { ApiError, RequestValidationError, notFound } from '../http/errors.js';
import { parseOrThrow } from '../http/validation.js';

/** Endpoints an account may register: each one is sent every run's events. */
export const ENDPOINTS_PER_ACCOUNT = 20;
const DELIVERIES_LISTED = 100;
export const UNKNOWN_ENDPOINT = 'Webhook endpoint not found';

/**
 * `/api/webhooks`: an account's default webhook endpoints (`/endpoints`), their secrets, the request-webhook
 * secret (`/request-secret`) and the deliveries made (`/deliveries`). Behind
 * the session-only guard, like `/api/keys`: whoever can manage keys can manage where results are sent.
 */
export function webhookRoutes(deps: EdgeDeps, service: WebhookService): FastifyPluginAsync {
  const store = service.store;
  return async (app) => {
    app.post('/endpoints', async (request, reply) => {
      const account = callerOf(request);
      const body = parseOrThrow(CreateWebhookEndpointRequest, request.body, 'body');
      const problem = webhookUrlProblem(body.url, deps.config);
      if (problem) throw new RequestValidationError([{ loc: ['body', 'url'], msg: `Value error, ${problem}`, type: 'value_error' }]);
      // Checked, then inserted: two creations racing at the cap may both pass, which the cap tolerates.
      if ((await store.endpoints.listForAccount(account.id)).length >= ENDPOINTS_PER_ACCOUNT) {
        throw new ApiError('LF_ERR_CONFLICT', `Too many webhook endpoints: an account may have ${ENDPOINTS_PER_ACCOUNT}; delete one first`);
      }
      const doc: WebhookEndpointDoc = {
        id: deps.ids.id('whep'), accountId: account.id, url: body.url, events: body.events ?? ['search.finished'],
        secret: newWebhookSecret(), previous: null, createdAt: new Date(deps.clock.now()).toISOString(),
      };
      await store.endpoints.insert(doc);
      const answer: CreatedWebhookEndpoint = { ...toEndpoint(doc), secret: doc.secret };
      return reply.code(201).send(answer);
    });

    app.get('/endpoints', async (request) => {
      const account = callerOf(request);
      const answer: WebhookEndpointList = { endpoints: (await store.endpoints.listForAccount(account.id)).map(toEndpoint) };
      return answer;
    });

    app.get<{ Querystring: { run?: string } }>('/deliveries', async (request) => {
      const account = callerOf(request);
      const runId = typeof request.query.run === 'string' ? request.query.run : undefined;
      const list = await store.deliveries.listForAccount(account.id, { runId, limit: DELIVERIES_LISTED });
      const answer: WebhookDeliveryList = { deliveries: list.map(toDelivery) };
      return answer;
    });

    // The secret that signs the requests' own `webhook.url` deliveries (one per account, made on first use).
    app.get('/request-secret', async (request) => {
      const account = callerOf(request);
      const answer: WebhookSecret = { secret: (await store.requestSecret(account.id, newWebhookSecret())).secret };
      return answer;
    });

    // The old secret keeps signing too for a day (a second signature), so receivers can switch without a gap.
    app.post('/request-secret/rotate', async (request) => {
      const account = callerOf(request);
      const current = await store.requestSecret(account.id, newWebhookSecret());
      const secret = newWebhookSecret();
      await store.setRequestSecret(account.id, { secret, previous: { secret: current.secret, until: deps.clock.now() + SECRET_OVERLAP_MS } });
      const answer: WebhookSecret = { secret };
      return answer;
    });

    app.post<{ Params: { id: string } }>('/endpoints/:id/rotate-secret', async (request) => {
      const account = callerOf(request);
      const endpoint = await store.endpoints.get(request.params.id);
      if (endpoint?.accountId !== account.id) throw notFound(UNKNOWN_ENDPOINT);
      const secret = newWebhookSecret();
      const previous = { secret: endpoint.secret, until: deps.clock.now() + SECRET_OVERLAP_MS };
      if (!(await store.endpoints.setSecret(account.id, endpoint.id, secret, previous))) throw notFound(UNKNOWN_ENDPOINT);
      const answer: WebhookSecret = { secret };
      return answer;
    });

    app.delete<{ Params: { id: string } }>('/endpoints/:id', async (request, reply) => {
      const account = callerOf(request);
      if (!(await store.endpoints.delete(account.id, request.params.id))) throw notFound(UNKNOWN_ENDPOINT);
      return reply.code(204).send();
    });
  };
}

function toEndpoint(doc: WebhookEndpointDoc): WebhookEndpoint {
  return { id: doc.id, url: doc.url, events: doc.events, createdAt: doc.createdAt };
}

function toDelivery(doc: WebhookDeliveryDoc): WebhookDelivery {
  return {
    id: doc.id, runId: doc.runId, endpointId: doc.endpointId, url: doc.url, type: doc.type, status: doc.status,
    attempts: doc.attempts, lastError: doc.lastError, createdAt: doc.createdAt, nextAttemptAt: doc.nextAttemptAt, deliveredAt: doc.deliveredAt,
  };
}
