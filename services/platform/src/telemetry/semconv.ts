import type { Attributes } from '@opentelemetry/api';

/**
 * Semantic-convention attribute sets (OpenTelemetry RPC, messaging and gen_ai conventions). Plain string
 * keys rather than the incubating constants of @opentelemetry/semantic-conventions, whose names still move.
 */

export interface RpcAttributeInput {
  /** Fully qualified service, e.g. `leadfinder.fetcher.v1.FetcherService`. */
  service: string;
  /** Method name, e.g. `Search`. */
  method: string;
  /** Numeric gRPC status code, once known. */
  statusCode?: number;
}

export function rpcAttributes(input: RpcAttributeInput): Attributes {
  const attrs: Attributes = { 'rpc.system': 'grpc', 'rpc.service': input.service, 'rpc.method': input.method };
  if (input.statusCode !== undefined) attrs['rpc.grpc.status_code'] = input.statusCode;
  return attrs;
}

export type MessagingOperation = 'publish' | 'create' | 'receive' | 'process' | 'settle';

export interface MessagingAttributeInput {
  /** Subject or stream the message goes to / comes from, e.g. `runs.<id>.events`. */
  destination: string;
  operation: MessagingOperation;
}

export function messagingAttributes(input: MessagingAttributeInput): Attributes {
  return {
    'messaging.system': 'nats',
    'messaging.destination.name': input.destination,
    'messaging.operation': input.operation,
  };
}

export interface GenAiAttributeInput {
  /** Provider family, e.g. `openai`. */
  system: string;
  /** Requested model name. */
  model: string;
  inputTokens?: number;
  outputTokens?: number;
}

export function genAiAttributes(input: GenAiAttributeInput): Attributes {
  const attrs: Attributes = { 'gen_ai.system': input.system, 'gen_ai.request.model': input.model };
  if (input.inputTokens !== undefined) attrs['gen_ai.usage.input_tokens'] = input.inputTokens;
  if (input.outputTokens !== undefined) attrs['gen_ai.usage.output_tokens'] = input.outputTokens;
  return attrs;
}
