import { describe, expect, it } from 'vitest';
import type { ResearchPlan, SearchHit } from '@leadfinder/wire';
import { createRuleReasoner } from './reasoner.js';
import { screenHits, SCREEN_THRESHOLD } from './screen.js';

const signal = new AbortController().signal;
const NOW = '2025-11-20T12:00:00.000Z';

async function plan(query: string): Promise<ResearchPlan> {
  return (await createRuleReasoner().plan({ query, now: NOW, sites: '' }, { signal })).plan;
}

const hit = (url: string, title: string, snippet: string, rank: number): SearchHit => ({ url, title, snippet, publishedAt: null, provider: 'corpus', rank });

describe('excerpt screen: an entity\'s own page', () => {
  it('passes an own home or about page on the first page of results whatever its tagline shows, scored as the excerpt earns', async () => {
    const scores = screenHits(await plan('fintech startups in San Francisco'), [
      hit('https://lumora.example/about-us', 'About us | Lumora', 'Software that listens.', 6),
      hit('https://quarkly.example/', 'Quarkly', 'Observability for data teams.', 9),
      hit('https://news.example/2024/ten-apps-we-like', 'Ten apps we like', 'Our favourite apps of the year.', 5),
      hit('https://lumora.example/team', 'Lumora | Team', 'Software that listens.', 7),
      hit('https://perkly.example/about', 'About Perkly', 'Perks for remote teams.', 14),
    ]);
    expect(scores.map((s) => s.pass)).toEqual([true, true, false, false, false]);
    for (const s of scores.slice(0, 2)) expect(s.score).toBeLessThan(SCREEN_THRESHOLD);
  });
});
