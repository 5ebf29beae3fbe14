/**
 * A search provider that cannot be reached, through a real `leadfinder serve` process: the run fails
 * with a short, generic `error` message, is charged nothing for searches that never connected, and the
 * detail (address, errno) is in the service log with the run id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, freePort, startServerProcess } from '../support/server-process.js';
import type { ServerProcess } from '../support/server-process.js';
import { eventsOf, searchApi } from '../support/search-api.js';
import type { SearchApi } from '../support/search-api.js';

const ADMIN = 'outage-e2e-admin-token-0123456789abcdef';

describe('a search provider that cannot be reached', () => {
  let server: ServerProcess;
  let api: SearchApi;
  let closedPort: number;

  beforeAll(async () => {
    closedPort = await freePort();
    server = await startServerProcess({
      env: { LEADFINDER_ADMIN_TOKEN: ADMIN, LEADFINDER_SEARCH: 'searxng', LEADFINDER_SEARXNG_URL: `http://127.0.0.1:${closedPort}` },
    });
    api = searchApi(server.url, (await createAccount(server.url, ADMIN, 10)).apiKey);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('ends error with a generic message, bills no search, and logs the detail with the run id', async () => {
    const id = await api.start({ q: 'AI startups in Berlin that raised a seed round in the last year', target: 3 });
    const run = await api.waitTerminal(id, 60_000);
    expect(run.status).toBe('error');
    expect(run.usdDisplay).toBe('$0.00');
    const events = await api.events(id);
    expect(eventsOf(events, 'error').map((e) => e.message)).toEqual(['The web search service could not be reached.']);
    expect(eventsOf(events, 'cost').at(-1)).toMatchObject({ stage: 'Error', usd: 0 });
    expect(eventsOf(events, 'usage')[0]).toMatchObject({ search_calls: 0 });
    expect(JSON.stringify(events)).not.toMatch(new RegExp(`ECONNREFUSED|${closedPort}`));
    const logged = server.output().split('\n').filter((line) => line.includes(id) && line.includes('run failed'));
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.join('\n')).toMatch(new RegExp(`ECONNREFUSED.*127\\.0\\.0\\.1:${closedPort}|127\\.0\\.0\\.1:${closedPort}.*ECONNREFUSED`));
  }, 90_000);
});
