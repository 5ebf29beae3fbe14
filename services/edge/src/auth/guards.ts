import type { AccountDoc } from '@leadfinder/platform';
import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { RateLimitedError, forbidden, internal, unauthenticated } from '../http/errors.js';
import type { RateLimiter } from '../http/rate-limit.js';
import { authenticateCaller, authenticateSession } from './authenticate.js';
import type { AuthDeps, CallerFailure, SessionFailure } from './authenticate.js';
import { assertNever } from '@leadfinder/platform';

/**
 * onRequest hooks: authentication runs before body parsing and before any run lookup, then the
 * per-account rate limit (only authenticated calls spend tokens; every key and session of one account
 * draws on the same budget, so more keys buy no more requests).
 */
export function searchCallerGuard(deps: AuthDeps, limiter: RateLimiter): onRequestAsyncHookHandler {
  return async (request) => {
    const result = await authenticateCaller(deps, request.headers.authorization);
    if (!result.ok) throw callerFailure(result.reason);
    limit(limiter, result.account.id);
    request.caller = result.account;
  };
}

export function sessionGuard(deps: AuthDeps, limiter: RateLimiter): onRequestAsyncHookHandler {
  return async (request) => {
    const result = await authenticateSession(deps, request.headers.authorization);
    if (!result.ok) throw sessionFailure(result.reason);
    limit(limiter, result.account.id);
    request.caller = result.account;
  };
}

export function callerOf(request: FastifyRequest): AccountDoc {
  if (!request.caller) throw internal();
  return request.caller;
}

function limit(limiter: RateLimiter, accountId: string): void {
  const wait = limiter.take(`account:${accountId}`);
  if (wait !== null) throw new RateLimitedError(wait);
}

function callerFailure(reason: CallerFailure) {
  switch (reason) {
    case 'missing':
      return unauthenticated('Missing credentials');
    case 'invalid':
      return unauthenticated('Invalid credentials');
    case 'disabled':
      return forbidden('Account disabled');
    case 'lookup_failed':
      return internal('Internal server error');
    default:
      return assertNever(reason);
  }
}

function sessionFailure(reason: SessionFailure) {
  switch (reason) {
    case 'missing':
      return unauthenticated('Missing bearer token');
    case 'invalid_token':
      return unauthenticated('Invalid token');
    case 'unknown_user':
      return unauthenticated('Unknown user');
    case 'deleted':
      return forbidden('Account is deleted');
    case 'lookup_failed':
      return internal('Internal server error');
    default:
      return assertNever(reason);
  }
}
