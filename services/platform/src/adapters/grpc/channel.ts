import { Client, Metadata, credentials } from '@grpc/grpc-js';
import type { ServiceError } from '@grpc/grpc-js';
import { CancelledError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { callLogging, clientTracing, compose } from './interceptors.js';
import type { RpcCall, RpcInterceptor, RpcNext } from './interceptors.js';
import { fromGrpcError } from './status.js';

/** Retry policy for our RPCs, all idempotent reads (grpc service config `retryPolicy`). */
export interface RetryOptions {
  /**
   * Attempts in total, first included (gRPC caps this at 5).
   * @default 3
   */
  maxAttempts?: number;
  /** @default 100 */
  initialBackoffMs?: number;
  /** @default 2000 */
  maxBackoffMs?: number;
}

export interface GrpcClientOptions {
  /**
   * `host:port` or any gRPC target; a bare `host:port` becomes `dns:///host:port`, so every address
   * the name resolves to (a headless Service's pods) gets calls round-robin. A comma-separated list of
   * IPv4 `a.b.c.d:port` entries becomes an `ipv4:` target, round-robin over those addresses.
   */
  address: string;
  logger: Logger;
  /** Per-call deadline; the caller's AbortSignal can end a call sooner. */
  deadlineMs?: number;
  retry?: RetryOptions;
  /** Extra interceptors, innermost after tracing, logging and error mapping. */
  interceptors?: RpcInterceptor[];
}

/** Messages up to this size (pages can be several MB of text; Verify carries several pages). */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

export function grpcTarget(address: string): string {
  const list = address.split(',').map((a) => a.trim()).filter(Boolean);
  // Several literal IPv4 `host:port` entries (e.g. replicas on one host): grpc-js's ipv4: resolver
  // round-robins over them, which a dns:/// target (one name) cannot express.
  if (list.length > 1 && list.every((a) => /^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(a))) return `ipv4:${list.join(',')}`;
  if (/^ipv[46]:/i.test(address)) return address;
  return /^[a-z][a-z0-9+.-]*:/i.test(address) && !/^[^/]+:\d+$/.test(address) ? address : `dns:///${address}`;
}

function serviceConfig(service: string, retry: RetryOptions = {}): string {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(3)}s`;
  return JSON.stringify({
    loadBalancingConfig: [{ round_robin: {} }],
    methodConfig: [{
      name: [{ service }],
      retryPolicy: {
        maxAttempts: retry.maxAttempts ?? 3,
        initialBackoff: seconds(retry.initialBackoffMs ?? 100),
        maxBackoff: seconds(retry.maxBackoffMs ?? 2000),
        backoffMultiplier: 2,
        // Only what says "nothing happened, try again"; a DEADLINE_EXCEEDED would restart a long call.
        retryableStatusCodes: ['UNAVAILABLE', 'RESOURCE_EXHAUSTED'],
      },
    }],
  });
}

/** One proto method as ts-proto describes it in the generated service definition. */
export interface UnaryMethodDefinition<Req, Res> {
  path: string;
  requestSerialize(value: Req): Buffer;
  responseDeserialize(value: Buffer): Res;
}

export interface UnaryChannel {
  call<Req, Res>(method: UnaryMethodDefinition<Req, Res>, request: Req, signal: AbortSignal): Promise<Res>;
  close(): void;
}

/**
 * A channel to one service with the interceptor chain composed once:
 * tracing → logging → error mapping → [extra] → the wire call (deadline + cancel on abort).
 */
export function openUnaryChannel(service: string, defaultDeadlineMs: number, options: GrpcClientOptions): UnaryChannel {
  const deadlineMs = options.deadlineMs ?? defaultDeadlineMs;
  const client = new Client(grpcTarget(options.address), credentials.createInsecure(), {
    'grpc.service_config': serviceConfig(service, options.retry),
    // DNS TXT records must not override the policy above.
    'grpc.service_config_disable_resolution': 1,
    'grpc.enable_retries': 1,
    // A restarted fetcher/filter pod is rejoined within about a second (grpc-js's default backoff grows
    // to 120 s): calls fail fast while no pod is connected, and the caller's retries span ~1.6 s, so a
    // reconnect gap longer than that fails runs whenever every pod restarts at once. A connect attempt
    // a second to an address that refuses is cheap.
    'grpc.initial_reconnect_backoff_ms': 250,
    'grpc.max_reconnect_backoff_ms': 1_000,
    'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
    'grpc.max_send_message_length': MAX_MESSAGE_BYTES,
  });
  const methods = new Map<string, UnaryMethodDefinition<unknown, unknown>>();

  const wireCall: RpcNext = (call) => new Promise((resolve, reject) => {
    const method = methods.get(call.method)!;
    if (call.signal.aborted) return reject(new CancelledError('call cancelled before start', { cause: call.signal.reason }));
    const pending = client.makeUnaryRequest(
      method.path, method.requestSerialize, method.responseDeserialize, call.request, call.metadata,
      { deadline: Date.now() + deadlineMs },
      (error, response) => {
        call.signal.removeEventListener('abort', onAbort);
        if (error) reject(error);
        else resolve(response);
      },
    );
    function onAbort() { pending.cancel(); }
    call.signal.addEventListener('abort', onAbort, { once: true });
  });

  const errorMapping: RpcInterceptor = async (call, next) => {
    try {
      return await next(call);
    } catch (error) {
      // The caller's own abort wins over whatever status the cancelled call ended with.
      if (call.signal.aborted) throw new CancelledError(`${call.service}/${call.method} cancelled by caller`, { cause: call.signal.reason });
      throw isServiceError(error) ? fromGrpcError(error, options.address) : error;
    }
  };

  const chain = compose(
    [clientTracing, callLogging(options.logger, 'client'), errorMapping, ...(options.interceptors ?? [])],
    wireCall,
  );

  return {
    async call<Req, Res>(method: UnaryMethodDefinition<Req, Res>, request: Req, signal: AbortSignal): Promise<Res> {
      const name = method.path.slice(method.path.lastIndexOf('/') + 1);
      if (!methods.has(name)) methods.set(name, method as UnaryMethodDefinition<unknown, unknown>);
      const call: RpcCall = { service, method: name, request, metadata: new Metadata(), signal };
      return (await chain(call)) as Res;
    },
    close: () => client.close(),
  };
}

function isServiceError(error: unknown): error is ServiceError {
  return error instanceof Error && typeof (error as Partial<ServiceError>).code === 'number' && 'metadata' in error;
}
