/** The grounding checker itself: it must catch what it exists to catch, in both evidence modes. */
import { get } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResultRow } from '@leadfinder/wire';
import { sampleCorpusPages } from '@leadfinder/fetcher';
import { startFakeWeb } from './fake-web.js';
import type { FakeWeb } from './fake-web.js';
import { assertRowsGrounded, corpusEvidence, fakeWebEvidence, groundingProblems } from './grounding.js';
import type { GroundedRow } from './grounding.js';
import { createAccount } from './server-process.js';
import { embeddedServer, SHARED_SERVER_ADMIN_TOKEN } from './shared-server.js';
import { searchApi } from './search-api.js';

/** The one clock of this suite: the fake web writes its corpus for this date, and the page below is read from that corpus. */
const NOW = new Date('2026-03-15T00:00:00Z');
const news = sampleCorpusPages(NOW).find((p) => p.url.includes('-startup-news.example/'))!;
const KALBOLT = news.url;
const SENTENCE = news.paragraphs[0]!;
const NAME = SENTENCE.slice(0, SENTENCE.indexOf(','));

/** GET `url` from 127.0.0.1 on its port, keeping its hostname in the Host header (as the fetcher does). */
function getFromLoopback(url: string): Promise<{ status: number; contentType: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port: u.port, path: u.pathname, headers: { host: u.host } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? '') }));
    }).on('error', reject);
  });
}

function row(url: string, overrides: Partial<GroundedRow> = {}): GroundedRow {
  return {
    name: NAME,
    source_urls: [url],
    supporting_passages: [{ text: SENTENCE, url, score: 1, published: null }],
    by_filter: [{ index: 1, title: 'AI', rationale: 'r', rationale_mode: 'rules', verification: 'stated', relaxed: false, passages: [{ text: SENTENCE, url }] }],
    ...overrides,
  };
}

describe('the grounding checker', () => {
  let web: FakeWeb;
  beforeAll(async () => {
    web = await startFakeWeb({ now: NOW });
  });
  afterAll(async () => {
    await web?.close();
  });

  it('accepts a row quoting a page the fetcher opened, and flags invented names, quotes and unseen URLs', async () => {
    const url = web.servedUrl(KALBOLT);
    const res = await getFromLoopback(url);
    expect(res.status).toBe(200);
    expect(res.contentType).toMatch(/^text\/(html|markdown)/);
    const evidence = await fakeWebEvidence(web);

    expect(groundingProblems([row(url)], evidence)).toEqual([]);
    expect(groundingProblems([row(url, { name: 'Invented Labs' })], evidence).join()).toMatch(/name occurs on none/);
    const invented = row(url);
    invented.by_filter[0]!.passages = [{ text: `${NAME} won every prize.`, url }];
    expect(groundingProblems([invented], evidence).join()).toMatch(/passage not found/);
    const unseen = web.servedUrl(`${KALBOLT}-again`);
    expect(groundingProblems([row(url, { source_urls: [unseen] })], evidence).join()).toMatch(/neither fetched nor a search result/);
    expect(() => assertRowsGrounded([row(KALBOLT)], evidence)).toThrow(/grounding violation/);
  });

  it('checks corpus-mode rows against the sample corpus the server wrote', async () => {
    const server = await embeddedServer();
    try {
      const account = await createAccount(server.url, SHARED_SERVER_ADMIN_TOKEN, 10);
      const api = searchApi(server.url, account.apiKey);
      const id = await api.start({ q: 'AI startups in Berlin that raised a seed round in the last year', target: 2 });
      const run = await api.waitTerminal(id, 60_000);
      const rows: ResultRow[] = run.result!.table;
      expect(rows.length).toBeGreaterThan(0);
      const evidence = await corpusEvidence(join(server.dataDir, 'sample-corpus'));
      assertRowsGrounded(rows, evidence);
      expect(groundingProblems([{ ...rows[0]!, name: 'Invented Labs' }], evidence)).not.toEqual([]);
    } finally {
      await server.stop();
    }
  }, 60_000);
});
