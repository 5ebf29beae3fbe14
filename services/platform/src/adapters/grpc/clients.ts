import type { FetcherPort, FilterPort } from '../../ports/research.js';
import { FetcherServiceService } from '../../gen/leadfinder/fetcher/v1/fetcher_service.js';
import { FilterServiceService } from '../../gen/leadfinder/filter/v1/filter_service.js';
import { openUnaryChannel } from './channel.js';
import type { GrpcClientOptions } from './channel.js';
import * as map from './mapping.js';

/** Fetch opens slow sites; the fetcher's own per-page timeout (15 s default) fits well inside. */
export const DEFAULT_FETCHER_DEADLINE_MS = 30_000;
/** LLM calls with structured output can take tens of seconds. */
export const DEFAULT_FILTER_DEADLINE_MS = 60_000;

export const FETCHER_SERVICE = 'leadfinder.fetcher.v1.FetcherService';
export const FILTER_SERVICE = 'leadfinder.filter.v1.FilterService';

export interface Closable {
  /** Closes the channel; calls in flight fail with CANCELLED/UNAVAILABLE. */
  close(): void;
}

/**
 * The fetcher role over gRPC (distributed mode). Calls carry the run's signal (abort cancels the call),
 * a deadline (`deadlineMs`, default 30 s) and trace context; UNAVAILABLE and RESOURCE_EXHAUSTED are
 * retried up to 3 attempts; failures arrive as the server's typed LeadfinderError.
 */
export function createGrpcFetcherClient(options: GrpcClientOptions): FetcherPort & Closable {
  const channel = openUnaryChannel(FETCHER_SERVICE, DEFAULT_FETCHER_DEADLINE_MS, options);
  const s = FetcherServiceService;
  return {
    search: async (request, { signal }) =>
      map.searchResponse.toWire(await channel.call(s.search, map.searchRequest.toProto(request), signal)),
    fetch: async (request, { signal }) =>
      map.fetchOutcome.toWire(await channel.call(s.fetch, map.fetchRequest.toProto(request), signal)),
    close: () => channel.close(),
  };
}

/** The filter role over gRPC; as `createGrpcFetcherClient`, with a 60 s default deadline. */
export function createGrpcFilterClient(options: GrpcClientOptions): FilterPort & Closable {
  const channel = openUnaryChannel(FILTER_SERVICE, DEFAULT_FILTER_DEADLINE_MS, options);
  const s = FilterServiceService;
  return {
    plan: async (request, { signal }) =>
      map.planResponse.toWire(await channel.call(s.plan, map.planRequest.toProto(request), signal)),
    queries: async (request, { signal }) =>
      map.queriesResponse.toWire(await channel.call(s.queries, map.queriesRequest.toProto(request), signal)),
    screen: async (request, { signal }) =>
      map.screenResponse.toWire(await channel.call(s.screen, map.screenRequest.toProto(request), signal)),
    extract: async (request, { signal }) =>
      map.extractResponse.toWire(await channel.call(s.extract, map.extractRequest.toProto(request), signal)),
    verify: async (request, { signal }) =>
      map.verifyResponse.toWire(await channel.call(s.verify, map.verifyRequest.toProto(request), signal)),
    relax: async (request, { signal }) =>
      map.relaxResponse.toWire(await channel.call(s.relax, map.relaxRequest.toProto(request), signal)),
    close: () => channel.close(),
  };
}
