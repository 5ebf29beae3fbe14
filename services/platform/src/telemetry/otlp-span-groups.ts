import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';

export type SpanResource = ReadableSpan['resource'];
export type SpanScope = ReadableSpan['instrumentationScope'];

/** The spans of one instrumentation scope in a finished batch: the encoded spans of each scope object naming it. */
export interface ScopeSpansOf<W> {
  scope: SpanScope;
  writers: W[];
}

/** What a batch's encoding does with its writers (one per resource and scope object). */
export interface SpanWriters<W> {
  create(): W;
  isEmpty(writer: W): boolean;
  clear(writer: W): void;
}

/**
 * The grouping both OTLP span batches share (otlp-proto.ts, otlp-json.ts): spans go into one writer per
 * resource and scope object as they are added; `drain` hands the groups to the encoding's `finish`, resources
 * and scopes in the order their first span was added (as the official serializer groups them), scope
 * objects that differ but name the same scope (name, version, schema) as one scope, and groups left empty
 * (only a span that failed to encode leaves one) out. Writers are cleared and reused by the next batch.
 */
export class SpanGroups<W> {
  private readonly byResource = new Map<SpanResource, Map<SpanScope, W>>();
  /** The writer the last span went to: consecutive spans of one tracer skip both map lookups. */
  private last: { resource: SpanResource; scope: SpanScope; writer: W } | undefined;
  /** Writers of finished batches, reused by the next one. */
  private readonly spare: W[] = [];
  private count = 0;

  constructor(private readonly writers: SpanWriters<W>) {}

  /** Spans added since the last `drain()`. */
  get size(): number {
    return this.count;
  }

  /** The resources of the spans added (to wait for their asynchronous attributes before `finish()`). */
  resources(): SpanResource[] {
    return [...this.byResource.keys()];
  }

  /** The writer for the span's group; call `added()` once the span is written into it. */
  writerFor(span: ReadableSpan): W {
    const last = this.last;
    if (last && last.scope === span.instrumentationScope && last.resource === span.resource) return last.writer;
    const resource = span.resource;
    const scope = span.instrumentationScope;
    let scopes = this.byResource.get(resource);
    if (!scopes) this.byResource.set(resource, (scopes = new Map()));
    let writer = scopes.get(scope);
    if (!writer) scopes.set(scope, (writer = this.spare.pop() ?? this.writers.create()));
    this.last = { resource, scope, writer };
    return writer;
  }

  added(): void {
    this.count++;
  }

  /** `encode`'s result over every group added since the last call; the groups are empty after. */
  drain<T>(encode: (resources: { resource: SpanResource; scopes: ScopeSpansOf<W>[] }[]) => T): T {
    const resources: { resource: SpanResource; scopes: ScopeSpansOf<W>[] }[] = [];
    for (const [resource, byScope] of this.byResource) {
      const scopes = new Map<string, ScopeSpansOf<W>>();
      for (const [scope, writer] of byScope) {
        if (this.writers.isEmpty(writer)) continue;
        const key = `${scope.name}@${scope.version ?? ''}:${scope.schemaUrl ?? ''}`;
        const found = scopes.get(key);
        if (found) found.writers.push(writer);
        else scopes.set(key, { scope, writers: [writer] });
      }
      if (scopes.size > 0) resources.push({ resource, scopes: [...scopes.values()] });
    }
    const encoded = encode(resources);
    for (const byScope of this.byResource.values()) {
      for (const writer of byScope.values()) {
        this.writers.clear(writer);
        this.spare.push(writer);
      }
    }
    this.byResource.clear();
    this.last = undefined;
    this.count = 0;
    return encoded;
  }
}
