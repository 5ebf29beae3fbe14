import type {
  ExtractRequest, ExtractResponse, FetchOutcome, FetchRequest, PlanRequest, PlanResponse, QueriesRequest,
  QueriesResponse, RelaxRequest, RelaxResponse, ScreenRequest, ScreenResponse, SearchRequest, SearchResponse,
  VerifyRequest, VerifyResponse,
} from '@leadfinder/wire';

/** Per-call options every research port takes: the run's signal and trace context. */
export interface CallOptions {
  signal: AbortSignal;
}

/** The fetcher role: web search and page opening. In-process in embedded mode, gRPC when distributed. */
export interface FetcherPort {
  search(request: SearchRequest, options: CallOptions): Promise<SearchResponse>;
  fetch(request: FetchRequest, options: CallOptions): Promise<FetchOutcome>;
}

/** The filter role: reasoning over queries, excerpts and pages. In-process or gRPC. */
export interface FilterPort {
  plan(request: PlanRequest, options: CallOptions): Promise<PlanResponse>;
  queries(request: QueriesRequest, options: CallOptions): Promise<QueriesResponse>;
  screen(request: ScreenRequest, options: CallOptions): Promise<ScreenResponse>;
  extract(request: ExtractRequest, options: CallOptions): Promise<ExtractResponse>;
  verify(request: VerifyRequest, options: CallOptions): Promise<VerifyResponse>;
  relax(request: RelaxRequest, options: CallOptions): Promise<RelaxResponse>;
}

/** A search provider behind the fetcher (SearXNG, Brave, local corpus). */
export interface SearchProvider {
  readonly name: string;
  search(request: SearchRequest, signal: AbortSignal): Promise<SearchResponse>;
}
