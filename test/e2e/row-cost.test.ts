/**
 * Issue 18 item 5 through the HTTP API of a real embedded server on the bundled sample corpus: `cost`
 * events carry per_row_usd and projected_usd, and a run with a tiny `max_usd_per_row` ends `stopped` with
 * `final.stop_reason`, charged what it spent and its hold released.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../support/server-process.js';
import { embeddedServer, SHARED_SERVER_ADMIN_TOKEN, type EmbeddedServer } from '../support/shared-server.js';
import { eventsOf, searchApi, type SearchBody } from '../support/search-api.js';

const ADMIN = SHARED_SERVER_ADMIN_TOKEN;
const Q = 'fintech startups in Berlin';
const INITIAL_USD = 100;

async function money(url: string, id: string): Promise<{ balanceMicrousd: number; heldMicrousd: number; availableMicrousd: number }> {
  const r = await fetch(`${url}/admin/accounts/${id}`, { headers: { authorization: `Bearer ${ADMIN}` } });
  expect(r.status).toBe(200);
  return (await r.json()) as { balanceMicrousd: number; heldMicrousd: number; availableMicrousd: number };
}
const micros = (usd: number) => Math.round(usd * 1_000_000);

describe('spend per row and max_usd_per_row, on embedded', () => {
  let server: EmbeddedServer;
  beforeAll(async () => {
    server = await embeddedServer();
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('cost events carry per_row_usd and projected_usd: null before the first row, usd ÷ rows and usd × target ÷ rows after', async () => {
    const account = await createAccount(server.url, ADMIN, INITIAL_USD);
    const api = searchApi(server.url, account.apiKey);
    const id = await api.start({ q: Q, target: 40 });
    const events = await api.events(id, 90_000);
    const run = await api.waitTerminal(id, 90_000);
    const rows = run.result!.table.length;
    expect(rows).toBeGreaterThan(0);
    const costs = eventsOf(events, 'cost');
    expect(costs[0]!.per_row_usd).toBeNull();
    expect(costs[0]!.projected_usd).toBeNull();
    const tail = costs.at(-1)!;
    expect(micros(tail.per_row_usd!)).toBe(Math.round(micros(tail.usd) / rows));
    expect(micros(tail.projected_usd!)).toBe(rows >= 40 ? micros(tail.usd) : Math.round((micros(tail.usd) * 40) / rows));
    expect(run.result).not.toHaveProperty('stop_reason');
  }, 120_000);

  it('a tiny max_usd_per_row ends the run stopped with its reason; charged what it spent, the rest of the hold released', async () => {
    const account = await createAccount(server.url, ADMIN, INITIAL_USD);
    const api = searchApi(server.url, account.apiKey);
    const body: SearchBody & { max_usd_per_row: number } = { q: Q, target: 40, max_usd_per_row: 0.000001 };
    const id = await api.start(body);
    const events = await api.events(id, 90_000);
    const run = await api.waitTerminal(id, 90_000);
    expect(run.status).toBe('stopped');
    expect(run.result!.stopped).toBe(true);
    expect(run.result!.stop_reason).toBe('max_usd_per_row');
    expect(run.result!.table.length).toBeGreaterThan(0);
    expect(events.map((e) => e.type).slice(-4)).toEqual(['final', 'cost', 'usage', 'done']);
    const tail = eventsOf(events, 'cost').at(-1)!;
    expect(tail.stage).toBe('Stopped');
    const charge = micros(tail.usd);
    expect(charge).toBeGreaterThan(0);
    // Settled: nothing held, the balance is the initial one minus the charge.
    const after = await money(server.url, account.id);
    expect(after.heldMicrousd).toBe(0);
    expect(after.balanceMicrousd).toBe(INITIAL_USD * 1_000_000 - charge);
    expect(after.availableMicrousd).toBe(after.balanceMicrousd);

    // Out of range is a validation error, nothing reserved.
    const bad = await fetch(`${server.url}/v1/searches`, {
      method: 'POST', headers: { authorization: `Bearer ${account.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ q: Q, max_usd_per_row: -1 }),
    });
    expect(bad.status).toBe(422);
    expect((await money(server.url, account.id)).heldMicrousd).toBe(0);
  }, 120_000);
});
