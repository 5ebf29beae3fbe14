import { describe, expect, it } from 'vitest';
import { parseSites, pageTypeWords } from './sites.js';

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
