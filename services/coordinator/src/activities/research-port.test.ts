import { trace } from '@opentelemetry/api';
import { createLeadfinderMetrics, DeadlineExceededError, systemClock, UnavailableError } from '@leadfinder/platform';
import { roundWhere } from '@leadfinder/wire';
import { createInMemoryTelemetry, type InMemoryTelemetry } from '@leadfinder/platform/telemetry';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeResearch } from '../../test/fake-research.js';
import { standardWorld } from '../../test/world.js';
import { researchPort, type ResearchInterceptor } from './research-port.js';
import { countFetchOutcomes, StageTrace } from './tracing.js';

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

  it('an opening or extracting stage is the batch of its per-page calls: their outcomes on its span, no span per page', async () => {
    const research = createFakeResearch(standardWorld());
    const fetch = research.fetcher.fetch.bind(research.fetcher);
    const failures = new Map<string, Error>([['http://a.test/3', new UnavailableError('fetcher', 'connection refused')]]);
    research.fetcher.fetch = (request, options) => {
      const failure = failures.get(request.url);
      if (failure) {
        failures.delete(request.url); // it fails once: a retry gets it
        return Promise.reject(failure);
      }
      // A span of the fetcher's own per page: not recorded under the batch.
      return trace.getTracer('fake-fetcher').startActiveSpan('fetch.page', (span) => fetch(request, options).finally(() => span.end()));
    };
    const timedOut = AbortSignal.abort(new DOMException('the attempt timed out', 'TimeoutError'));
    const stopped = AbortSignal.abort(new Error('the run was stopped'));

    await trace.getTracer('test').startActiveSpan('leadfinder.run', async (run) => {
      const stages = new StageTrace(createLeadfinderMetrics(), systemClock);
      const port = researchPort(research.fetcher, research.filter, [stages.inStage]);
      stages.enter(roundWhere(1, 'opening pages'));
      const opened = await Promise.all(['http://a.test/1', 'http://a.test/2', 'http://b.test/1', 'http://missing.test/'].map((url) => port.call('fetcher.fetch', { url }, signal())));
      await expect(port.call('fetcher.fetch', { url: 'http://a.test/3' }, signal())).rejects.toThrow('connection refused');
      expect((await port.call('fetcher.fetch', { url: 'http://a.test/3' }, signal())).ok).toBe(true);
      await expect(port.call('fetcher.fetch', { url: 'http://slow.test/' }, timedOut)).rejects.toThrow();
      await expect(port.call('fetcher.fetch', { url: 'http://stopped.test/' }, stopped)).rejects.toThrow();
      stages.enter(roundWhere(1, 'extracting'));
      const plan = (await port.call('filter.plan', { query: 'companies', now: new Date().toISOString(), sites: '' }, signal())).plan;
      for (const outcome of opened) if (outcome.ok) await port.call('filter.extract', { plan, page: outcome.page, round: 1 }, signal());
      stages.end();
      run.end();
    });

    const spans = telemetry.spans();
    expect(spans.map((s) => s.name).sort()).toEqual(['leadfinder.run', 'round 1 · extracting', 'round 1 · opening pages']);
    const [opening, extracting] = ['open', 'extract'].map((stage) => spans.find((s) => s.attributes['leadfinder.stage'] === stage)!);
    expect(opening!.attributes).toMatchObject({
      'leadfinder.open.pages': 7, 'leadfinder.open.attempts': 8, 'leadfinder.open.hosts': 5, 'leadfinder.open.ok': 4,
      'leadfinder.open.failed': 3, 'leadfinder.open.failed.http_status': 1, 'leadfinder.open.failed.timeout': 1,
      'leadfinder.open.failed.cancelled': 1,
    });
    // The page that failed once and then opened counts as opened: a page's last attempt decides.
    expect(opening!.attributes['leadfinder.open.failed.network']).toBeUndefined();
    expect(opening!.events.map((e) => e.attributes)).toEqual([
      { 'server.address': 'missing.test', 'leadfinder.fetch.outcome': 'http_status' },
      { 'server.address': 'slow.test', 'leadfinder.fetch.outcome': 'timeout' },
      { 'server.address': 'stopped.test', 'leadfinder.fetch.outcome': 'cancelled' },
    ]);
    expect(extracting!.attributes).toMatchObject({
      'leadfinder.extract.pages': 3, 'leadfinder.extract.attempts': 3, 'leadfinder.extract.failed': 0,
      'leadfinder.extract.empty': 0, 'leadfinder.extract.candidates': 5,
    });
  });
});
