import type {
  ExtractRequest, ExtractResponse, PlanRequest, PlanResponse, QueriesRequest, QueriesResponse, RelaxRequest,
  RelaxResponse, ScreenRequest, ScreenResponse, VerifyRequest, VerifyResponse,
} from '@leadfinder/wire';
import type { CallOptions } from '@leadfinder/platform';

/**
 * The reasoning behind the filter role. Two adapters: the embedded rule-based reasoner (offline, quotes
 * the passages it rests on) and an OpenAI-compatible chat-completions reasoner. The filter service
 * wraps either one and re-checks its output against the pages, so neither can put an invented name or
 * passage into a row.
 */
export interface Reasoner {
  /** `rules` or `llm`, the rationale mode of its verdicts. */
  readonly mode: 'rules' | 'llm';
  plan(request: PlanRequest, options: CallOptions): Promise<PlanResponse>;
  queries(request: QueriesRequest, options: CallOptions): Promise<QueriesResponse>;
  screen(request: ScreenRequest, options: CallOptions): Promise<ScreenResponse>;
  extract(request: ExtractRequest, options: CallOptions): Promise<ExtractResponse>;
  verify(request: VerifyRequest, options: CallOptions): Promise<VerifyResponse>;
  relax(request: RelaxRequest, options: CallOptions): Promise<RelaxResponse>;
}
