import { formatWhere, roundWhere, WHERE_PLANNING, type Candidate, type FetchedPage, type SearchHit } from '@leadfinder/wire';
import { mapBounded } from '../activities/pool.js';
import { runFunnel } from './funnel.js';
import { cursorsAfterRound, roundSearches, type SearchAnswer, type SearchCall } from './search-plan.js';
import { selectPagesToOpen, uniqueHits } from './selection.js';
import type { RunSession } from '../run/session.js';

/**
 * Drives a claimed run from planning until it has `target` rows, runs out of fresh queries, result pages
 * to read and unclear candidates whose name is still to search, or opens no page and finds no new candidate
 * `maxEmptyRounds` rounds running. Returns normally for a `done` run; any other end (stop, deadline, budget,
 * lease loss, failure) is thrown and classified by the actor.
 */
export async function driveRun(session: RunSession): Promise<void> {
  const { run, state, research } = session;
  await session.enter(WHERE_PLANNING);
  state.useRequest({ exclude: run.exclude, expected: run.expected, nearMisses: run.nearMisses, keepUnclear: run.keepUnclear });
  const plan = await research.plan({ query: run.query, now: run.createdAt, sites: run.sites });
  state.setPlan(plan);
  await session.recordSpend();
  await session.emit({
    type: 'plan',
    entity_type: plan.entityType,
    filters: state.descriptors(),
    queries: [...plan.queries],
    date_range: plan.dateRange ? { ...plan.dateRange } : null,
    sites: [...plan.sites.domains],
    page_types: [...plan.sites.pageTypes],
    target: run.target,
    speed: run.speed,
    relax: run.relax,
  });
  // What the plan left out (a date phrase it could not read, say) is told, not silently dropped.
  for (const note of plan.notes ?? []) await session.emit({ type: 'status', where: formatWhere(WHERE_PLANNING), message: note });

  let emptyRounds = 0;
  for (let round = 1; round <= session.tuning.maxRounds; round += 1) {
    await session.enter(roundWhere(round, 'searching'));
    const proposed = round === 1 ? plan.queries : await research.queries({ plan, round, used: state.usedQueries, productiveSites: state.productiveSites() });
    const calls = roundSearches({ proposed, cursors: state.cursors(), maxPage: session.tuning.maxSearchPages });
    // Exhausted (no new query, and no query with a further page to read) ends the run, unless candidates left
    // unclear still wait for their name search: the round then only follows them.
    if (calls.length === 0 && state.unclearAwaitingNameSearch().length === 0) return;
    const openedBefore = state.openedUrls.size;
    const answers = calls.length > 0 ? await searchRound(session, calls) : [];
    const roundHits = uniqueHits(answers.flatMap((a) => a.hits));

    await session.enter(roundWhere(round, 'screening'));
    const scores = roundHits.length > 0 ? await research.screen({ plan, hits: roundHits }) : [];
    await session.recordSpend();
    const urls = selectPagesToOpen(roundHits, scores, run.speed, state.openedUrls);

    const opened = await openPages(session, round, urls);
    const extracted = await extractFrom(session, round, opened.map((o) => o.page));
    const candidates: Candidate[] = extracted.flat().map((c) => ({ ...c, round }));
    // Excluded entities leave here, before any lead is opened or filter verifies them.
    const fresh = state.admit(state.pool.add(candidates));
    fresh.push(...state.admit(await followLeads(session, round, fresh)));

    state.clearUnclear();
    await runFunnel(session, round, fresh);
    // Candidates left unclear: open their own page and judge again — the link a page gave for them if it
    // is still unopened (a lead past this round's cap, or one a later page supplied), else a search of
    // their own domain.
    const unclear = state.unclearKeys();
    const byLead = await followUnclearLeads(session, round, unclear);
    const byDomain = await followDomains(session, round, unclear.filter((k) => !byLead.includes(k)));
    const settled = state.admit([...new Set([...byLead, ...byDomain])]);
    if (settled.length > 0) await runFunnel(session, round, settled);
    // Still unclear with its own page read (or none to find): another page about it may say what its own
    // did not ("Industries: B2B, Security" where its home page gives only "Security"): a search of its name.
    const pending = new Set([...byLead, ...byDomain]);
    // Only while the run is short of its target: a run about to end spends nothing on it.
    const short = state.rows().length < run.target;
    // Earlier rounds' unclear candidates past their round's share of name searches take their turn too.
    const stillUnclear = short ? state.unclearAwaitingNameSearch().filter((k) => !pending.has(k)) : [];
    const corroborated = state.admit(await followNames(session, round, stillUnclear));
    if (corroborated.length > 0) await runFunnel(session, round, corroborated);
    const yieldingUrls = state.rowSourcesOf(round);
    for (const cursor of cursorsAfterRound({ answers, yieldingUrls, seenBefore: state.seenHitUrls, limit: session.tuning.searchLimit })) {
      state.recordSearch(cursor);
    }
    state.markSeen(roundHits.map((hit) => hit.url));
    const rows = state.rows();
    await session.emit({ type: 'progress', have: rows.length, target: run.target, round, leads: rows });
    if (rows.length >= run.target) return;

    // A round that brought a new candidate or opened a page (a search hit's or a follow-up's) keeps the run
    // going (within budget and deadline).
    emptyRounds = state.openedUrls.size === openedBefore && fresh.length === 0 ? emptyRounds + 1 : 0;
    if (emptyRounds >= session.tuning.maxEmptyRounds) return;
  }
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * Follow the lead: a candidate named on a listing gets its own page (the listing's link) opened before it
 * is judged, so its filters are checked against what its own page states. Each lead is a page like any
 * other (metered, at most `maxLeadsPerRound` a round); the lead page becomes one of the candidate's
 * sources, and whatever else it names joins the pool. Returns the keys of entities first seen on leads.
 */
async function followLeads(session: RunSession, round: number, freshKeys: readonly string[]): Promise<string[]> {
  const { state, tuning } = session;
  const leads = new Map<string, string>();
  for (const key of freshKeys) {
    const c = state.pool.get(key);
    const lead = c?.lead;
    if (!c || !lead || state.openedUrls.has(lead) || c.sourceUrls.includes(lead) || leads.has(lead)) continue;
    leads.set(lead, key);
    if (leads.size >= tuning.maxLeadsPerRound) break;
  }
  return openLeads(session, round, leads);
}

/**
 * Candidates a filter left unclear whose lead (their own page's link) is not opened yet: opened now, at
 * most `maxLeadsPerRound`. Returns the keys to judge again: those whose own page joined their sources,
 * and whatever new the lead pages named.
 */
async function followUnclearLeads(session: RunSession, round: number, unclearKeys: readonly string[]): Promise<string[]> {
  const { state, tuning } = session;
  const leads = new Map<string, string>();
  const sourcesBefore = new Map<string, number>();
  for (const key of unclearKeys) {
    const c = state.pool.get(key);
    const lead = c?.lead;
    if (!c || !lead || state.openedUrls.has(lead) || c.sourceUrls.includes(lead) || leads.has(lead)) continue;
    if (leads.size >= tuning.maxLeadsPerRound) break;
    leads.set(lead, key);
    sourcesBefore.set(key, c.sourceUrls.length);
  }
  if (leads.size === 0) return [];
  const found = await openLeads(session, round, leads);
  const grown = [...sourcesBefore].filter(([key, n]) => (state.pool.get(key)?.sourceUrls.length ?? 0) > n).map(([key]) => key);
  return [...new Set([...grown, ...found])];
}

/**
 * Candidates a filter left unclear that have no link to follow but a known domain of their own: a search
 * restricted to that domain (at most `maxDomainSearchesPerRound` a round, each a priced search, once per
 * candidate) finds their own page, which is opened like a lead. Returns the keys to judge again.
 */
async function followDomains(session: RunSession, round: number, unclearKeys: readonly string[]): Promise<string[]> {
  const { state, tuning } = session;
  const wanted: { key: string; name: string; domain: string }[] = [];
  for (const key of unclearKeys) {
    const c = state.pool.get(key);
    const domain = c?.domain?.toLowerCase();
    if (!c || !domain || c.sourceUrls.some((u) => hostOf(u)?.endsWith(domain))) continue;
    if (wanted.length >= tuning.maxDomainSearchesPerRound) break;
    if (!state.takeDomainSearch(key)) continue;
    wanted.push({ key, name: c.name, domain });
  }
  if (wanted.length === 0) return [];
  const answers = await searchEach(session, round, wanted.map(({ name, domain }) => ({ query: name, domains: [domain], limit: 3 })));
  const leads = new Map<string, string>();
  wanted.forEach(({ key }, i) => {
    const url = answers[i]!.map((h) => h.url).find((u) => !state.openedUrls.has(u) && !leads.has(u));
    if (url) leads.set(url, key);
  });
  const opened = new Set(await openLeads(session, round, leads));
  // Judge again the candidates whose own page was opened (and whatever new the pages named).
  return [...new Set([...wanted.map((w) => w.key).filter((k) => [...leads.values()].includes(k)), ...opened])];
}

/**
 * Candidates still unclear once their own page was tried: a search of their name (at most
 * `maxNameSearchesPerRound` a round, once per candidate) and the first two results not yet opened, on two sites
 * not read about them yet, that name them in their title or snippet, opened and read like any page. A candidate
 * is judged again only when such a page named it (its sources grew), so a page about something else with the
 * same word changes nothing. Returns the keys to judge again, with whatever new the pages named.
 */
async function followNames(session: RunSession, round: number, unclearKeys: readonly string[]): Promise<string[]> {
  const { state, tuning } = session;
  const wanted: { key: string; name: string }[] = [];
  for (const key of unclearKeys) {
    if (wanted.length >= tuning.maxNameSearchesPerRound) break;
    const c = state.pool.get(key);
    // A name of two letters is no search of its own.
    if (!c || c.name.trim().length < 3) continue;
    if (!state.takeNameSearch(key)) continue;
    wanted.push({ key, name: c.name.trim() });
  }
  if (wanted.length === 0) return [];
  const answers = await searchEach(session, round, wanted.map(({ name }) => ({ query: name, domains: state.plan.sites.domains, limit: 5 })));
  const urls = new Map<string, string>();
  wanted.forEach(({ key, name }, i) => {
    const sources = state.pool.get(key)?.sourceUrls ?? [];
    // A site already read about it (its own, a profile's) says the same again: other sites' pages are wanted.
    const readHosts = new Set(sources.map(hostOf).filter((h): h is string => h !== null));
    const lower = name.toLowerCase();
    let taken = 0;
    for (const h of answers[i]!) {
      const host = hostOf(h.url) ?? '';
      if (state.openedUrls.has(h.url) || urls.has(h.url) || readHosts.has(host) || !`${h.title} ${h.snippet}`.toLowerCase().includes(lower)) continue;
      urls.set(h.url, key);
      readHosts.add(host);
      taken += 1;
      if (taken >= 2) break;
    }
  });
  if (urls.size === 0) return [];
  const sourcesBefore = new Map([...urls.values()].map((key) => [key, state.pool.get(key)?.sourceUrls.length ?? 0] as const));
  const opened = await openPages(session, round, [...urls.keys()]);
  if (opened.length === 0) return [];
  const extracted = await extractFrom(session, round, opened.map((o) => o.page));
  const found = state.pool.add(extracted.flat().map((c) => ({ ...c, round })));
  const grown = [...sourcesBefore].filter(([key, n]) => (state.pool.get(key)?.sourceUrls.length ?? 0) > n).map(([key]) => key);
  return [...new Set([...grown, ...found])];
}

/** Opens lead pages (url → candidate key), adds each to its candidate's sources, extracts what they name. */
async function openLeads(session: RunSession, round: number, leads: ReadonlyMap<string, string>): Promise<string[]> {
  const { state } = session;
  if (leads.size === 0) return [];
  const opened = await openPages(session, round, [...leads.keys()]);
  if (opened.length === 0) return [];
  const extracted = await extractFrom(session, round, opened.map((o) => o.page));
  const found: string[] = [];
  opened.forEach(({ url, page }, i) => {
    const key = leads.get(url)!;
    const lead = state.pool.get(key)!;
    // The lead page is the candidate's own page: it joins the candidate's sources whatever name it prints.
    found.push(...state.pool.add([{ ...lead, sourceUrls: [page.finalUrl || url], passages: [] }]));
    found.push(...state.pool.add(extracted[i]!.map((c) => ({ ...c, round }))));
  });
  return found;
}

/**
 * A "searching" stage of searches about candidates (their name, on their domain or anywhere), first results
 * only, at most `searchParallelism` at once, each under the run signal; spend is recorded even when one
 * fails. Hits come back in the order of `searches`.
 */
async function searchEach(session: RunSession, round: number, searches: readonly { query: string; domains: string[]; limit: number }[]): Promise<SearchHit[][]> {
  await session.enter(roundWhere(round, 'searching'));
  try {
    const answers = await mapBounded(searches, session.tuning.searchParallelism, ({ query, domains, limit }) => {
      session.checkpoint();
      return session.research.search({ query, domains, publishedAfter: null, page: 1, limit });
    });
    return answers.map((a) => a.hits);
  } finally {
    await session.recordSpend().catch(() => undefined);
  }
}

/**
 * The round's "opening pages" stage: fetches `urls`, at most `fetchParallelism` at once, each under the
 * run signal, and records every attempt; spend is recorded even when a fetch fails. Returns the pages that
 * opened, in the order of `urls`.
 */
async function openPages(session: RunSession, round: number, urls: readonly string[]): Promise<{ url: string; page: FetchedPage }[]> {
  const { state, research, tuning } = session;
  await session.enter(roundWhere(round, 'opening pages'));
  let pages: { url: string; page: FetchedPage | null }[] = [];
  try {
    pages = await mapBounded(urls, tuning.fetchParallelism, async (url) => {
      session.checkpoint();
      const page = await research.fetchPage(url);
      state.recordOpened(url, page);
      return { url, page };
    });
  } finally {
    await session.recordSpend().catch(() => undefined);
  }
  return pages.filter((p): p is { url: string; page: FetchedPage } => p.page !== null);
}

/** The round's "extracting" stage: each page's candidates under the run's plan, in the order of `pages`. */
async function extractFrom(session: RunSession, round: number, pages: readonly FetchedPage[]) {
  const { state, research, tuning } = session;
  await session.enter(roundWhere(round, 'extracting'));
  const extracted = await mapBounded(pages, tuning.extractParallelism, (page) => {
    session.checkpoint();
    return research.extract({ plan: state.plan, page, round });
  });
  await session.recordSpend();
  return extracted;
}

/**
 * The searches of one round, at most `searchParallelism` at once, each under the run signal. Answers come
 * back in call order, never completion order, so which pages a round opens does not depend on timing.
 * Every call is metered before it starts; a refused or failed one ends the round (and the run).
 */
async function searchRound(session: RunSession, calls: readonly SearchCall[]): Promise<(SearchAnswer & { hits: SearchHit[] })[]> {
  const { state, research, tuning } = session;
  const plan = state.plan;
  try {
    const answers = await mapBounded(calls, tuning.searchParallelism, (call) => {
      session.checkpoint();
      return research.search({
        query: call.query,
        domains: plan.sites.domains,
        publishedAfter: plan.dateRange?.from ?? null,
        page: call.page,
        limit: tuning.searchLimit,
      });
    });
    return calls.map((call, i) => ({ call, hits: answers[i]!.hits, ...(answers[i]!.more === undefined ? {} : { more: answers[i]!.more }) }));
  } finally {
    await session.recordSpend().catch(() => undefined);
  }
}
