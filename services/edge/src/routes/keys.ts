import type { FastifyPluginAsync } from 'fastify';
import { CreateKeyRequest } from '@leadfinder/wire';
import type { CreatedKey, KeySummary } from '@leadfinder/wire';
import type { KeyDoc } from '@leadfinder/platform';
import type { EdgeDeps } from '../deps.js';
import { callerOf } from '../auth/guards.js';
import { newKeyDoc } from '../auth/keys.js';
import { ApiError, badRequest, notFound } from '../http/errors.js';
import { parseOrThrow } from '../http/validation.js';

/** `/api/keys` (spec §4.6, operator contract "Credentials and keys"); behind the session-only guard. */
export function keyRoutes(deps: EdgeDeps): FastifyPluginAsync {
  return async (app) => {
    app.post('/', async (request, reply) => {
      const account = callerOf(request);
      const { name } = parseOrThrow(CreateKeyRequest, request.body, 'body');
      if (name.trim() === '') throw badRequest('name is required');
      // A cap on live keys: each one is another long-lived secret to leak. Checked, then inserted: two
      // creations racing at the cap may both pass, which the cap tolerates.
      const cap = deps.config.LEADFINDER_KEYS_PER_ACCOUNT;
      if ((await deps.store.keys.listForAccount(account.id)).length >= cap) {
        throw new ApiError('LF_ERR_CONFLICT', `Too many keys: an account may have ${cap}; revoke one first`);
      }
      const now = new Date(deps.clock.now()).toISOString();
      const { doc, key } = newKeyDoc({ id: deps.ids.id('key'), accountId: account.id, name, now });
      await deps.store.keys.insert(doc);
      const answer: CreatedKey = { id: doc.id, name: doc.name, key, prefix: doc.prefix, createdAt: doc.createdAt };
      return reply.code(201).send(answer);
    });

    app.get('/', async (request) => {
      const account = callerOf(request);
      const keys = await deps.store.keys.listForAccount(account.id);
      return { keys: keys.filter((k) => k.revokedAt === null).map(toSummary) };
    });

    app.delete<{ Params: { id: string } }>('/:id', async (request, reply) => {
      const account = callerOf(request);
      const revoked = await deps.store.keys.revoke(account.id, request.params.id, new Date(deps.clock.now()).toISOString());
      if (!revoked) throw notFound('Key not found');
      return reply.code(204).send();
    });
  };
}

function toSummary(key: KeyDoc): KeySummary {
  return { id: key.id, name: key.name, prefix: key.prefix, createdAt: key.createdAt, lastUsedAt: key.lastUsedAt };
}
