import type { Attributes, HrTime, SpanContext } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { SpanGroups, type SpanResource, type SpanScope, type SpanWriters } from './otlp-span-groups.js';

/**
 * OTLP/protobuf encoding of a batch of spans (an `ExportTraceServiceRequest` of opentelemetry-proto's
 * collector/trace/v1), written straight into one buffer, each span as it ends (`OtlpProtoSpanBatch`, used by
 * the batch processor in otlp-batch-processor.ts).
 *
 * Why not `@opentelemetry/otlp-transformer`'s `ProtobufTraceSerializer` (what
 * `@opentelemetry/exporter-trace-otlp-proto` sends): it builds an object per span, attribute and value (a
 * BigInt and a `{low, high}` per timestamp, a Uint8Array per id), then protobufjs walks that tree twice, once
 * to queue operations and once to write them; it cost more per span than our JSON writer (bench/README.md).
 * Here ids are decoded from hex straight into the buffer, timestamps written as fixed64 from the `HrTime`
 * (the seconds' part is shared by nearly every span of a batch), and lengths patched after a message is
 * written (reserved as one byte, two for a span; moved only when the message is longer than that).
 * The resource and each instrumentation scope are encoded once and reused by every batch.
 *
 * Fields at their proto3 default are left out (zero dropped counts, empty lists), as proto3 readers expect;
 * values of a `oneof` (an attribute's `AnyValue`) are always written, so `0`, `false` and `""` keep their
 * type. test/otlp-proto.test.ts decodes what this writes with the official generated types and holds it equal
 * to the official serializer's request for the same spans.
 */

/** 2^32 */
const TWO_32 = 4_294_967_296;
/** 10^9 = 1953125 × 2^9: seconds × 1953125 stays an exact integer for any seconds before the year 2116. */
const NS_ODD_FACTOR = 1_953_125;
/** 2^23: (seconds × 1953125) mod 2^23, shifted by 9 bits, is the low word of seconds × 10^9. */
const TWO_23 = 8_388_608;

function varintSize(value: number): number {
  return value < 0x80 ? 1 : value < 0x4000 ? 2 : value < 0x200000 ? 3 : value < 0x10000000 ? 4 : 5;
}

/** Each hex digit's value by its character code (the SDK's ids are lower-case hex; upper case is read too, as `hexToBinary` does). */
const HEX = new Uint8Array(128);
for (let i = 0; i < 10; i++) HEX[0x30 + i] = i;
for (let i = 0; i < 6; i++) HEX[0x61 + i] = HEX[0x41 + i] = 10 + i;

/**
 * Writes protobuf wire format into one growing buffer. Tags are written as the literal bytes of
 * `(field << 3) | wireType` by the callers (every tag here fits one byte but the span's `flags`).
 */
class ProtoWriter {
  buf: Buffer;
  pos = 0;
  /** Seconds of the last timestamp and its low and high words × 10^9: a batch's spans share them nearly always. */
  private lastSeconds = Number.NaN;
  private secondsLow = 0;
  private secondsHigh = 0;

  constructor(initialBytes: number) {
    this.buf = Buffer.allocUnsafe(initialBytes);
  }

  ensure(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + bytes));
    this.buf.copy(grown, 0, 0, this.pos);
    this.buf = grown;
  }

  /** A copy of what was written. */
  bytes(): Buffer {
    return Buffer.from(this.buf.subarray(0, this.pos));
  }

  byte(value: number): void {
    if (this.pos >= this.buf.length) this.ensure(1);
    this.buf[this.pos++] = value;
  }

  /** Two bytes (a tag and a one-byte value, or a two-byte tag). */
  byte2(a: number, b: number): void {
    if (this.pos + 2 > this.buf.length) this.ensure(2);
    this.buf[this.pos++] = a;
    this.buf[this.pos++] = b;
  }

  /** A varint of 0 ≤ value < 2^32. */
  varint(value: number): void {
    this.ensure(5);
    const { buf } = this;
    let pos = this.pos;
    let v = value >>> 0;
    while (v > 0x7f) {
      buf[pos++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    buf[pos++] = v;
    this.pos = pos;
  }

  /** An `int64` varint of an integer Number, as protobufjs writes one (two's complement below zero, 10 bytes). */
  int64(value: number): void {
    if (value >= 0 && value < TWO_32) {
      this.varint(value);
      return;
    }
    const negative = value < 0;
    const magnitude = negative ? -value : value;
    let lo = magnitude >>> 0;
    let hi = ((magnitude - lo) / TWO_32) >>> 0;
    if (negative) {
      hi = ~hi >>> 0;
      lo = ~lo >>> 0;
      if (++lo > 0xffffffff) {
        lo = 0;
        if (++hi > 0xffffffff) hi = 0;
      }
    }
    this.varint64(lo, hi);
  }

  private varint64(lo: number, hi: number): void {
    this.ensure(10);
    const { buf } = this;
    let pos = this.pos;
    while (hi) {
      buf[pos++] = (lo & 0x7f) | 0x80;
      lo = ((lo >>> 7) | (hi << 25)) >>> 0;
      hi >>>= 7;
    }
    while (lo > 0x7f) {
      buf[pos++] = (lo & 0x7f) | 0x80;
      lo >>>= 7;
    }
    buf[pos++] = lo;
    this.pos = pos;
  }

  double(value: number): void {
    this.ensure(8);
    this.pos = this.buf.writeDoubleLE(value, this.pos);
  }

  fixed32(value: number): void {
    this.ensure(4);
    this.pos = this.buf.writeUInt32LE(value >>> 0, this.pos);
  }

  /** Nanoseconds since the epoch as a `fixed64` (little-endian), as the official encoder reads an `HrTime`. */
  time(time: HrTime): void {
    const seconds = Math.trunc(time[0]);
    const nanos = Math.trunc(time[1]);
    if (seconds !== this.lastSeconds) {
      const scaled = seconds * NS_ODD_FACTOR;
      if (seconds < 0 || !Number.isSafeInteger(scaled)) {
        this.timeOutOfRange(seconds, nanos);
        return;
      }
      this.lastSeconds = seconds;
      this.secondsLow = (scaled % TWO_23) * 512;
      this.secondsHigh = Math.floor(scaled / TWO_23);
    }
    if (nanos < 0 || nanos >= 1e9) {
      this.timeOutOfRange(seconds, nanos);
      return;
    }
    let low = this.secondsLow + nanos;
    let high = this.secondsHigh;
    if (low >= TWO_32) {
      low -= TWO_32;
      high++;
    }
    this.ensure(8);
    const { buf } = this;
    const pos = this.pos;
    buf[pos] = low;
    buf[pos + 1] = low >>> 8;
    buf[pos + 2] = low >>> 16;
    buf[pos + 3] = low >>> 24;
    buf[pos + 4] = high;
    buf[pos + 5] = high >>> 8;
    buf[pos + 6] = high >>> 16;
    buf[pos + 7] = high >>> 24;
    this.pos = pos + 8;
  }

  /** What no clock gives (before 1970, after 2116, nanoseconds outside 0–999,999,999): exact, through BigInt. */
  private timeOutOfRange(seconds: number, nanos: number): void {
    this.ensure(8);
    this.buf.writeBigUInt64LE(BigInt.asUintN(64, BigInt(seconds) * 1_000_000_000n + BigInt(nanos)), this.pos);
    this.pos += 8;
  }

  /** A length-delimited UTF-8 string (length, then bytes). */
  string(text: string): void {
    const n = text.length;
    // ASCII (nearly every name and value): as many bytes as characters, copied as they are.
    this.ensure(n + 5);
    const { buf } = this;
    const start = this.pos;
    let pos = start;
    let v = n;
    while (v > 0x7f) {
      buf[pos++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    buf[pos++] = v;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c > 0x7f) {
        this.pos = start;
        this.utf8(text);
        return;
      }
      buf[pos++] = c;
    }
    this.pos = pos;
  }

  /**
   * A `KeyValue` field `tag` with a string value when both are ASCII and short (nearly every attribute): its
   * lengths are known before writing, so it is written in one go. False, nothing written, otherwise.
   */
  asciiStringKeyValue(tag: number, key: string, value: string): boolean {
    const k = key.length;
    const v = value.length;
    // KeyValue: key (1) [0x0a, k, …], value (2) [0x12, 2 + v, AnyValue: string_value (1) [0x0a, v, …]].
    const length = 6 + k + v;
    if (length > 0x7f) return false;
    this.ensure(length + 2);
    const { buf } = this;
    let pos = this.pos;
    buf[pos++] = tag;
    buf[pos++] = length;
    buf[pos++] = 0x0a;
    buf[pos++] = k;
    for (let i = 0; i < k; i++) {
      const c = key.charCodeAt(i);
      if (c > 0x7f) return false;
      buf[pos++] = c;
    }
    buf[pos++] = 0x12;
    buf[pos++] = 2 + v;
    buf[pos++] = 0x0a;
    buf[pos++] = v;
    for (let i = 0; i < v; i++) {
      const c = value.charCodeAt(i);
      if (c > 0x7f) return false;
      buf[pos++] = c;
    }
    this.pos = pos;
    return true;
  }

  /** Anything beyond ASCII: Node's UTF-8 encoder (a lone surrogate becomes U+FFFD, so the bytes stay valid UTF-8). */
  private utf8(text: string): void {
    const length = Buffer.byteLength(text, 'utf8');
    this.varint(length);
    this.ensure(length);
    this.pos += this.buf.write(text, this.pos, length, 'utf8');
  }

  /** Raw bytes, length-delimited. */
  lengthDelimited(bytes: Uint8Array): void {
    this.varint(bytes.length);
    this.ensure(bytes.length);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
  }

  /** A span or trace id, hex in the API, as `bytes` after its tag. */
  id(tag: number, hex: string): void {
    const n = hex.length >>> 1;
    this.ensure(n + 2);
    const { buf } = this;
    let pos = this.pos;
    buf[pos++] = tag;
    buf[pos++] = n;
    for (let i = 0; i < 2 * n; i += 2) {
      buf[pos++] = (HEX[hex.charCodeAt(i) & 0x7f]! << 4) | HEX[hex.charCodeAt(i + 1) & 0x7f]!;
    }
    this.pos = pos;
  }

  /** Starts a length-delimited message: reserves `reserved` bytes for its length, returns where they are. */
  begin(reserved = 1): number {
    this.ensure(reserved);
    const start = this.pos;
    this.pos += reserved;
    return start;
  }

  /** Ends the message begun at `start`: writes its length there, moving the message if that takes more or fewer bytes. */
  end(start: number, reserved = 1): void {
    const length = this.pos - start - reserved;
    const needed = varintSize(length);
    if (needed !== reserved) {
      if (needed > reserved) this.ensure(needed - reserved);
      this.buf.copyWithin(start + needed, start + reserved, this.pos);
      this.pos += needed - reserved;
    }
    const { buf } = this;
    let pos = start;
    let v = length;
    while (v > 0x7f) {
      buf[pos++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    buf[pos] = v;
  }
}

/** `AnyValue` fields (common/v1): field number and wire type as the tag byte. */
const enum Any {
  String = 0x0a,
  Bool = 0x10,
  Int = 0x18,
  Double = 0x21,
  Array = 0x2a,
  KvList = 0x32,
  Bytes = 0x3a,
}

/** The content of an `AnyValue`, as the official `toAnyValue` maps a JS value (nothing for null or undefined). */
function anyValue(w: ProtoWriter, value: unknown): void {
  switch (typeof value) {
    case 'string':
      w.byte(Any.String);
      w.string(value);
      return;
    case 'number':
      if (Number.isInteger(value)) {
        w.byte(Any.Int);
        w.int64(value);
      } else {
        w.byte(Any.Double);
        w.double(value);
      }
      return;
    case 'boolean':
      w.byte2(Any.Bool, value ? 1 : 0);
      return;
    case 'object': {
      if (value === null) return;
      if (value instanceof Uint8Array) {
        w.byte(Any.Bytes);
        w.lengthDelimited(value);
        return;
      }
      if (Array.isArray(value)) {
        w.byte(Any.Array);
        const array = w.begin();
        for (const item of value as unknown[]) {
          // ArrayValue.values (1)
          w.byte(0x0a);
          const element = w.begin();
          anyValue(w, item);
          w.end(element);
        }
        w.end(array);
        return;
      }
      w.byte(Any.KvList);
      const list = w.begin();
      for (const [key, item] of Object.entries(value)) keyValue(w, 0x0a, key, item);
      w.end(list);
      return;
    }
    default:
  }
}

/** A `KeyValue` as field `tag`: key (1), value (2). */
function keyValue(w: ProtoWriter, tag: number, key: string, value: unknown): void {
  if (typeof value === 'string' && w.asciiStringKeyValue(tag, key, value)) return;
  w.byte(tag);
  const kv = w.begin();
  w.byte(0x0a);
  w.string(key);
  w.byte(0x12);
  const av = w.begin();
  anyValue(w, value);
  w.end(av);
  w.end(kv);
}

/** Each attribute as a repeated `KeyValue` field `tag`, in the object's key order, as the official encoder lists them. */
function attributes(w: ProtoWriter, tag: number, attrs: Attributes | undefined): void {
  if (!attrs) return;
  for (const key of Object.keys(attrs)) keyValue(w, tag, key, attrs[key]);
}

/** OTLP span flags: the W3C trace flags, plus whether the parent's remoteness is known and is remote. */
function flags(context: SpanContext, parentIsRemote: boolean | undefined): number {
  return (context.traceFlags & 0xff) | 0x100 | (parentIsRemote ? 0x200 : 0);
}

/** A `Span` message's content (trace/v1), fields in number order. */
function writeSpan(w: ProtoWriter, s: ReadableSpan): void {
  const ctx = s.spanContext();
  const parent = s.parentSpanContext;
  w.id(0x0a, ctx.traceId);
  w.id(0x12, ctx.spanId);
  const traceState = ctx.traceState?.serialize();
  if (traceState) {
    w.byte(0x1a);
    w.string(traceState);
  }
  if (parent?.spanId) w.id(0x22, parent.spanId);
  w.byte(0x2a);
  w.string(s.name);
  // SpanKind is offset by one: the proto has UNSPECIFIED at 0.
  w.byte2(0x30, s.kind + 1);
  w.byte(0x39);
  w.time(s.startTime);
  w.byte(0x41);
  w.time(s.endTime);
  attributes(w, 0x4a, s.attributes);
  if (s.droppedAttributesCount) {
    w.byte(0x50);
    w.varint(s.droppedAttributesCount);
  }
  for (const e of s.events) {
    w.byte(0x5a);
    const event = w.begin();
    w.byte(0x09);
    w.time(e.time);
    w.byte(0x12);
    w.string(e.name);
    attributes(w, 0x1a, e.attributes);
    if (e.droppedAttributesCount) {
      w.byte(0x20);
      w.varint(e.droppedAttributesCount);
    }
    w.end(event);
  }
  if (s.droppedEventsCount) {
    w.byte(0x60);
    w.varint(s.droppedEventsCount);
  }
  for (const l of s.links) {
    w.byte(0x6a);
    const link = w.begin();
    w.id(0x0a, l.context.traceId);
    w.id(0x12, l.context.spanId);
    const linkState = l.context.traceState?.serialize();
    if (linkState) {
      w.byte(0x1a);
      w.string(linkState);
    }
    attributes(w, 0x22, l.attributes);
    if (l.droppedAttributesCount) {
      w.byte(0x28);
      w.varint(l.droppedAttributesCount);
    }
    w.byte(0x35);
    w.fixed32(flags(l.context, l.context.isRemote));
    w.end(link);
  }
  if (s.droppedLinksCount) {
    w.byte(0x70);
    w.varint(s.droppedLinksCount);
  }
  // Status is written even when unset (two bytes), as the official encoder does: message (2), code (3).
  w.byte(0x7a);
  const status = w.begin();
  if (s.status.message) {
    w.byte(0x12);
    w.string(s.status.message);
  }
  if (s.status.code) w.byte2(0x18, s.status.code);
  w.end(status);
  // flags (16, fixed32): a two-byte tag.
  w.byte2(0x85, 0x01);
  w.fixed32(flags(ctx, parent?.isRemote));
}


/** A message field encoded once: what goes before the repeated children of its parent, and after them. */
interface Framing {
  /** `resource` (1) of a ResourceSpans, or `scope` (1) of a ScopeSpans, tag and length included. */
  head: Buffer;
  /** `schema_url` (3), or nothing. */
  tail: Buffer;
}

function framing(write: (w: ProtoWriter) => void, schemaUrl: string | undefined): Framing {
  const w = new ProtoWriter(256);
  w.byte(0x0a);
  const start = w.begin();
  write(w);
  w.end(start);
  const head = w.bytes();
  w.pos = 0;
  if (schemaUrl) {
    w.byte(0x1a);
    w.string(schemaUrl);
  }
  return { head, tail: w.bytes() };
}

/** Resources are encoded once their attributes are final (a resource whose detectors still run is encoded per batch). */
const resourceFraming = new WeakMap<SpanResource, Framing>();
const scopeFraming = new WeakMap<SpanScope, Framing>();

function framingOfResource(resource: SpanResource): Framing {
  let found = resourceFraming.get(resource);
  if (!found) {
    // Resource.attributes (1); dropped_attributes_count stays 0.
    found = framing((w) => attributes(w, 0x0a, resource.attributes), resource.schemaUrl);
    if (!resource.asyncAttributesPending) resourceFraming.set(resource, found);
  }
  return found;
}

function framingOfScope(scope: SpanScope): Framing {
  let found = scopeFraming.get(scope);
  if (!found) {
    found = framing((w) => {
      // InstrumentationScope: name (1), version (2).
      w.byte(0x0a);
      w.string(scope.name);
      if (scope.version) {
        w.byte(0x12);
        w.string(scope.version);
      }
    }, scope.schemaUrl);
    scopeFraming.set(scope, found);
  }
  return found;
}

const PROTO_WRITERS: SpanWriters<ProtoWriter> = {
  create: () => new ProtoWriter(4 * 1024),
  isEmpty: (w) => w.pos === 0,
  clear: (w) => {
    w.pos = 0;
  },
};

/**
 * Spans encoded one by one as they are added, grouped by resource and instrumentation scope
 * (otlp-span-groups.ts), until `finish()` writes the `ExportTraceServiceRequest` around them: what is kept
 * between the two is bytes in a few reused buffers, not the span objects (see otlp-batch-processor.ts for why).
 */
export class OtlpProtoSpanBatch {
  private readonly groups = new SpanGroups(PROTO_WRITERS);

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
    const w = this.groups.writerFor(span);
    const mark = w.pos;
    try {
      // ScopeSpans.spans (2); a span of 128 bytes to 16 KB (nearly all) needs no move of its bytes.
      w.byte(0x12);
      const start = w.begin(2);
      writeSpan(w, span);
      w.end(start, 2);
    } catch (error) {
      w.pos = mark;
      throw error;
    }
    this.groups.added();
  }

  /** The request (protobuf) with every span added since the last call; the batch is empty after. */
  finish(): Buffer {
    return this.groups.drain((groups) => {
      // Sizes first (every part is encoded by now), so the request is written once into a buffer of its size.
      const resources = groups.map(({ resource, scopes }) => {
        const framed = scopes.map(({ scope, writers }) => {
          const f = framingOfScope(scope);
          let length = f.head.length + f.tail.length;
          for (const w of writers) length += w.pos;
          return { framing: f, writers, length };
        });
        const f = framingOfResource(resource);
        let length = f.head.length + f.tail.length;
        for (const s of framed) length += 1 + varintSize(s.length) + s.length;
        return { framing: f, scopes: framed, length };
      });
      let total = 0;
      for (const r of resources) total += 1 + varintSize(r.length) + r.length;
      const out = new ProtoWriter(total);
      for (const r of resources) {
        // ExportTraceServiceRequest.resource_spans (1): resource (1), scope_spans (2), schema_url (3).
        out.byte(0x0a);
        out.varint(r.length);
        append(out, r.framing.head);
        for (const s of r.scopes) {
          // ScopeSpans: scope (1), spans (2), schema_url (3).
          out.byte(0x12);
          out.varint(s.length);
          append(out, s.framing.head);
          for (const w of s.writers) append(out, w.buf.subarray(0, w.pos));
          append(out, s.framing.tail);
        }
        append(out, r.framing.tail);
      }
      return out.buf.subarray(0, out.pos);
    });
  }
}

function append(w: ProtoWriter, bytes: Uint8Array): void {
  w.ensure(bytes.length);
  w.buf.set(bytes, w.pos);
  w.pos += bytes.length;
}

/** For one-off encodings: a batch is filled and finished in one synchronous call, so one serves them all. */
let shared: OtlpProtoSpanBatch | undefined;

/** `ExportTraceServiceRequest` as protobuf: spans grouped by resource, then by instrumentation scope. */
export function encodeSpansAsOtlpProto(spans: readonly ReadableSpan[]): Buffer {
  const batch = (shared ??= new OtlpProtoSpanBatch());
  for (const s of spans) batch.add(s);
  return batch.finish();
}
