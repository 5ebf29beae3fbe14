import { metrics } from '@opentelemetry/api';
import type { Attributes, Histogram } from '@opentelemetry/api';
import { meter } from './context.js';

/**
 * Server-side request metrics under their semantic-convention names (issue 22: rate, errors and latency
 * per role), recorded by the edge's Fastify hooks, the health listeners and the gRPC server interceptor.
 * Instruments are created on first use, from whichever meter provider is installed then.
 */

/**
 * Bucket bounds in seconds for HTTP server durations. An event stream stays open for the run's life, up
 * to the run deadline (9,000 s by default), so the buckets reach past it instead of stopping at 10 s.
 */
export const HTTP_SERVER_DURATION_BUCKETS_S = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 1800, 3600, 9000, 18000,
];

/** Bucket bounds in milliseconds for gRPC server durations: page fetches and LLM-backed filter calls. */
export const RPC_SERVER_DURATION_BUCKETS_MS = [
  1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000, 60000, 120000, 300000,
];

export interface HttpServerRequest {
  method: string;
  /** Route template (`/v1/searches/:id`), never the raw path (unbounded, and it may carry ids). */
  route: string | undefined;
  statusCode: number;
  /** `http` or `https`. */
  scheme: string;
  durationS: number;
}

export interface RpcServerCall {
  service: string;
  method: string;
  /** Numeric gRPC status code. */
  grpcStatusCode: number;
  durationMs: number;
}

let httpDuration: Histogram | undefined;
let rpcDuration: Histogram | undefined;
let installedFor: unknown;
/**
 * Attribute sets already built, by method, route, status and scheme: an edge answers a handful of
 * distinct ones, and recording with the same object spares an allocation per request.
 */
const httpAttributeSets = new Map<string, Attributes>();

function instruments(): { http: Histogram; rpc: Histogram } {
  // A test (or a restart inside one process) may install a new meter provider: follow it. Comparing the
  // provider, not a meter, keeps the per-request path to one lookup (getMeter costs about as much as a record).
  const provider = metrics.getMeterProvider();
  if (installedFor !== provider || !httpDuration || !rpcDuration) {
    installedFor = provider;
    const m = meter('leadfinder.server');
    httpDuration = m.createHistogram('http.server.request.duration', {
      description: 'Duration of HTTP server requests', unit: 's',
      advice: { explicitBucketBoundaries: HTTP_SERVER_DURATION_BUCKETS_S },
    });
    rpcDuration = m.createHistogram('rpc.server.duration', {
      description: 'Duration of inbound RPCs', unit: 'ms',
      advice: { explicitBucketBoundaries: RPC_SERVER_DURATION_BUCKETS_MS },
    });
  }
  return { http: httpDuration, rpc: rpcDuration };
}

/** Records one finished HTTP request (`http.server.request.duration`). */
export function recordHttpServerRequest(request: HttpServerRequest): void {
  const key = `${request.method} ${request.route ?? ''} ${request.statusCode} ${request.scheme}`;
  let attributes = httpAttributeSets.get(key);
  if (!attributes) {
    attributes = {
      'http.request.method': request.method,
      'http.response.status_code': request.statusCode,
      'url.scheme': request.scheme,
    };
    if (request.route) attributes['http.route'] = request.route;
    // Semantic conventions: error.type on server errors only (a 4xx is the client's mistake).
    if (request.statusCode >= 500) attributes['error.type'] = String(request.statusCode);
    // Bounded: routes are templates and methods and statuses few, but a scanner sending odd methods must
    // not grow it without end.
    if (httpAttributeSets.size < 1000) httpAttributeSets.set(key, attributes);
  }
  instruments().http.record(request.durationS, attributes);
}

/** Records one finished inbound RPC (`rpc.server.duration`). */
export function recordRpcServerCall(call: RpcServerCall): void {
  instruments().rpc.record(call.durationMs, {
    'rpc.system': 'grpc',
    'rpc.service': call.service,
    'rpc.method': call.method,
    'rpc.grpc.status_code': call.grpcStatusCode,
  });
}
