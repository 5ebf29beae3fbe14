import { SpanKind, SpanStatusCode, context, propagation, ROOT_CONTEXT } from '@opentelemetry/api';
import type { Span, TextMapGetter, TextMapSetter } from '@opentelemetry/api';
import { status as GrpcStatus } from '@grpc/grpc-js';
import type { Metadata } from '@grpc/grpc-js';
import { LeadfinderError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { tracer } from '../../telemetry/context.js';
import { rpcAttributes } from '../../telemetry/semconv.js';
import { recordRpcServerCall } from '../../telemetry/server-metrics.js';
import { grpcStatusOf } from './status.js';

/**
 * Cross-cutting behaviour of gRPC calls as `(input, next)` chains (conventions §16), composed once when a
 * client or server is built. The innermost `next` is the real call (client) or the port method (server).
 */

export interface RpcCall {
  /** Fully qualified service name, e.g. `leadfinder.fetcher.v1.FetcherService`. */
  service: string;
  /** Method name as in the proto, e.g. `Search`. */
  method: string;
  /** The proto request message. */
  request: unknown;
  metadata: Metadata;
  /** Client: the caller's signal. Server: aborted when the client cancels or the deadline passes. */
  signal: AbortSignal;
}

export type RpcNext = (call: RpcCall) => Promise<unknown>;
export type RpcInterceptor = (call: RpcCall, next: RpcNext) => Promise<unknown>;

/** Composes interceptors, first = outermost, around `last`. */
export function compose(interceptors: readonly RpcInterceptor[], last: RpcNext): RpcNext {
  return interceptors.reduceRight<RpcNext>((next, interceptor) => (call) => interceptor(call, next), last);
}

const metadataSetter: TextMapSetter<Metadata> = {
  set: (carrier, key, value) => carrier.set(key, value),
};
const metadataGetter: TextMapGetter<Metadata> = {
  get: (carrier, key) => {
    const values = carrier.get(key).map(String);
    return values.length === 0 ? undefined : values;
  },
  keys: (carrier) => Object.keys(carrier.getMap()),
};

function statusCodeOf(error: unknown): GrpcStatus {
  return LeadfinderError.is(error) ? grpcStatusOf(error.code) : GrpcStatus.UNKNOWN;
}

async function inSpan(span: Span, run: () => Promise<unknown>): Promise<unknown> {
  try {
    const response = await run();
    span.setAttribute('rpc.grpc.status_code', GrpcStatus.OK);
    return response;
  } catch (error) {
    span.setAttribute('rpc.grpc.status_code', statusCodeOf(error));
    if (error instanceof Error) span.recordException(error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    span.end();
  }
}

/** Client span per call; its W3C trace context goes into the request metadata. */
export const clientTracing: RpcInterceptor = (call, next) =>
  tracer('leadfinder.grpc').startActiveSpan(
    `${call.service}/${call.method}`,
    { kind: SpanKind.CLIENT, attributes: rpcAttributes({ service: call.service, method: call.method }) },
    (span) => inSpan(span, () => {
      propagation.inject(context.active(), call.metadata, metadataSetter);
      return next(call);
    }),
  );

/** Server span per call, child of the caller's span carried in the metadata. */
export const serverTracing: RpcInterceptor = (call, next) => {
  const parent = propagation.extract(ROOT_CONTEXT, call.metadata, metadataGetter);
  return tracer('leadfinder.grpc').startActiveSpan(
    `${call.service}/${call.method}`,
    { kind: SpanKind.SERVER, attributes: rpcAttributes({ service: call.service, method: call.method }) },
    parent,
    (span) => inSpan(span, () => next(call)),
  );
};

/** Times each served call into `rpc.server.duration`, by service, method and gRPC status code. */
export const serverMetrics: RpcInterceptor = async (call, next) => {
  const startedAt = performance.now();
  let code: GrpcStatus = GrpcStatus.OK;
  try {
    return await next(call);
  } catch (error) {
    code = statusCodeOf(error);
    throw error;
  } finally {
    recordRpcServerCall({ service: call.service, method: call.method, grpcStatusCode: code, durationMs: performance.now() - startedAt });
  }
};

/** Logs failed calls once, at a level matching who is at fault. */
export function callLogging(logger: Logger, side: 'client' | 'server'): RpcInterceptor {
  return async (call, next) => {
    try {
      return await next(call);
    } catch (error) {
      const meta = {
        side, service: call.service, method: call.method,
        code: LeadfinderError.is(error) ? error.code : 'unexpected',
        error: error instanceof Error ? error.message : String(error),
      };
      if (!LeadfinderError.is(error) || error.code === 'LF_ERR_INTERNAL') logger.error('rpc failed', meta);
      else logger.debug('rpc failed', meta);
      throw error;
    }
  };
}
