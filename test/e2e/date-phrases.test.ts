/**
 * Date phrases through a real `leadfinder serve`: the plan event carries the whole range, criteria hold
 * no half of the phrase, and a phrase that cannot be read is a `status` event, not a criterion.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../support/server-process.js';
import { embeddedServer, SHARED_SERVER_ADMIN_TOKEN, type EmbeddedServer } from '../support/shared-server.js';
import { eventsOf, searchApi } from '../support/search-api.js';
import type { SearchApi } from '../support/search-api.js';

const ADMIN = SHARED_SERVER_ADMIN_TOKEN;

describe('date phrases in the event stream', () => {
  let server: EmbeddedServer;
  let api: SearchApi;

  beforeAll(async () => {
    server = await embeddedServer();
    api = searchApi(server.url, (await createAccount(server.url, ADMIN, 20)).apiKey);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('"between January and March 2026" is one closed range, and no criterion quotes half of it', async () => {
    const id = await api.start({ q: 'fintech startups in Berlin that raised funding between January and March 2026', target: 2 });
    await api.waitTerminal(id, 60_000);
    const [plan] = eventsOf(await api.events(id), 'plan');
    expect(plan!.date_range).toEqual({ from: '2026-01-01', to: '2026-03-31', phrase: 'between January and March 2026' });
    const criteria = plan!.filters.map((f) => f.criterion).join(' ');
    expect(criteria).toContain('between 2026-01-01 and 2026-03-31');
    expect(criteria).not.toMatch(/January|between January/);
  }, 90_000);

  it('a phrase no rule reads is told in a status event after the plan and left out of the criteria', async () => {
    const id = await api.start({ q: 'AI startups in Berlin that raised a seed round in the spring', target: 2 });
    await api.waitTerminal(id, 60_000);
    const events = await api.events(id);
    const at = events.findIndex((e) => e.type === 'plan');
    const plan = eventsOf(events, 'plan')[0]!;
    expect(plan.date_range).toBeNull();
    expect(plan.filters.map((f) => f.criterion).join(' ')).not.toMatch(/spring/i);
    expect(events[at + 1]).toMatchObject({ type: 'status', where: 'planning', message: 'Could not read "in the spring" as a date range; searching without it.' });
  }, 90_000);
});
