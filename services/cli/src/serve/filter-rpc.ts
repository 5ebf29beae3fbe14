import { startGrpcServer } from '@leadfinder/platform/grpc';
import type { FilterPort, Logger } from '@leadfinder/platform';
import type { GrpcServerHandle } from '@leadfinder/platform/grpc';

export interface ServeFilterOptions {
  /** The in-process filter to expose (what `createFilter(...)` returns). */
  filter: FilterPort;
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
 * Serves `leadfinder.filter.v1.FilterService` (plus gRPC health) for the filter role started alone.
 * Stop it before closing whatever the filter depends on: `stop()` drains calls in flight.
 */
export function serveFilter(options: ServeFilterOptions): Promise<GrpcServerHandle> {
  return startGrpcServer({
    port: options.port,
    host: options.host ?? '0.0.0.0',
    services: { filter: options.filter },
    logger: options.logger.child({ component: 'filter-grpc' }),
  });
}
