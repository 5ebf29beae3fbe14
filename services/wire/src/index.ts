/**
 * @leadfinder/wire: one zod schema for every HTTP body, SSE event and inter-service payload.
 * The server, the SDK and the tests import these same schemas.
 *
 * @example
 * import { CreateSearchRequest } from '@leadfinder/wire';
 * const body = CreateSearchRequest.parse({ q: 'fintech startups in Berlin' });
 */
export * from './rows.js';
export * from './events.js';
export * from './run.js';
export * from './http.js';
export * from './research.js';
export * from './money.js';
export * from './progress.js';
export * from './filter-spec.js';
export * from './webhooks.js';
export * from './identity.js';
