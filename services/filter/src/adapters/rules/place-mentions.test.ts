import { describe, expect, it } from 'vitest';
import type { FetchedPage } from '@leadfinder/wire';
import { bareProfile, fact, plan, planOutcomes } from './fact-page-testing.js';

/**
 * Capitalised words in a news sentence that a gazetteer also lists as towns, but that the sentence uses as
 * something else: the head of an institution's name ("University of Strasbourg"; University is a town in
 * Florida) or a sector said before the kind ("a Energy company"; Energy is a village in Illinois).
 */

/** A profile whose one fact is its field or sector, and whose one sentence is the one said of it. */
function withSentence(name: string, sentence: string, field: [string, string]): FetchedPage {
  const page = bareProfile('news.example', name, [fact(...field)]);
  page.passages.push(sentence);
  page.text = page.passages.join('\n');
  return page;
}

describe('a town name a sentence uses as something else places nothing', () => {
  it('"a professor at University of Strasbourg" is no professor in the United States (University, FL), and is one in France', async () => {
    const sentence = '“It was a complete surprise,” said Jean-Pierre Sauvage, a professor at University of Strasbourg, who shared the 2016 Nobel Prize in Chemistry.';
    const inUs = await plan('chemistry professors at US universities');
    expect((await planOutcomes(inUs, withSentence('Jean-Pierre Sauvage', sentence, ['Field', 'Chemistry'])))[1]).not.toBe('yes');
    const inFrance = await plan('chemistry professors in France');
    expect((await planOutcomes(inFrance, withSentence('Jean-Pierre Sauvage', sentence, ['Field', 'Chemistry'])))[1]).toBe('yes');
  });

  it('"in San Francisco, a Energy company" is no company in Illinois (Energy, IL), and is one in California', async () => {
    const sentence = "Then there is Moxion Power Co. in San Francisco, a Energy company that went through Y Combinator's Winter 2021 batch.";
    const inIllinois = await plan('companies in texas, georgia or illinois');
    expect((await planOutcomes(inIllinois, withSentence('Moxion Power Co.', sentence, ['Industry', 'Energy'])))[1]).not.toBe('yes');
    const inCalifornia = await plan('companies in California');
    expect((await planOutcomes(inCalifornia, withSentence('Moxion Power Co.', sentence, ['Industry', 'Energy'])))[1]).toBe('yes');
  });

  it('a city said before the kind still places it: "a Berlin fintech company", "a Boulder startup"', async () => {
    const germany = await plan('fintech companies in Germany');
    expect((await planOutcomes(germany, withSentence('Kontor', 'Kontor is a Berlin fintech company that sells payroll software.', ['Industry', 'Fintech'])))[1]).toBe('yes');
    const colorado = await plan('startups in Colorado');
    expect((await planOutcomes(colorado, withSentence('Ridgeline', 'Ridgeline, a Boulder startup, makes trail maps.', ['Industry', 'Consumer'])))[1]).toBe('yes');
  });
});
