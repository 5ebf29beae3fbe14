import type { AttributeValue, Attributes, HrTime, SpanContext } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { SpanGroups, type SpanResource, type SpanWriters } from './otlp-span-groups.js';

/**
 * OTLP/JSON encoding of a batch of spans (an `ExportTraceServiceRequest`), written straight into one buffer.
 *
 * Why not `@opentelemetry/otlp-transformer`'s `JsonTraceSerializer`: it first builds an object tree of the
 * whole request (a wrapper object per attribute and per value, a BigInt per timestamp), then
 * `JSON.stringify`s it and encodes the string; that was half of what export cost an edge per `POST` (2.6–3.5
 * µs per span; this takes 1.8–2.2, see bench/README.md). This writes the same document, without the fields
 * proto3's JSON mapping leaves out at their default (empty `events`/`links`, zero dropped counts): a
 * collector reads the two alike (test/otlp-json.test.ts holds them equal, and test/observability decodes
 * what the real exporter sends). Each span can be encoded as it ends (`OtlpJsonSpanBatch`, used by
 * otlp-batch-processor.ts), so no span object waits for its batch.
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

  /** Bytes written so far. */
  get length(): number {
    return this.pos;
  }

  /** A copy of what was written (the buffer is reused for the next document), and starts over. */
  take(): Buffer {
    const out = Buffer.from(this.buf.subarray(0, this.pos));
    this.pos = 0;
    return out;
  }

  /** Forgets what was written, keeping the buffer. */
  clear(): void {
    this.pos = 0;
  }

  /** Forgets what was written after the first `length` bytes. */
  truncate(length: number): void {
    this.pos = Math.min(this.pos, length);
  }

  /** Appends what another writer holds. */
  append(other: JsonWriter): void {
    this.ensure(other.pos);
    other.buf.copy(this.buf, this.pos, 0, other.pos);
    this.pos += other.pos;
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

function writeSpan(w: JsonWriter, s: ReadableSpan): void {
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

const JSON_WRITERS: SpanWriters<JsonWriter> = {
  create: () => new JsonWriter(4 * 1024),
  isEmpty: (w) => w.length === 0,
  clear: (w) => w.clear(),
};

/**
 * Spans encoded one by one as they are added, grouped by resource and instrumentation scope
 * (otlp-span-groups.ts), until `finish()` writes the `ExportTraceServiceRequest` around them. What is kept
 * between the two is bytes in a few reused buffers, not the span objects: a batch span processor that held
 * spans until a batch of 512 went out kept every span of the last ~180 ms of a busy edge alive, and
 * young-generation collections copied and promoted them (about 20–30 µs per `POST`, bench/README.md);
 * encoded at once, a span dies young.
 */
export class OtlpJsonSpanBatch {
  private readonly groups = new SpanGroups(JSON_WRITERS);
  private readonly doc = new JsonWriter(16 * 1024);

  /** Spans added since the last `finish()`. */
  get size(): number {
    return this.groups.size;
  }

  /** The resources of the spans added (to wait for their asynchronous attributes before `finish()`). */
  resources(): SpanResource[] {
    return this.groups.resources();
  }

  /** Encodes the span; if that throws, the batch is as it was. */
  add(span: ReadableSpan): void {
    const spans = this.groups.writerFor(span);
    const mark = spans.length;
    try {
      if (mark) spans.raw(',');
      writeSpan(spans, span);
    } catch (error) {
      spans.truncate(mark);
      throw error;
    }
    this.groups.added();
  }

  /** The request (OTLP/JSON, UTF-8) with every span added since the last call; the batch is empty after. */
  finish(): Buffer {
    return this.groups.drain((groups) => {
      const w = this.doc;
      w.raw('{"resourceSpans":[');
      groups.forEach(({ resource, scopes }, r) => {
        w.raw(r ? ',{"resource":{' : '{"resource":{');
        attributes(w, '"attributes":[', resource.attributes);
        w.raw('},"scopeSpans":[');
        scopes.forEach(({ scope, writers }, k) => {
          w.raw(k ? ',{"scope":{"name":' : '{"scope":{"name":');
          w.string(scope.name);
          if (scope.version) {
            w.raw(',"version":');
            w.string(scope.version);
          }
          w.raw('},"spans":[');
          writers.forEach((spans, i) => {
            if (i) w.raw(',');
            w.append(spans);
          });
          w.raw(']');
          if (scope.schemaUrl) {
            w.raw(',"schemaUrl":');
            w.string(scope.schemaUrl);
          }
          w.raw('}');
        });
        w.raw(']');
        if (resource.schemaUrl) {
          w.raw(',"schemaUrl":');
          w.string(resource.schemaUrl);
        }
        w.raw('}');
      });
      w.raw(']}');
      return w.take();
    });
  }
}

/** For one-off encodings: a batch is filled and finished in one synchronous call, so one serves them all. */
let shared: OtlpJsonSpanBatch | undefined;

/** `ExportTraceServiceRequest` as OTLP/JSON (UTF-8): spans grouped by resource, then by instrumentation scope. */
export function encodeSpansAsOtlpJson(spans: readonly ReadableSpan[]): Buffer {
  const batch = (shared ??= new OtlpJsonSpanBatch());
  for (const s of spans) batch.add(s);
  return batch.finish();
}
