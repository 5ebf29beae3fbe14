import { afterEach, expect, test } from 'vitest';
import type { HistogramMetricData } from '@opentelemetry/sdk-metrics';
import { InvalidArgumentError } from '../src/errors.js';
import { silentLogger } from '../src/logger.js';
import type { FetcherPort, FilterPort } from '../src/ports/research.js';
import { createGrpcFetcherClient, createGrpcFilterClient } from '../src/adapters/grpc/clients.js';
import { startGrpcServer } from '../src/adapters/grpc/server.js';
import { createInMemoryTelemetry, type InMemoryTelemetry } from '../src/telemetry/testing.js';
import * as fx from './grpc-fixtures.js';

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function rpcDurations(telemetry: InMemoryTelemetry): Promise<HistogramMetricData | undefined> {
  const metrics = await telemetry.collectMetrics();
  return metrics.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === 'rpc.server.duration') as HistogramMetricData | undefined;
}

test('every served call is timed into rpc.server.duration by service, method and gRPC status code', async () => {
  const telemetry = createInMemoryTelemetry();
  cleanups.push(() => telemetry.shutdown());
  const fetcher = { search: async () => fx.searchResponse, fetch: async () => fx.fetchOk } as FetcherPort;
  const unused = async () => { throw new Error('not called'); };
  const filter: FilterPort = {
    plan: unused, queries: unused, screen: unused, extract: unused, verify: unused,
    relax: async () => { throw new InvalidArgumentError('no such filter', 'filter.index'); },
  };
  const server = await startGrpcServer({ port: 0, host: '127.0.0.1', services: { fetcher, filter }, logger: silentLogger });
  cleanups.push(() => server.stop());
  const address = `127.0.0.1:${server.port}`;
  const fetcherClient = createGrpcFetcherClient({ address, logger: silentLogger });
  const filterClient = createGrpcFilterClient({ address, logger: silentLogger });
  cleanups.push(() => fetcherClient.close(), () => filterClient.close());

  const signal = new AbortController().signal;
  await fetcherClient.search(fx.searchRequest, { signal });
  await fetcherClient.search(fx.searchRequest, { signal });
  await filterClient.relax({ plan: fx.plan, filter: fx.filter }, { signal }).catch(() => undefined);

  const histogram = await rpcDurations(telemetry);
  expect(histogram?.descriptor.unit).toBe('ms');
  const points = histogram!.dataPoints.map((p) => ({ attributes: p.attributes, count: p.value.count }));
  expect(points).toEqual(expect.arrayContaining([
    { attributes: { 'rpc.system': 'grpc', 'rpc.service': 'leadfinder.fetcher.v1.FetcherService', 'rpc.method': 'Search', 'rpc.grpc.status_code': 0 }, count: 2 },
    { attributes: { 'rpc.system': 'grpc', 'rpc.service': 'leadfinder.filter.v1.FilterService', 'rpc.method': 'Relax', 'rpc.grpc.status_code': 3 }, count: 1 },
  ]));
  // The client's own calls are not server calls: nothing else was recorded.
  expect(points).toHaveLength(2);
});
