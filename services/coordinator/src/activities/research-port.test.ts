import { createLeadfinderMetrics, DeadlineExceededError, UnavailableError } from '@leadfinder/platform';
import { createInMemoryTelemetry, type InMemoryTelemetry } from '@leadfinder/platform/telemetry';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeResearch } from '../../test/fake-research.js';
import { standardWorld } from '../../test/world.js';
import { researchPort, type ResearchInterceptor } from './research-port.js';
import { countFetchOutcomes } from './tracing.js';

/** The research port: fetcher and filter calls by name, through interceptors composed once. */
describe('research port', () => {
  let telemetry: InMemoryTelemetry;
  beforeEach(() => {
    telemetry = createInMemoryTelemetry();
  });
  afterEach(async () => {
    await telemetry.shutdown();
  });

  const signal = () => new AbortController().signal;

  it('runs every call through the interceptors, first outermost, and answers what the role answered', async () => {
    const research = createFakeResearch(standardWorld());
    const seen: string[] = [];
    const named = (label: string): ResearchInterceptor => async (call, next) => {
      seen.push(`${label}>${call.name}`);
      const answer = await next(call);
      seen.push(`${label}<${call.name}`);
      return answer;
    };
    const port = researchPort(research.fetcher, research.filter, [named('outer'), named('inner')]);
    const answer = await port.call('fetcher.search', { query: 'q1', domains: [], publishedAfter: null, page: 1, limit: 10 }, signal());
    expect(answer.hits.map((h) => h.url)).toEqual(['http://a.test/1', 'http://a.test/2', 'http://a.test/3']);
    const plan = await port.call('filter.plan', { query: 'companies', now: new Date().toISOString(), sites: '' }, signal());
    expect(plan.plan.queries).toEqual(['q1', 'q2']);
    expect(seen).toEqual([
      'outer>fetcher.search', 'inner>fetcher.search', 'inner<fetcher.search', 'outer<fetcher.search',
      'outer>filter.plan', 'inner>filter.plan', 'inner<filter.plan', 'outer<filter.plan',
    ]);
    expect(research.calls.searched).toEqual(['q1']);
  });

  it('counts page fetches by outcome: ok, the failure code, timeout or network; not those the run itself ended', async () => {
    const research = createFakeResearch(standardWorld());
    const run = new AbortController();
    const metrics = createLeadfinderMetrics();
    let fail: Error | null = null;
    const fetch = research.fetcher.fetch.bind(research.fetcher);
    research.fetcher.fetch = (request, options) => (fail ? Promise.reject(fail) : fetch(request, options));
    const port = researchPort(research.fetcher, research.filter, [countFetchOutcomes(metrics, run.signal)]);

    await port.call('fetcher.fetch', { url: 'http://a.test/1' }, signal());
    await port.call('fetcher.fetch', { url: 'http://a.test/2' }, signal());
    await port.call('fetcher.fetch', { url: 'http://missing.test/' }, signal());
    fail = new DeadlineExceededError('took too long');
    await expect(port.call('fetcher.fetch', { url: 'http://a.test/1' }, signal())).rejects.toThrow('took too long');
    fail = new UnavailableError('fetcher', 'connection refused');
    await expect(port.call('fetcher.fetch', { url: 'http://a.test/1' }, signal())).rejects.toThrow('connection refused');
    run.abort();
    await expect(port.call('fetcher.fetch', { url: 'http://a.test/1' }, signal())).rejects.toThrow();
    // Searches are not page fetches.
    fail = null;
    await port.call('fetcher.search', { query: 'q1', domains: [], publishedAfter: null, page: 1, limit: 10 }, signal());

    const counter = (await telemetry.collectMetrics()).scopeMetrics.flatMap((s) => s.metrics)
      .find((m) => m.descriptor.name === 'leadfinder.fetch.outcomes')!;
    const counts = Object.fromEntries(counter.dataPoints.map((p) => [String(p.attributes['outcome']), p.value]));
    expect(counts).toEqual({ ok: 2, http_status: 1, timeout: 1, network: 1 });
  });
});
