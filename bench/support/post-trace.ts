import { ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import type { Tracer } from '@opentelemetry/api';

/** The tracers an edge ends a `POST`'s spans with. */
export interface Tracers { http: Tracer; edge: Tracer; ports: Tracer }

let sequence = 0;

/** The spans of one accepted `POST /v1/searches`, as the edge makes them (services/edge, port-tracing.ts). */
export function acceptedSearch(t: Tracers): void {
  const runId = `run_${(sequence++).toString(36).padStart(8, '0')}k3j5h7g9`;
  const server = t.http.startSpan('POST /v1/searches', {
    kind: SpanKind.SERVER,
    attributes: { 'http.request.method': 'POST', 'url.path': '/v1/searches', 'url.scheme': 'http', 'http.route': '/v1/searches', 'user_agent.original': 'undici' },
  }, ROOT_CONTEXT);
  const inServer = trace.setSpan(ROOT_CONTEXT, server);
  const accept = t.edge.startSpan('search.accept', {}, inServer);
  const inAccept = trace.setSpan(inServer, accept);
  const reserve = t.ports.startSpan('billing.reserve', { attributes: { 'leadfinder.run_id': runId, 'leadfinder.billing.hold_microusd': 5_000_000 } }, inAccept);
  const inReserve = trace.setSpan(inAccept, reserve);
  t.ports.startSpan('store.accounts.reserve', { attributes: { 'leadfinder.run_id': runId } }, inReserve).end();
  t.ports.startSpan('store.ledger.append', { attributes: { 'leadfinder.run_id': runId, 'leadfinder.ledger.kind': 'hold' } }, inReserve).end();
  reserve.setAttribute('leadfinder.billing.outcome', 'held');
  reserve.end();
  t.ports.startSpan('store.runs.insert', { attributes: { 'leadfinder.run_id': runId } }, inAccept).end();
  t.ports.startSpan('publish work.runs', {
    kind: SpanKind.PRODUCER,
    attributes: { 'messaging.system': 'inprocess', 'messaging.destination.name': 'work.runs', 'messaging.operation.type': 'send', 'messaging.operation.name': 'publish', 'leadfinder.run_id': runId },
  }, inAccept).end();
  accept.setAttribute('leadfinder.run_id', runId);
  accept.end();
  server.setAttribute('http.response.status_code', 202);
  server.end();
}
