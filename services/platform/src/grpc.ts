/**
 * @leadfinder/platform/grpc: gRPC clients for the fetcher and filter ports and the server that exposes
 * them (distributed mode). Imported only by the composition root and tests.
 */
export {
  createGrpcFetcherClient, createGrpcFilterClient, DEFAULT_FETCHER_DEADLINE_MS, DEFAULT_FILTER_DEADLINE_MS,
  FETCHER_SERVICE, FILTER_SERVICE,
} from './adapters/grpc/clients.js';
export { startGrpcServer } from './adapters/grpc/server.js';
export type { Closable } from './adapters/grpc/clients.js';
export type { GrpcClientOptions, RetryOptions } from './adapters/grpc/channel.js';
export type { GrpcServerOptions, GrpcServerHandle } from './adapters/grpc/server.js';
export type { RpcCall, RpcInterceptor, RpcNext } from './adapters/grpc/interceptors.js';
