import { SpanStatusCode } from '@opentelemetry/api';
import type { FastifyPluginAsync } from 'fastify';
import { CreateSearchRequest } from '@leadfinder/wire';
import type { CreateSearchAccepted, RunList, RunRecord, StopAccepted } from '@leadfinder/wire';
import { createInMemoryIdempotencyStore, injectTraceContext, tracer } from '@leadfinder/platform';
import type { EdgeDeps } from '../deps.js';
import { callerOf } from '../auth/guards.js';
import { notFound } from '../http/errors.js';
import { setRunTraceparent } from '../http/trace-header.js';
import { SEARCH_BODY_LIMIT_BYTES, acceptEmptyBodyOfAnyType, parseOrThrow } from '../http/validation.js';
import { acceptSearch } from '../runs/accept-search.js';
import { assertSearchWebhook } from '../webhooks/index.js';
import { REPLAYED_HEADER, acceptIdempotently, readIdempotencyKey, requestFingerprint } from '../runs/idempotency.js';
import { findOwnRun, hasEnded, shownStatus, toRunListItem, toRunRecord } from '../runs/run-view.js';

/** The list limit is fixed by the spec (§4.2): no paging, no parameter. */
const LIST_LIMIT = 50;
export const UNKNOWN_SEARCH = 'Unknown search.';

/** `/v1/searches` (spec §4.1–4.4). Registered under the `/v1` guard, so every handler has a caller. */
export function searchRoutes(deps: EdgeDeps): FastifyPluginAsync {
  const idempotency = deps.idempotency ?? createInMemoryIdempotencyStore();
  return async (app) => {
    app.post('/searches', { bodyLimit: SEARCH_BODY_LIMIT_BYTES }, async (request, reply) => {
      const account = callerOf(request);
      const body = parseOrThrow(CreateSearchRequest, request.body, 'body');
      assertSearchWebhook(body.webhook, deps.config);
      const idempotencyKey = readIdempotencyKey(request.headers);
      // The run's trace starts here; acceptSearch injects this span's context into the run and work message.
      const { id } = await tracer('leadfinder-edge').startActiveSpan('search.accept', async (span) => {
        try {
          const accepted = idempotencyKey === null
            ? await acceptSearch(deps, account, body)
            : await acceptIdempotently(
              { ...deps, idempotency }, account, idempotencyKey, requestFingerprint(request.body),
              (runId) => acceptSearch(deps, account, body, { runId, key: idempotencyKey }),
            );
          if (idempotencyKey !== null) void reply.header(REPLAYED_HEADER, String('replayed' in accepted && accepted.replayed));
          span.setAttribute('leadfinder.run_id', accepted.id);
          // The run's trace is this span's (acceptSearch stored its context on the run); a replay names
          // an earlier request's run, whose stored context is read back.
          if ('replayed' in accepted && accepted.replayed) setRunTraceparent(reply, (await findOwnRun(deps.store.runs, account.id, accepted.id))?.trace);
          else setRunTraceparent(reply, injectTraceContext());
          return accepted;
        } catch (error) {
          span.setStatus({ code: SpanStatusCode.ERROR });
          throw error;
        } finally {
          span.end();
        }
      });
      const answer: CreateSearchAccepted = { id, status: 'running' };
      return reply.code(202).send(answer);
    });

    app.get('/searches', async (request) => {
      const account = callerOf(request);
      const runs = await deps.store.runs.listRecent(account.id, LIST_LIMIT);
      const answer: RunList = { runs: runs.map(toRunListItem) };
      return answer;
    });

    app.get<{ Params: { id: string } }>('/searches/:id', async (request, reply) => {
      const account = callerOf(request);
      const run = await findOwnRun(deps.store.runs, account.id, request.params.id);
      if (!run) throw notFound(UNKNOWN_SEARCH);
      setRunTraceparent(reply, run.trace);
      const answer: RunRecord = toRunRecord(run);
      return answer;
    });

    // Its own scope, so only this route takes an empty body under any content type (spec §4.4: no body).
    await app.register(async (stopScope) => {
      acceptEmptyBodyOfAnyType(stopScope);
      stopScope.post<{ Params: { id: string } }>('/searches/:id/stop', async (request, reply) => {
        const account = callerOf(request);
        const run = await findOwnRun(deps.store.runs, account.id, request.params.id);
        if (!run) throw notFound(UNKNOWN_SEARCH);
        // The status reported is the one read when the flag went up (spec §3 rule 1), as GET shows it; an
        // ended run is left alone and answered with its terminal status (rule 2).
        if (!hasEnded(run)) await deps.stops.raise(run.id);
        const answer: StopAccepted = { id: run.id, status: shownStatus(run), stopRequested: true };
        return reply.code(202).send(answer);
      });
    });
  };
}
