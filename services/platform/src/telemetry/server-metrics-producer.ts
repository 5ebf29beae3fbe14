import { ValueType } from '@opentelemetry/api';
import { millisToHrTime } from '@opentelemetry/core';
import { emptyResource } from '@opentelemetry/resources';
import { AggregationTemporality, DataPointType } from '@opentelemetry/sdk-metrics';
import type { CollectionResult, DataPoint, Histogram, HistogramMetricData, MetricProducer } from '@opentelemetry/sdk-metrics';
import { startServerDurations } from './server-metrics.js';
import type { DurationHistogram } from './server-metrics.js';

/**
 * Hands the server duration histograms (server-metrics.ts) to the metric readers: pass `producer` as a
 * reader's `metricProducers`, and call `stop` when the readers shut down. What a reader gets is what the
 * SDK's own histogram instrument would have given it: scope `leadfinder.server`, cumulative (the OTLP
 * default, and all Prometheus reads), one point per attribute set with its buckets, sum, count, min and max.
 */
export function createServerMetricsProducer(): { producer: MetricProducer; stop(): void } {
  const durations = startServerDurations();
  const producer: MetricProducer = {
    collect(): Promise<CollectionResult> {
      const endTime = millisToHrTime(Date.now());
      const metrics = [durations.http, durations.rpc]
        .filter((h) => h.series.size > 0)
        .map((h) => toMetricData(h, endTime));
      return Promise.resolve({
        // The reader keeps its SDK's resource and drops this one.
        resourceMetrics: { resource: emptyResource(), scopeMetrics: metrics.length ? [{ scope: { name: 'leadfinder.server' }, metrics }] : [] },
        errors: [],
      });
    },
  };
  return { producer, stop: durations.stop };
}

function toMetricData(histogram: DurationHistogram, endTime: [number, number]): HistogramMetricData {
  const dataPoints: DataPoint<Histogram>[] = [];
  for (const series of histogram.series.values()) {
    dataPoints.push({
      attributes: series.attributes,
      startTime: millisToHrTime(series.startMs),
      endTime,
      // Copies: an exporter may serialise after more values were recorded.
      value: {
        buckets: { boundaries: [...histogram.boundaries], counts: [...series.counts] },
        sum: series.sum,
        count: series.count,
        min: series.min,
        max: series.max,
      },
    });
  }
  return {
    descriptor: { name: histogram.name, description: histogram.description, unit: histogram.unit, valueType: ValueType.DOUBLE },
    aggregationTemporality: AggregationTemporality.CUMULATIVE,
    dataPointType: DataPointType.HISTOGRAM,
    dataPoints,
  };
}
