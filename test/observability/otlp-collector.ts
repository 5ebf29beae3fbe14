import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeTraceRequest } from '../../services/platform/test/otlp-proto-testing.js';

/** One exported span, as OTLP/JSON carries it, with its times in epoch ms. */
export interface CollectedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  scope: string;
  /** `service.name` of the process that exported it. */
  service: string;
  startMs: number;
  endMs: number;
  attributes: Record<string, unknown>;
  status?: { code?: number; message?: string };
}

interface OtlpValue { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean }
interface OtlpDoc {
  resourceSpans: {
    resource?: { attributes?: { key: string; value: OtlpValue }[] };
    scopeSpans: { scope: { name: string }; spans: { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; startTimeUnixNano: string; endTimeUnixNano: string; attributes?: { key: string; value: OtlpValue }[]; status?: { code?: number; message?: string } }[] }[];
  }[];
}

/**
 * A trace request's body as OTLP/JSON's shape, whichever encoding it came in: protobuf (the default) is
 * decoded with the official generated types, ids as hex and times as decimal strings, as JSON carries them.
 */
export function readTraceRequest<Doc>(contentType: string | undefined, body: Buffer): Doc {
  return (contentType === 'application/x-protobuf' ? decodeTraceRequest(body, { defaults: false }) : JSON.parse(body.toString('utf8'))) as Doc;
}

const valueOf = (v: OtlpValue): unknown => v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : undefined) ?? v.doubleValue ?? v.boolValue;

/** An OTLP/HTTP collector on loopback (protobuf, the default, or JSON) that keeps every span it is sent. */
export async function startCollector(): Promise<{ url: string; spans: CollectedSpan[]; close(): Promise<void> }> {
  const spans: CollectedSpan[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const doc = readTraceRequest<OtlpDoc>(req.headers['content-type'], Buffer.concat(chunks));
        for (const rs of doc.resourceSpans) {
          const service = String(valueOf(rs.resource?.attributes?.find((a) => a.key === 'service.name')?.value ?? {}) ?? '');
          for (const ss of rs.scopeSpans) for (const s of ss.spans) {
            spans.push({
              traceId: s.traceId, spanId: s.spanId, parentSpanId: s.parentSpanId || undefined, name: s.name, kind: s.kind,
              scope: ss.scope.name, service, status: s.status,
              startMs: Number(BigInt(s.startTimeUnixNano) / 1000n) / 1000, endMs: Number(BigInt(s.endTimeUnixNano) / 1000n) / 1000,
              attributes: Object.fromEntries((s.attributes ?? []).map((a) => [a.key, valueOf(a.value)])),
            });
          }
        }
      }
      if (req.headers['content-type'] === 'application/x-protobuf') res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

/** A gap in a span's coverage: a stretch of its time under no descendant span. */
export interface CoverageGap {
  /** ms after the span's start. */
  fromMs: number;
  ms: number;
  /** The descendant that ended just before the gap and the one that started right after it. */
  after: string;
  before: string;
}

/**
 * How much of `root`'s time its descendants cover: the union of their intervals (clipped to the root)
 * over the root's duration, and the gaps left, longest first.
 */
export function coverage(root: CollectedSpan, spans: CollectedSpan[]): { ratio: number; durationMs: number; gaps: CoverageGap[]; descendants: CollectedSpan[] } {
  const children = new Map<string, CollectedSpan[]>();
  for (const s of spans) {
    if (s.traceId !== root.traceId || !s.parentSpanId) continue;
    children.set(s.parentSpanId, [...(children.get(s.parentSpanId) ?? []), s]);
  }
  const descendants: CollectedSpan[] = [];
  const stack = [root.spanId];
  while (stack.length) {
    for (const child of children.get(stack.pop()!) ?? []) {
      descendants.push(child);
      stack.push(child.spanId);
    }
  }
  const intervals = descendants
    .map((s) => ({ from: Math.max(s.startMs, root.startMs), to: Math.min(s.endMs, root.endMs), name: s.name }))
    .filter((i) => i.to > i.from)
    .sort((a, b) => a.from - b.from);
  let covered = 0;
  let reach = root.startMs;
  let lastName = '(start)';
  const gaps: CoverageGap[] = [];
  for (const i of intervals) {
    if (i.from > reach) gaps.push({ fromMs: reach - root.startMs, ms: i.from - reach, after: lastName, before: i.name });
    if (i.to > reach) {
      covered += i.to - Math.max(i.from, reach);
      reach = i.to;
      lastName = i.name;
    }
  }
  if (root.endMs > reach) gaps.push({ fromMs: reach - root.startMs, ms: root.endMs - reach, after: lastName, before: '(end)' });
  const durationMs = root.endMs - root.startMs;
  return { ratio: durationMs > 0 ? covered / durationMs : 1, durationMs, gaps: gaps.sort((a, b) => b.ms - a.ms), descendants };
}
