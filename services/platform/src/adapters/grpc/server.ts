import { Server, ServerCredentials } from '@grpc/grpc-js';
import type { ServerUnaryCall, UntypedServiceImplementation, handleUnaryCall, sendUnaryData } from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import type { z } from 'zod';
import * as wire from '@leadfinder/wire';
import { CancelledError, InvalidArgumentError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { CallOptions, FetcherPort, FilterPort } from '../../ports/research.js';
import { FetcherServiceService } from '../../gen/leadfinder/fetcher/v1/fetcher_service.js';
import { FilterServiceService } from '../../gen/leadfinder/filter/v1/filter_service.js';
import { FETCHER_SERVICE, FILTER_SERVICE } from './clients.js';
import { MAX_MESSAGE_BYTES } from './channel.js';
import { callLogging, compose, serverMetrics, serverTracing } from './interceptors.js';
import type { RpcInterceptor, RpcNext } from './interceptors.js';
import * as map from './mapping.js';
import { toGrpcStatus } from './status.js';

export interface GrpcServerOptions {
  /** 0 picks a free port (tests). */
  port: number;
  /**
   * Interface to bind.
   * @default '0.0.0.0'
   */
  host?: string;
  /** In-process implementations to expose; each one present is registered and reported SERVING. */
  services: { fetcher?: FetcherPort; filter?: FilterPort };
  logger: Logger;
  /** Extra interceptors, innermost after tracing and logging. */
  interceptors?: RpcInterceptor[];
  /**
   * How long `stop()` lets calls in flight finish before cutting them.
   * @default 10000
   */
  drainMs?: number;
}

export interface GrpcServerHandle {
  /** The bound port (the real one when 0 was asked for). */
  port: number;
  /** Reports NOT_SERVING, drains calls in flight (up to `drainMs`), then closes. */
  stop(): Promise<void>;
}

type PortCall<Req, Res> = (request: Req, options: CallOptions) => Promise<Res>;

/** Validates a decoded request against its wire schema; a bad one is INVALID_ARGUMENT naming the field. */
function validated<T>(schema: z.ZodType<T>, value: T): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.map(String).join('.');
  throw new InvalidArgumentError(`${field || 'request'}: ${issue.message}`, field || undefined);
}

/** One RPC: proto request → wire (validated) → port → proto response, through the interceptor chain. */
function unary<PReq, PRes, WReq, WRes>(
  chain: (last: RpcNext) => RpcNext,
  service: string,
  method: string,
  toWire: (request: PReq) => WReq,
  schema: z.ZodType<WReq>,
  invoke: PortCall<WReq, WRes>,
  toProto: (response: WRes) => PRes,
): handleUnaryCall<PReq, PRes> {
  const run = chain(async (call) => toProto(await invoke(validated(schema, toWire(call.request as PReq)), { signal: call.signal })));
  return (call: ServerUnaryCall<PReq, PRes>, callback: sendUnaryData<PRes>) => {
    const controller = new AbortController();
    // Client cancel and deadline both surface as 'cancelled'; the port sees it as its signal.
    call.on('cancelled', () => controller.abort(new CancelledError(`${service}/${method} cancelled by the caller`)));
    run({ service, method, request: call.request, metadata: call.metadata, signal: controller.signal }).then(
      (response) => callback(null, response as PRes),
      (error: unknown) => callback(toGrpcStatus(error)),
    );
  };
}

function fetcherHandlers(port: FetcherPort, chain: (last: RpcNext) => RpcNext): UntypedServiceImplementation {
  const S = FETCHER_SERVICE;
  return {
    search: unary(chain, S, 'Search', map.searchRequest.toWire, wire.SearchRequest, port.search.bind(port), map.searchResponse.toProto),
    fetch: unary(chain, S, 'Fetch', map.fetchRequest.toWire, wire.FetchRequest, port.fetch.bind(port), map.fetchOutcome.toProto),
  };
}

function filterHandlers(port: FilterPort, chain: (last: RpcNext) => RpcNext): UntypedServiceImplementation {
  const S = FILTER_SERVICE;
  return {
    plan: unary(chain, S, 'Plan', map.planRequest.toWire, wire.PlanRequest, port.plan.bind(port), map.planResponse.toProto),
    queries: unary(chain, S, 'Queries', map.queriesRequest.toWire, wire.QueriesRequest, port.queries.bind(port), map.queriesResponse.toProto),
    screen: unary(chain, S, 'Screen', map.screenRequest.toWire, wire.ScreenRequest, port.screen.bind(port), map.screenResponse.toProto),
    extract: unary(chain, S, 'Extract', map.extractRequest.toWire, wire.ExtractRequest, port.extract.bind(port), map.extractResponse.toProto),
    verify: unary(chain, S, 'Verify', map.verifyRequest.toWire, wire.VerifyRequest, port.verify.bind(port), map.verifyResponse.toProto),
    relax: unary(chain, S, 'Relax', map.relaxRequest.toWire, wire.RelaxRequest, port.relax.bind(port), map.relaxResponse.toProto),
  };
}

/**
 * Serves in-process ports over gRPC, with `grpc.health.v1.Health` reporting SERVING for each service
 * registered (and for the whole server, service name ""). Handlers run inside a server span joined to
 * the caller's trace and are timed into `rpc.server.duration`; thrown LeadfinderErrors become gRPC statuses in one place (`toGrpcStatus`).
 */
export async function startGrpcServer(options: GrpcServerOptions): Promise<GrpcServerHandle> {
  const { services, logger } = options;
  const interceptors = [serverTracing, serverMetrics, callLogging(logger, 'server'), ...(options.interceptors ?? [])];
  const chain = (last: RpcNext) => compose(interceptors, last);
  const server = new Server({
    'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
    'grpc.max_send_message_length': MAX_MESSAGE_BYTES,
  });
  const served: string[] = [];
  if (services.fetcher) {
    server.addService(FetcherServiceService, fetcherHandlers(services.fetcher, chain));
    served.push(FETCHER_SERVICE);
  }
  if (services.filter) {
    server.addService(FilterServiceService, filterHandlers(services.filter, chain));
    served.push(FILTER_SERVICE);
  }
  const health = new HealthImplementation({ '': 'SERVING', ...Object.fromEntries(served.map((s) => [s, 'SERVING' as const])) });
  health.addToServer(server);

  const host = options.host ?? '0.0.0.0';
  const address = host.includes(':') ? `[${host}]:${options.port}` : `${host}:${options.port}`;
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(address, ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound)));
  });
  logger.info('grpc server listening', { host, port, services: served });

  let stopping: Promise<void> | undefined;
  return {
    port,
    stop() {
      stopping ??= new Promise<void>((resolve) => {
        for (const s of ['', ...served]) health.setStatus(s, 'NOT_SERVING');
        // Calls in flight get `drainMs` to finish, then are cut so shutdown is bounded.
        const timer = setTimeout(() => server.forceShutdown(), options.drainMs ?? 10_000);
        server.tryShutdown(() => {
          clearTimeout(timer);
          logger.info('grpc server stopped', { port });
          resolve();
        });
      });
      return stopping;
    },
  };
}
