import { TraceFlags, context, diag } from '@opentelemetry/api';
import type { Context } from '@opentelemetry/api';
import { ExportResultCode, getNumberFromEnv, globalErrorHandler, suppressTracing } from '@opentelemetry/core';
import type { ExportResult } from '@opentelemetry/core';
import type { BufferConfig, ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';

/**
 * Spans encoded as they are added, until `finish()` gives the `ExportTraceServiceRequest` of them all:
 * `OtlpProtoSpanBatch` (otlp-proto.ts) or `OtlpJsonSpanBatch` (otlp-json.ts).
 */
export interface EncodedSpanBatch {
  /** Spans added since the last `finish()`. */
  readonly size: number;
  /** The resources of the spans added (to wait for their asynchronous attributes before `finish()`). */
  resources(): ReadableSpan['resource'][];
  /** Encodes the span; if that throws, the batch is as it was. */
  add(span: ReadableSpan): void;
  /** The request with every span added since the last call; the batch is empty after. */
  finish(): Buffer;
}

/**
 * Sends one encoded `ExportTraceServiceRequest`: in production `createOtlpProtoTraceTransport` (otlp-proto.ts)
 * or `createOtlpJsonTraceTransport` (otlp-json.ts), the one that matches the batch's encoding.
 */
export interface EncodedSpanExporter {
  export(body: Buffer, done: (result: ExportResult) => void): void;
  /** Resolves once every export in flight has ended. */
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}

/**
 * The SDK's `BatchSpanProcessor`, except that a span is encoded into the pending OTLP batch (protobuf or
 * JSON, as `newBatch` makes it) when it ends, instead of being held as an object until its batch goes out.
 *
 * Why: held spans (every span of the last ~180 ms at 400 `POST`/s, until 512 of them filled a batch) lived
 * through the young-generation collections a request's own garbage triggers, so they were copied and
 * promoted instead of dying young: 20–31 µs of an edge's CPU per `POST`, more than the encoding itself
 * (bench/README.md). Encoded at `onEnd`, all that stays of a span is its bytes in a reused buffer.
 *
 * The same behaviour otherwise, with the same settings (`OTEL_BSP_MAX_EXPORT_BATCH_SIZE`, `_MAX_QUEUE_SIZE`,
 * `_SCHEDULE_DELAY`, `_EXPORT_TIMEOUT`, or `BufferConfig`): only sampled spans are kept; a batch goes out
 * when it holds `maxExportBatchSize` spans or `scheduledDelayMillis` after its first span, one export at a
 * time; spans waiting beyond `maxQueueSize` are dropped and counted (`droppedSpans`, and a diag warning
 * with the count, as the SDK's processor logs it); `forceFlush` and `shutdown` send everything ended
 * before them; the exporter's HTTP request makes no spans of its own.
 */
export class OtlpBatchSpanProcessor implements SpanProcessor {
  private readonly maxExportBatchSize: number;
  private readonly maxQueueSize: number;
  private readonly scheduledDelayMillis: number;
  private readonly exportTimeoutMillis: number;
  /** The batch spans go into now. */
  private open: EncodedSpanBatch;
  /** Batches filled to `maxExportBatchSize` that wait for their turn, oldest first. */
  private readonly full: EncodedSpanBatch[] = [];
  /** Emptied batches, reused (their buffers are already grown to a batch's size). */
  private readonly spare: EncodedSpanBatch[] = [];
  /** Spans in `open` and `full`: what counts against `maxQueueSize` (a batch being sent no longer does). */
  private queued = 0;
  private exporting = false;
  private timer: NodeJS.Timeout | undefined;
  private shutdownPromise: Promise<void> | undefined;
  /** Drops since the last warning, which names them. */
  private unreportedDrops = 0;
  private dropped = 0;

  constructor(
    private readonly exporter: EncodedSpanExporter,
    private readonly newBatch: () => EncodedSpanBatch,
    config: BufferConfig = {},
  ) {
    this.open = newBatch();
    this.maxQueueSize = config.maxQueueSize ?? getNumberFromEnv('OTEL_BSP_MAX_QUEUE_SIZE') ?? 2048;
    const batchSize = config.maxExportBatchSize ?? getNumberFromEnv('OTEL_BSP_MAX_EXPORT_BATCH_SIZE') ?? 512;
    if (batchSize > this.maxQueueSize) {
      diag.warn('OtlpBatchSpanProcessor: maxExportBatchSize must be smaller or equal to maxQueueSize, setting maxExportBatchSize to match maxQueueSize');
    }
    this.maxExportBatchSize = Math.max(1, Math.min(batchSize, this.maxQueueSize));
    this.scheduledDelayMillis = config.scheduledDelayMillis ?? getNumberFromEnv('OTEL_BSP_SCHEDULE_DELAY') ?? 5000;
    this.exportTimeoutMillis = config.exportTimeoutMillis ?? getNumberFromEnv('OTEL_BSP_EXPORT_TIMEOUT') ?? 30_000;
  }

  /** Spans dropped so far because `maxQueueSize` spans were already waiting. */
  get droppedSpans(): number {
    return this.dropped;
  }

  onStart(_span: Span, _parentContext: Context): void {}

  onEnd(span: ReadableSpan): void {
    if (this.shutdownPromise) return;
    if ((span.spanContext().traceFlags & TraceFlags.SAMPLED) === 0) return;
    if (this.queued >= this.maxQueueSize) {
      if (this.unreportedDrops === 0) diag.debug('maxQueueSize reached, dropping spans');
      this.unreportedDrops++;
      this.dropped++;
      return;
    }
    if (this.unreportedDrops > 0) {
      diag.warn(`Dropped ${this.unreportedDrops} spans because maxQueueSize reached`);
      this.unreportedDrops = 0;
    }
    try {
      this.open.add(span);
    } catch (error) {
      // Never into the caller's span.end(): the span is lost, the batch stays whole.
      globalErrorHandler(error as Error);
      return;
    }
    this.queued++;
    if (this.open.size >= this.maxExportBatchSize) {
      this.full.push(this.open);
      this.open = this.spare.pop() ?? this.newBatch();
    }
    this.maybeStartTimer();
  }

  forceFlush(): Promise<void> {
    if (this.shutdownPromise) return this.shutdownPromise;
    return this.flushAll();
  }

  shutdown(): Promise<void> {
    this.shutdownPromise ??= this.flushAll().then(() => this.exporter.shutdown());
    return this.shutdownPromise;
  }

  /** Sends every waiting batch, then waits for every export in flight (those started by the timer too). */
  private async flushAll(): Promise<void> {
    const batches = this.full.length + (this.open.size > 0 ? 1 : 0);
    const sent: Promise<void>[] = [];
    for (let i = 0; i < batches; i++) sent.push(this.exportOneBatch());
    await Promise.all(sent);
    await this.exporter.forceFlush();
  }

  /** As the SDK's processor: a full batch goes at once, else a timer sends what there is; one export at a time. */
  private maybeStartTimer(): void {
    if (this.exporting) return;
    if (this.full.length > 0) {
      this.flushFromTimer();
      return;
    }
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => this.flushFromTimer(), this.scheduledDelayMillis);
    this.timer.unref();
  }

  private flushFromTimer(): void {
    this.exporting = true;
    this.exportOneBatch()
      .finally(() => {
        this.exporting = false;
        if (this.queued > 0) {
          this.clearTimer();
          this.maybeStartTimer();
        }
      })
      .catch((error: unknown) => globalErrorHandler(error as Error));
  }

  private clearTimer(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
  }

  /** The oldest full batch, else the open one. Rejects on a failed export or after `exportTimeoutMillis`. */
  private exportOneBatch(): Promise<void> {
    this.clearTimer();
    let batch = this.full.shift();
    if (!batch) {
      if (this.open.size === 0) return Promise.resolve();
      batch = this.open;
      this.open = this.spare.pop() ?? this.newBatch();
    }
    this.queued -= batch.size;
    const taken = batch;
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('Timeout')), this.exportTimeoutMillis);
      const send = () => {
        const body = taken.finish();
        this.spare.push(taken);
        // The exporter's own HTTP request must not be traced (the http instrumentation would make spans of it).
        context.with(suppressTracing(context.active()), () => {
          this.exporter.export(body, (result) => {
            clearTimeout(timer);
            if (result.code === ExportResultCode.SUCCESS) resolve();
            else reject(result.error ?? new Error('OtlpBatchSpanProcessor: span export failed'));
          });
        });
      };
      // A resource whose detectors are still running has no final attributes yet (the SDK's processor waits too).
      const pending = taken.resources().filter((r) => r.asyncAttributesPending && r.waitForAsyncAttributes);
      if (pending.length === 0) {
        send();
      } else {
        Promise.all(pending.map((r) => r.waitForAsyncAttributes!())).then(send, (error: unknown) => {
          clearTimeout(timer);
          // The batch is given up; its buffers can still be reused.
          taken.finish();
          this.spare.push(taken);
          globalErrorHandler(error as Error);
          reject(error as Error);
        });
      }
    });
  }
}
