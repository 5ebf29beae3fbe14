import type { AttributeValue, Attributes, HrTime, SpanContext } from '@opentelemetry/api';
import { OTLPExporterBase } from '@opentelemetry/otlp-exporter-base';
import { convertLegacyHttpOptions, createOtlpHttpExportDelegate } from '@opentelemetry/otlp-exporter-base/node-http';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';

/**
 * OTLP/JSON encoding of a batch of spans (an `ExportTraceServiceRequest`), written straight into one buffer.
 *
 * Why not `@opentelemetry/otlp-transformer`'s `JsonTraceSerializer`: it first builds an object tree of the
 * whole request (a wrapper object per attribute and per value, a BigInt per timestamp), then
 * `JSON.stringify`s it and encodes the string; that was half of what export cost an edge per `POST` (2.6–3.5
 * µs per span; this takes 1.8–2.2, see bench/README.md). This writes the same document in one pass, without
 * the fields proto3's JSON mapping leaves out at their default (empty `events`/`links`, zero dropped
 * counts): a collector reads the two alike (test/otlp-json.test.ts holds them equal, and test/observability
 * decodes what the real exporter sends).
 *
 * Encoding follows the OTLP/HTTP JSON rules: trace and span ids as hex strings, timestamps as decimal
 * strings of nanoseconds, enum values as integers, `kind` offset by one from the API's.
 */

/**
 * Writes the document's UTF-8 bytes straight into one buffer. Building it as a string cost more than the
 * official serializer: a string concatenated from thousands of small pieces (or an array of them joined)
 * has to be flattened and then encoded again, and number-to-string conversions add up; here each byte is
 * written once.
 */
class JsonWriter {
  private buf: Buffer;
  private pos = 0;
  /** `seconds` of the last timestamp and its digits: spans of one batch share it nearly always. */
  private lastSeconds = -1;
  private lastSecondsText = '';

  constructor(initialBytes: number) {
    this.buf = Buffer.allocUnsafe(initialBytes);
  }

  /** A copy of what was written, so the scratch buffer can be reused while an export is in flight. */
  take(): Buffer {
    const out = Buffer.from(this.buf.subarray(0, this.pos));
    this.pos = 0;
    return out;
  }

  private ensure(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + bytes));
    this.buf.copy(grown, 0, 0, this.pos);
    this.buf = grown;
  }

  /** ASCII that needs no escaping: this module's own syntax, hex ids, digits. */
  raw(text: string): void {
    const n = text.length;
    this.ensure(n);
    const { buf } = this;
    let pos = this.pos;
    for (let i = 0; i < n; i++) buf[pos++] = text.charCodeAt(i);
    this.pos = pos;
  }

  /**
   * A JSON string. Printable ASCII without a quote or backslash (nearly every name and value) is copied as is;
   * anything else is written as `JSON.stringify` writes it (escapes, lone surrogates), UTF-8 encoded.
   */
  string(text: string): void {
    const n = text.length;
    this.ensure(n + 2);
    const { buf } = this;
    const start = this.pos;
    let pos = start;
    buf[pos++] = 0x22;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) {
        const escaped = JSON.stringify(text);
        this.pos = start;
        this.ensure(Buffer.byteLength(escaped));
        this.pos += this.buf.write(escaped, this.pos, 'utf8');
        return;
      }
      buf[pos++] = c;
    }
    buf[pos++] = 0x22;
    this.pos = pos;
  }

  /** An integer or float as JSON writes it (`JSON.stringify`: `null` for NaN and infinities). */
  number(value: number): void {
    this.raw(Number.isInteger(value) && Math.abs(value) < 1e21 ? String(value) : JSON.stringify(value));
  }

  /** Nanoseconds since the epoch as a quoted decimal string (past 2^53: no Number can hold it). */
  nanos(time: HrTime): void {
    const seconds = Math.trunc(time[0]);
    let ns = Math.trunc(time[1]);
    if (seconds === 0) {
      this.raw(`"${ns}"`);
      return;
    }
    if (seconds !== this.lastSeconds) {
      this.lastSeconds = seconds;
      this.lastSecondsText = String(seconds);
    }
    this.raw('"');
    this.raw(this.lastSecondsText);
    this.ensure(10);
    const { buf } = this;
    for (let d = 8; d >= 0; d--) {
      buf[this.pos + d] = 0x30 + (ns % 10);
      ns = Math.floor(ns / 10);
    }
    buf[this.pos + 9] = 0x22;
    this.pos += 10;
  }
}

function anyValue(w: JsonWriter, value: unknown): void {
  switch (typeof value) {
    case 'string':
      w.raw('{"stringValue":');
      w.string(value);
      w.raw('}');
      return;
    case 'number':
      w.raw(Number.isInteger(value) ? '{"intValue":' : '{"doubleValue":');
      w.number(value);
      w.raw('}');
      return;
    case 'boolean':
      w.raw(value ? '{"boolValue":true}' : '{"boolValue":false}');
      return;
    case 'object':
      if (value === null) {
        w.raw('{}');
      } else if (value instanceof Uint8Array) {
        w.raw('{"bytesValue":"');
        w.raw(Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64'));
        w.raw('"}');
      } else if (Array.isArray(value)) {
        w.raw('{"arrayValue":{"values":[');
        value.forEach((v: unknown, i) => {
          if (i) w.raw(',');
          anyValue(w, v);
        });
        w.raw(']}}');
      } else {
        w.raw('{"kvlistValue":{"values":[');
        Object.entries(value).forEach(([k, v], i) => {
          w.raw(i ? ',{"key":' : '{"key":');
          w.string(k);
          w.raw(',"value":');
          anyValue(w, v);
          w.raw('}');
        });
        w.raw(']}}');
      }
      return;
    default:
      w.raw('{}');
  }
}

/** `<lead>[…]` with the attributes, nothing when there are none. */
function attributes(w: JsonWriter, lead: string, attrs: Attributes | undefined): void {
  if (!attrs) return;
  let first = true;
  for (const key of Object.keys(attrs)) {
    const value: AttributeValue | undefined = attrs[key];
    if (value === undefined) continue;
    w.raw(first ? lead : ',');
    w.raw('{"key":');
    w.string(key);
    w.raw(',"value":');
    first = false;
    anyValue(w, value);
    w.raw('}');
  }
  if (!first) w.raw(']');
}

/** OTLP span flags: the W3C trace flags, plus whether the parent's remoteness is known and is remote. */
function flags(context: SpanContext, parentIsRemote: boolean | undefined): number {
  return (context.traceFlags & 0xff) | 0x100 | (parentIsRemote ? 0x200 : 0);
}

function span(w: JsonWriter, s: ReadableSpan): void {
  const ctx = s.spanContext();
  const parent = s.parentSpanContext;
  // Ids are hex already (the SDK's own, or validated when extracted from a traceparent).
  w.raw('{"traceId":"');
  w.raw(ctx.traceId);
  w.raw('","spanId":"');
  w.raw(ctx.spanId);
  if (parent?.spanId) {
    w.raw('","parentSpanId":"');
    w.raw(parent.spanId);
  }
  w.raw('"');
  const traceState = ctx.traceState?.serialize();
  if (traceState) {
    w.raw(',"traceState":');
    w.string(traceState);
  }
  w.raw(',"name":');
  w.string(s.name);
  w.raw(',"kind":');
  w.number(s.kind + 1);
  w.raw(',"startTimeUnixNano":');
  w.nanos(s.startTime);
  w.raw(',"endTimeUnixNano":');
  w.nanos(s.endTime);
  attributes(w, ',"attributes":[', s.attributes);
  if (s.droppedAttributesCount) {
    w.raw(',"droppedAttributesCount":');
    w.number(s.droppedAttributesCount);
  }
  s.events.forEach((e, i) => {
    w.raw(i ? ',{"name":' : ',"events":[{"name":');
    w.string(e.name);
    w.raw(',"timeUnixNano":');
    w.nanos(e.time);
    attributes(w, ',"attributes":[', e.attributes);
    if (e.droppedAttributesCount) {
      w.raw(',"droppedAttributesCount":');
      w.number(e.droppedAttributesCount);
    }
    w.raw(i === s.events.length - 1 ? '}]' : '}');
  });
  if (s.droppedEventsCount) {
    w.raw(',"droppedEventsCount":');
    w.number(s.droppedEventsCount);
  }
  w.raw(',"status":{"code":');
  w.number(s.status.code);
  if (s.status.message) {
    w.raw(',"message":');
    w.string(s.status.message);
  }
  w.raw('}');
  s.links.forEach((l, i) => {
    w.raw(i ? ',{"traceId":"' : ',"links":[{"traceId":"');
    w.raw(l.context.traceId);
    w.raw('","spanId":"');
    w.raw(l.context.spanId);
    w.raw('"');
    const linkState = l.context.traceState?.serialize();
    if (linkState) {
      w.raw(',"traceState":');
      w.string(linkState);
    }
    attributes(w, ',"attributes":[', l.attributes);
    if (l.droppedAttributesCount) {
      w.raw(',"droppedAttributesCount":');
      w.number(l.droppedAttributesCount);
    }
    w.raw(',"flags":');
    w.number(flags(l.context, l.context.isRemote));
    w.raw(i === s.links.length - 1 ? '}]' : '}');
  });
  if (s.droppedLinksCount) {
    w.raw(',"droppedLinksCount":');
    w.number(s.droppedLinksCount);
  }
  w.raw(',"flags":');
  w.number(flags(ctx, parent?.isRemote));
  w.raw('}');
}

/** One scratch buffer for the process: exports are encoded one at a time, on the event loop. */
let scratch: JsonWriter | undefined;

/** `ExportTraceServiceRequest` as OTLP/JSON (UTF-8): spans grouped by resource, then by instrumentation scope. */
export function encodeSpansAsOtlpJson(spans: readonly ReadableSpan[]): Buffer {
  // Tracers of one name share their scope object: grouping by identity first needs no key per span.
  const byResource = new Map<ReadableSpan['resource'], Map<ReadableSpan['instrumentationScope'], ReadableSpan[]>>();
  for (const s of spans) {
    let scopes = byResource.get(s.resource);
    if (!scopes) byResource.set(s.resource, (scopes = new Map()));
    let list = scopes.get(s.instrumentationScope);
    if (!list) scopes.set(s.instrumentationScope, (list = []));
    list.push(s);
  }
  const w = (scratch ??= new JsonWriter(256 * 1024));
  w.raw('{"resourceSpans":[');
  let firstResource = true;
  for (const [resource, byScope] of byResource) {
    w.raw(firstResource ? '{"resource":{' : ',{"resource":{');
    firstResource = false;
    attributes(w, '"attributes":[', resource.attributes);
    w.raw('},"scopeSpans":[');
    // Scope objects that differ but name the same scope (name, version, schema) are one scope to a collector.
    const scopes = new Map<string, { scope: ReadableSpan['instrumentationScope']; spans: ReadableSpan[] }>();
    for (const [scope, list] of byScope) {
      const key = `${scope.name}@${scope.version ?? ''}:${scope.schemaUrl ?? ''}`;
      const found = scopes.get(key);
      if (found) found.spans.push(...list);
      else scopes.set(key, { scope, spans: list });
    }
    let firstScope = true;
    for (const { scope, spans: list } of scopes.values()) {
      w.raw(firstScope ? '{"scope":{"name":' : ',{"scope":{"name":');
      firstScope = false;
      w.string(scope.name);
      if (scope.version) {
        w.raw(',"version":');
        w.string(scope.version);
      }
      w.raw('},"spans":[');
      list.forEach((s, i) => {
        if (i) w.raw(',');
        span(w, s);
      });
      w.raw(']');
      if (scope.schemaUrl) {
        w.raw(',"schemaUrl":');
        w.string(scope.schemaUrl);
      }
      w.raw('}');
    }
    w.raw(']');
    if (resource.schemaUrl) {
      w.raw(',"schemaUrl":');
      w.string(resource.schemaUrl);
    }
    w.raw('}');
  }
  w.raw(']}');
  return w.take();
}

/**
 * The OTLP/HTTP trace exporter over JSON, with the official transport (`@opentelemetry/otlp-exporter-base`:
 * timeouts, retries with back-off, a bound on concurrent exports, `OTEL_EXPORTER_OTLP_*` headers and
 * compression) and `encodeSpansAsOtlpJson` as its serializer.
 */
export function createOtlpJsonTraceExporter(url: string): SpanExporter {
  return new OTLPExporterBase<ReadableSpan[]>(createOtlpHttpExportDelegate(
    convertLegacyHttpOptions({ url }, 'TRACES', 'v1/traces', { 'Content-Type': 'application/json' }),
    {
      serializeRequest: (spans) => encodeSpansAsOtlpJson(spans),
      // The response (an ExportTraceServiceResponse) is only read for a partial success, which the
      // exporter logs at debug.
      deserializeResponse: (body: Uint8Array) => (body.length ? JSON.parse(Buffer.from(body).toString('utf8')) as unknown : {}),
    },
  ));
}
