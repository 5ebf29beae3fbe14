import { z } from 'zod';
import {
  AdminAccount, AdminCreateAccountRequest, AdminCreatedAccount, AdminSession, AdminTopupRequest, CreateKeyRequest,
  CreateSearchAccepted, CreateSearchRequest, CreatedKey, ErrorBody, InsufficientBalanceBody, KeyList, RunEvent, RunList,
  RunRecord, StopAccepted, ValidationErrorBody,
  CreateWebhookEndpointRequest, CreatedWebhookEndpoint, WebhookDeliveryList, WebhookEndpointList, WebhookSecret,
  MAX_EXCLUDE_ENTRIES, MAX_EXPECTED_ENTRIES,
} from '@leadfinder/wire';
import { MAX_EXCLUDED_ROWS } from '../runs/exclusions.js';
import { UNKNOWN_ENDPOINT } from '../routes/webhooks.js';
import { KEY_INVALID, KEY_IN_FLIGHT, KEY_REUSED } from '../runs/idempotency.js';

/**
 * The OpenAPI 3.2 document, generated from the same zod schemas the routes use (JSON Schema 2020-12 is
 * OpenAPI 3.1/3.2's own dialect, so zod's output is used nearly as is: see `tidy`). 3.2 because it is the
 * first version that can say what an event stream carries (`itemSchema`); it is checked in CI by
 * `@redocly/cli lint`, `openapi-spec-validator` and schemathesis (test/openapi).
 */
type Json = Record<string, unknown>;

export const HealthBody = z.object({ status: z.literal('ok') });

function schema(s: z.ZodType, io: 'input' | 'output' = 'output'): Json {
  const { $schema: _drop, ...rest } = z.toJSONSchema(s, { io, unrepresentable: 'any' }) as Json;
  return tidy(rest) as Json;
}

/**
 * zod writes `format: "starts_with"` next to the `pattern` of `.startsWith()`: not a JSON Schema format,
 * and the pattern already says it. Dropped everywhere.
 */
function tidy(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(tidy);
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'format' && value === 'starts_with') continue;
    out[key] = tidy(value);
  }
  return out;
}

/** `plan` → `PlanEvent`, `funnel_filter_done` → `FunnelFilterDoneEvent`. */
const eventSchemaName = (type: string) => `${type.split('_').map((w) => w[0]!.toUpperCase() + w.slice(1)).join('')}Event`;

/** Run ids are 32 lowercase hex digits. */
const RUN_ID_PATTERN = '^[0-9a-f]{32}$';
/** The largest cursor the server reads (a safe integer). */
const MAX_CURSOR = Number.MAX_SAFE_INTEGER;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (name: string, description: string) => ({ description, content: { 'application/json': { schema: ref(name) } } });
const err = (description: string) => json('ErrorBody', description);
/** Answers of every route that reads a JSON body. */
const body = {
  413: err('`Payload Too Large`: the body is over 64 KiB (1 MiB for `POST /v1/searches`, room for 10,000 `exclude` entries).'),
  415: err('`Unsupported Media Type`: the body is not JSON.'),
};
/** For the routes without credentials: the only client error they can give. */
const methodNotAllowed = { 405: err('`Method Not Allowed`: another method than the ones listed in `Allow`.') };
const noAuth: Json[] = [];

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
  'starting with `:` are keepalives. Resume with `?since=<seq>` or `Last-Event-ID: <seq>`; with both, the',
  'stream resumes after the larger (an EventSource reconnects with its first URL and the newest id).',
  'The stream closes once the run is terminal and every event was sent; closing it never stops the run.',
  'A first connection without a cursor to a run that ended with no events (the 402 refusal) gets 200 and',
  'an at once closed stream with no frames.',
].join(' ');

const NOTHING_MORE = [
  'Nothing more, do not reconnect: the request sent a cursor (`since` or `Last-Event-ID`), the run is',
  'terminal and no event follows the cursor. EventSource clients stop on 204. Confirm the outcome with',
  '`GET /v1/searches/{id}`.',
].join(' ');

const WEBHOOKS_DESCRIPTION = [
  'Deliveries follow Standard Webhooks: a JSON body `{type, timestamp, data}` POSTed with the headers `webhook-id`',
  '(the same on every attempt: deduplicate on it), `webhook-timestamp` (Unix seconds) and `webhook-signature`',
  '(`v1,` and the base64 HMAC-SHA256 of `<id>.<timestamp>.<body>` keyed with the base64-decoded part of the',
  '`whsec_` secret). `search.finished` (default) carries the run record `GET /v1/searches/{id}` answers once',
  'terminal; `search.progress` (opt-in) each `progress` event. Any answer but 2xx, or none within 15 s, is retried',
  'with exponential backoff for 24 hours; every attempt is recorded (`/api/webhooks/deliveries`). Targets that',
  'resolve to loopback or private addresses are refused.',
].join(' ');

const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: [
    'Optional; scoped to the account. The first request with a key starts the run; any request with the same key',
    'and the same body (canonical JSON) within 24 hours answers 202 with that run id and no second reservation,',
    'even while the first is still being accepted; the same key with another body is 422. A request that started',
    'nothing (400, 402, 500) leaves the key free. Without the header nothing changes.',
  ].join(' '),
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]([\\x20-\\x7e]*[\\x21-\\x7e])?$' },
};
const REPLAYED_HEADER_DOC = {
  description: 'Sent when the request carried an Idempotency-Key: `true` when the run was started by an earlier request with it.',
  schema: { type: 'string', enum: ['true', 'false'] },
};

/** Links that let a client (or a stateful tester) go from a created run to what can be done with it. */
const runLinks = {
  getSearch: { operationId: 'getSearch', parameters: { id: '$response.body#/id' }, description: 'The run record.' },
  stopSearch: { operationId: 'stopSearch', parameters: { id: '$response.body#/id' }, description: 'Stop the run.' },
  streamSearchEvents: { operationId: 'streamSearchEvents', parameters: { id: '$response.body#/id' }, description: 'Follow its events.' },
};

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
  const eventSchemas = Object.fromEntries(RunEvent.options.map((o) => [eventSchemaName(o.shape.type.value), schema(o)]));
  const accepted = schema(CreateSearchAccepted) as { properties: { id: Json } };
  accepted.properties.id = { ...accepted.properties.id, pattern: RUN_ID_PATTERN };
  const cursor = { type: 'integer', minimum: 0, maximum: MAX_CURSOR };
  return {
    openapi: '3.2.0',
    info: {
      title: 'leadfinder',
      version: '1.0.0',
      description: 'Asynchronous web-research API.',
      license: { name: 'Proprietary (UNLICENSED): all rights reserved', identifier: 'LicenseRef-Proprietary' },
    },
    // Relative: the document describes whichever host serves it (`npm start`: http://127.0.0.1:8080).
    servers: [{ url: '/', description: 'The host that serves this document.' }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'API key (`lf_live_…`) or session token (`eyJ…`).' },
        adminToken: { type: 'http', scheme: 'bearer', description: 'LEADFINDER_ADMIN_TOKEN.' },
      },
      schemas: {
        CreateSearchRequest: schema(CreateSearchRequest, 'input'),
        CreateSearchAccepted: accepted,
        RunRecord: schema(RunRecord),
        RunList: schema(RunList),
        StopAccepted: schema(StopAccepted),
        RunEvent: {
          oneOf: Object.keys(eventSchemas).map(ref),
          discriminator: {
            propertyName: 'type',
            mapping: Object.fromEntries(RunEvent.options.map((o) => [o.shape.type.value, `#/components/schemas/${eventSchemaName(o.shape.type.value)}`])),
          },
        },
        ...eventSchemas,
        ErrorBody: schema(ErrorBody),
        ValidationErrorBody: schema(ValidationErrorBody),
        InsufficientBalanceBody: schema(InsufficientBalanceBody),
        CreateKeyRequest: schema(CreateKeyRequest, 'input'),
        CreatedKey: schema(CreatedKey),
        KeyList: schema(KeyList),
        CreateWebhookEndpointRequest: schema(CreateWebhookEndpointRequest, 'input'),
        CreatedWebhookEndpoint: schema(CreatedWebhookEndpoint),
        WebhookEndpointList: schema(WebhookEndpointList),
        WebhookSecret: schema(WebhookSecret),
        WebhookDeliveryList: schema(WebhookDeliveryList),
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
          operationId: 'createSearch',
          summary: 'Start a search (reserves 5.00 USD)',
          security: bearer,
          parameters: [IDEMPOTENCY_KEY_PARAMETER],
          requestBody: { required: true, content: { 'application/json': { schema: ref('CreateSearchRequest') } } },
          responses: {
            202: {
              ...json('CreateSearchAccepted', 'Accepted and funds reserved; with an `Idempotency-Key` used before (same body, within 24 h), the run that key started, with no second reservation.'),
              headers: { 'Idempotent-Replayed': REPLAYED_HEADER_DOC },
              links: runLinks,
            },
            400: err(`\`Empty query\`, \`${KEY_INVALID}\`, \`exclude has N entries …; at most ${MAX_EXCLUDE_ENTRIES} are allowed.\`, \`expected has N entries; at most ${MAX_EXPECTED_ENTRIES} are allowed.\` or \`exclude.runs returned more than ${MAX_EXCLUDED_ROWS} rows together; name fewer runs.\``),
            ...common,
            402: json('InsufficientBalanceBody', 'The balance cannot cover the reservation; nothing started (the Idempotency-Key stays free).'),
            409: err(`\`${KEY_IN_FLIGHT}\` The first request with this key took over 30 s to start its run.`),
            ...body,
            422: {
              description: `Invalid body (q length, target range, types, sites count, malformed JSON, a \`webhook.url\` that is not http(s) or targets a loopback or private address): the list of failed fields; or \`${KEY_REUSED}\` (the Idempotency-Key named another body within its 24 h).`,
              content: { 'application/json': { schema: { oneOf: [ref('ValidationErrorBody'), ref('ErrorBody')] } } },
            },
            500: err('`Internal server error` or `The reservation for this search could not be opened.` (the Idempotency-Key stays free: retry with it).'),
          },
        },
        get: {
          operationId: 'listSearches',
          summary: "The caller's 50 newest runs, newest first",
          security: bearer,
          responses: { 200: json('RunList', 'Runs without `result`.'), ...common },
        },
      },
      '/v1/searches/{id}': {
        get: {
          operationId: 'getSearch',
          summary: 'One run record',
          security: bearer,
          parameters: [idParam('Run id (32 hex).')],
          responses: { 200: json('RunRecord', 'The run.'), ...common, 404: err('`Unknown search.`') },
        },
      },
      '/v1/searches/{id}/stop': {
        post: {
          operationId: 'stopSearch',
          summary: 'Raise the stop flag',
          security: bearer,
          parameters: [idParam('Run id.')],
          // No body is read; a non-empty one that is not JSON is still refused like everywhere else.
          responses: { 202: json('StopAccepted', 'Status when the flag was raised.'), ...common, 404: err('`Unknown search.`'), ...body },
        },
      },
      '/v1/searches/{id}/events': {
        get: {
          operationId: 'streamSearchEvents',
          summary: 'Event stream of a run',
          security: bearer,
          parameters: [
            idParam('Run id.'),
            { name: 'since', in: 'query', required: false, schema: cursor, description: 'Send only events after this sequence.' },
            { name: 'Last-Event-ID', in: 'header', required: false, schema: cursor, description: 'Same cursor as `since`; with both, the larger wins.' },
          ],
          responses: {
            200: {
              description: SSE_DESCRIPTION,
              content: {
                'text/event-stream': {
                  // OpenAPI 3.2: the schema of one SSE message; `data` is JSON text holding a RunEvent.
                  itemSchema: {
                    type: 'object',
                    required: ['id', 'data'],
                    properties: {
                      id: { type: 'string', pattern: '^[0-9]+$', description: 'The event log sequence (rises, not contiguous).' },
                      data: { type: 'string', contentMediaType: 'application/json', contentSchema: ref('RunEvent') },
                    },
                  },
                },
              },
            },
            204: { description: NOTHING_MORE },
            ...common,
            404: err('`Unknown search.`'),
            422: validation('`since` is not a non-negative integer.'),
            429: err('`Too many requests`, or `Too many open event streams: …` when the account holds its cap of open streams; see Retry-After.'),
          },
        },
      },
      '/api/keys': {
        post: {
          operationId: 'createKey',
          summary: 'Create an API key (session token only)',
          security: bearer,
          requestBody: { required: true, content: { 'application/json': { schema: ref('CreateKeyRequest') } } },
          responses: {
            201: {
              ...json('CreatedKey', 'The key value, shown this once.'),
              links: { revokeKey: { operationId: 'revokeKey', parameters: { id: '$response.body#/id' }, description: 'Revoke it.' } },
            },
            400: err('`name is required`.'),
            ...keyAuth,
            ...body,
            409: err('`Too many keys: …`: the account has its cap of live keys; revoke one first.'),
            422: validation('`name` missing, empty or longer than 100 characters.'),
          },
        },
        get: { operationId: 'listKeys', summary: 'List live API keys', security: bearer, responses: { 200: json('KeyList', 'Keys.'), ...keyAuth } },
      },
      '/api/keys/{id}': {
        delete: {
          operationId: 'revokeKey',
          summary: 'Revoke an API key',
          security: bearer,
          parameters: [idParam('Key id.')],
          responses: { 204: { description: 'Revoked.' }, ...keyAuth, 404: err('`Key not found`.') },
        },
      },
      '/api/webhooks/endpoints': {
        post: {
          operationId: 'createWebhookEndpoint',
          summary: 'Register a default webhook endpoint (session token only): every run of the account sends its events there',
          description: WEBHOOKS_DESCRIPTION,
          security: bearer,
          requestBody: { required: true, content: { 'application/json': { schema: ref('CreateWebhookEndpointRequest') } } },
          responses: {
            201: {
              ...json('CreatedWebhookEndpoint', 'The endpoint and its signing secret, shown here and on rotation only.'),
              links: {
                rotateWebhookEndpointSecret: { operationId: 'rotateWebhookEndpointSecret', parameters: { id: '$response.body#/id' }, description: 'Rotate its secret.' },
                deleteWebhookEndpoint: { operationId: 'deleteWebhookEndpoint', parameters: { id: '$response.body#/id' }, description: 'Delete it.' },
              },
            },
            ...keyAuth,
            ...body,
            409: err('`Too many webhook endpoints: …`: the account has its cap of endpoints; delete one first.'),
            422: validation('`url` missing, not http(s), over 2048 characters, with credentials or (unless allowed for development) a loopback or private address; unknown `events`.'),
          },
        },
        get: {
          operationId: 'listWebhookEndpoints',
          summary: 'List webhook endpoints (without secrets)',
          security: bearer,
          responses: { 200: json('WebhookEndpointList', 'Endpoints, oldest first.'), ...keyAuth },
        },
      },
      '/api/webhooks/endpoints/{id}': {
        delete: {
          operationId: 'deleteWebhookEndpoint',
          summary: 'Delete a webhook endpoint (its pending deliveries then fail)',
          security: bearer,
          parameters: [idParam('Endpoint id.')],
          responses: { 204: { description: 'Deleted.' }, ...keyAuth, 404: err(`\`${UNKNOWN_ENDPOINT}\`.`) },
        },
      },
      '/api/webhooks/endpoints/{id}/rotate-secret': {
        post: {
          operationId: 'rotateWebhookEndpointSecret',
          summary: "Replace an endpoint's signing secret (for 24 h deliveries carry a second signature with the old one)",
          security: bearer,
          parameters: [idParam('Endpoint id.')],
          responses: { 200: json('WebhookSecret', 'The new secret.'), ...keyAuth, 404: err(`\`${UNKNOWN_ENDPOINT}\`.`) },
        },
      },
      '/api/webhooks/request-secret': {
        get: {
          operationId: 'getRequestWebhookSecret',
          summary: "The secret that signs deliveries to a search's own `webhook.url` (made on first use)",
          security: bearer,
          responses: { 200: json('WebhookSecret', 'The secret.'), ...keyAuth },
        },
      },
      '/api/webhooks/request-secret/rotate': {
        post: {
          operationId: 'rotateRequestWebhookSecret',
          summary: 'Replace the request-webhook secret (for 24 h deliveries carry a second signature with the old one)',
          security: bearer,
          responses: { 200: json('WebhookSecret', 'The new secret.'), ...keyAuth },
        },
      },
      '/api/webhooks/deliveries': {
        get: {
          operationId: 'listWebhookDeliveries',
          summary: "The account's 100 newest webhook deliveries: status, attempts, last error",
          security: bearer,
          parameters: [{ name: 'run', in: 'query', required: false, schema: { type: 'string' }, description: 'Only the deliveries of this run.' }],
          responses: { 200: json('WebhookDeliveryList', 'Deliveries, newest first.'), ...keyAuth },
        },
      },
      '/admin/accounts': {
        post: {
          operationId: 'adminCreateAccount',
          summary: 'Create an account with a balance, a first API key and a session token',
          security: admin,
          requestBody: { required: false, content: { 'application/json': { schema: ref('AdminCreateAccountRequest') } } },
          responses: { 201: json('AdminCreatedAccount', 'Created.'), ...adminAuth, ...body, 422: validation('Invalid amount or email.') },
        },
      },
      '/admin/accounts/{id}': {
        get: {
          operationId: 'adminGetAccount',
          summary: 'Account balance',
          security: admin,
          parameters: [idParam('Account id.')],
          responses: { 200: json('AdminAccount', 'The account.'), ...adminAuth, ...unknownAccount },
        },
        delete: {
          operationId: 'adminDeleteAccount',
          summary: 'Delete an account',
          security: admin,
          parameters: [idParam('Account id.')],
          responses: { 204: { description: 'Deleted.' }, ...adminAuth, ...unknownAccount },
        },
      },
      '/admin/accounts/{id}/topup': {
        post: {
          operationId: 'adminTopUp',
          summary: 'Add to the balance',
          security: admin,
          parameters: [idParam('Account id.')],
          requestBody: { required: true, content: { 'application/json': { schema: ref('AdminTopupRequest') } } },
          responses: { 200: json('AdminAccount', 'The account after the top-up.'), ...adminAuth, ...unknownAccount, ...body, 422: validation('Invalid amount.') },
        },
      },
      '/admin/accounts/{id}/sessions': {
        post: {
          operationId: 'adminIssueSession',
          summary: 'Issue a session token',
          security: admin,
          parameters: [idParam('Account id.')],
          responses: { 201: json('AdminSession', 'A session token.'), ...adminAuth, ...unknownAccount, ...body },
        },
      },
      '/admin/accounts/{id}/close': {
        post: {
          operationId: 'adminCloseAccount',
          summary: 'Close an account (403 on every later call)',
          security: admin,
          parameters: [idParam('Account id.')],
          responses: { 200: json('AdminAccount', 'The closed account.'), ...adminAuth, ...unknownAccount, ...body },
        },
      },
      '/healthz': {
        get: { operationId: 'healthz', summary: 'Process up', security: noAuth, responses: { 200: json('Health', 'Up.'), ...methodNotAllowed } },
      },
      '/readyz': {
        get: {
          operationId: 'readyz',
          summary: 'Dependencies reachable',
          security: noAuth,
          responses: { 200: json('Health', 'Ready.'), ...methodNotAllowed, 503: err('`Not ready`.') },
        },
      },
      '/openapi.json': {
        get: {
          operationId: 'openApiDocument',
          summary: 'This document (public endpoints)',
          security: noAuth,
          responses: { 200: { description: 'OpenAPI 3.2 document.', content: { 'application/json': { schema: { type: 'object' } } } }, ...methodNotAllowed },
        },
      },
      '/admin/openapi.json': {
        get: {
          operationId: 'adminOpenApiDocument',
          summary: 'This document with the admin API',
          security: admin,
          responses: { 200: { description: 'OpenAPI 3.2 document.', content: { 'application/json': { schema: { type: 'object' } } } }, ...adminAuth },
        },
      },
    },
  };
}
