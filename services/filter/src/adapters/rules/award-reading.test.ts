import { describe, expect, it } from 'vitest';
import type { FetchedPage } from '@leadfinder/wire';
import { bareProfile, fact, plan, planOutcomes } from './fact-page-testing.js';

/** A profile whose one fact is the field, and whose one sentence is the one a news story says of the person. */
function withSentence(name: string, sentence: string): FetchedPage {
  const page = bareProfile('news.example', name, [fact('Field', 'Physics')]);
  page.passages.push(sentence);
  page.text = page.passages.join('\n');
  return page;
}

describe('a prize said with its year in a sentence about the person dates the award', () => {
  const sentences = [
    '“It was a complete surprise,” said Shuji Nakamura, a professor at University of California, who shared the 2014 Nobel Prize in Physics.',
    'Shuji Nakamura won the Nobel Prize in Physics in 2014 for blue light-emitting diodes.',
    'Shuji Nakamura received the 2014 Nobel Prize in Physics.',
  ];
  for (const sentence of sentences) {
    it(`"${sentence.slice(0, 60)}…" is awarded after 2012, not before 2010`, async () => {
      expect((await planOutcomes(await plan('physics laureates awarded after 2012'), withSentence('Shuji Nakamura', sentence)))[1]).toBe('yes');
      expect((await planOutcomes(await plan('physics laureates awarded before 2010'), withSentence('Shuji Nakamura', sentence)))[1]).toBe('no');
    });
  }

  it('a prize someone else shared, said beside the name, dates nothing of theirs', async () => {
    const page = withSentence('Shuji Nakamura', 'Shuji Nakamura studied under Isamu Akasaki, who shared the 2014 Nobel Prize in Physics.');
    expect((await planOutcomes(await plan('physics laureates awarded after 2012'), page))[1]).not.toBe('yes');
  });
});
