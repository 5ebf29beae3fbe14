/**
 * Test support for the OTLP/protobuf writer's tests: decode trace requests with the official generated types
 * (`@opentelemetry/otlp-transformer`'s protobufjs root, built from opentelemetry-proto), the same types the
 * official `ProtobufTraceSerializer` encodes with.
 */
import officialRoot from '@opentelemetry/otlp-transformer/build/src/generated/root.js';

interface ProtobufType {
  decode(bytes: Uint8Array): object;
  encode(message: object): { finish(): Uint8Array };
  toObject(message: object, options: Record<string, unknown>): Record<string, unknown>;
  verify(message: object): string | null;
}

/** The generated module is typed as a bare `Root`; its static types hang off it by package. */
const generated = officialRoot as unknown as {
  opentelemetry: { proto: { collector: { trace: { v1: { ExportTraceServiceRequest: ProtobufType } } } } };
};

export const ExportTraceServiceRequest = generated.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

export interface DecodedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  traceState: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: { key: string; value: Record<string, unknown> }[];
  droppedAttributesCount: number;
  events: { name: string; timeUnixNano: string; attributes: unknown[]; droppedAttributesCount: number }[];
  droppedEventsCount: number;
  links: { traceId: string; spanId: string; traceState: string; flags: number; attributes: unknown[] }[];
  droppedLinksCount: number;
  status: { code: number; message: string } | null;
  flags: number;
}

export interface DecodedRequest {
  resourceSpans: {
    resource: { attributes: { key: string; value: Record<string, unknown> }[] };
    schemaUrl: string;
    scopeSpans: { scope: { name: string; version: string }; schemaUrl: string; spans: DecodedSpan[] }[];
  }[];
}

/**
 * A request decoded into plain objects: 64-bit integers as decimal strings, ids and bytes as hex, every
 * field present with its default (so a field left out at its default and one written at it read alike,
 * as any proto3 reader sees them). `oneof` members are not defaulted: an attribute's value type shows.
 * With `defaults: false`, fields not on the wire are left out, as in OTLP/JSON.
 */
export function decodeTraceRequest(bytes: Uint8Array, options: { defaults?: boolean } = {}): DecodedRequest {
  const message = ExportTraceServiceRequest.decode(bytes);
  const problem = ExportTraceServiceRequest.verify(message);
  if (problem) throw new Error(`not a valid ExportTraceServiceRequest: ${problem}`);
  const defaults = options.defaults ?? true;
  const plain = ExportTraceServiceRequest.toObject(message, { longs: String, enums: Number, bytes: Array, defaults, arrays: defaults });
  return hexBytes(plain) as unknown as DecodedRequest;
}

/** Byte arrays (`bytes: Array` above) as hex, so ids read as the API writes them. */
function hexBytes(value: unknown): unknown {
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every((v) => typeof v === 'number')) return Buffer.from(value as number[]).toString('hex');
    return value.map((v) => hexBytes(v));
  }
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, hexBytes(v)]));
  return value;
}

/** The names of the spans of a decoded request, in document order. */
export const spanNames = (request: DecodedRequest): string[] =>
  request.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans.map((span) => span.name)));
