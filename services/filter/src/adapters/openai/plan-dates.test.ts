import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '@leadfinder/platform';
import { createOpenAiReasoner } from './reasoner.js';

/** What the LLM planner is told about dates: absolute dates for the period, nothing of unread phrases. */
let server: Server;
let baseUrl: string;
const sent: string[] = [];
const planReply = {
  entityType: 'company', summary: 'fintech startups',
  filters: [{ title: 'Raised funding', criterion: 'Raised funding.', kind: 'event' }],
  queries: ['fintech startup funding'],
};

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw) as { messages: { role: string; content: string }[] };
      sent.push(body.messages.find((m) => m.role === 'user')!.content);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { content: JSON.stringify(planReply) } }], usage: { prompt_tokens: 10, completion_tokens: 5 } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const reasoner = () => createOpenAiReasoner({ baseUrl, apiKey: 'sk-test', model: 'stub-model', concurrency: 1, backoffBaseMs: 1, logger: silentLogger });
const signal = new AbortController().signal;
const NOW = '2026-03-15T09:00:00.000Z';

describe('the LLM planner and date phrases', () => {
  it('is given the period as absolute dates', async () => {
    const { plan } = await reasoner().plan({ query: 'fintech startups that raised funding between January and March 2026', now: NOW, sites: '' }, { signal });
    const input = JSON.parse(sent.at(-1)!) as { query: string; dates: { phrase: string; means: string } };
    expect(input.dates).toEqual({ phrase: 'between January and March 2026', means: 'between 2026-01-01 and 2026-03-31' });
    expect(plan.dateRange).toMatchObject({ from: '2026-01-01', to: '2026-03-31' });
  });

  it('never sees a phrase it cannot be held to; the user is told instead', async () => {
    const { plan } = await reasoner().plan({ query: 'fintech startups that raised funding in the spring', now: NOW, sites: '' }, { signal });
    const input = JSON.parse(sent.at(-1)!) as { query: string; dates: unknown };
    expect(input.query).toBe('fintech startups that raised funding');
    expect(input.dates).toBeNull();
    expect(plan.notes).toEqual(['Could not read "in the spring" as a date range; searching without it.']);
  });
});
