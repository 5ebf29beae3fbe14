import { InternalError, sleep, UnavailableError, UpstreamError } from '@leadfinder/platform';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeResearch, filterOf, planOf } from './fake-research.js';
import { createHarness, lastCost, tailOf, typesOf, type Harness } from './harness.js';
import { standardWorld } from './world.js';
import type { PortsFactory } from './ports.js';

/** Runs that finish, relax filters or fail, on the event log, queue and flags that `ports` makes. */
export function describeCoordinatorSuite(label: string, ports: PortsFactory): void {
  describe(label, () => {
    let h: Harness;
    afterEach(async () => {
      await h?.close();
    });

    async function account(harness: Harness) {
      return (await harness.store.accounts.get(harness.accountId))!;
    }

    describe('a run that finishes', () => {
      it('streams plan, funnel and progress, then final, cost Done, usage, done, and charges exactly the last cost', async () => {
        h = await createHarness({}, ports);
        const research = createFakeResearch(standardWorld());
        await h.coordinator(research.fetcher, research.filter).start();
        const run = await h.submit({ target: 3 });
        const after = await h.waitTerminal(run.id);
        const events = await h.eventsOf(run.id);

        expect(after.status).toBe('done');
        expect(typesOf(events)[0]).toBe('status');
        expect(typesOf(events)).toContain('plan');
        expect(typesOf(events).indexOf('plan')).toBeLessThan(typesOf(events).indexOf('funnel_open'));
        expect(tailOf(events)).toEqual(['final', 'cost', 'usage', 'done']);
        const final = events.find((e) => e.type === 'final')!;
        if (final.type !== 'final') throw new Error('no final');
        expect(final).toMatchObject({ target: 3, met: true, stopped: false, stopped_at: null });
        expect(final.table).toHaveLength(3);
        expect(final.filters.map((f) => f.title)).toEqual(['Based in Berlin', 'Hiring']);
        expect(after.result).toEqual(final);
        const done = events.at(-1)!;
        expect(done).toEqual({ type: 'done', at: expect.any(String), runId: run.id });

        // 2 searches at 0.005 and 4 pages opened at 0.001 (the one that failed to open still counts).
        const cost = lastCost(events)!;
        expect(cost.stage).toBe('Done');
        expect(cost.usd).toBe(0.014);
        expect(after.chargeMicrousd).toBe(14_000);
        expect(after.usdDisplay).toBe('$0.014');
        expect(after.where).toBe('done');
        const acct = await account(h);
        expect(acct.heldMicrousd).toBe(0);
        expect(acct.balanceMicrousd).toBe(25_000_000 - 14_000);
        expect(research.calls.fetched.sort()).toEqual(['http://a.test/1', 'http://a.test/2', 'http://b.test/1', 'http://b.test/2']);
      });

      it('tells the user, as a status event after the plan, what the plan could not read', async () => {
        h = await createHarness({}, ports);
        const note = 'Could not read "in the spring" as a date range; searching without it.';
        const world = standardWorld();
        const research = createFakeResearch({ ...world, plan: { ...world.plan, notes: [note] } });
        await h.coordinator(research.fetcher, research.filter).start();
        const run = await h.submit({ target: 3 });
        await h.waitTerminal(run.id);
        const events = await h.eventsOf(run.id);
        const at = events.findIndex((e) => e.type === 'plan');
        expect(events[at + 1]).toMatchObject({ type: 'status', where: 'planning', message: note });
      });

      it('opens a listed candidate\'s own page (its lead) before judging it, and judges it with that page', async () => {
        h = await createHarness({}, ports);
        const world = standardWorld({
          hits: { q1: [{ url: 'http://list.test/', score: 0.9 }], q2: [] },
          pages: {
            'http://list.test/': 'Acme. Beta.',
            'http://list.test/acme': 'Acme is hiring in Berlin.',
            'http://list.test/beta': 'Beta is not hiring.',
          },
          candidates: {
            'http://list.test/': [
              { key: 'acme', name: 'Acme', lead: 'http://list.test/acme' },
              { key: 'beta', name: 'Beta', lead: 'http://list.test/beta' },
            ],
            'http://list.test/acme': [{ key: 'acme', name: 'Acme' }],
          },
          // Only the candidate's own page says whether it is hiring.
          passes: (filter, c) => filter.title !== 'Hiring' || c.sourceUrls.includes('http://list.test/acme'),
        });
        const research = createFakeResearch(world);
        await h.coordinator(research.fetcher, research.filter).start();
        const run = await h.submit({ target: 2 });
        const after = await h.waitTerminal(run.id);
        expect(research.calls.fetched.sort()).toEqual(['http://list.test/', 'http://list.test/acme', 'http://list.test/beta']);
        const table = after.result!.table;
        expect(table.map((r) => r.name)).toEqual(['Acme']);
        expect(table[0]!.source_urls).toEqual(['http://list.test/', 'http://list.test/acme']);
        // Each lead is a page like any other: 2 searches at 0.005 and 3 pages at 0.001.
        expect(after.chargeMicrousd).toBe(13_000);
      });

      it('opens the still unopened lead of a candidate its pages leave unclear (past the round\'s lead cap) and judges it again', async () => {
        h = await createHarness({}, ports);
        const world = standardWorld({
          hits: { q1: [{ url: 'http://news.test/', score: 0.9 }], q2: [] },
          pages: {
            'http://news.test/': 'Acme and Beta were mentioned.',
            'http://acme.test/': 'Acme is hiring in Berlin.',
            'http://beta.test/': 'Beta is hiring in Berlin.',
          },
          candidates: {
            'http://news.test/': [
              { key: 'acme', name: 'Acme', lead: 'http://acme.test/' },
              { key: 'beta', name: 'Beta', lead: 'http://beta.test/' },
            ],
          },
          // Only a candidate's own page says whether it is hiring; the news page leaves it unclear.
          passes: (filter, c) => filter.title !== 'Hiring' || c.sourceUrls.some((u) => u !== 'http://news.test/'),
          unclear: (filter) => filter.title === 'Hiring',
        });
        const research = createFakeResearch(world);
        await h.coordinator(research.fetcher, research.filter, { tuning: { maxLeadsPerRound: 1 } }).start();
        const run = await h.submit({ target: 2 });
        const after = await h.waitTerminal(run.id);
        expect(research.calls.fetched.sort()).toEqual(['http://acme.test/', 'http://beta.test/', 'http://news.test/']);
        expect(after.result!.table.map((r) => [r.name, r.source_urls])).toEqual([
          ['Acme', ['http://news.test/', 'http://acme.test/']],
          ['Beta', ['http://news.test/', 'http://beta.test/']],
        ]);
      });

      it('searches the own domain of a candidate its pages leave unclear, opens that page and judges it again', async () => {
        h = await createHarness({}, ports);
        const world = standardWorld({
          hits: { q1: [{ url: 'http://news.test/', score: 0.9 }], q2: [], Acme: [{ url: 'http://acme.com/about', score: 0 }] },
          pages: { 'http://news.test/': 'Acme (acme.com) and Beta were mentioned.', 'http://acme.com/about': 'Acme is hiring in Berlin.' },
          candidates: { 'http://news.test/': [{ key: 'acme', name: 'Acme', domain: 'acme.com' }, { key: 'beta', name: 'Beta' }] },
          passes: (filter, c) => filter.title !== 'Hiring' || c.sourceUrls.includes('http://acme.com/about'),
          unclear: (filter) => filter.title === 'Hiring',
        });
        const research = createFakeResearch(world);
        await h.coordinator(research.fetcher, research.filter).start();
        const run = await h.submit({ target: 2 });
        const after = await h.waitTerminal(run.id);
        expect(research.calls.searched).toContain('Acme');
        expect(research.calls.searchedDomains[research.calls.searched.indexOf('Acme')]).toEqual(['acme.com']);
        expect(research.calls.fetched).toContain('http://acme.com/about');
        expect(after.result!.table.map((r) => [r.name, r.source_urls])).toEqual([['Acme', ['http://news.test/', 'http://acme.com/about']]]);
        // Beta has no domain: no search restricted to one (its name alone is searched, and finds nothing); it stays out.
        expect(research.calls.searched.flatMap((q, i) => (q === 'Beta' ? [research.calls.searchedDomains[i]] : []))).toEqual([[]]);
        expect(after.result!.table.map((r) => r.name)).not.toContain('Beta');
      });

      it('searches the name of a candidate still unclear with no lead or domain, and judges it again with the page that names it', async () => {
        h = await createHarness({}, ports);
        const world = standardWorld({
          hits: {
            q1: [{ url: 'http://news.test/', score: 0.9 }], q2: [],
            Acme: [{ url: 'http://news.test/', score: 0 }, { url: 'http://profiles.test/acme', score: 0 }],
            Beta: [{ url: 'http://profiles.test/beta-blog', score: 0 }],
          },
          pages: {
            'http://news.test/': 'Acme and Beta were mentioned.',
            'http://profiles.test/acme': 'Acme is hiring in Berlin.',
            'http://profiles.test/beta-blog': 'A post about something else.',
          },
          candidates: {
            'http://news.test/': [{ key: 'acme', name: 'Acme' }, { key: 'beta', name: 'Beta' }],
            'http://profiles.test/acme': [{ key: 'acme', name: 'Acme' }],
          },
          passes: (filter, c) => filter.title !== 'Hiring' || c.sourceUrls.includes('http://profiles.test/acme'),
          unclear: (filter) => filter.title === 'Hiring',
        });
        const research = createFakeResearch(world);
        await h.coordinator(research.fetcher, research.filter).start();
        const run = await h.submit({ target: 2 });
        const after = await h.waitTerminal(run.id);
        // One search of each name, not restricted to a domain; the page already read is not opened again.
        expect(research.calls.searched.filter((q) => q === 'Acme' || q === 'Beta').sort()).toEqual(['Acme', 'Beta']);
        expect(research.calls.searchedDomains[research.calls.searched.indexOf('Acme')]).toEqual([]);
        expect(research.calls.fetched.filter((u) => u === 'http://news.test/')).toHaveLength(1);
        expect(after.result!.table.map((r) => [r.name, r.source_urls])).toEqual([['Acme', ['http://news.test/', 'http://profiles.test/acme']]]);
        // Beta's result did not name it: it is judged no again and stays out.
        expect(research.calls.verified.filter((v) => v.candidate === 'beta' && v.filter === 'Hiring')).toHaveLength(1);
      });

      it('searches the names of unclear candidates past a round\'s share of name searches in a later round, even once the queries are exhausted', async () => {
        h = await createHarness({}, ports);
        const world = standardWorld({
          hits: {
            q1: [{ url: 'http://news.test/', score: 0.9 }], q2: [],
            Acme: [{ url: 'http://profiles.test/acme', score: 0 }],
            Beta: [{ url: 'http://profiles.test/beta', score: 0 }],
          },
          pages: {
            'http://news.test/': 'Acme and Beta were mentioned.',
            'http://profiles.test/acme': 'Acme is hiring in Berlin.',
            'http://profiles.test/beta': 'Beta is hiring in Berlin.',
          },
          candidates: {
            'http://news.test/': [{ key: 'acme', name: 'Acme' }, { key: 'beta', name: 'Beta' }],
            'http://profiles.test/acme': [{ key: 'acme', name: 'Acme' }],
            'http://profiles.test/beta': [{ key: 'beta', name: 'Beta' }],
          },
          passes: (filter, c) => filter.title !== 'Hiring' || c.sourceUrls.some((u) => u.startsWith('http://profiles.test/')),
          unclear: (filter) => filter.title === 'Hiring',
        });
        const research = createFakeResearch(world);
        await h.coordinator(research.fetcher, research.filter, { tuning: { maxNameSearchesPerRound: 1 } }).start();
        const run = await h.submit({ target: 2 });
        const after = await h.waitTerminal(run.id);
        // Round 1 searches Acme's name; its one query has no further page, yet Beta's name still gets its search.
        expect(research.calls.searched.filter((q) => q === 'Acme' || q === 'Beta')).toEqual(['Acme', 'Beta']);
        expect(after.status).toBe('done');
        expect(after.result!.table.map((r) => [r.name, r.source_urls])).toEqual([
          ['Acme', ['http://news.test/', 'http://profiles.test/acme']],
          ['Beta', ['http://news.test/', 'http://profiles.test/beta']],
        ]);
      });

      it('merges one company found on two pages into one row with both sources', async () => {
        h = await createHarness({}, ports);
        const research = createFakeResearch(standardWorld());
        await h.coordinator(research.fetcher, research.filter).start();
        const run = await h.submit({ target: 10 });
        const after = await h.waitTerminal(run.id);
        const table = after.result!.table;
        expect(table.map((r) => r.name).sort()).toEqual(['Acme GmbH', 'Beta AG', 'Delta', 'Gamma']);
        const acme = table.find((r) => r.name === 'Acme GmbH')!;
        expect(acme.source_urls.sort()).toEqual(['http://a.test/1', 'http://a.test/2']);
        expect(acme.supporting_passages).toHaveLength(2);
        expect(acme.by_filter.map((f) => f.index)).toEqual([1, 2]);
        expect(acme.rationale).toBe(acme.by_filter[1]!.rationale);
        expect(acme.relaxed).toBeUndefined();
        expect(acme).toMatchObject({ status: 'passed', round: 1, entity_type: 'company' });
        // Fewer rows than the target once queries run out: done, met false.
        expect(after.status).toBe('done');
        expect(after.result!.met).toBe(false);
      });

      it('opens only the highest-scoring half of the pages that passed the screen when speed is fast', async () => {
        h = await createHarness({}, ports);
        const research = createFakeResearch(standardWorld());
        await h.coordinator(research.fetcher, research.filter).start();
        const run = await h.submit({ target: 10, speed: 'fast' });
        const after = await h.waitTerminal(run.id);
        expect(research.calls.fetched.sort()).toEqual(['http://a.test/1', 'http://a.test/2']);
        expect(after.result!.table.map((r) => r.name).sort()).toEqual(['Acme GmbH', 'Beta AG']);
      });

      it('prices LLM usage per call and reports it in the usage event', async () => {
        h = await createHarness({ LEADFINDER_PRICE_LLM_INPUT_USD_PER_MTOK: '0.15', LEADFINDER_PRICE_LLM_OUTPUT_USD_PER_MTOK: '0.60' }, ports);
        const research = createFakeResearch(standardWorld({ usage: { calls: 1, inputTokens: 1000, outputTokens: 500 } }));
        await h.coordinator(research.fetcher, research.filter).start();
        const run = await h.submit({ target: 10 });
        const after = await h.waitTerminal(run.id);
        const events = await h.eventsOf(run.id);
        const usage = events.find((e) => e.type === 'usage')!;
        if (usage.type !== 'usage') throw new Error('no usage');
        // 150 + 300 micro-USD per call, on top of searches and pages.
        expect(usage.llm_calls).toBeGreaterThan(0);
        expect(after.chargeMicrousd).toBe(14_000 + 450 * usage.llm_calls);
        expect(usage.spend_microusd).toBe(after.chargeMicrousd);
        expect(lastCost(events)!.usd * 1_000_000).toBeCloseTo(after.chargeMicrousd!, 6);
      });
    });

    describe('searching', () => {
      /** Three hits per query: with two results a page, each query's first page comes back full. */
      const deepWorld = () => standardWorld({
        hits: {
          q1: [{ url: 'http://a.test/1', score: 0.9 }, { url: 'http://a.test/2', score: 0.8 }, { url: 'http://c.test/1', score: 0.7 }],
          q2: [{ url: 'http://a.test/2', score: 0.8 }, { url: 'http://b.test/1', score: 0.6 }, { url: 'http://b.test/2', score: 0.55 }],
        },
        pages: { ...standardWorld().pages, 'http://c.test/1': 'Epsilon builds robots in Berlin.' },
        candidates: { ...standardWorld().candidates, 'http://c.test/1': [{ key: 'epsilon', name: 'Epsilon' }] },
      });

      it('reads the next result page of a query whose page came back full and finds the company ranked past it', async () => {
        h = await createHarness({}, ports);
        const research = createFakeResearch(deepWorld());
        await h.coordinator(research.fetcher, research.filter, { tuning: { searchLimit: 2 } }).start();
        const run = await h.submit({ target: 10 });
        const after = await h.waitTerminal(run.id);
        const events = await h.eventsOf(run.id);

        // Round 1 reads page 1 of the planned queries; round 2 (no follow-up query offered) their page 2;
        // both second pages come back short, so round 3 has nothing to search and the run ends done.
        expect(research.calls.searchedPages).toEqual([
          { query: 'q1', page: 1 }, { query: 'q2', page: 1 }, { query: 'q1', page: 2 }, { query: 'q2', page: 2 },
        ]);
        expect(after.status).toBe('done');
        const epsilon = after.result!.table.find((r) => r.name === 'Epsilon');
        expect(epsilon).toMatchObject({ round: 2, source_urls: ['http://c.test/1'] });
        // Four searches at 0.005 and five pages at 0.001.
        expect(after.chargeMicrousd).toBe(25_000);
        expect(events.find((e) => e.type === 'usage')).toMatchObject({ search_calls: 4, pages_opened: 5 });
      });

      it('reads the next page when the provider\'s page was full, though site and date checks dropped part of it', async () => {
        h = await createHarness({}, ports);
        // Page 1 of each query holds two results (a full page at searchLimit 2); the adapter's checks drop
        // a.test/2 from both, so each answers one hit. Judged by hits, neither page was full.
        const research = createFakeResearch({ ...deepWorld(), droppedByChecks: ['http://a.test/2'] });
        await h.coordinator(research.fetcher, research.filter, { tuning: { searchLimit: 2 } }).start();
        const run = await h.submit({ target: 10 });
        const after = await h.waitTerminal(run.id);
        expect(after.status).toBe('done');
        expect(research.calls.searchedPages).toEqual([
          { query: 'q1', page: 1 }, { query: 'q2', page: 1 }, { query: 'q1', page: 2 }, { query: 'q2', page: 2 },
        ]);
        expect(after.result!.table.map((r) => r.name)).toContain('Epsilon');
      });

      it('never reads a query deeper than maxSearchPages', async () => {
        h = await createHarness({}, ports);
        const research = createFakeResearch(deepWorld());
        await h.coordinator(research.fetcher, research.filter, { tuning: { searchLimit: 1, maxSearchPages: 2 } }).start();
        const run = await h.submit({ target: 10 });
        const after = await h.waitTerminal(run.id);
        expect(after.status).toBe('done');
        expect(Math.max(...research.calls.searchedPages.map((c) => c.page))).toBe(2);
        expect(research.calls.searchedPages).toHaveLength(4);
      });

      it('runs a round\'s searches at once, at most searchParallelism, and keeps rows in query order whatever answers first', async () => {
        h = await createHarness({}, ports);
        const queries = ['q1', 'q2', 'q3', 'q4', 'q5', 'q6'];
        const world = standardWorld({
          plan: planOf(queries, [filterOf(1, 'Based in Berlin')]),
          hits: Object.fromEntries(queries.map((q) => [q, [{ url: `http://${q}.test/`, score: 0.9 }]])),
          pages: Object.fromEntries(queries.map((q) => [`http://${q}.test/`, `${q.toUpperCase()} Ltd in Berlin.`])),
          candidates: Object.fromEntries(queries.map((q) => [`http://${q}.test/`, [{ key: q, name: `${q.toUpperCase()} Ltd` }]])),
        });
        const research = createFakeResearch(world);
        const search = research.fetcher.search.bind(research.fetcher);
        let inFlight = 0;
        let mostInFlight = 0;
        const answered: string[] = [];
        research.fetcher.search = async (request, o) => {
          inFlight += 1;
          mostInFlight = Math.max(mostInFlight, inFlight);
          try {
            // The first query answers last.
            await sleep(request.query === 'q1' ? 120 : 20, o.signal);
            return await search(request, o);
          } finally {
            inFlight -= 1;
            answered.push(request.query);
          }
        };
        await h.coordinator(research.fetcher, research.filter, { tuning: { searchParallelism: 4 } }).start();
        const run = await h.submit({ target: 10 });
        const after = await h.waitTerminal(run.id);

        expect(mostInFlight).toBe(4);
        expect(answered.indexOf('q1')).toBeGreaterThan(answered.indexOf('q2'));
        expect(after.result!.table.map((r) => r.name)).toEqual(queries.map((q) => `${q.toUpperCase()} Ltd`));
      });
    });

    describe('relaxing filters', () => {
      const strictHiring = standardWorld({
        passes: (filter, candidate) => filter.title !== 'Hiring' || (filter.relaxed && ['beta', 'gamma'].includes(candidate.key)),
        loosen: (filter) => ({ ...filter, criterion: 'Hiring or planning to hire', relaxed: true }),
      });

      it('loosens a filter that keeps almost nobody, emits filter_relaxed and marks the rows that needed it', async () => {
        h = await createHarness({}, ports);
        const research = createFakeResearch(strictHiring);
        await h.coordinator(research.fetcher, research.filter).start();
        const run = await h.submit({ target: 10 });
        const after = await h.waitTerminal(run.id);
        const events = await h.eventsOf(run.id);
        const relaxed = events.find((e) => e.type === 'filter_relaxed');
        expect(relaxed).toMatchObject({ index: 2, title: 'Hiring', original_criterion: 'Hiring holds', criterion: 'Hiring or planning to hire', rechecked: 4, recovered: 2 });
        expect(research.calls.relaxed).toEqual(['Hiring']);
        const table = after.result!.table;
        expect(table.map((r) => r.name).sort()).toEqual(['Beta AG', 'Gamma']);
        for (const row of table) {
          expect(row.relaxed).toEqual(['Hiring']);
          expect(row.by_filter.map((f) => f.relaxed)).toEqual([false, true]);
        }
        const types = typesOf(events);
        expect(types.indexOf('filter_relaxed')).toBeLessThan(types.lastIndexOf('funnel_filter_done'));
      });

      it('does not loosen a filter in a later round when it kept most of the run\'s candidates so far', async () => {
        h = await createHarness({}, ports);
        const research = createFakeResearch(standardWorld({
          laterQueries: { 2: ['q3'] },
          hits: { ...standardWorld().hits, q3: [{ url: 'http://c.test/1', score: 0.9 }] },
          pages: { ...standardWorld().pages, 'http://c.test/1': 'Epsilon in Berlin.' },
          candidates: { ...standardWorld().candidates, 'http://c.test/1': [{ key: 'epsilon', name: 'Epsilon' }] },
          passes: (filter, candidate) => filter.title !== 'Hiring' || candidate.key !== 'epsilon' || filter.relaxed,
          loosen: (filter) => ({ ...filter, criterion: 'Hiring or planning to hire', relaxed: true }),
        }));
        await h.coordinator(research.fetcher, research.filter).start();
        const run = await h.submit({ target: 10 });
        const after = await h.waitTerminal(run.id);
        // Round 2's only fresh candidate fails Hiring, but Hiring kept every candidate of round 1.
        expect(research.calls.verified).toContainEqual({ filter: 'Hiring', candidate: 'epsilon', relaxed: false });
        expect(research.calls.relaxed).toEqual([]);
        expect(after.result!.table.map((r) => r.name)).not.toContain('Epsilon');
        expect(after.result!.table.length).toBeGreaterThan(0);
      });

      it('keeps the original filters for the whole run when relax is false', async () => {
        h = await createHarness({}, ports);
        const research = createFakeResearch(strictHiring);
        await h.coordinator(research.fetcher, research.filter).start();
        const run = await h.submit({ target: 10, relax: false });
        const after = await h.waitTerminal(run.id);
        const events = await h.eventsOf(run.id);
        expect(research.calls.relaxed).toEqual([]);
        expect(typesOf(events)).not.toContain('filter_relaxed');
        expect(after.status).toBe('done');
        expect(after.result).toMatchObject({ table: [], met: false });
      });
    });

    describe('a run that fails', () => {
      it('ends with error, cost Error, usage, done when a filter call fails for good', async () => {
        h = await createHarness({}, ports);
        const research = createFakeResearch(standardWorld({ failures: { verify: new InternalError('reasoner broke') } }));
        await h.coordinator(research.fetcher, research.filter).start();
        const run = await h.submit();
        const after = await h.waitTerminal(run.id);
        const events = await h.eventsOf(run.id);
        expect(after.status).toBe('error');
        expect(after.result).toBeNull();
        expect(tailOf(events)).toEqual(['error', 'cost', 'usage', 'done']);
        // Short and generic for the client; the detail ("reasoner broke") is for the log only.
        expect(events.find((e) => e.type === 'error')).toEqual(expect.objectContaining({ message: 'The reasoning service failed.' }));
        expect(JSON.stringify(events)).not.toContain('reasoner broke');
        expect(lastCost(events)).toMatchObject({ stage: 'Error', usd: 0.014 });
        expect(after.chargeMicrousd).toBe(14_000);
        expect((await account(h)).heldMicrousd).toBe(0);
      });

      it('retries a search that could not connect twice, then fails the run without billing it', async () => {
        h = await createHarness({}, ports);
        const research = createFakeResearch(standardWorld({ failures: { search: new UnavailableError('searxng', 'searxng unreachable: connect ECONNREFUSED 127.0.0.1:18599') } }));
        await h.coordinator(research.fetcher, research.filter).start();
        const run = await h.submit();
        const after = await h.waitTerminal(run.id);
        expect(after.status).toBe('error');
        // Both planned queries are searched at once; each call is tried three times.
        expect(research.calls.searched.filter((q) => q === 'q1')).toHaveLength(3);
        expect(research.calls.searched.filter((q) => q === 'q2')).toHaveLength(3);
        // No attempt reached the provider: no spend, and the client learns nothing about addresses.
        expect(after.chargeMicrousd).toBe(0);
        expect(after.usdDisplay).toBe('$0.00');
        const events = await h.eventsOf(run.id);
        expect(events.find((e) => e.type === 'error')).toEqual(expect.objectContaining({ message: 'The web search service could not be reached.' }));
        expect(lastCost(events)).toMatchObject({ stage: 'Error', usd: 0 });
        expect(events.find((e) => e.type === 'usage')).toMatchObject({ search_calls: 0 });
        expect(JSON.stringify(events)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);
        expect((await account(h)).balanceMicrousd).toBe(25_000_000);
      });

      it('bills a search the provider answered with an error once, however often it was retried', async () => {
        h = await createHarness({}, ports);
        const research = createFakeResearch(standardWorld({ failures: { search: new UpstreamError('searxng', 'searxng answered HTTP 503', { retryable: true }) } }));
        await h.coordinator(research.fetcher, research.filter).start();
        const run = await h.submit();
        const after = await h.waitTerminal(run.id);
        expect(after.status).toBe('error');
        expect(research.calls.searched.filter((q) => q === 'q1')).toHaveLength(3);
        expect(after.chargeMicrousd).toBe(10_000);
        const events = await h.eventsOf(run.id);
        expect(events.find((e) => e.type === 'error')).toEqual(expect.objectContaining({ message: 'The web search service failed.' }));
      });
    });
  });
}
