/**
 * An OpenAI-compatible chat-completions stub on loopback (`POST /v1/chat/completions`), answering the
 * filter's structured-output requests (one `response_format.json_schema.name` per operation) from the
 * request content alone, deterministically and honestly: names and sentences it returns are found in
 * the text it was given by simple patterns, with two deliberate exceptions so tests can prove the
 * service's never-invent guard: every `candidates` answer adds one invented company
 * (`INVENTED_NAME`), and every `verdict` answer adds one invented quote (`inventedPassage(name)`).
 *
 * @example
 * const llm = await startLlmStub({ apiKey: 'test' });
 * const env = { LEADFINDER_LLM_BASE_URL: llm.baseUrl, LEADFINDER_LLM_API_KEY: 'test' };
 * llm.failNext(2); // the next two calls answer 429 (Retry-After: 0)
 * await llm.close();
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export const INVENTED_NAME = 'Zorblax Quantum';
export const inventedPassage = (candidate: string): string => `${candidate} was named the most promising startup in Europe by every investor.`;

export interface LlmCall {
  /** The json_schema name: research_plan, search_queries, screen_scores, candidates, verdict, loosened_filter. */
  operation: string;
  status: number;
  promptTokens: number;
  completionTokens: number;
}

export interface LlmStub {
  /** API root for LEADFINDER_LLM_BASE_URL, ending in `/v1`. */
  readonly baseUrl: string;
  /** Every request answered so far. */
  calls(): LlmCall[];
  /** The next `count` requests answer `status` (default 429, with `Retry-After: 0`). */
  failNext(count: number, status?: number): void;
  close(): Promise<void>;
}

export interface LlmStubOptions {
  /** When set, requests without `Authorization: Bearer <apiKey>` get 401. */
  apiKey?: string;
}

// ---------------------------------------------------------------------------------------------------
// Text helpers

const STOP = new Set([
  'a', 'an', 'the', 'is', 'are', 'was', 'were', 'be', 'been', 'it', 'its', 'in', 'of', 'on', 'or', 'and', 'to',
  'for', 'at', 'by', 'that', 'who', 'which', 'with', 'as', 'has', 'have', 'had', 'company', 'companies', 'person',
  'people', 'based', 'located', 'after', 'before', 'find', 'than', 'from', 'any', 'this', 'their',
]);

/** Content words, cut to a 5-letter stem so "raised"/"raises" and "startup"/"startups" meet. */
function terms(text: string): string[] {
  const words = (text.toLowerCase().match(/[\p{L}\d]+/gu) ?? []).filter((w) => !STOP.has(w));
  return [...new Set(words.map((w) => w.slice(0, 5)))];
}

/** Share of `wanted` terms present in `text`. */
function coverage(wanted: readonly string[], text: string): number {
  if (wanted.length === 0) return 0;
  const have = new Set(terms(text));
  return wanted.filter((t) => have.has(t)).length / wanted.length;
}

/** Sentences of a text, each a verbatim substring of it. */
function sentences(text: string): string[] {
  return text
    .split('\n')
    .flatMap((line) => line.split(/(?<=[.!?])\s+(?=[A-Z])/))
    .map((s) => s.trim())
    .filter(Boolean);
}

const NAME = String.raw`[A-Z][\p{L}\d&'-]*(?: [A-Z][\p{L}\d&'-]*){0,3}`;
const NAME_APPOSITION = new RegExp(String.raw`^(${NAME}), (?:a|an|the) `, 'u');
const NAME_HEADLINE = new RegExp(String.raw`^(${NAME}) (?:raises|raised|announces|announced|launches|launched|opens|hires|closes|secures|secured)\b`, 'u');
const NOT_NAMES = new Set(['The', 'This', 'In', 'On', 'At', 'For', 'Today', 'Founded', 'According', 'Earlier', 'Last']);

/** Names a page states as "X, a …" or in a headline "X raises …". */
function namesIn(text: string): string[] {
  const found: string[] = [];
  for (const s of sentences(text)) {
    const m = NAME_APPOSITION.exec(s) ?? NAME_HEADLINE.exec(s);
    if (m && !NOT_NAMES.has(m[1]!.split(' ')[0]!) && !found.includes(m[1]!)) found.push(m[1]!);
  }
  return found;
}

// ---------------------------------------------------------------------------------------------------
// Operations (each gets the parsed user message; returns the structured reply)

const PERIOD = /\s+(?:in the (?:last|past) .*|in (?:Q[1-4] )?\d{4}.*|(?:this|last) (?:year|month|quarter).*|since .*)$/i;
const CITY_COUNTRY: Record<string, string> = {
  Berlin: 'Germany', Munich: 'Germany', Hamburg: 'Germany', Paris: 'France', London: 'the United Kingdom',
  Amsterdam: 'the Netherlands', Lisbon: 'Portugal',
};

function entityTypeOf(query: string): string {
  const q = query.toLowerCase();
  if (/lawyer|attorney|law firm/.test(q)) return 'lawyer';
  if (/clinic|doctor|physician/.test(q)) return 'clinician';
  if (/\bbooks?\b|novel/.test(q)) return 'book';
  if (/\bpapers?\b/.test(q)) return 'paper';
  if (/conference|summit/.test(q)) return 'conference';
  return 'company';
}

function plan(input: { query: string }) {
  const query = input.query.trim();
  const core = query.replace(PERIOD, '').trim();
  const m = /^(.+?) in ([A-Z][\p{L}-]+(?: [A-Z][\p{L}-]+)*)(?:,?\s+(?:that|who|which)\s+(.+))?$/u.exec(core);
  const subject = m?.[1] ?? core;
  const singular = subject.replace(/s$/, '');
  const article = /^[aeiou]/i.test(singular) || /^AI\b/.test(singular) ? 'an' : 'a';
  const filters: { title: string; criterion: string; kind: string }[] = [
    { title: `Is ${article} ${singular}`, criterion: `The company is ${article} ${singular}.`, kind: 'type' },
  ];
  if (m?.[2]) filters.push({ title: `Based in ${m[2]}`, criterion: `The company is based in ${m[2]}.`, kind: 'location' });
  if (m?.[3]) filters.push({ title: m[3].replace(/^./, (c) => c.toUpperCase()), criterion: `The company ${m[3]}.`, kind: 'event' });
  const place = m?.[2] ?? '';
  const queries = [
    [subject, place, m?.[3] ?? ''].join(' '),
    [place, subject].join(' '),
    [subject, place, 'news'].join(' '),
  ].map((q) => q.replace(/\s+/g, ' ').trim());
  return { entityType: entityTypeOf(query), summary: `Find ${core}.`, filters, queries: [...new Set(queries)] };
}

const FOLLOW_UPS = ['funding', 'announcement', 'profile', 'interview', 'list', 'directory'];

function searchQueries(input: { plan: string; round: number; used: string[] }) {
  const core = input.plan.replace(/^Find /, '').replace(/\.$/, '').replace(/ (?:that|who|which) .*$/, '').replace(/ in /, ' ');
  const used = new Set(input.used.map((u) => u.toLowerCase().trim()));
  return { queries: FOLLOW_UPS.map((f) => `${core} ${f}`).filter((q) => !used.has(q.toLowerCase())).slice(0, 2) };
}

function screen(input: { plan: string; results: { index: number; title: string; snippet: string }[] }) {
  const wanted = terms(input.plan);
  return { scores: input.results.map((r) => ({ index: r.index, score: Math.round(coverage(wanted, `${r.title} ${r.snippet}`) * 100) / 100 })) };
}

function candidates(input: { text: string }) {
  const all = sentences(input.text);
  const real = namesIn(input.text).map((name) => {
    const about = all.filter((s) => s.includes(name));
    const body = about.find((s) => !NAME_HEADLINE.test(s)) ?? about[0] ?? name;
    return {
      name,
      details: body,
      intentSignal: about.find((s) => s !== body) ?? body,
      discoveryRationale: `The page names ${name}: "${body}"`,
      passages: about.slice(0, 3),
      domain: null,
    };
  });
  const invented = {
    name: INVENTED_NAME,
    details: `${INVENTED_NAME}, a Berlin-based AI startup, has raised a seed round.`,
    intentSignal: 'Raised a seed round.',
    discoveryRationale: 'Invented by the stub to prove the service drops it.',
    passages: [`${INVENTED_NAME}, a Berlin-based AI startup, has raised a seed round.`],
    domain: null,
  };
  return { candidates: [...real, invented] };
}

interface VerifyInput {
  criterion: string;
  dateRange: { from: string; to: string | null } | null;
  candidate: string;
  pages: { url: string; published: string | null; text: string }[];
}

function verdict(input: VerifyInput) {
  const criterion = input.criterion.replace(/\s*Loosened:.*$/s, '');
  const wanted = terms(criterion).filter((t) => !terms(input.candidate).includes(t) && !/^\d/.test(t));
  let best: { text: string; url: string; published: string | null; score: number } | null = null;
  for (const page of input.pages) {
    for (const s of sentences(page.text)) {
      // A sentence about the candidate beats an equally good one about somebody else.
      const score = coverage(wanted, s) + (s.includes(input.candidate) ? 0.01 : 0);
      if (!best || score > best.score) best = { text: s, url: page.url, published: page.published, score };
    }
  }
  const invented = { text: inventedPassage(input.candidate), url: input.pages[0]?.url ?? '' };
  if (!best || best.score < 0.6) {
    return { pass: false, rationale: `No sentence about ${input.candidate} says that ${criterion}`, verification: 'stated', passages: [] };
  }
  const quote = { text: best.text, url: best.url };
  if (input.dateRange) {
    const date = best.published;
    const inRange = date !== null && date >= input.dateRange.from && (input.dateRange.to === null || date <= input.dateRange.to);
    return {
      pass: inRange,
      rationale: inRange
        ? `"${best.text}", on a page dated ${date}, within the range from ${input.dateRange.from}.`
        : `The page is dated ${date ?? 'nowhere'}, outside the range from ${input.dateRange.from}.`,
      verification: 'inferred',
      passages: inRange ? [quote, invented] : [],
    };
  }
  return { pass: true, rationale: `The page says: "${best.text}"`, verification: 'stated', passages: [quote, invented] };
}

function loosened(input: { title: string; criterion: string }) {
  for (const [city, country] of Object.entries(CITY_COUNTRY)) {
    if (input.criterion.includes(city)) {
      return { loosened: { title: input.title.replace(city, country), criterion: input.criterion.replace(city, country) } };
    }
  }
  if (/seed round/.test(input.criterion)) {
    return { loosened: { title: input.title.replace('seed round', 'funding round'), criterion: input.criterion.replace('seed round', 'funding round') } };
  }
  return { loosened: null };
}

const OPERATIONS: Record<string, (input: never) => unknown> = {
  research_plan: plan,
  search_queries: searchQueries,
  screen_scores: screen,
  candidates,
  verdict,
  loosened_filter: loosened,
};

// ---------------------------------------------------------------------------------------------------
// Server

interface ChatRequest {
  model?: string;
  messages?: { role: string; content: string }[];
  response_format?: { type?: string; json_schema?: { name?: string } };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export async function startLlmStub(options: LlmStubOptions = {}): Promise<LlmStub> {
  const log: LlmCall[] = [];
  let failures: { count: number; status: number } = { count: 0, status: 429 };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return json(res, 404, { error: { message: 'not found' } });
    if (options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      return json(res, 401, { error: { message: 'bad api key', type: 'invalid_request_error' } });
    }
    const body = JSON.parse(await readBody(req)) as ChatRequest;
    const operation = body.response_format?.json_schema?.name ?? '';
    const messages = body.messages ?? [];
    const promptTokens = Math.ceil(messages.reduce((n, m) => n + m.content.length, 0) / 4);
    if (failures.count > 0) {
      failures.count -= 1;
      log.push({ operation, status: failures.status, promptTokens: 0, completionTokens: 0 });
      return json(res, failures.status, { error: { message: 'rate limited by the stub', type: 'rate_limit_error' } }, { 'retry-after': '0' });
    }
    const answer = OPERATIONS[operation];
    const user = messages.find((m) => m.role === 'user')?.content;
    if (body.response_format?.type !== 'json_schema' || !answer || user === undefined) {
      log.push({ operation, status: 400, promptTokens, completionTokens: 0 });
      return json(res, 400, { error: { message: `the stub cannot answer operation "${operation}"` } });
    }
    const content = JSON.stringify(answer(JSON.parse(user) as never));
    const completionTokens = Math.ceil(content.length / 4);
    log.push({ operation, status: 200, promptTokens, completionTokens });
    json(res, 200, {
      id: `chatcmpl-stub-${log.length}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model ?? 'stub',
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
    });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => json(res, 500, { error: { message: String(err) } }));
  });
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    calls: () => log.map((c) => ({ ...c })),
    failNext(count, status = 429) {
      failures = { count, status };
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}
