import type { Attributes } from '@opentelemetry/api';

/**
 * Server-side request metrics under their semantic-convention names (issue 22: rate, errors and latency
 * per role), recorded by the edge's Fastify hooks, the health listeners and the gRPC server interceptor.
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

/**
 * Why these two are not SDK instruments: with a metric reader installed, each `Histogram.record` of the
 * metrics SDK hashes its attribute set (sorts the keys and JSON-serialises them) to find the series, on
 * every request. In the bench's edge that record took 8–11 µs per `GET` with a reader against 2–4 µs
 * without (wall-timed in the process, 2 shared cores), the largest part of what the OTLP export cost a
 * `GET` (issue 22). Here the series is found by a key the caller's fields make, and the histogram is
 * kept in plain arrays; each reader reads it through a MetricProducer (server-metrics-producer.ts) as the
 * same cumulative explicit-bucket histogram the SDK would have exported (same names, units, buckets,
 * attributes, min and max, scope `leadfinder.server`).
 */

/** One series of a cumulative explicit-bucket histogram: one attribute set. */
export interface DurationSeries {
  readonly attributes: Attributes;
  /** Epoch ms of the first value: the start of the cumulative series. */
  readonly startMs: number;
  /** One count per bucket: `boundaries.length + 1`, the last for values above the last bound. */
  readonly counts: number[];
  sum: number;
  count: number;
  min: number;
  max: number;
}

/** Series beyond this many fold into one overflow series, as the SDK's default cardinality limit does. */
export const SERVER_DURATION_SERIES_LIMIT = 2000;
const OVERFLOW_KEY = '\u0000overflow';

/** A histogram by attribute set, recorded with no per-value allocation once its series exists. */
export class DurationHistogram {
  readonly series = new Map<string, DurationSeries>();
  constructor(
    readonly name: string,
    readonly description: string,
    readonly unit: string,
    readonly boundaries: readonly number[],
  ) {}

  /**
   * Adds `value` to the series `key` names; `attributesOf` builds its attributes the first time only. The
   * key must identify the attribute set (same key, same attributes).
   */
  record(key: string, attributesOf: () => Attributes, value: number): void {
    if (Number.isNaN(value)) return;
    let series = this.series.get(key);
    if (!series) {
      if (this.series.size >= SERVER_DURATION_SERIES_LIMIT - 1) {
        key = OVERFLOW_KEY;
        series = this.series.get(key);
      }
      if (!series) {
        series = {
          attributes: key === OVERFLOW_KEY ? { 'otel.metric.overflow': true } : attributesOf(),
          startMs: Date.now(), counts: new Array<number>(this.boundaries.length + 1).fill(0),
          sum: 0, count: 0, min: Infinity, max: -Infinity,
        };
        this.series.set(key, series);
      }
    }
    series.count += 1;
    series.sum += value;
    if (value < series.min) series.min = value;
    if (value > series.max) series.max = value;
    // Bucket i holds (boundaries[i-1], boundaries[i]]: the first bound not below the value.
    const bounds = this.boundaries;
    let lo = 0;
    let hi = bounds.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (bounds[mid]! < value) lo = mid + 1;
      else hi = mid;
    }
    series.counts[lo]! += 1;
  }
}

/** The server duration histograms one telemetry installation reads. */
export interface ServerDurations {
  readonly http: DurationHistogram;
  readonly rpc: DurationHistogram;
}

let recording: ServerDurations | null = null;

/**
 * Starts recording server durations into fresh histograms (a telemetry installation with a metric reader
 * calls this and reads them through its producer); until then, and after `stop`, records are dropped, as
 * they were by the SDK with no reader.
 */
export function startServerDurations(): ServerDurations & { stop(): void } {
  const durations: ServerDurations = {
    http: new DurationHistogram('http.server.request.duration', 'Duration of HTTP server requests', 's', HTTP_SERVER_DURATION_BUCKETS_S),
    rpc: new DurationHistogram('rpc.server.duration', 'Duration of inbound RPCs', 'ms', RPC_SERVER_DURATION_BUCKETS_MS),
  };
  recording = durations;
  return {
    ...durations,
    stop() {
      if (recording === durations) recording = null;
    },
  };
}

/** Records one finished HTTP request (`http.server.request.duration`). */
export function recordHttpServerRequest(request: HttpServerRequest): void {
  if (!recording) return;
  recording.http.record(`${request.method} ${request.route ?? ''} ${request.statusCode} ${request.scheme}`, () => {
    const attributes: Attributes = {
      'http.request.method': request.method,
      'http.response.status_code': request.statusCode,
      'url.scheme': request.scheme,
    };
    if (request.route) attributes['http.route'] = request.route;
    // Semantic conventions: error.type on server errors only (a 4xx is the client's mistake).
    if (request.statusCode >= 500) attributes['error.type'] = String(request.statusCode);
    return attributes;
  }, request.durationS);
}

/** Records one finished inbound RPC (`rpc.server.duration`). */
export function recordRpcServerCall(call: RpcServerCall): void {
  if (!recording) return;
  recording.rpc.record(`${call.service}/${call.method} ${call.grpcStatusCode}`, () => ({
    'rpc.system': 'grpc',
    'rpc.service': call.service,
    'rpc.method': call.method,
    'rpc.grpc.status_code': call.grpcStatusCode,
  }), call.durationMs);
}
