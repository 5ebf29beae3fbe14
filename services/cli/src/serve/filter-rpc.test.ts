import { expect, test } from 'vitest';
import { silentLogger } from '@leadfinder/platform';
import { createGrpcFilterClient } from '@leadfinder/platform/grpc';
import type { FilterPort } from '@leadfinder/platform';
import { serveFilter } from './filter-rpc.js';

const usage = { calls: 0, inputTokens: 0, outputTokens: 0 };

test('the filter role serves its port over gRPC on the configured port', async () => {
  const unused = async () => { throw new Error('not called'); };
  const filter: FilterPort = {
    plan: unused, screen: unused, extract: unused, verify: unused, relax: unused,
    queries: async (request) => ({ queries: [`round ${request.round}`], usage }),
  };
  const server = await serveFilter({ filter, port: 0, logger: silentLogger, host: '127.0.0.1' });
  const client = createGrpcFilterClient({ address: `127.0.0.1:${server.port}`, logger: silentLogger });
  try {
    const plan = {
      entityType: 'company' as const, filters: [], queries: [], dateRange: null, sites: { domains: [], pageTypes: [] }, summary: 's',
    };
    expect(await client.queries({ plan, round: 3, used: [] }, { signal: new AbortController().signal })).toEqual({ queries: ['round 3'], usage });
  } finally {
    client.close();
    await server.stop();
  }
});
