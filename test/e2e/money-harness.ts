import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { freePort } from '../support/server-process.js';
import { sleep } from './distributed-harness.js';
import type { Frame } from './distributed-harness.js';

/**
 * Helpers for the money suite: a loopback fake of the public web whose article pages can be held (so
 * runs sit in "opening pages" with their search spend persisted, as long as a test needs), raw calls on
 * the public and admin APIs, and a watcher that samples an account while requests and runs are in flight.
 */

export const NEWS_HOST = 'ledger-wire.test';

export interface HeldWeb {
  /** LEADFINDER_SEARXNG_URL for the server. */
  searxngUrl: string;
  /** LEADFINDER_FETCH_RESOLVE entry sending the news host to this server. */
  resolveEntry: string;
  /** Article requests from now on wait until `releasePages()`. */
  holdPages(): void;
  releasePages(): void;
  /** Article requests waiting right now. */
  readonly waitingPages: number;
  close(): Promise<void>;
}

const SYLLABLES = ['dor', 'quin', 'sal', 'vek', 'lio', 'mar', 'tez', 'rhu', 'pan', 'gol', 'fen', 'bix'];
const companyName = (n: number): string => {
  let name = '';
  for (let i = n + SYLLABLES.length; i > 0; i = Math.floor(i / SYLLABLES.length)) name += SYLLABLES[i % SYLLABLES.length];
  return name[0]!.toUpperCase() + name.slice(1) + 'io';
};
const isoDaysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

/**
 * SearXNG JSON API at `/search` (three Berlin seed-round news results per query, stable per query) and
 * the articles at `/news/<slug>`; every other path (robots.txt included) is 404.
 */
export async function startHeldWeb(): Promise<HeldWeb> {
  const port = await freePort();
  const base = `http://${NEWS_HOST}:${port}`;
  const answers = new Map<string, { url: string; title: string; content: string; publishedDate: string }[]>();
  const articles = new Map<string, { name: string; published: string }>();
  let next = 0;
  let held: (() => void)[] | null = null;
  let waiting = 0;

  const resultsFor = (q: string) => {
    if (!answers.has(q)) {
      answers.set(q, [0, 1, 2].map(() => {
        const name = companyName(next++);
        const published = isoDaysAgo(15 + (next % 150));
        articles.set(name.toLowerCase(), { name, published });
        return {
          url: `${base}/news/${name.toLowerCase()}`,
          title: `${name} raises €2 million seed funding`,
          content: `${name}, a Berlin-based AI startup, has raised a €2 million seed round led by Harbour Capital.`,
          publishedDate: published,
        };
      }));
    }
    return answers.get(q)!;
  };
  const article = (a: { name: string; published: string }) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${a.name} raises €2 million seed funding</title>
<meta property="article:published_time" content="${a.published}"></head>
<body><article><h1>${a.name} raises €2 million seed funding</h1>
<p>${a.name}, a Berlin-based AI startup, has raised a €2 million seed round led by Harbour Capital.</p>
<p>Founded in 2025 by Jonas Keller, the company builds AI agents for insurance claims.</p>
</article></body></html>`;

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (url.pathname === '/search') {
        const results = (url.searchParams.get('pageno') ?? '1') === '1' ? resultsFor(url.searchParams.get('q') ?? '') : [];
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results }));
        return;
      }
      const a = articles.get(/^\/news\/([a-z]+)$/.exec(url.pathname)?.[1] ?? '');
      if (!a) return void res.writeHead(404).end();
      if (held) {
        waiting += 1;
        await new Promise<void>((resolve) => held!.push(resolve));
        waiting -= 1;
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(article(a));
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const release = () => {
    const go = held ?? [];
    held = null;
    for (const g of go) g();
  };
  return {
    searxngUrl: `http://127.0.0.1:${port}`,
    resolveEntry: `${NEWS_HOST}:${port}:127.0.0.1`,
    holdPages: () => { held ??= []; },
    releasePages: release,
    get waitingPages() { return waiting; },
    close: async () => {
      release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface HttpAnswer {
  status: number;
  body: unknown;
}

/** One call on the public or admin API with a bearer credential; the body parsed when it is JSON. */
export async function call(baseUrl: string, credential: string, method: string, path: string, body?: unknown): Promise<HttpAnswer> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${credential}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text for the failure message
  }
  return { status: response.status, body: parsed };
}

export interface Money {
  balanceMicrousd: number;
  heldMicrousd: number;
  availableMicrousd: number;
}

export async function accountMoney(baseUrl: string, adminToken: string, accountId: string): Promise<Money> {
  const r = await call(baseUrl, adminToken, 'GET', `/admin/accounts/${accountId}`);
  if (r.status !== 200) throw new Error(`GET /admin/accounts/${accountId}: ${r.status} ${JSON.stringify(r.body)}`);
  const { balanceMicrousd, heldMicrousd, availableMicrousd } = r.body as Money;
  return { balanceMicrousd, heldMicrousd, availableMicrousd };
}

/** What an account watcher saw: every sample, and each one that broke a money rule. */
export interface AccountWatch {
  samples: Money[];
  violations: string[];
}

/**
 * Samples the account every `everyMs` until stopped: available = balance − held, available ≥ 0,
 * balance ≥ 0 and held ≤ balance must hold at every instant.
 */
export function watchAccount(baseUrl: string, adminToken: string, accountId: string, everyMs = 25): { stop(): Promise<AccountWatch> } {
  const watch: AccountWatch = { samples: [], violations: [] };
  let running = true;
  const loop = (async () => {
    while (running) {
      const m = await accountMoney(baseUrl, adminToken, accountId).catch(() => null);
      if (m) {
        watch.samples.push(m);
        if (m.availableMicrousd !== m.balanceMicrousd - m.heldMicrousd) watch.violations.push(`available ≠ balance − held: ${JSON.stringify(m)}`);
        if (m.availableMicrousd < 0) watch.violations.push(`available < 0: ${JSON.stringify(m)}`);
        if (m.balanceMicrousd < 0) watch.violations.push(`balance < 0: ${JSON.stringify(m)}`);
        if (m.heldMicrousd > m.balanceMicrousd) watch.violations.push(`held > balance: ${JSON.stringify(m)}`);
      }
      await sleep(everyMs);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return watch;
    },
  };
}

/** spec §2.4 USD strings, written out independently of the service's formatter: two decimals, truncated. */
export function usdString(micros: number): string {
  const cents = Math.floor(micros / 10_000);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

export const costEvents = (frames: Frame[]) => frames.filter((f) => f.event.type === 'cost').map((f) => f.event as { type: 'cost'; stage: string; usd: number });
/** The last `cost` event's figure in micro-USD (what the run must be charged); 0 when it has none. */
export const lastCostMicros = (frames: Frame[]): number => {
  const last = costEvents(frames).at(-1);
  return last ? Math.round(last.usd * 1_000_000) : 0;
};
