/**
 * Spec §2.1: `usdDisplay` is the charged figure to show when polling. While a run spends, a poll right
 * after a `cost` event shows at least that figure (never the `$0.00` of a run that has not spent).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeWeb } from '../support/fake-web.js';
import type { FakeWeb } from '../support/fake-web.js';
import { createAccount, startServerProcess } from '../support/server-process.js';
import type { ServerProcess } from '../support/server-process.js';
import { searchApi } from '../support/search-api.js';

const ADMIN = 'live-spend-e2e-admin-token-0123456789abcdef';
const TAIL_STAGES = new Set(['Done', 'Stopped', 'Budget exhausted', 'Error', 'Interrupted']);

describe('usdDisplay while a run spends', () => {
  let web: FakeWeb;
  let server: ServerProcess;
  let key: string;

  beforeAll(async () => {
    web = await startFakeWeb();
    server = await startServerProcess({ env: { ...web.resolveEnv, LEADFINDER_ADMIN_TOKEN: ADMIN } });
    key = (await createAccount(server.url, ADMIN, 20)).apiKey;
  });
  afterAll(async () => {
    await server?.stop();
    await web?.close();
  });

  it('follows the latest cost event when polled during the run', async () => {
    // Slow searches keep the run going between its cost events.
    web.setSearchDelay(1500);
    const api = searchApi(server.url, key);
    const id = await api.start({ q: 'AI startups in Berlin that raised a seed round in the last year', target: 200 });
    const stream = await fetch(`${server.url}/v1/searches/${id}/events`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(60_000) });
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    const seen: { cost: number; shown: string }[] = [];
    let buffer = '';
    try {
      while (seen.length < 2) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        const frames = buffer.split('\n\n');
        buffer = frames.pop()!;
        for (const frame of frames) {
          const data = frame.split('\n').find((l) => l.startsWith('data: '));
          if (!data) continue;
          const event = JSON.parse(data.slice(6)) as { type: string; stage?: string; usd?: number };
          if (event.type !== 'cost' || TAIL_STAGES.has(event.stage!)) continue;
          const run = await api.run(id);
          if (run.status === 'running') seen.push({ cost: event.usd!, shown: run.usdDisplay });
        }
      }
    } finally {
      await reader.cancel().catch(() => undefined);
      await api.stop(id);
      web.setSearchDelay(0);
    }
    expect(seen.length).toBeGreaterThan(0);
    for (const { cost, shown } of seen) {
      expect(cost).toBeGreaterThan(0);
      expect(Number(shown.replace('$', ''))).toBeGreaterThanOrEqual(cost);
    }
    const ended = await api.waitTerminal(id, 30_000);
    expect(ended.status).toBe('stopped');
  }, 90_000);
});
