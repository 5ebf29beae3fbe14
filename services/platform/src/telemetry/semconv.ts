import type { Attributes } from '@opentelemetry/api';

/**
 * Semantic-convention attribute sets (OpenTelemetry RPC and messaging conventions). Plain string keys
 * rather than the incubating constants of @opentelemetry/semantic-conventions, whose names still move.
 * The gen_ai set (`gen_ai.provider.name`, `gen_ai.operation.name`, …) is built where the LLM is called,
 * the filter's OpenAI chat client, which alone knows the response side.
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
