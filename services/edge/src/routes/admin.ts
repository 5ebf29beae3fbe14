import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { AdminCreateAccountRequest, AdminTopupRequest, usdToMicros } from '@leadfinder/wire';
import type { AdminAccount } from '@leadfinder/wire';
import { LeadfinderError } from '@leadfinder/platform';
import type { AccountDoc } from '@leadfinder/platform';
import type { EdgeDeps } from '../deps.js';
import { bearerToken } from '../auth/authenticate.js';
import { newKeyDoc } from '../auth/keys.js';
import { buildOpenApiDocument } from '../openapi/document.js';
import { RequestValidationError, notFound, unauthenticated } from '../http/errors.js';
import { parseOrThrow } from '../http/validation.js';

const UNKNOWN_ACCOUNT = 'Unknown account';

/**
 * The admin API of the operator contract. Registered only when LEADFINDER_ADMIN_TOKEN is set (otherwise
 * `/admin/*` is simply not found).
 */
export function adminRoutes(deps: EdgeDeps, adminToken: string): FastifyPluginAsync {
  const expected = digest(adminToken);
  return async (app) => {
    app.addHook('onRequest', async (request) => {
      const token = bearerToken(request.headers.authorization);
      // Compare digests so the comparison is constant-time whatever the token lengths.
      if (token === null || !timingSafeEqual(digest(token), expected)) throw unauthenticated('Invalid admin token');
    });

    const document = buildOpenApiDocument('admin');
    app.get('/openapi.json', async () => document);

    app.post('/accounts', async (request, reply) => {
      const body = parseOrThrow(AdminCreateAccountRequest, request.body ?? {}, 'body');
      const micros = amount(body.balanceUsd, 'balanceUsd');
      const now = new Date(deps.clock.now()).toISOString();
      const account = await deps.store.accounts.create({ id: deps.ids.id('acct'), email: body.email ?? null, createdAt: now });
      if (micros > 0) await deps.billing.topup(account.id, micros, deps.ids.id('topup'));
      const { doc, key } = newKeyDoc({ id: deps.ids.id('key'), accountId: account.id, name: 'default', now });
      await deps.store.keys.insert(doc);
      const sessionToken = await deps.sessions.issue(account.id, account.sessionVersion);
      return reply.code(201).send({ id: account.id, apiKey: key, sessionToken });
    });

    app.get<{ Params: { id: string } }>('/accounts/:id', async (request) => {
      return view(await existing(request.params.id));
    });

    app.post<{ Params: { id: string } }>('/accounts/:id/topup', async (request) => {
      await existing(request.params.id);
      const body = parseOrThrow(AdminTopupRequest, request.body, 'body');
      const micros = amount(body.usd, 'usd');
      const account = await deps.billing.topup(request.params.id, micros, deps.ids.id('topup')).catch((error: unknown) => {
        if (LeadfinderError.is(error) && error.code === 'LF_ERR_INVALID_ARGUMENT') {
          throw new RequestValidationError([{ loc: ['body', 'usd'], msg: 'The resulting balance would be out of range', type: 'value_error' }]);
        }
        throw error;
      });
      if (!account) throw notFound(UNKNOWN_ACCOUNT);
      return view(account);
    });

    app.post<{ Params: { id: string } }>('/accounts/:id/sessions', async (request, reply) => {
      const account = await existing(request.params.id);
      return reply.code(201).send({ sessionToken: await deps.sessions.issue(account.id, account.sessionVersion) });
    });

    app.post<{ Params: { id: string } }>('/accounts/:id/close', async (request) => {
      await existing(request.params.id);
      await deps.store.accounts.close(request.params.id);
      return view(await existing(request.params.id));
    });

    app.delete<{ Params: { id: string } }>('/accounts/:id', async (request, reply) => {
      if (!(await deps.store.accounts.delete(request.params.id))) throw notFound(UNKNOWN_ACCOUNT);
      return reply.code(204).send();
    });
  };

  async function existing(id: string): Promise<AccountDoc> {
    const account = await deps.store.accounts.get(id);
    if (!account) throw notFound(UNKNOWN_ACCOUNT);
    return account;
  }
}

function view(account: AccountDoc): AdminAccount {
  return {
    id: account.id,
    status: account.status,
    balanceMicrousd: account.balanceMicrousd,
    heldMicrousd: account.heldMicrousd,
    availableMicrousd: account.availableMicrousd,
  };
}

/** USD (number or decimal string) to non-negative micro-USD, or the FastAPI-shaped 422. */
function amount(value: number | string, field: string): number {
  let micros: number | null = null;
  try {
    micros = usdToMicros(value);
  } catch {
    micros = null;
  }
  if (micros === null || micros < 0) {
    throw new RequestValidationError([
      { loc: ['body', field], msg: 'Input should be a non-negative USD amount', type: 'value_error' },
    ]);
  }
  return micros;
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
