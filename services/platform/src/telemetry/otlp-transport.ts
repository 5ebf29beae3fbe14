import { OTLPExporterBase } from '@opentelemetry/otlp-exporter-base';
import { convertLegacyHttpOptions, createOtlpHttpExportDelegate } from '@opentelemetry/otlp-exporter-base/node-http';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';

/** How a trace export request is written: `OtlpProtoSpanBatch` (otlp-proto.ts) or `OtlpJsonSpanBatch` (otlp-json.ts). */
export type OtlpTraceEncoding = 'protobuf' | 'json';

/**
 * The OTLP/HTTP trace transport for requests already encoded, with the official exporter's machinery
 * (`@opentelemetry/otlp-exporter-base`: timeouts, retries with back-off, a bound on concurrent exports,
 * `OTEL_EXPORTER_OTLP_*` headers and compression). The response (an ExportTraceServiceResponse, in the
 * request's encoding) is only read for a partial success, which the exporter logs.
 */
export function createOtlpTraceTransport(url: string, encoding: OtlpTraceEncoding): OTLPExporterBase<Buffer> {
  const protobuf = encoding === 'protobuf';
  return new OTLPExporterBase<Buffer>(createOtlpHttpExportDelegate(
    convertLegacyHttpOptions({ url }, 'TRACES', 'v1/traces', { 'Content-Type': protobuf ? 'application/x-protobuf' : 'application/json' }),
    {
      serializeRequest: (body) => body,
      deserializeResponse: (body: Uint8Array) => (protobuf
        ? ProtobufTraceSerializer.deserializeResponse(body)
        : (body.length ? JSON.parse(Buffer.from(body).toString('utf8')) as unknown : {})),
    },
  ));
}
