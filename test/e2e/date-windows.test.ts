/**
 * Date-window searches on the bundled sample corpus find rows on whatever day they run. CI runs this
 * suite again with the clock moved ahead (+45 and +400 days); the server it starts shares that clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '@leadfinder/wire';
import { createAccount } from '../support/server-process.js';
import { embeddedServer, SHARED_SERVER_ADMIN_TOKEN, type EmbeddedServer } from '../support/shared-server.js';
import { eventsOf, searchApi } from '../support/search-api.js';

const ADMIN = SHARED_SERVER_ADMIN_TOKEN;
const today = () => new Date().toISOString().slice(0, 10);

describe('date windows on the sample corpus, at the run date', () => {
  let server: EmbeddedServer;
  let apiKey: string;
  beforeAll(async () => {
    server = await embeddedServer();
    apiKey = (await createAccount(server.url, ADMIN, 100)).apiKey;
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  const cases: { q: string; from: () => string; to: () => string | null }[] = [
    // The brief's own example and the README's: rolling windows ending today.
    { q: 'fintech startups in Berlin that raised a Series A in the last 6 months', from: () => '', to: () => null },
    { q: 'AI startups in Berlin that raised a seed round in the last year', from: () => '', to: () => null },
    // A closed range in the past of every run date.
    { q: 'AI startups in Berlin that raised a seed round in Q3 2025', from: () => '2025-07-01', to: () => '2025-09-30' },
    // A calendar period that may be one day old (1 January).
    { q: 'fintech startups in Berlin that raised a Series A this year', from: () => `${today().slice(0, 4)}-01-01`, to: () => null },
  ];

  it.each(cases)('"$q" finds rows dated inside its window', async ({ q, from, to }) => {
    const api = searchApi(server.url, apiKey);
    const id = await api.start({ q, target: 2 });
    const events: RunEvent[] = await api.events(id, 60_000);
    const plan = eventsOf(events, 'plan')[0]!;
    expect(plan.date_range).not.toBeNull();
    if (from()) expect(plan.date_range!.from).toBe(from());
    if (to()) expect(plan.date_range!.to).toBe(to());
    expect(plan.date_range!.from <= today()).toBe(true);

    const run = await api.waitTerminal(id, 60_000);
    expect(run.status).toBe('done');
    const rows = run.result!.table;
    expect(rows.length).toBeGreaterThanOrEqual(1);
    for (const row of rows) {
      const dates = row.supporting_passages.map((p) => p.published).filter((d): d is string => d !== null);
      expect(dates.some((d) => d >= plan.date_range!.from && (plan.date_range!.to === null || d <= plan.date_range!.to))).toBe(true);
    }
  }, 90_000);
});
