import { z } from 'zod';
import {
  AdminAccount, AdminCreateAccountRequest, AdminCreatedAccount, AdminSession, AdminTopupRequest, CreateKeyRequest,
  CreateSearchAccepted, CreateSearchRequest, CreatedKey, ErrorBody, InsufficientBalanceBody, KeyList, RunEvent, RunList,
  RunRecord, StopAccepted, ValidationErrorBody,
} from '@leadfinder/wire';

/**
 * The OpenAPI 3.1 document, generated from the same zod schemas the routes use (JSON Schema 2020-12 is
 * OpenAPI 3.1's own dialect, so zod's output is used as is).
 */
type Json = Record<string, unknown>;

export const HealthBody = z.object({ status: z.literal('ok') });

function schema(s: z.ZodType, io: 'input' | 'output' = 'output'): Json {
  const { $schema: _drop, ...rest } = z.toJSONSchema(s, { io, unrepresentable: 'any' }) as Json;
  return rest;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (name: string, description: string) => ({ description, content: { 'application/json': { schema: ref(name) } } });
const err = (description: string) => json('ErrorBody', description);

const common = {
  401: err('`Missing credentials` or `Invalid credentials`.'),
  403: err('`Account disabled`.'),
  429: err('`Too many requests`; see the Retry-After header.'),
  500: err('`Internal server error`.'),
};
const keyAuth = {
  401: err('`Missing bearer token`, `Invalid token` or `Unknown user`.'),
  403: err('`Account is deleted`.'),
  429: err('`Too many requests`; see the Retry-After header.'),
};
const adminAuth = { 401: err('`Invalid admin token`.') };
const unknownAccount = { 404: err('`Unknown account`.') };
const validation = (description: string) => json('ValidationErrorBody', description);
const idParam = (description: string) => ({ name: 'id', in: 'path', required: true, schema: { type: 'string' }, description });
const bearer = [{ bearer: [] }];
const admin = [{ adminToken: [] }];

const SSE_DESCRIPTION = [
  'Server-sent events. Each frame is a line `id: <seq>`, a line `data: <json>` and a blank line; the JSON is',
  'one of the event objects below, its kind in the `type` field (no `event:` or `retry:` lines). Lines',
  'starting with `:` are keepalives. Resume with `?since=<seq>` or `Last-Event-ID: <seq>` (the query wins).',
  'The stream closes once the run is terminal and every event was sent; closing it never stops the run.',
].join(' ');

/**
 * `public`: what `/openapi.json` serves to anyone: the search, key and probe endpoints, nothing of the
 * admin API (its paths would map the operator's attack surface). `admin`: everything, served at
 * `/admin/openapi.json` to the admin token only.
 */
export function buildOpenApiDocument(audience: 'public' | 'admin' = 'public'): Json {
  const full = buildFullDocument();
  if (audience === 'admin') return full;
  const components = full.components as { securitySchemes: Json; schemas: Json };
  const { adminToken: _adminScheme, ...securitySchemes } = components.securitySchemes;
  const schemas = Object.fromEntries(Object.entries(components.schemas).filter(([name]) => !name.startsWith('Admin')));
  const paths = Object.fromEntries(Object.entries(full.paths as Json).filter(([path]) => !path.startsWith('/admin')));
  return { ...full, components: { ...components, securitySchemes, schemas }, paths };
}

function buildFullDocument(): Json {
  const events = RunEvent.options.map((o) => schema(o));
  return {
    openapi: '3.1.0',
    info: { title: 'leadfinder', version: '1.0.0', description: 'Asynchronous web-research API.' },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'API key (`lf_live_…`) or session token (`eyJ…`).' },
        adminToken: { type: 'http', scheme: 'bearer', description: 'LEADFINDER_ADMIN_TOKEN.' },
      },
      schemas: {
        CreateSearchRequest: schema(CreateSearchRequest, 'input'),
        CreateSearchAccepted: schema(CreateSearchAccepted),
        RunRecord: schema(RunRecord),
        RunList: schema(RunList),
        StopAccepted: schema(StopAccepted),
        RunEvent: { oneOf: events, discriminator: { propertyName: 'type' } },
        ErrorBody: schema(ErrorBody),
        ValidationErrorBody: schema(ValidationErrorBody),
        InsufficientBalanceBody: schema(InsufficientBalanceBody),
        CreateKeyRequest: schema(CreateKeyRequest, 'input'),
        CreatedKey: schema(CreatedKey),
        KeyList: schema(KeyList),
        AdminCreateAccountRequest: schema(AdminCreateAccountRequest, 'input'),
        AdminCreatedAccount: schema(AdminCreatedAccount),
        AdminAccount: schema(AdminAccount),
        AdminTopupRequest: schema(AdminTopupRequest, 'input'),
        AdminSession: schema(AdminSession),
        Health: schema(HealthBody),
      },
    },
    paths: {
      '/v1/searches': {
        post: {
          summary: 'Start a search (reserves 5.00 USD)',
          security: bearer,
          requestBody: { required: true, content: { 'application/json': { schema: ref('CreateSearchRequest') } } },
          responses: {
            202: json('CreateSearchAccepted', 'Accepted and funds reserved.'),
            400: err('`Empty query`.'),
            ...common,
            402: json('InsufficientBalanceBody', 'The balance cannot cover the reservation; nothing started.'),
            413: err('Body larger than 64 KiB.'),
            415: err('Body is not JSON.'),
            422: validation('Invalid body (q length, target range, types, sites count, malformed JSON).'),
            500: err('`Internal server error` or `The reservation for this search could not be opened.`'),
          },
        },
        get: {
          summary: "The caller's 50 newest runs, newest first",
          security: bearer,
          responses: { 200: json('RunList', 'Runs without `result`.'), ...common },
        },
      },
      '/v1/searches/{id}': {
        get: {
          summary: 'One run record',
          security: bearer,
          parameters: [idParam('Run id (32 hex).')],
          responses: { 200: json('RunRecord', 'The run.'), ...common, 404: err('`Unknown search.`') },
        },
      },
      '/v1/searches/{id}/stop': {
        post: {
          summary: 'Raise the stop flag',
          security: bearer,
          parameters: [idParam('Run id.')],
          responses: { 202: json('StopAccepted', 'Status when the flag was raised.'), ...common, 404: err('`Unknown search.`') },
        },
      },
      '/v1/searches/{id}/events': {
        get: {
          summary: 'Event stream of a run',
          security: bearer,
          parameters: [
            idParam('Run id.'),
            { name: 'since', in: 'query', required: false, schema: { type: 'integer', minimum: 0 }, description: 'Send only events after this sequence.' },
            { name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'integer', minimum: 0 }, description: 'Same cursor as `since`.' },
          ],
          responses: {
            200: { description: SSE_DESCRIPTION, content: { 'text/event-stream': { schema: ref('RunEvent') } } },
            ...common,
            404: err('`Unknown search.`'),
            422: validation('`since` is not a non-negative integer.'),
            429: err('`Too many requests`, or `Too many open event streams: …` when the account holds its cap of open streams; see Retry-After.'),
          },
        },
      },
      '/api/keys': {
        post: {
          summary: 'Create an API key (session token only)',
          security: bearer,
          requestBody: { required: true, content: { 'application/json': { schema: ref('CreateKeyRequest') } } },
          responses: {
            201: json('CreatedKey', 'The key value, shown this once.'),
            400: err('`name is required`.'),
            ...keyAuth,
            409: err('`Too many keys: …`: the account has its cap of live keys; revoke one first.'),
            422: validation('`name` missing, empty or longer than 100 characters.'),
          },
        },
        get: { summary: 'List live API keys', security: bearer, responses: { 200: json('KeyList', 'Keys.'), ...keyAuth } },
      },
      '/api/keys/{id}': {
        delete: {
          summary: 'Revoke an API key',
          security: bearer,
          parameters: [idParam('Key id.')],
          responses: { 204: { description: 'Revoked.' }, ...keyAuth, 404: err('`Key not found`.') },
        },
      },
      '/admin/accounts': {
        post: {
          summary: 'Create an account with a balance, a first API key and a session token',
          security: admin,
          requestBody: { required: false, content: { 'application/json': { schema: ref('AdminCreateAccountRequest') } } },
          responses: { 201: json('AdminCreatedAccount', 'Created.'), ...adminAuth, 422: validation('Invalid amount or email.') },
        },
      },
      '/admin/accounts/{id}': {
        get: {
          summary: 'Account balance',
          security: admin,
          parameters: [idParam('Account id.')],
          responses: { 200: json('AdminAccount', 'The account.'), ...adminAuth, ...unknownAccount },
        },
        delete: {
          summary: 'Delete an account',
          security: admin,
          parameters: [idParam('Account id.')],
          responses: { 204: { description: 'Deleted.' }, ...adminAuth, ...unknownAccount },
        },
      },
      '/admin/accounts/{id}/topup': {
        post: {
          summary: 'Add to the balance',
          security: admin,
          parameters: [idParam('Account id.')],
          requestBody: { required: true, content: { 'application/json': { schema: ref('AdminTopupRequest') } } },
          responses: { 200: json('AdminAccount', 'The account after the top-up.'), ...adminAuth, ...unknownAccount, 422: validation('Invalid amount.') },
        },
      },
      '/admin/accounts/{id}/sessions': {
        post: {
          summary: 'Issue a session token',
          security: admin,
          parameters: [idParam('Account id.')],
          responses: { 201: json('AdminSession', 'A session token.'), ...adminAuth, ...unknownAccount },
        },
      },
      '/admin/accounts/{id}/close': {
        post: {
          summary: 'Close an account (403 on every later call)',
          security: admin,
          parameters: [idParam('Account id.')],
          responses: { 200: json('AdminAccount', 'The closed account.'), ...adminAuth, ...unknownAccount },
        },
      },
      '/healthz': { get: { summary: 'Process up', responses: { 200: json('Health', 'Up.') } } },
      '/readyz': {
        get: { summary: 'Dependencies reachable', responses: { 200: json('Health', 'Ready.'), 503: err('`Not ready`.') } },
      },
      '/openapi.json': { get: { summary: 'This document (public endpoints)', responses: { 200: { description: 'OpenAPI 3.1 document.' } } } },
      '/admin/openapi.json': {
        get: {
          summary: 'This document with the admin API',
          security: admin,
          responses: { 200: { description: 'OpenAPI 3.1 document.' }, ...adminAuth },
        },
      },
    },
  };
}
