import { startGrpcServer } from '@leadfinder/platform/grpc';
import type { FetcherPort, Logger } from '@leadfinder/platform';
import type { GrpcServerHandle } from '@leadfinder/platform/grpc';

export interface ServeFetcherOptions {
  /** The in-process fetcher to expose (what `createFetcher(...)` returns). */
  fetcher: FetcherPort;
  /** Port to listen on (`LEADFINDER_GRPC_PORT`); 0 picks a free one. */
  port: number;
  logger: Logger;
  /**
   * Interface to bind; all interfaces, since the coordinator reaches pods over the cluster network.
   * @default '0.0.0.0'
   */
  host?: string;
}

/**
 * Serves `leadfinder.fetcher.v1.FetcherService` (plus gRPC health) for the fetcher role started alone.
 * Stop it before closing whatever the fetcher depends on: `stop()` drains calls in flight.
 */
export function serveFetcher(options: ServeFetcherOptions): Promise<GrpcServerHandle> {
  return startGrpcServer({
    port: options.port,
    host: options.host ?? '0.0.0.0',
    services: { fetcher: options.fetcher },
    logger: options.logger.child({ component: 'fetcher-grpc' }),
  });
}
