import type { CallOptions, FetcherPort, FilterPort } from '@leadfinder/platform';

/**
 * The run's research port: every fetcher and filter method as one named call, so cross-cutting work
 * (stage context for tracing, fetch-outcome metrics) composes as `(call, next)` interceptors once, as the
 * gRPC clients do (platform adapters/grpc/interceptors.ts), instead of wrapping the ports in Proxies.
 */

type Methods<P, Prefix extends string> = {
  [K in keyof P & string as `${Prefix}.${K}`]: P[K] extends (request: infer Q, options: CallOptions) => Promise<infer A>
    ? { request: Q; response: A }
    : never;
};
/** Request and response of each call, by name (`fetcher.search`, `filter.verify`, …). */
export type ResearchMethods = Methods<FetcherPort, 'fetcher'> & Methods<FilterPort, 'filter'>;
export type ResearchCallName = keyof ResearchMethods;

/** One attempt of one call, as interceptors see it. */
export interface ResearchCall {
  name: ResearchCallName;
  request: unknown;
  /** The attempt's signal: the run signal and the attempt's own timeout. */
  signal: AbortSignal;
}
export type ResearchNext = (call: ResearchCall) => Promise<unknown>;
export type ResearchInterceptor = (call: ResearchCall, next: ResearchNext) => Promise<unknown>;

export interface ResearchPort {
  call<N extends ResearchCallName>(name: N, request: ResearchMethods[N]['request'], signal: AbortSignal): Promise<ResearchMethods[N]['response']>;
}

/** Composes interceptors, first = outermost, around `last`. */
export function composeResearch(interceptors: readonly ResearchInterceptor[], last: ResearchNext): ResearchNext {
  return interceptors.reduceRight<ResearchNext>((next, interceptor) => (call) => interceptor(call, next), last);
}

/** The fetcher and filter as one research port, each call through `interceptors` (first = outermost). */
export function researchPort(fetcher: FetcherPort, filter: FilterPort, interceptors: readonly ResearchInterceptor[] = []): ResearchPort {
  type Dispatch = { [N in ResearchCallName]: (request: ResearchMethods[N]['request'], options: CallOptions) => Promise<ResearchMethods[N]['response']> };
  const dispatch: Dispatch = {
    'fetcher.search': (request, options) => fetcher.search(request, options),
    'fetcher.fetch': (request, options) => fetcher.fetch(request, options),
    'filter.plan': (request, options) => filter.plan(request, options),
    'filter.queries': (request, options) => filter.queries(request, options),
    'filter.screen': (request, options) => filter.screen(request, options),
    'filter.extract': (request, options) => filter.extract(request, options),
    'filter.verify': (request, options) => filter.verify(request, options),
    'filter.relax': (request, options) => filter.relax(request, options),
  };
  const chain = composeResearch(interceptors, (call) =>
    (dispatch[call.name] as (request: unknown, options: CallOptions) => Promise<unknown>)(call.request, { signal: call.signal }));
  return {
    call: (name, request, signal) => chain({ name, request, signal }) as Promise<ResearchMethods[typeof name]['response']>,
  };
}
