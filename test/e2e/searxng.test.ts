/**
 * The SearXNG path end to end: a real `leadfinder serve` process searching a fake SearXNG and fetching
 * the result pages over loopback HTTP (hostnames kept through LEADFINDER_FETCH_RESOLVE).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeWeb } from '../support/fake-web.js';
import type { FakeWeb } from '../support/fake-web.js';
import { assertRowsGrounded, fakeWebEvidence } from '../support/grounding.js';
import { createAccount, startServerProcess } from '../support/server-process.js';
import type { ServerProcess } from '../support/server-process.js';
import { eventsOf, searchApi } from '../support/search-api.js';
import type { SearchApi } from '../support/search-api.js';

const ADMIN = 'searxng-e2e-admin-token-0123456789abcdef';
const BERLIN_SEED = 'AI startups in Berlin that raised a seed round in the last year';
const NEWS_SITE = 'berlin-startup-news.example';

describe('searching through SearXNG and fetching real pages', () => {
  let web: FakeWeb;
  let server: ServerProcess;
  let api: SearchApi;

  beforeAll(async () => {
    web = await startFakeWeb();
    server = await startServerProcess({ env: { ...web.resolveEnv, LEADFINDER_ADMIN_TOKEN: ADMIN } });
    const account = await createAccount(server.url, ADMIN, 100);
    api = searchApi(server.url, account.apiKey);
  });
  afterAll(async () => {
    await server?.stop();
    await web?.close();
  });
  beforeEach(() => {
    web.setSearchDelay(0);
    web.resetRequests();
  });

  it('finishes a search with rows whose URLs keep their hostnames and rest on pages it fetched', async () => {
    const id = await api.start({ q: BERLIN_SEED, target: 3 });
    const run = await api.waitTerminal(id, 60_000);

    expect(run.status).toBe('done');
    const rows = run.result!.table;
    expect(rows).toHaveLength(3);
    expect(run.result!.met).toBe(true);
    expect(web.requests().searches.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.source_urls.length).toBeGreaterThan(0);
      for (const url of [...row.source_urls, ...row.supporting_passages.map((p) => p.url)]) {
        const u = new URL(url);
        expect(u.protocol).toBe('http:');
        expect(u.port).toBe(String(web.port));
        expect(u.hostname).toMatch(/\.example$/);
      }
    }
    expect(rows.some((r) => r.source_urls.some((u) => u.startsWith(`http://${NEWS_SITE}:${web.port}/`)))).toBe(true);
    assertRowsGrounded(rows, await fakeWebEvidence(web));
  }, 90_000);

  it('keeps every search and every row on the sites it was given', async () => {
    const id = await api.start({ q: 'AI startups that raised a seed round', target: 3, sites: NEWS_SITE });
    const run = await api.waitTerminal(id, 60_000);

    expect(run.status).toBe('done');
    const { searches, pages } = web.requests();
    expect(searches.length).toBeGreaterThan(0);
    for (const q of searches) expect(q).toContain(`site:${NEWS_SITE}`);
    for (const url of pages) expect(new URL(url).hostname).toBe(NEWS_SITE);
    const rows = run.result!.table;
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const urls = [...row.source_urls, ...row.supporting_passages.map((p) => p.url), ...row.by_filter.flatMap((f) => f.passages.map((p) => p.url))];
      for (const url of urls) expect(new URL(url).hostname).toBe(NEWS_SITE);
    }
    assertRowsGrounded(rows, await fakeWebEvidence(web));
  }, 90_000);

  it('opens fewer pages at speed fast than at advanced for the same query', async () => {
    // Fast first: if anything were cached across runs, it would only make advanced look cheaper.
    const fastId = await api.start({ q: BERLIN_SEED, target: 3, speed: 'fast' });
    const fast = await api.waitTerminal(fastId, 60_000);
    const fastPages = web.requests().pages.length;
    web.resetRequests();
    const advancedId = await api.start({ q: BERLIN_SEED, target: 3, speed: 'advanced' });
    const advanced = await api.waitTerminal(advancedId, 60_000);
    const advancedPages = web.requests().pages.length;

    expect(fast.status).toBe('done');
    expect(advanced.status).toBe('done');
    const fastUsage = eventsOf(await api.events(fastId), 'usage')[0]!;
    const advancedUsage = eventsOf(await api.events(advancedId), 'usage')[0]!;
    console.info(`pages requested from the fake web: fast ${fastPages}, advanced ${advancedPages}; usage.pages_opened: fast ${fastUsage.pages_opened}, advanced ${advancedUsage.pages_opened}`);
    expect(fastPages).toBeGreaterThan(0);
    expect(fastPages).toBeLessThan(advancedPages);
    expect(fastUsage.pages_opened).toBeLessThan(advancedUsage.pages_opened);
    // The service counts (and bills) exactly the pages the web saw requested.
    expect(fastUsage.pages_opened).toBe(fastPages);
    expect(advancedUsage.pages_opened).toBe(advancedPages);
  }, 90_000);

  it('searches again with fresh queries round after round until the web runs dry, then ends done with met false', async () => {
    const id = await api.start({ q: BERLIN_SEED, target: 40 });
    const run = await api.waitTerminal(id, 90_000);
    const events = await api.events(id);

    expect(run.status).toBe('done');
    expect(run.result!.met).toBe(false);
    expect(run.result!.table.length).toBeGreaterThan(0);
    expect(run.result!.table.length).toBeLessThan(40);
    const rounds = eventsOf(events, 'progress').map((p) => p.round);
    expect(rounds.length).toBeGreaterThan(1);
    for (let i = 1; i < rounds.length; i++) expect(rounds[i]!).toBeGreaterThanOrEqual(rounds[i - 1]!);
    expect(Math.max(...rounds)).toBeGreaterThan(1);
    const { searches, searchPages } = web.requests();
    // Never the same search twice: each (query, result page) is asked once.
    const asked = searchPages.map(({ q, pageno }) => `${pageno}:${q}`);
    expect(new Set(asked).size).toBe(asked.length);
    const firstPlan = eventsOf(events, 'plan')[0]!;
    expect(searches.filter((q) => !firstPlan.queries.includes(q)).length).toBeGreaterThan(0);
    assertRowsGrounded(run.result!.table, await fakeWebEvidence(web));
  }, 120_000);

  it('ends stopped within 2 s of a stop request while a search is still unanswered, with the stopped tail', async () => {
    web.setSearchDelay(3000);
    const id = await api.start({ q: BERLIN_SEED, target: 3 });
    const deadline = Date.now() + 15_000;
    while (web.requests().searches.length === 0) {
      if (Date.now() > deadline) throw new Error('the service never searched');
      await new Promise((r) => setTimeout(r, 25));
    }
    const stopAt = Date.now();
    const stop = await api.stop(id);
    expect(stop.status).toBe(202);
    expect(stop.body).toMatchObject({ id, status: 'running', stopRequested: true });
    const run = await api.waitTerminal(id, 10_000, 25);
    const elapsed = Date.now() - stopAt;

    expect(run.status).toBe('stopped');
    expect(elapsed).toBeLessThan(2000);
    const events = await api.events(id);
    const tail = events.slice(-4);
    expect(tail.map((e) => e.type)).toEqual(['final', 'cost', 'usage', 'done']);
    expect(tail[0]).toMatchObject({ type: 'final', stopped: true, met: false });
    expect(tail[1]).toMatchObject({ type: 'cost', stage: 'Stopped' });
    expect(tail[3]).toMatchObject({ type: 'done', stopped: true });
    expect(run.result).toMatchObject({ type: 'final', stopped: true });
  }, 60_000);
});
