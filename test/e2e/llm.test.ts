/**
 * The hosted-reasoner path end to end: a real `leadfinder serve` process with an OpenAI-compatible
 * endpoint configured (a loopback stub) and the fake web behind SearXNG. The same research code runs;
 * the reasoner's replies are checked against the pages, so the stub's invented name and quote vanish.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '@leadfinder/wire';
import { startFakeWeb } from '../support/fake-web.js';
import type { FakeWeb } from '../support/fake-web.js';
import { assertRowsGrounded, fakeWebEvidence } from '../support/grounding.js';
import { INVENTED_NAME, inventedPassage, startLlmStub } from '../support/llm-stub.js';
import type { LlmStub } from '../support/llm-stub.js';
import { createAccount, startServerProcess } from '../support/server-process.js';
import type { ServerProcess } from '../support/server-process.js';
import { eventsOf, searchApi } from '../support/search-api.js';
import type { SearchApi } from '../support/search-api.js';

const ADMIN = 'llm-e2e-admin-token-0123456789abcdefghij';
const API_KEY = 'test';
const BERLIN_SEED = 'AI startups in Berlin that raised a seed round in the last year';
// Far above list price so the token share of the bill is plain to see next to searches and pages.
const PRICE_INPUT_PER_MTOK = 10;
const PRICE_OUTPUT_PER_MTOK = 40;
const PRICE_SEARCH_MICROUSD = 5_000;
const PRICE_PAGE_MICROUSD = 1_000;

/** Every text the run showed a user: final rows and live progress leads. */
function shownText(events: readonly RunEvent[]): string {
  return JSON.stringify([...eventsOf(events, 'final').map((f) => f.table), ...eventsOf(events, 'progress').map((p) => p.leads)]);
}

describe('researching with an OpenAI-compatible endpoint configured', () => {
  let web: FakeWeb;
  let llm: LlmStub;
  let server: ServerProcess;
  let api: SearchApi;

  beforeAll(async () => {
    web = await startFakeWeb();
    llm = await startLlmStub({ apiKey: API_KEY });
    server = await startServerProcess({
      env: {
        ...web.resolveEnv,
        LEADFINDER_ADMIN_TOKEN: ADMIN,
        LEADFINDER_LLM_BASE_URL: llm.baseUrl,
        LEADFINDER_LLM_API_KEY: API_KEY,
        LEADFINDER_PRICE_LLM_INPUT_USD_PER_MTOK: String(PRICE_INPUT_PER_MTOK),
        LEADFINDER_PRICE_LLM_OUTPUT_USD_PER_MTOK: String(PRICE_OUTPUT_PER_MTOK),
      },
    });
    const account = await createAccount(server.url, ADMIN, 100);
    api = searchApi(server.url, account.apiKey);
  });
  afterAll(async () => {
    await server?.stop();
    await llm?.close();
    await web?.close();
  });

  it('ends done with llm-reasoned, grounded rows, bills the tokens, and drops the invented name and quote', async () => {
    const callsBefore = llm.calls().length;
    web.resetRequests();
    const id = await api.start({ q: BERLIN_SEED, target: 3 });
    const run = await api.waitTerminal(id, 90_000);
    const events = await api.events(id);

    expect(run.status).toBe('done');
    const rows = run.result!.table;
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row.by_filter.length).toBe(run.result!.filters.length);
      for (const verdict of row.by_filter) expect(verdict.rationale_mode).toBe('llm');
    }

    // The same code path as without an LLM: SearXNG searched, pages really fetched.
    expect(web.requests().searches.length).toBeGreaterThan(0);
    expect(web.requests().pages.length).toBeGreaterThan(0);
    const calls = llm.calls().slice(callsBefore);
    const answered = calls.filter((c) => c.status === 200);
    const operations = new Set(answered.map((c) => c.operation));
    for (const op of ['research_plan', 'candidates', 'verdict']) expect(operations).toContain(op);

    const usage = eventsOf(events, 'usage')[0]!;
    expect(usage.llm_calls).toBeGreaterThan(0);
    expect(usage.llm_calls).toBe(answered.length);
    expect(usage.input_tokens).toBe(answered.reduce((n, c) => n + c.promptTokens, 0));
    expect(usage.output_tokens).toBe(answered.reduce((n, c) => n + c.completionTokens, 0));
    expect(usage.input_tokens).toBeGreaterThan(0);
    expect(usage.output_tokens).toBeGreaterThan(0);

    const tokenMicrousd = usage.input_tokens * PRICE_INPUT_PER_MTOK + usage.output_tokens * PRICE_OUTPUT_PER_MTOK;
    const webMicrousd = usage.search_calls * PRICE_SEARCH_MICROUSD + usage.pages_opened * PRICE_PAGE_MICROUSD;
    const lastCost = eventsOf(events, 'cost').at(-1)!;
    expect(lastCost.stage).toBe('Done');
    expect(Math.abs(Math.round(lastCost.usd * 1e6) - (webMicrousd + tokenMicrousd))).toBeLessThanOrEqual(2);
    expect(usage.spend_microusd).toBe(Math.round(lastCost.usd * 1e6));
    expect(tokenMicrousd).toBeGreaterThan(webMicrousd);

    // The stub named an invented company on every page and quoted an invented sentence in every verdict.
    expect(answered.filter((c) => c.operation === 'candidates').length).toBeGreaterThan(0);
    const shown = shownText(events);
    expect(shown).not.toContain(INVENTED_NAME);
    for (const row of rows) {
      expect(row.name).not.toBe(INVENTED_NAME);
      expect(shown).not.toContain(inventedPassage(row.name));
    }
    assertRowsGrounded(rows, await fakeWebEvidence(web));
  }, 120_000);

  it('still completes when the endpoint answers 429 before it succeeds', async () => {
    const callsBefore = llm.calls().length;
    web.resetRequests();
    llm.failNext(3);
    const id = await api.start({ q: BERLIN_SEED, target: 2 });
    const run = await api.waitTerminal(id, 90_000);

    const calls = llm.calls().slice(callsBefore);
    expect(calls.slice(0, 3).map((c) => c.status)).toEqual([429, 429, 429]);
    expect(calls.slice(3).every((c) => c.status === 200)).toBe(true);
    expect(run.status).toBe('done');
    expect(run.result!.table).toHaveLength(2);
    expect(run.result!.table.every((r) => r.by_filter.every((f) => f.rationale_mode === 'llm'))).toBe(true);
    assertRowsGrounded(run.result!.table, await fakeWebEvidence(web));
  }, 120_000);
});
