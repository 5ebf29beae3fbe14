/**
 * The quality set over many days: `npx tsx test/quality/sweep.ts [days=30] [target=10] [--from=0] [--verbose]`.
 *
 * The sample corpus is seeded by the UTC day, so quality.test.ts measures a different world every day.
 * This script measures the same pipeline `npm start` wires (edge, coordinator, corpus fetcher, rule filter,
 * embedded adapters) for `days` consecutive days from today, each with its own clock, corpus and data
 * dir, and prints the spread of the means. The floors in quality.test.ts are set from it (README.md).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildEdgeApp, createSessionSigner } from '@leadfinder/edge';
import { createCoordinator } from '@leadfinder/coordinator';
import { createFetcher, createSearchProvider, sampleEntities, writeSampleCorpus } from '@leadfinder/fetcher';
import { createFilter, createRuleReasoner } from '@leadfinder/filter';
import { createBilling, loadConfig, randomIds, silentLogger, type Clock } from '@leadfinder/platform';
import { createEmbeddedEventLog, createEmbeddedStore, createInProcessStopFlags, createInProcessWorkQueue } from '@leadfinder/platform/embedded';
import { createAccount } from '../support/server-process.js';
import { resolveCases } from './cases.js';
import { formatQualityReport, scoreQualitySet, type QualitySummary } from './report.js';
import { runQueries } from './run-queries.js';

const DAY = 86_400_000;
const ADMIN_TOKEN = 'sweep-admin-token-0123456789abcdefghij';

/** One day of the sweep: the embedded service with its clock shifted by `offsetMs`, over that day's corpus. */
async function measureDay(offsetMs: number, target: number): Promise<{ now: Date; summary: QualitySummary }> {
  const clock: Clock = { now: () => Date.now() + offsetMs };
  const now = new Date(clock.now());
  const dataDir = await mkdtemp(join(tmpdir(), 'lf-quality-sweep-'));
  const corpusDir = join(dataDir, 'sample-corpus');
  await writeSampleCorpus(corpusDir, now);
  const config = loadConfig({
    LEADFINDER_DATA_DIR: dataDir, LEADFINDER_CORPUS_DIR: corpusDir, LEADFINDER_ADMIN_TOKEN: ADMIN_TOKEN,
    LEADFINDER_SESSION_SECRET: 'quality-sweep-session-secret-0123456789', LEADFINDER_RATE_LIMIT_PER_MIN: '100000',
  });
  const logger = silentLogger;
  const store = await createEmbeddedStore({ dataDir: join(dataDir, 'store'), logger });
  const events = await createEmbeddedEventLog({ dataDir: join(dataDir, 'events'), logger, clock });
  const work = createInProcessWorkQueue({ logger });
  const stops = createInProcessStopFlags();
  const billing = createBilling({ store, clock, logger });
  const provider = createSearchProvider(config, { corpusDir, logger, clock });
  const fetcher = createFetcher({ config, logger, provider });
  const filter = createFilter({ reasoner: createRuleReasoner(), logger, clock });
  const coordinator = createCoordinator({
    config, logger, clock, ids: randomIds, store, events, work, stops, billing, fetcher, filter, instanceId: 'quality-sweep',
  });
  await coordinator.start();
  const app = await buildEdgeApp({
    config, logger, clock, ids: randomIds, store, events, work, stops, billing,
    sessions: createSessionSigner({ secret: config.LEADFINDER_SESSION_SECRET!, ttlSeconds: 3600, clock }),
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  try {
    const address = app.server.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const account = await createAccount(url, ADMIN_TOKEN, 200);
    const cases = resolveCases(sampleEntities(now), now);
    const outcomes = await runQueries({
      url, apiKey: account.apiKey, timeoutMs: 120_000, pollMs: 200,
      queries: cases.map((c) => ({ q: c.query, target })),
    });
    return { now, summary: scoreQualitySet(cases, outcomes) };
  } finally {
    await app.close();
    await coordinator.stop();
    await stops.close();
    await work.close();
    await events.close();
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const positional = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const days = Number(positional[0] ?? 30);
const target = Number(positional[1] ?? 10);
const from = Number(process.argv.find((a) => a.startsWith('--from='))?.slice(7) ?? 0);
const verbose = process.argv.includes('--verbose');
const rows: { day: string; precision: number; recall: number; usd: number; misses: string }[] = [];
for (let d = from; d < from + days; d += 1) {
  const { now, summary } = await measureDay(d * DAY, target);
  if (verbose) console.log(`\n${now.toISOString().slice(0, 10)}\n${formatQualityReport(summary, target)}`);
  const misses = summary.results
    .filter((r) => r.score.precision < 1 || r.score.recall < 1)
    .map((r) => `${r.c.query.slice(0, 40)} p${r.score.precision.toFixed(2)} r${r.score.recall.toFixed(2)}`);
  rows.push({ day: now.toISOString().slice(0, 10), precision: summary.meanPrecision, recall: summary.meanRecall, usd: summary.chargedUsd, misses: misses.join(' | ') });
  console.log(`${rows.at(-1)!.day}  precision ${summary.meanPrecision.toFixed(3)}  recall ${summary.meanRecall.toFixed(3)}  charged ${summary.chargedUsd.toFixed(3)} USD  ${rows.at(-1)!.misses}`);
}
const stat = (xs: number[]) => ({ min: Math.min(...xs), mean: xs.reduce((a, b) => a + b, 0) / xs.length, max: Math.max(...xs) });
const p = stat(rows.map((r) => r.precision));
const r = stat(rows.map((x) => x.recall));
console.log(`\nover ${days} days: mean precision min ${p.min.toFixed(3)} mean ${p.mean.toFixed(3)} max ${p.max.toFixed(3)}; ` +
  `mean recall min ${r.min.toFixed(3)} mean ${r.mean.toFixed(3)} max ${r.max.toFixed(3)}`);
