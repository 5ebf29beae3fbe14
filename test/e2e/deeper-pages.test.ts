/**
 * A dated, site-limited search through SearXNG still reads deeper result pages: a page counts as full
 * by what SearXNG returned, not by what survived the service's date and site checks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeWeb } from '../support/fake-web.js';
import type { FakeWeb } from '../support/fake-web.js';
import { createAccount, startServerProcess } from '../support/server-process.js';
import type { ServerProcess } from '../support/server-process.js';
import { searchApi } from '../support/search-api.js';

const ADMIN = 'deeper-pages-e2e-admin-token-0123456789abcdef';

describe('deeper result pages of dated and site-limited searches', () => {
  let web: FakeWeb;
  let server: ServerProcess;

  beforeAll(async () => {
    web = await startFakeWeb();
    server = await startServerProcess({ env: { ...web.resolveEnv, LEADFINDER_ADMIN_TOKEN: ADMIN } });
  });
  afterAll(async () => {
    await server?.stop();
    await web?.close();
  });

  it('asks SearXNG for page 2 when page 1 came back full but mostly outside the date range', async () => {
    const api = searchApi(server.url, (await createAccount(server.url, ADMIN, 20)).apiKey);
    web.resetRequests();
    const id = await api.start({ q: 'AI startups in Berlin that raised a seed round in the last 3 months', target: 50 });
    const run = await api.waitTerminal(id, 60_000);
    const pages = web.requests().searchPages;
    expect(run.status).toBe('done');
    expect(pages.some((p) => p.pageno >= 2)).toBe(true);
  }, 90_000);
});
