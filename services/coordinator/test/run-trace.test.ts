import { context, SpanKind, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { silentLogger, type FetcherPort, type FilterPort } from '@leadfinder/platform';
import { createGrpcFetcherClient, createGrpcFilterClient, startGrpcServer, type GrpcServerHandle } from '@leadfinder/platform/grpc';
import { createInMemoryTelemetry, traceBilling, traceEventLog, traceStore, type InMemoryTelemetry } from '@leadfinder/platform/telemetry';
import type { RunEvent } from '@leadfinder/wire';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeResearch, filterOf, planOf, type World } from './fake-research.js';
import { createHarness, type Harness } from './harness.js';
import { standardWorld } from './world.js';

/**
 * What a run's trace tells an SRE (issue 22 items 2 and 3), read from in-memory exporters on the embedded
 * adapters:
 * - where the time went: the run span's children cover at least 95 % of it (the coordinator's own writes
 *   at the start and the settlement at the end included);
 * - what each span worked on: the run span's target, rows, spend and charge; one `funnel.verify` span per
 *   filter batch with the filter (k of m), the candidates and the outcome counts, never a span pair per
 *   candidate; the opening and extracting stages are the batch of their per-page calls (pages, hosts,
 *   outcomes by kind, candidates), never a span per page; so the span count grows with rounds and
 *   filters, not pages or candidates.
 */

/** Share of `root`'s time under the union of its descendants' intervals. */
function coverage(root: ReadableSpan, spans: readonly ReadableSpan[]): { ratio: number; durationMs: number; gaps: string[] } {
  const ms = (t: [number, number]) => t[0] * 1000 + t[1] / 1e6;
  const children = new Map<string, ReadableSpan[]>();
  for (const s of spans) {
    const parent = s.parentSpanContext?.spanId;
    if (parent) children.set(parent, [...(children.get(parent) ?? []), s]);
  }
  const descendants: ReadableSpan[] = [];
  for (const stack = [root.spanContext().spanId]; stack.length > 0;) {
    for (const child of children.get(stack.pop()!) ?? []) {
      descendants.push(child);
      stack.push(child.spanContext().spanId);
    }
  }
  const [from, to] = [ms(root.startTime), ms(root.endTime)];
  const intervals = descendants.map((s) => ({ from: Math.max(ms(s.startTime), from), to: Math.min(ms(s.endTime), to), name: s.name }))
    .filter((i) => i.to > i.from).sort((a, b) => a.from - b.from);
  let covered = 0;
  let reach = from;
  let last = '(start)';
  const gaps: string[] = [];
  for (const i of intervals) {
    if (i.from > reach) gaps.push(`${(i.from - reach).toFixed(2)} ms between ${last} and ${i.name}`);
    if (i.to > reach) {
      covered += i.to - Math.max(i.from, reach);
      reach = i.to;
      last = i.name;
    }
  }
  if (to > reach) gaps.push(`${(to - reach).toFixed(2)} ms between ${last} and (end)`);
  return { ratio: to > from ? covered / (to - from) : 1, durationMs: to - from, gaps };
}

describe('run trace', () => {
  let telemetry: InMemoryTelemetry;
  let h: Harness | undefined;
  let server: GrpcServerHandle | undefined;
  const clients: { close(): void | Promise<void> }[] = [];

  beforeEach(() => {
    telemetry = createInMemoryTelemetry();
  });
  afterEach(async () => {
    await h?.close();
    h = undefined;
    for (const c of clients.splice(0)) await c.close();
    await server?.stop();
    server = undefined;
    await telemetry.shutdown();
  });

  /** The run span of `runId` once exported, and every span of its trace. */
  async function traceOf(runId: string): Promise<{ run: ReadableSpan; spans: ReadableSpan[] }> {
    const find = () => telemetry.spans().find((s) => s.name === 'leadfinder.run' && s.attributes['leadfinder.run_id'] === runId);
    for (let i = 0; i < 500 && !find(); i += 1) await new Promise((r) => setTimeout(r, 10));
    const run = find();
    if (!run) throw new Error(`no run span for ${runId}`);
    const traceId = run.spanContext().traceId;
    return { run, spans: telemetry.spans().filter((s) => s.spanContext().traceId === traceId) };
  }

  it('the run span says what it worked on, and its children cover at least 95 % of its time', async () => {
    h = await createHarness();
    // Every role call takes some milliseconds, as a real one does (and span times, stamped in whole
    // milliseconds at their start, then count for little); the embedded store writes files. 30 ms, not
    // less: on a loaded CI machine an event-loop stall between two sibling spans is a gap of a few ms,
    // and with 10 ms calls one run measured 94.9 %.
    const research = createFakeResearch(standardWorld({ delayMs: 30 }));
    await h.coordinator(research.fetcher, research.filter).start();
    const submitted = await h.submit({ target: 3 });
    const ended = await h.waitTerminal(submitted.id);
    const { run, spans } = await traceOf(submitted.id);

    expect(run.attributes).toMatchObject({
      'leadfinder.run.target': 3, 'leadfinder.run.rows': 3, 'leadfinder.run.status': 'done',
      'leadfinder.run.spend_microusd': ended.spendMicrousd, 'leadfinder.run.charge_microusd': ended.chargeMicrousd,
    });
    // The run's own time at both ends is a span too: marking it started, and settling it.
    const children = spans.filter((s) => s.parentSpanContext?.spanId === run.spanContext().spanId)
      .sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
    expect(children[0]!.name).toBe('run.start');
    expect(children.at(-1)!.name).toBe('run.settle');
    // The stage's checkpoints (run record and status event) are under the stage they belong to.
    const stageIds = new Set(spans.filter((s) => s.attributes['leadfinder.stage'] !== undefined).map((s) => s.spanContext().spanId));
    const checkpoints = spans.filter((s) => s.name === 'run.checkpoint');
    expect(checkpoints.length).toBeGreaterThan(5);
    for (const c of checkpoints) expect(stageIds.has(c.parentSpanContext!.spanId)).toBe(true);

    const c = coverage(run, spans);
    console.info(`embedded run: ${c.durationMs.toFixed(1)} ms, ${(c.ratio * 100).toFixed(2)} % under child spans, ${spans.length} spans; gaps: ${c.gaps.slice(0, 5).join('; ') || 'none'}`);
    expect(c.ratio, c.gaps.join('; ')).toBeGreaterThanOrEqual(0.95);
  });

  /**
   * Round 1 names 7 companies on three pages (one unclear on filter 1), round 2 names 60 on three pages;
   * two filters. A run for 5 rows ends after round 1, a run for 50 after round 2.
   */
  function growingWorld(): World {
    const names = (page: string, n: number) => Array.from({ length: n }, (_, i) => ({ key: `${page}-${i}`, name: `Company ${page} ${i}` }));
    const pages: Record<string, { key: string; name: string }[]> = {
      'http://one.test/a': names('1a', 2), 'http://one.test/b': names('1b', 2), 'http://one.test/c': names('1c', 3),
      'http://two.test/a': names('2a', 20), 'http://two.test/b': names('2b', 20), 'http://two.test/c': names('2c', 20),
    };
    const hits = (prefix: string) => Object.keys(pages).filter((u) => u.startsWith(prefix)).map((url) => ({ url, score: 0.9 }));
    return {
      plan: planOf(['q1'], [filterOf(1, 'Based in Berlin'), filterOf(2, 'Hiring')]),
      laterQueries: { 2: ['q2'] },
      hits: { q1: hits('http://one.test/'), q2: hits('http://two.test/') },
      pages: Object.fromEntries(Object.keys(pages).map((u) => [u, `companies listed on ${u}`])),
      candidates: pages,
      passes: (filter, candidate) => !(filter.index === 1 && candidate.key === '1c-2'),
      unclear: () => true,
    };
  }

  /** The fake roles behind a real gRPC server on loopback, as the distributed coordinator calls them. */
  async function overGrpc(ports: { fetcher: FetcherPort; filter: FilterPort }): Promise<{ fetcher: FetcherPort; filter: FilterPort }> {
    server = await startGrpcServer({ port: 0, host: '127.0.0.1', services: ports, logger: silentLogger, drainMs: 200 });
    const address = `127.0.0.1:${server.port}`;
    const fetcher = createGrpcFetcherClient({ address, logger: silentLogger });
    const filter = createGrpcFilterClient({ address, logger: silentLogger });
    clients.push(fetcher, filter);
    return { fetcher, filter };
  }

  it('one span per filter batch, none per candidate: a run for 50 rows has at most twice the spans of a run for 5', async () => {
    h = await createHarness();
    const research = createFakeResearch(growingWorld());
    // The filter role sees each verification in the run's trace (its log lines carry the trace id).
    const verifyTraces = new Set<string>();
    const verify = research.filter.verify.bind(research.filter);
    research.filter.verify = (request, options) => {
      verifyTraces.add(trace.getSpanContext(context.active())?.traceId ?? 'none');
      return verify(request, options);
    };
    const remote = await overGrpc(research);
    await h.coordinator(remote.fetcher, remote.filter).start();

    const runFor = async (target: number) => {
      const submitted = await h!.submit({ target });
      const ended = await h!.waitTerminal(submitted.id);
      expect(ended.status).toBe('done');
      return { ...(await traceOf(submitted.id)), rows: ended.result?.table.length ?? 0, events: await h!.eventsOf(submitted.id) };
    };
    const small = await runFor(5);
    const large = await runFor(50);

    const summary = (t: { spans: ReadableSpan[]; rows: number }) => {
      const counts = new Map<string, number>();
      for (const s of t.spans) counts.set(s.name, (counts.get(s.name) ?? 0) + 1);
      return `${t.rows} rows, ${t.spans.length} spans (${[...counts].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([n, k]) => `${n}×${k}`).join(', ')})`;
    };
    const message = `target 5: ${summary(small)}; target 50: ${summary(large)}`;
    console.info(`span counts over gRPC, ${message}`);
    expect(small.rows).toBe(5);
    expect(large.rows).toBe(50);
    expect(large.spans.length, message).toBeLessThanOrEqual(2 * small.spans.length);

    // The roles' calls still join the trace (client and server spans), verifications as their batch.
    for (const t of [small, large]) {
      expect(t.spans.some((s) => s.kind === SpanKind.SERVER && s.name.endsWith('/Plan'))).toBe(true);
      expect(t.spans.filter((s) => s.name.endsWith('/Verify'))).toEqual([]);
    }
    expect([...verifyTraces].sort()).toEqual([small.run.spanContext().traceId, large.run.spanContext().traceId].sort());

    // Each batch says what it did, matching what the run told its client.
    const batches = large.spans.filter((s) => s.name === 'funnel.verify').map((s) => s.attributes);
    const starts = large.events.filter((e): e is Extract<RunEvent, { type: 'funnel_filter_start' }> => e.type === 'funnel_filter_start');
    const dones = large.events.filter((e): e is Extract<RunEvent, { type: 'funnel_filter_done' }> => e.type === 'funnel_filter_done');
    expect(batches.map((b) => [b['leadfinder.round'], b['leadfinder.filter.index'], b['leadfinder.filter.count'], b['leadfinder.verify.candidates']]))
      .toEqual(starts.map((e) => [e.round, e.index, 2, e.candidates]));
    expect(batches.map((b) => [b['leadfinder.verify.passed'], b['leadfinder.verify.dropped']])).toEqual(dones.map((e) => [e.passed, e.dropped]));
    expect(batches[0]).toMatchObject({ 'leadfinder.round': 1, 'leadfinder.filter.index': 1, 'leadfinder.verify.candidates': 7, 'leadfinder.verify.passed': 6, 'leadfinder.verify.dropped': 1, 'leadfinder.verify.unclear': 1 });
    expect(batches.at(-1)).toMatchObject({ 'leadfinder.round': 2, 'leadfinder.filter.index': 2, 'leadfinder.verify.candidates': 60, 'leadfinder.verify.passed': 60, 'leadfinder.verify.unclear': 0 });
  });

  /**
   * Three rounds, two filters, every candidate passing; each round's hits also hold one page that answers
   * 404. `dense`: each round opens five pages on two hosts that name 6, 20 and 40 companies, so a run for 50
   * rows ends after round 3 (and a run for 5 after round 1). `sparse`: each round opens one page naming
   * two companies, so a run for 5 rows also ends after round 3.
   */
  function threeRoundWorld(kind: 'dense' | 'sparse'): Pick<World, 'hits' | 'pages' | 'candidates'> {
    const names = (page: string, n: number) => Array.from({ length: n }, (_, i) => ({ key: `${page}-${i}`, name: `Company ${page} ${i}` }));
    const perRound = kind === 'dense' ? [[2, 1, 1, 1, 1], [4, 4, 4, 4, 4], [8, 8, 8, 8, 8]] : [[2], [2], [2]];
    const candidates: World['candidates'] = {};
    perRound.forEach((pages, r) => pages.forEach((n, p) => {
      candidates[`http://${p % 2 === 0 ? `r${r + 1}` : `r${r + 1}-news`}.test/${p}`] = names(`${kind}-${r + 1}-${p}`, n);
    }));
    const hits = (round: number) => [...Object.keys(candidates).filter((u) => u.startsWith(`http://r${round}`)), `http://r${round}.test/gone`]
      .map((url) => ({ url, score: 0.9 }));
    return {
      hits: { q1: hits(1), q2: hits(2), q3: hits(3) },
      pages: Object.fromEntries(Object.keys(candidates).map((u) => [u, `companies listed on ${u}`])),
      candidates,
    };
  }

  it('spans grow with rounds, not pages or candidates: a three-round run for 50 rows has the spans of a three-round run for 5, besides event appends', async () => {
    h = await createHarness();
    const world: World = {
      plan: planOf(['q1'], [filterOf(1, 'Based in Berlin'), filterOf(2, 'Hiring')]),
      laterQueries: { 2: ['q2'], 3: ['q3'] },
      ...threeRoundWorld('sparse'),
      passes: () => true,
    };
    const research = createFakeResearch(world);
    // The fetcher opens each page in a span of its own, as the real one does (`fetch.page`), and sees the
    // run's trace id (its log lines carry it) whether or not that span is recorded.
    const fetchTraces = new Set<string>();
    const fetch = research.fetcher.fetch.bind(research.fetcher);
    research.fetcher.fetch = (request, options) => {
      fetchTraces.add(trace.getSpanContext(context.active())?.traceId ?? 'none');
      return trace.getTracer('fake-fetcher').startActiveSpan('fetch.page', { attributes: { 'server.address': new URL(request.url).hostname } }, async (span) => {
        try {
          return await fetch(request, options);
        } finally {
          span.end();
        }
      });
    };
    const remote = await overGrpc(research);
    // The run's own store writes, event appends and billing calls are spans too, as in `leadfinder serve`.
    await h.coordinator(remote.fetcher, remote.filter, { store: traceStore(h.store), events: traceEventLog(h.events), billing: traceBilling(h.billing) }).start();

    const runFor = async (target: number) => {
      const submitted = await h!.submit({ target });
      const ended = await h!.waitTerminal(submitted.id);
      expect(ended.status).toBe('done');
      return { ...(await traceOf(submitted.id)), rows: ended.result?.table.length ?? 0 };
    };
    const rounds = (t: { spans: ReadableSpan[] }) => Math.max(0, ...t.spans.map((s) => Number(s.attributes['leadfinder.round'] ?? 0)));
    const summary = (t: { spans: ReadableSpan[]; rows: number }) => {
      const counts = new Map<string, number>();
      for (const s of t.spans) counts.set(s.name, (counts.get(s.name) ?? 0) + 1);
      return `${t.rows} rows, ${rounds(t)} rounds, ${t.spans.length} spans (${[...counts].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([n, k]) => `${n}×${k}`).join(', ')})`;
    };

    const small = await runFor(5);
    Object.assign(world, threeRoundWorld('dense'));
    const large = await runFor(50);
    const oneRound = await runFor(5);
    const message = `target 5 (sparse pages): ${summary(small)}; target 50: ${summary(large)}; target 5 (dense pages): ${summary(oneRound)}`;
    console.info(`three-round span counts over gRPC, ${message}`);
    expect([small.rows, rounds(small)], message).toEqual([5, 3]);
    expect([large.rows, rounds(large)], message).toEqual([50, 3]);
    expect(rounds(oneRound), message).toBe(1);
    // Same rounds and filters, 6 pages and 6 candidates against 18 pages and 66 candidates: the same spans
    // besides the event appends (a span per page would add 4 per page over gRPC). Back-to-back appends share
    // one span, so how many append spans a run has depends on timing (18 against 21, then 15 against 27, in
    // two rounds of one rehearsal at load 14): the issue's bound, at most twice the spans, holds either way.
    const besidesAppends = (t: { spans: ReadableSpan[] }) => t.spans.filter((s) => s.name !== 'event_log.append').length;
    expect(besidesAppends(large), message).toBe(besidesAppends(small));
    expect(large.spans.length, message).toBeLessThanOrEqual(2 * small.spans.length);

    // No span per page: neither the fetcher's own nor a gRPC pair per Fetch or Extract; the fetcher still
    // got each page's call in the run's trace.
    for (const t of [small, large, oneRound]) {
      expect(t.spans.filter((s) => s.name === 'fetch.page' || s.name.endsWith('/Fetch') || s.name.endsWith('/Extract')).map((s) => s.name)).toEqual([]);
      expect(t.spans.some((s) => s.name.startsWith('store.'))).toBe(true);
    }
    expect([...fetchTraces].sort()).toEqual([small, large, oneRound].map((t) => t.run.spanContext().traceId).sort());

    // Each round's opening and extracting stage says what its pages did.
    const stage = (name: string) => large.spans.filter((s) => s.attributes['leadfinder.stage'] === name)
      .sort((a, b) => Number(a.attributes['leadfinder.round']) - Number(b.attributes['leadfinder.round']));
    const opening = stage('open');
    expect(opening.map((s) => s.attributes)).toEqual([1, 2, 3].map((round) => expect.objectContaining({
      'leadfinder.round': round, 'leadfinder.open.pages': 6, 'leadfinder.open.attempts': 6, 'leadfinder.open.hosts': 2,
      'leadfinder.open.ok': 5, 'leadfinder.open.failed': 1, 'leadfinder.open.failed.http_status': 1,
    })));
    expect(opening.map((s) => s.events.map((e) => [e.name, e.attributes]))).toEqual([1, 2, 3].map((round) => [
      ['page.failed', { 'server.address': `r${round}.test`, 'leadfinder.fetch.outcome': 'http_status' }],
    ]));
    expect(stage('extract').map((s) => s.attributes)).toEqual([6, 20, 40].map((candidates, i) => expect.objectContaining({
      'leadfinder.round': i + 1, 'leadfinder.extract.pages': 5, 'leadfinder.extract.failed': 0, 'leadfinder.extract.empty': 0,
      'leadfinder.extract.candidates': candidates,
    })));
  });
});
