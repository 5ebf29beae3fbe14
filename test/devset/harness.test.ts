/**
 * The development set itself: its web, its search side, its gold rules and its scoring behave as the
 * README says (no service involved; quality-floors.test.ts runs the service).
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEVSET_DAY, KIND_SITES, startDevWeb } from './harness.js';
import { buildWeb, SHAPES_BY_SPLIT } from './pages.js';
import { allQueries, goldSet, isTuningAddition, targetFor, type DevQuery } from './queries.js';
import { loadEntities, parseCsv, type DevEntity } from './records.js';
import { EntityMatcher, scoreQuery } from './score.js';
import { createDevSearchIndex, searchTokens } from './search-index.js';

const entities = loadEntities();
const byName = (name: string): DevEntity => entities.find((e) => e.name === name)!;

describe('development set data and split', () => {
  it('holds the 134 YC records, two more kinds, and at least 40 queries, half for tuning and half held out', () => {
    expect(entities.filter((e) => e.kind === 'company')).toHaveLength(134);
    expect(entities.filter((e) => e.kind === 'researcher')).toHaveLength(86);
    expect(entities.filter((e) => e.kind === 'paper')).toHaveLength(103);
    const queries = allQueries();
    expect(queries.length).toBeGreaterThanOrEqual(40);
    expect(new Set(queries.map((q) => q.kind))).toEqual(new Set(['company', 'researcher', 'paper']));
    expect(new Set(queries.map((q) => q.id)).size).toBe(queries.length);
    // The first 50 split half and half; queries added for tuning since then are all dev.
    const original = queries.filter((q) => !isTuningAddition(q));
    const dev = original.filter((q) => q.split === 'dev').length;
    const test = original.filter((q) => q.split === 'test').length;
    expect(Math.abs(dev - test)).toBeLessThanOrEqual(1);
    expect(test).toBeGreaterThanOrEqual(25);
    expect(queries.filter(isTuningAddition).every((q) => q.split === 'dev')).toBe(true);
    expect(SHAPES_BY_SPLIT.dev.filter((s) => SHAPES_BY_SPLIT.test.includes(s))).toEqual([]);
  });

  it('gives every query something to find and something to reject, by its rule alone', () => {
    for (const q of allQueries()) {
      const gold = goldSet(q, entities);
      const ofKind = entities.filter((e) => e.kind === q.kind).length;
      expect(gold.yes.length, `${q.id} "${q.q}"`).toBeGreaterThanOrEqual(2);
      expect(gold.yes.length + gold.maybe.length, `${q.id} "${q.q}"`).toBeLessThan(ofKind / 2);
      expect(targetFor(gold)).toBeGreaterThanOrEqual(Math.min(gold.yes.length, 30));
    }
  });

  it('names no entity in its rules: every gold set comes from the fields', () => {
    const source = readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'queries.ts'), 'utf8');
    const named = entities.flatMap((e) => [e.name, ...e.aliases]).filter((n) => n.length >= 4)
      .filter((n) => source.includes(`'${n}'`) || source.includes(`"${n}"`) || source.includes(`/${n.toLowerCase()}/`));
    expect(named).toEqual([]);
  });

  it('decides by the record: a company with no stated location is maybe for a city query, not no', () => {
    const q = allQueries().find((x) => x.id === 'c24')!; // companies in Chicago
    const located = entities.filter((e) => e.fields.kind === 'company' && e.fields.places.length > 0);
    const unlocated = entities.filter((e) => e.fields.kind === 'company' && e.fields.places.length === 0 && !e.fields.remote);
    expect(unlocated.length).toBeGreaterThan(0);
    for (const e of unlocated) expect(q.rule(e)).toBe('maybe');
    for (const e of located) expect(q.rule(e)).not.toBe('maybe');
  });
});

describe('reading the records', () => {
  it('parses quoted CSV fields with commas and doubled quotes, as the TidyTuesday files write them', () => {
    const rows = parseCsv('a,b,c\n1,"""for x, y""",3\n"New York, NY",,NA\n');
    expect(rows).toEqual([{ a: '1', b: '"for x, y"', c: '3' }, { a: 'New York, NY', b: '', c: 'NA' }]);
  });

  it("merges a laureate's affiliation rows into one person", () => {
    const hell = entities.find((e) => e.name === 'Stefan W. Hell')!;
    expect(hell.fields.kind === 'researcher' && hell.fields.affiliations.map((a) => a.name))
      .toEqual(['Max Planck Institute for Biophysical Chemistry', 'German Cancer Research Center']);
  });
});

describe('the fake web', () => {
  const dev = buildWeb(KIND_SITES, entities, { split: 'dev', day: DEVSET_DAY });
  const test = buildWeb(KIND_SITES, entities, { split: 'test', day: DEVSET_DAY });

  it('serves each split only its own page shapes, every entity on a single-entity page of each', () => {
    for (const [split, pages] of [['dev', dev], ['test', test]] as const) {
      expect(new Set(pages.map((p) => p.shape))).toEqual(new Set(SHAPES_BY_SPLIT[split]));
      const single = new Set(pages.filter((p) => p.entities.length === 1).flatMap((p) => p.entities));
      for (const e of entities) expect(single.has(e.key), `${split}: ${e.key}`).toBe(true);
    }
  });

  it('serves the dev-only probe ld-variants only when named, and never on the held-out web', () => {
    const probe = buildWeb(KIND_SITES, entities, { split: 'dev', day: DEVSET_DAY, shapes: ['ld-variants'] });
    expect(new Set(probe.map((p) => p.shape))).toEqual(new Set(['ld-variants']));
    expect(new Set(probe.flatMap((p) => p.entities))).toEqual(new Set(entities.map((e) => e.key)));
    // Facts only in JSON-LD: the visible page has the name and links, no facts list and no founding year.
    const stripe = probe.find((p) => p.entities[0] === byName('Stripe').key)!;
    const body = stripe.html.slice(stripe.html.indexOf('<body>'));
    expect(body).not.toMatch(/<(li|dl|table)\b/);
    expect(body).not.toContain('2012');
    expect(stripe.html).toContain('application/ld+json');
    expect(() => buildWeb(KIND_SITES, entities, { split: 'test', day: DEVSET_DAY, shapes: ['ld-variants'] })).toThrow(/not in the test split/);
  });

  it('serves the dev-only probes facts-variants and article-variants only when named, and never on the held-out web', () => {
    expect(dev.some((p) => p.shape === 'facts-variants' || p.shape === 'article-variants')).toBe(false);
    const probe = buildWeb(KIND_SITES, entities, { split: 'dev', day: DEVSET_DAY, shapes: ['facts-variants', 'article-variants'] });
    expect(new Set(probe.map((p) => p.shape))).toEqual(new Set(['facts-variants', 'article-variants']));
    // Every entity has one profile; the articles link a name to that profile when they link it.
    const profiles = probe.filter((p) => p.shape === 'facts-variants');
    expect(new Set(profiles.flatMap((p) => p.entities))).toEqual(new Set(entities.map((e) => e.key)));
    const profileUrls = new Set(profiles.map((p) => p.url));
    const articleLinks = probe.filter((p) => p.shape === 'article-variants').flatMap((p) => [...p.html.matchAll(/href="(https:\/\/[^"]+)"/g)].map((m) => m[1]!));
    expect(articleLinks.filter((u) => profileUrls.has(u)).length).toBeGreaterThan(100);
    for (const shape of ['facts-variants', 'article-variants'] as const) {
      expect(() => buildWeb(KIND_SITES, entities, { split: 'test', day: DEVSET_DAY, shapes: [shape] })).toThrow(/not in the test split/);
    }
  });

  it('dates pages from the records or the injected day, never later', () => {
    for (const p of [...dev, ...test]) {
      expect(p.published, p.url).not.toBeNull();
      expect(p.published! <= '2026-01-01', `${p.url} ${p.published}`).toBe(true);
    }
  });

  it('writes facts as the shape says: li "Label: value", dl/dt/dd, JSON-LD only, tables', () => {
    const stripe = byName('Stripe');
    const profile = dev.find((p) => p.shape === 'profile-list' && p.entities[0] === stripe.key)!;
    expect(profile.html).toContain('<li>Location: San Francisco, CA, USA</li>');
    expect(profile.html).not.toContain('ld+json');
    const dl = test.find((p) => p.shape === 'profile-dl' && p.entities[0] === stripe.key)!;
    expect(dl.html).toContain('<dt>Headquarters</dt><dd>San Francisco, CA, USA</dd>');
    const ld = test.find((p) => p.shape === 'jsonld' && p.entities[0] === stripe.key)!;
    expect(ld.url).toBe('https://stripe.com/');
    expect(ld.html).toContain('"addressLocality":"San Francisco"');
    expect(ld.html.replace(/<script[\s\S]*?<\/script>/g, '')).not.toContain('San Francisco');
    const about = dev.find((p) => p.shape === 'about' && p.entities[0] === stripe.key)!;
    expect(about.html).not.toMatch(/<(li|dl|table)\b/);
    expect(dev.some((p) => p.shape === 'table' && p.entities.includes(stripe.key))).toBe(true);
    expect(test.some((p) => p.shape === 'news' && p.entities.includes(stripe.key))).toBe(true);
  });

  it('writes the database profile, the JSON-LD home page and the press roundup from the fields, every roundup link on the same web', () => {
    const stripe = byName('Stripe');
    const card = dev.find((p) => p.shape === 'profile-card' && p.entities[0] === stripe.key)!;
    expect(card.html).toContain('<dt>HQ</dt><dd>San Francisco, California, United States</dd>');
    expect(card.html).toMatch(/<dt>Company size<\/dt><dd>[\d,]+-[\d,]+ employees<\/dd>/);
    const home = dev.find((p) => p.shape === 'homepage-ld' && p.entities[0] === stripe.key)!;
    expect(home.url).toBe('https://stripe.com/');
    expect(home.html).toContain('"@graph"');
    expect(home.html.replace(/<script[\s\S]*?<\/script>/g, '')).not.toContain('San Francisco');
    const urls = new Set(dev.map((p) => p.url));
    const roundups = dev.filter((p) => p.shape === 'roundup');
    expect(roundups.length).toBeGreaterThan(0);
    for (const r of roundups.slice(0, 50)) {
      const links = [...r.html.matchAll(/<p>[^<]*<a href="([^"]+)">/g)].map((m) => m[1]!);
      expect(links.length, r.url).toBe(r.entities.length);
      for (const l of links) expect(urls.has(l), l).toBe(true);
    }
  });

  it('varies the robustness slice from entity to entity: labels, fact markup, noise naming others, links on the same web', () => {
    const trackers = dev.filter((p) => p.shape === 'tracker-profile' && p.url.includes('/startups/'));
    const hqLabels = new Set(trackers.flatMap((p) => [...p.html.matchAll(/<(?:b|strong|span class="fact-label")>(HQ|Headquarters|Based in|Location):?<\//g)].map((m) => m[1])));
    expect(hqLabels).toEqual(new Set(['HQ', 'Headquarters', 'Based in', 'Location']));
    expect(new Set(trackers.map((p) => (p.html.includes('<li><b>') ? 'b' : p.html.includes('<p><strong>') ? 'strong' : 'span')))).toEqual(new Set(['b', 'strong', 'span']));
    expect(trackers.some((p) => !p.html.includes('<main>'))).toBe(true);
    const urls = new Set(dev.map((p) => p.url));
    for (const p of [...trackers.slice(0, 20), ...dev.filter((x) => x.shape === 'spotlight').slice(0, 20), ...dev.filter((x) => x.shape === 'ranked-list').slice(0, 20)]) {
      const links = [...p.html.matchAll(/<a href="(https:\/\/[^"]+)">/g)].map((m) => m[1]!);
      expect(links.length, p.url).toBeGreaterThan(0);
      for (const l of links) expect(urls.has(l), `${p.url} -> ${l}`).toBe(true);
      // The noise names entities the page is not about (or lists no more of them than it says).
      const named = entities.filter((e) => p.html.includes(`>${e.name}</a>`)).map((e) => e.key);
      if (p.shape !== 'ranked-list') expect(named.filter((k) => !p.entities.includes(k)).length, p.url).toBeGreaterThan(0);
    }
  });

  it('links each directory line to the entity\'s own profile page on the same web', () => {
    const urls = new Set(dev.map((p) => p.url));
    const directory = dev.find((p) => p.shape === 'directory')!;
    const links = [...directory.html.matchAll(/<li><a href="([^"]+)">/g)].map((m) => m[1]!);
    expect(links.length).toBe(directory.entities.length);
    for (const l of links) expect(urls.has(l), l).toBe(true);
  });
});

/** GET through the fake web's loopback port with the page's own Host header (as LEADFINDER_FETCH_RESOLVE does). */
function get(url: string, port: number): Promise<{ status: number; body: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: `${u.pathname}${u.search}`, headers: { host: u.host } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the served web', () => {
  it('answers SearXNG JSON and serves pages whose links lead to pages it serves', async () => {
    const dev = await startDevWeb('dev', entities);
    try {
      const port = dev.web.port;
      const search = await fetch(`${dev.web.searxngUrl}/search?q=${encodeURIComponent('fintech startups San Francisco')}&format=json&pageno=1`);
      const { results } = (await search.json()) as { results: { url: string; title: string; content: string; publishedDate: string | null }[] };
      expect(results).toHaveLength(10);
      for (const r of results) {
        expect(r.url.startsWith('http://') && new URL(r.url).port === String(port), r.url).toBe(true);
        expect(r.publishedDate).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      }
      const directory = dev.pages.find((p) => p.shape === 'directory')!;
      const page = await get(dev.web.servedUrl(directory.url), port);
      expect(page.status).toBe(200);
      const links = [...page.body.matchAll(/<li><a href="([^"]+)">/g)].map((m) => m[1]!);
      expect(links.length).toBeGreaterThan(0);
      for (const link of links) {
        expect(new URL(link).port, link).toBe(String(port));
        expect((await get(link, port)).status, link).toBe(200);
      }
    } finally {
      await dev.web.close();
    }
  });
});

describe('the search side', () => {
  const pages = buildWeb(KIND_SITES, entities, { split: 'dev', day: DEVSET_DAY });
  const index = createDevSearchIndex(pages);
  const search = (query: string, page = 1) => index.search({ query, domains: [], publishedAfter: null, page, limit: 10 });

  it('ranks pages holding the query words first, ten a page, deeper pages with no repeats', async () => {
    const first = await search('fintech San Francisco');
    const second = await search('fintech San Francisco', 2);
    expect(first).toHaveLength(10);
    expect(second).toHaveLength(10);
    expect(first.map((h) => h.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(second[0]!.rank).toBe(11);
    expect(new Set([...first, ...second].map((h) => h.url)).size).toBe(20);
    const text = (url: string) => pages.find((p) => p.url === url)!.html.toLowerCase();
    for (const h of first) expect(text(h.url)).toContain('fintech');
  });

  it('keeps to site: terms and finds nothing for words no page has', async () => {
    const hits = await search('payments site:stripe.com');
    expect(hits.map((h) => h.url)).toEqual(['https://stripe.com/about']);
    expect((await search('payments site:www.stripe.com:8080')).map((h) => h.url)).toEqual(['https://stripe.com/about']);
    expect(await search('zzqx')).toEqual([]);
  });

  it('stems plurals and drops case and accents', () => {
    expect(searchTokens('Startups in Bogotá')).toEqual(searchTokens('startup bogota'));
  });
});

describe('matching rows and scoring', () => {
  const matcher = new EntityMatcher(entities.filter((e) => e.kind === 'company'));

  it('matches by own domain first, then by normalised name', () => {
    expect(matcher.match({ name: 'Scale', source_urls: ['https://scale.com/about'] })?.name).toBe('Scale AI');
    expect(matcher.match({ name: 'stripe.com', source_urls: [] })?.name).toBe('Stripe');
    expect(matcher.match({ name: 'STRIPE, Inc.', source_urls: ['https://startupindex.example/companies/stripe'] })?.name).toBe('Stripe');
    expect(matcher.match({ name: 'ZenPayroll', source_urls: [] })?.name).toBe('Gusto');
    expect(matcher.match({ name: 'InnerSpace', source_urls: [] })?.name).toBe('Leaders In Tech (formerly InnerSpace)');
    // A word of a name is not the name.
    expect(matcher.match({ name: 'Health', source_urls: ['https://startupindex.example/lists/x'] })).toBeNull();
  });

  it('finds every entity by its own name and by its own domain', () => {
    for (const kind of ['company', 'researcher', 'paper'] as const) {
      const mine = entities.filter((e) => e.kind === kind);
      const m = new EntityMatcher(mine);
      for (const e of mine) {
        expect(m.match({ name: e.name, source_urls: [] })?.key, e.key).toBe(e.key);
        if (e.domain) expect(m.match({ name: e.domain, source_urls: [] })?.key, e.domain).toBe(e.key);
      }
    }
  });

  it('matches people without honorifics or accents, papers by their title', () => {
    const people = new EntityMatcher(entities.filter((e) => e.kind === 'researcher'));
    expect(people.match({ name: 'John B. Gurdon', source_urls: [] })?.name).toBe('Sir John B. Gurdon');
    expect(people.match({ name: 'Francoise Barre-Sinoussi', source_urls: [] })?.name).toBe('Françoise Barré-Sinoussi');
    const papers = new EntityMatcher(entities.filter((e) => e.kind === 'paper'));
    expect(papers.match({ name: 'Electric Field Effect in Atomically Thin Carbon Films', source_urls: [] })?.kind).toBe('paper');
  });

  it('counts maybe rows neither way, repeats and strangers as wrong, recall against the gold', () => {
    const q: DevQuery = allQueries().find((x) => x.id === 'c24')!; // companies in Chicago
    const gold = goldSet(q, entities);
    const yes = gold.yes[0]!;
    const maybe = gold.maybe[0]!;
    const score = scoreQuery([
      { name: yes.name, source_urls: [] },
      { name: yes.name, source_urls: [] },
      { name: maybe.name, source_urls: [] },
      { name: 'Nobody Inc', source_urls: [] },
    ], gold, matcher, targetFor(gold));
    expect(score.correct).toEqual([yes.name]);
    expect(score.maybe).toEqual([maybe.name]);
    expect(score.wrong.map((w) => w.why)).toEqual(['duplicate', 'unknown']);
    expect(score.precision).toBeCloseTo(1 / 3);
    expect(score.recall).toBeCloseTo(1 / gold.yes.length);
    expect(scoreQuery([], gold, matcher, 5).precision).toBe(0);
  });
});
