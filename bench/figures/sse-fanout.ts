import { Agent } from 'node:http';
import type { BenchContext, Figure, FigureRow } from '../support/figure.js';
import { errorRow } from '../support/figure.js';
import { createAccount, inPool, openEventStream, sleep, startSearch } from '../support/api.js';
import { withEdgeHost, setups } from '../support/load.js';
import { ms, summarize } from '../support/stats.js';

const FIGURE = 'SSE fan-out';
const STREAMS_PER_RUN = 10;
const GOAL = '2,000 streams, publish-to-client p99 ≤ 100 ms, ≤ 50 KB memory per stream';

interface Memory {
  rss: number;
  heapUsed: number;
  external: number;
}

/**
 * N concurrent `GET /v1/searches/{id}/events` streams on one embedded edge (10 streams per run), while
 * the host appends `status` events round-robin over the runs at a steady rate straight into the event
 * log. Each event carries its publish time; the client records receipt − publish for every frame.
 * Memory per stream is the edge process's RSS growth (after GC) from before the streams opened to its
 * peak with them open, divided by N.
 */
export const sseFanout: Figure = {
  id: 'sse',
  title: FIGURE,
  async run(ctx: BenchContext): Promise<FigureRow[]> {
    const streams = ctx.quick ? 500 : 2000;
    const runs = streams / STREAMS_PER_RUN;
    const perSecond = ctx.quick ? 50 : 100;
    const publishMs = ctx.quick ? 5000 : 10_000;
    const setup = setups(ctx)[0]!;
    try {
      return [await withEdgeHost(setup, async (host) => {
        const account = await createAccount(host, runs * 5 + 100);
        const runIds = await inPool(Array.from({ length: runs }, (_, i) => i), 8, (i) =>
          startSearch(host.url, account.apiKey, { q: `sse fan-out benchmark run ${i}`, target: 10 }));
        const before = await host.call<Memory>('memory');

        ctx.log(`${FIGURE}: opening ${streams} streams over ${runs} runs`);
        const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
        const latencies: number[] = [];
        let frames = 0;
        const targets = Array.from({ length: streams }, (_, i) => runIds[i % runs]!);
        const opened = await inPool(targets, 100, (runId) =>
          openEventStream(host.url, account.apiKey, runId, (frame, receivedAt) => {
            if (frame.event.type !== 'status') return;
            const sent = JSON.parse(String(frame.event.message)) as { bench?: boolean; t?: number };
            if (!sent.bench || typeof sent.t !== 'number') return;
            frames++;
            latencies.push(receivedAt - sent.t);
          }, { agent }));
        try {
          await sleep(500);
          const open = await host.call<Memory>('memory');
          ctx.log(`${FIGURE}: publishing ${perSecond} events/s for ${publishMs / 1000}s`);
          const published = await host.call<{ published: number; failures: number }>('publish', { runIds, perSecond, durationMs: publishMs });
          const expected = published.published * STREAMS_PER_RUN;
          const deadline = Date.now() + 5000;
          while (frames < expected && Date.now() < deadline) await sleep(50);
          const after = await host.call<Memory>('memory');

          const latency = summarize(latencies);
          const peakRss = Math.max(open.rss, after.rss);
          const perStreamKb = (peakRss - before.rss) / streams / 1024;
          const heapPerStreamKb = (Math.max(open.heapUsed + open.external, after.heapUsed + after.external) - (before.heapUsed + before.external)) / streams / 1024;
          const complete = frames === expected && published.failures === 0;
          const meets = complete && latency.p99 <= 100 && perStreamKb <= 50;
          return {
            figure: FIGURE,
            setup: `embedded, ${streams} streams, ${perSecond} events/s`,
            result: `p50 ${ms(latency.p50)}, p99 ${ms(latency.p99)}, max ${ms(latency.max)}; ${frames}/${expected} frames; `
              + `${perStreamKb.toFixed(1)} KB RSS per stream (${heapPerStreamKb.toFixed(1)} KB heap)`,
            goal: GOAL,
            // Fewer than 2,000 streams (--quick) cannot pass the goal, only report.
            verdict: !meets ? 'FAIL' : streams >= 2000 ? 'pass' : 'report',
            data: {
              streams, runs, eventsPerSecond: perSecond, publishSeconds: publishMs / 1000, published: published.published,
              framesExpected: expected, framesReceived: frames, latencyMs: latency, memoryBytes: { before, open, after },
              rssPerStreamKb: perStreamKb, heapPerStreamKb,
            },
          };
        } finally {
          for (const stream of opened) stream.close();
          agent.destroy();
        }
      })];
    } catch (error) {
      return [errorRow(FIGURE, 'embedded', GOAL, error)];
    }
  },
};
