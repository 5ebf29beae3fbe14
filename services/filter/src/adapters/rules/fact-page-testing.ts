/**
 * Test support for the rule reasoner on one profile page: a page whose facts are given as label and value,
 * and the verdict of each filter of a query's own plan for the page's subject (plan, extract, verify).
 */
import { expect } from 'vitest';
import type { Candidate, FetchedPage, PageEntity, PageFact, ResearchPlan } from '@leadfinder/wire';
import { createRuleReasoner } from './reasoner.js';

export const NOW = '2026-03-15T09:00:00.000Z';
export const signal = new AbortController().signal;
export const reasoner = createRuleReasoner();

export const fact = (label: string, value: string): PageFact => ({ label, value, passage: `${label} ${value}` });

/** Where the profile is published: its URL prefix, its site name, and what its title says after the name. */
export interface ProfileSite {
  urlPrefix: string;
  siteName: string;
  titleSuffix: string;
}

export function profilePage(site: ProfileSite, name: string, facts: PageFact[], prose: string[] = []): FetchedPage {
  return page(`${site.urlPrefix}${slug(name)}`, `${name} - ${site.titleSuffix}`, site.siteName, name, facts, prose);
}

/** A profile on `host` titled by the name alone, with no site name. */
export function bareProfile(host: string, name: string, facts: PageFact[]): FetchedPage {
  return page(`https://${host}/${slug(name)}`, name, null, name, facts, []);
}

const slug = (name: string) => name.toLowerCase().replace(/\W+/g, '-');

function page(url: string, title: string, siteName: string | null, name: string, facts: PageFact[], prose: string[]): FetchedPage {
  const passages = [name, ...facts.map((f) => f.passage), ...prose];
  const subject: PageEntity = { name, kind: null, link: null, passage: name, facts, source: 'heading' };
  return {
    url, finalUrl: url, status: 200, contentType: 'text/html', title,
    text: passages.join('\n'), publishedAt: null, passages, fetchedAt: NOW, model: { subject, items: [], siteName },
  };
}

export async function plan(query: string): Promise<ResearchPlan> {
  return (await reasoner.plan({ query, now: NOW, sites: '' }, { signal })).plan;
}

/** Each filter's outcome for the page's one candidate, its subject. */
export async function outcomes(query: string, page: FetchedPage): Promise<string[]> {
  return planOutcomes(await plan(query), page);
}

/** Each filter's outcome of a plan already made, for the page's one candidate, its subject. */
export async function planOutcomes(p: ResearchPlan, page: FetchedPage): Promise<string[]> {
  const { candidates } = await reasoner.extract({ plan: p, page, round: 1 }, { signal });
  expect(candidates.map((c) => c.name)).toEqual([page.model!.subject!.name]);
  return candidateOutcomes(p, candidates[0]!, page);
}

/** Each filter's outcome for every candidate the page yields (an article or a listing names several), by name. */
export async function outcomesByCandidate(p: ResearchPlan, page: FetchedPage): Promise<Record<string, string[]>> {
  const { candidates } = await reasoner.extract({ plan: p, page, round: 1 }, { signal });
  const out: Record<string, string[]> = {};
  for (const c of candidates) out[c.name] = await candidateOutcomes(p, c, page);
  return out;
}

/** Each filter's outcome for one candidate, in the plan's order. */
async function candidateOutcomes(p: ResearchPlan, candidate: Candidate, page: FetchedPage): Promise<string[]> {
  const out: string[] = [];
  for (const filter of p.filters) out.push((await reasoner.verify({ plan: p, filter, candidate, pages: [page] }, { signal })).verdict.outcome ?? 'none');
  return out;
}
