import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger, systemClock } from '@leadfinder/platform';
import type { FetchedPage, ResearchPlan } from '@leadfinder/wire';
import { createFilter } from '../../filter.js';
import { createOpenAiReasoner } from './reasoner.js';

/** A loopback OpenAI-compatible stub: answers from a queue of canned replies and records requests. */
type Reply = { status: number; body: unknown; headers?: Record<string, string> };
let server: Server;
let baseUrl: string;
let replies: Reply[] = [];
let requests: { body: Record<string, unknown>; auth: string | undefined }[] = [];

function completion(content: unknown, prompt = 120, completionTokens = 30): Reply {
  return { status: 200, body: { choices: [{ message: { content: JSON.stringify(content) } }], usage: { prompt_tokens: prompt, completion_tokens: completionTokens } } };
}

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      requests.push({ body: JSON.parse(raw) as Record<string, unknown>, auth: req.headers.authorization });
      const reply = replies.shift() ?? { status: 500, body: { error: 'no canned reply' } };
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  replies = [];
  requests = [];
});

const NOW = '2026-03-15T09:00:00.000Z';
const signal = new AbortController().signal;
const page: FetchedPage = {
  url: 'https://berlin-startup-news.example/lumora', finalUrl: 'https://berlin-startup-news.example/lumora', status: 200,
  contentType: 'text/html', title: 'Lumora raises seed funding', publishedAt: '2025-11-02', fetchedAt: NOW,
  text: 'Lumora raises seed funding Lumora, a Berlin-based AI startup, has raised a €2 million seed round led by Northwind Ventures.',
  passages: ['Lumora raises seed funding', 'Lumora, a Berlin-based AI startup, has raised a €2 million seed round led by Northwind Ventures.'],
};

function filter() {
  return createFilter({
    reasoner: createOpenAiReasoner({ baseUrl, apiKey: 'sk-test', model: 'stub-model', concurrency: 2, backoffBaseMs: 1, logger: silentLogger }),
    logger: silentLogger,
    clock: systemClock,
  });
}

const planReply = {
  entityType: 'company', summary: 'AI startups in Berlin with a recent seed round',
  filters: [
    { title: 'Is an AI startup', criterion: 'The company is an AI startup.', kind: 'type' },
    { title: 'Based in Berlin', criterion: 'Based in Berlin.', kind: 'location' },
    { title: 'Raised a seed round', criterion: 'Raised a seed round in the last year.', kind: 'event' },
  ],
  queries: ['AI startup Berlin seed round', 'Berlin AI seed funding', 'Berlin startup raises seed'],
};

async function plan(): Promise<ResearchPlan> {
  replies.push(completion(planReply));
  return (await filter().plan({ query: 'AI startups in Berlin that raised a seed round in the last year', now: NOW, sites: '' }, { signal })).plan;
}

describe('the OpenAI-compatible reasoner', () => {
  it('asks for strict JSON-schema output and reports token usage', async () => {
    replies.push(completion(planReply, 321, 54));
    const { plan: p, usage } = await filter().plan({ query: 'AI startups in Berlin that raised a seed round in the last year', now: NOW, sites: '' }, { signal });
    expect(usage).toEqual({ calls: 1, inputTokens: 321, outputTokens: 54 });
    const body = requests[0]!.body as { model: string; response_format: { type: string; json_schema: { strict: boolean; schema: { type: string; additionalProperties: boolean } } } };
    expect(requests[0]!.auth).toBe('Bearer sk-test');
    expect(body.model).toBe('stub-model');
    expect(body.response_format.type).toBe('json_schema');
    expect(body.response_format.json_schema.strict).toBe(true);
    expect(body.response_format.json_schema.schema).toMatchObject({ type: 'object', additionalProperties: false });
    // Dates come from the exact rules, attached to the event filter.
    expect(p.dateRange).toEqual({ from: '2025-03-15', to: null, phrase: 'in the last year' });
    expect(p.filters[2]!.spec['dateRange']).toEqual(p.dateRange);
  });

  it('retries after a 429 (honouring Retry-After) and after a 500, then succeeds', async () => {
    replies.push({ status: 429, body: { error: 'slow down' }, headers: { 'retry-after': '0' } }, { status: 500, body: { error: 'oops' } }, completion(planReply, 10, 5));
    const { usage } = await filter().plan({ query: 'AI startups in Berlin', now: NOW, sites: '' }, { signal });
    expect(requests).toHaveLength(3);
    expect(usage.calls).toBe(1);
  });

  it('gives up with a retryable upstream error after four failed tries', async () => {
    replies.push(...Array.from({ length: 4 }, () => ({ status: 503, body: {} })));
    await expect(filter().plan({ query: 'AI startups in Berlin', now: NOW, sites: '' }, { signal })).rejects.toMatchObject({ code: 'LF_ERR_UPSTREAM', retryable: true });
    expect(requests).toHaveLength(4);
  });

  it('drops invented candidates and passages that are not in the page', async () => {
    const p = await plan();
    replies.push(completion({
      candidates: [
        { name: 'Lumora', details: 'Lumora, a Berlin-based AI startup', intentSignal: 'raised a seed round', discoveryRationale: 'named in the article', domain: null,
          passages: ['Lumora, a Berlin-based AI startup, has raised a €2 million seed round led by Northwind Ventures.', 'Lumora is the best startup in Europe.'] },
        { name: 'Phantomly', details: 'made up', intentSignal: '', discoveryRationale: '', passages: [], domain: null },
      ],
    }));
    const { candidates, usage } = await filter().extract({ plan: p, page, round: 1 }, { signal });
    expect(candidates.map((c) => c.name)).toEqual(['Lumora']);
    expect(candidates[0]!.passages.map((x) => x.text)).toEqual(['Lumora, a Berlin-based AI startup, has raised a €2 million seed round led by Northwind Ventures.']);
    expect(usage.calls).toBe(1);
  });

  it('turns a pass that quotes nothing real into a fail, and keeps real quotes with llm rationale mode', async () => {
    const p = await plan();
    replies.push(completion({ pass: true, rationale: 'It is in Berlin.', verification: 'stated', passages: [{ text: 'Lumora moved to Berlin in 2019.', url: page.url }] }));
    const candidate = { key: 'lumora', name: 'Lumora', entityType: 'company' as const, details: '', intentSignal: '', discoveryRationale: '', sourceUrls: [page.url], passages: [], domain: null, round: 1 };
    const invented = (await filter().verify({ plan: p, filter: p.filters[1]!, candidate, pages: [page] }, { signal })).verdict;
    expect(invented.pass).toBe(false);
    expect(invented.passages).toEqual([]);
    const real = 'Lumora, a Berlin-based AI startup, has raised a €2 million seed round led by Northwind Ventures.';
    replies.push(completion({ pass: true, rationale: 'The article says it is Berlin-based.', verification: 'stated', passages: [{ text: real, url: page.url }] }));
    const verdict = (await filter().verify({ plan: p, filter: p.filters[1]!, candidate, pages: [page] }, { signal })).verdict;
    expect(verdict).toMatchObject({ pass: true, rationaleMode: 'llm', verification: 'stated', passages: [{ text: real, url: page.url }] });
  });

  it('asks the model only where the rules answer unclear, and gives it the page model', async () => {
    const { createRuleReasoner } = await import('../rules/reasoner.js');
    const ruled = (await createRuleReasoner().plan({ query: 'AI startups in Berlin', now: NOW, sites: '' }, { signal })).plan;
    const profile: FetchedPage = {
      ...page, url: 'https://startupindex.example/companies/lumora', finalUrl: 'https://startupindex.example/companies/lumora',
      text: 'Lumora\nLocation: Berlin, Germany\nIndustry: AI', passages: ['Lumora', 'Location: Berlin, Germany', 'Industry: AI'],
      model: { subject: { name: 'Lumora', kind: null, link: null, passage: 'Lumora', source: 'heading', facts: [
        { label: 'Location', value: 'Berlin, Germany', passage: 'Location: Berlin, Germany' }, { label: 'Industry', value: 'AI', passage: 'Industry: AI' },
      ] }, items: [], siteName: null },
    };
    const candidate = {
      key: 'lumora', name: 'Lumora', entityType: 'company' as const, details: 'Lumora', intentSignal: '', discoveryRationale: 'profile',
      sourceUrls: [profile.url], passages: [], domain: null, round: 1,
    };
    // The facts settle the place: no request to the model, a rules verdict.
    const settled = await filter().verify({ plan: ruled, filter: ruled.filters[1]!, candidate, pages: [profile] }, { signal });
    expect(requests).toHaveLength(0);
    expect(settled.verdict).toMatchObject({ pass: true, outcome: 'yes', rationaleMode: 'rules' });
    expect(settled.usage.calls).toBe(0);
    // A filter the rules cannot check (the model planned it) goes to the model, with the candidate's facts.
    const asked = { ...ruled.filters[1]!, spec: { kind: 'llm', filterKind: 'other' } };
    replies.push(completion({ pass: true, rationale: 'Its profile says Berlin.', verification: 'stated', passages: [{ text: 'Location: Berlin, Germany', url: profile.url }] }));
    const judged = await filter().verify({ plan: ruled, filter: asked, candidate, pages: [profile] }, { signal });
    expect(requests).toHaveLength(1);
    expect(JSON.stringify(requests[0]!.body)).toContain('Location: Berlin, Germany');
    expect(judged.verdict).toMatchObject({ pass: true, outcome: 'yes', rationaleMode: 'llm' });
  });

  it('stops when the caller aborts', async () => {
    replies.push({ status: 429, body: {}, headers: { 'retry-after': '5' } });
    const controller = new AbortController();
    const pending = filter().plan({ query: 'AI startups in Berlin', now: NOW, sites: '' }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ code: 'LF_ERR_CANCELLED' });
  });
});
