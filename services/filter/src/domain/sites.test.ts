import { describe, expect, it } from 'vitest';
import { parseSites, pageTypeWords, steerByPageTypes } from './sites.js';

describe('the sites field', () => {
  it('is the whole web when empty', () => {
    expect(parseSites('')).toEqual({ domains: [], pageTypes: [] });
  });
  it('keeps domain-like entries as domains, without scheme, path or www', () => {
    expect(parseSites('techcrunch.com, https://www.sifted.eu/articles, eu-startups.com').domains).toEqual(['techcrunch.com', 'sifted.eu', 'eu-startups.com']);
  });
  it('expands linkedin, x and twitter aliases', () => {
    expect(parseSites('linkedin').domains).toEqual(['linkedin.com']);
    expect(parseSites('x').domains).toEqual(['x.com', 'twitter.com']);
    expect(parseSites('twitter, x').domains).toEqual(['x.com', 'twitter.com']);
  });
  it('caps domains at 20', () => {
    const many = Array.from({ length: 25 }, (_, i) => `site${i}.example`).join(',');
    expect(parseSites(many).domains).toHaveLength(20);
  });
  it('treats a phrase naming page types as a preference, not a domain', () => {
    expect(parseSites('job portals')).toEqual({ domains: [], pageTypes: ['job portals'] });
    expect(parseSites('case studies, crunchbase.com')).toEqual({ domains: ['crunchbase.com'], pageTypes: ['case studies'] });
    expect(pageTypeWords('job portals')).toContain('jobs');
    expect(pageTypeWords('case studies')).toBe('case study');
  });
});

describe('page types', () => {
  it('reads "job portals and case studies" as two page types', () => {
    expect(parseSites('job portals and case studies').pageTypes).toEqual(['job portals', 'case studies']);
    expect(parseSites('press releases / blogs, techcrunch.com').pageTypes).toEqual(['press releases', 'blogs']);
  });
  it('gives each page type its own phrasing, and no query the words of every type', () => {
    const steered = steerByPageTypes(['fintech startup Berlin', 'Berlin fintech news'], ['job portals', 'case studies']);
    expect(steered).toEqual([
      'fintech startup Berlin jobs careers', 'fintech startup Berlin case study',
      'Berlin fintech news jobs careers', 'Berlin fintech news case study',
    ]);
    expect(steered.filter((q) => q.includes('jobs'))).toHaveLength(2);
  });
  it('leaves queries alone when no page type is named', () => {
    expect(steerByPageTypes(['a b', 'c d'], [])).toEqual(['a b', 'c d']);
  });
});
