import { describe, expect, it } from 'vitest';
import { entityIdentity, exclusionIndex, identifiersIn, identityOfNameOrDomain, IdentityIndex, normaliseDomain, normaliseName } from './identity.js';

describe('canonical identity', () => {
  it('normalises names: case, diacritics, legal suffixes, titles, punctuation', () => {
    expect(normaliseName('Acme GmbH')).toBe('acme');
    expect(normaliseName('ACME')).toBe('acme');
    expect(normaliseName('Dr. Zoë Müller-Lang')).toBe('zoe muller lang');
    expect(normaliseName('Ada E. Yonath')).toBe(normaliseName('Ada Yonath'));
  });
  it('normalises domains from URLs or host names, and refuses what is not one', () => {
    expect(normaliseDomain('https://www.Acme.com/about?x=1')).toBe('acme.com');
    expect(normaliseDomain('acme.com/jobs')).toBe('acme.com');
    expect(normaliseDomain('WWW.acme.co.uk.')).toBe('acme.co.uk');
    expect(normaliseDomain('not a domain')).toBeNull();
    expect(normaliseDomain('')).toBeNull();
  });
  it('reads the identifier the kind has: LinkedIn for companies and people, ORCID for researchers, DOI for papers', () => {
    expect(identifiersIn('company', ['https://www.linkedin.com/company/acme/about/'])).toEqual(['linkedin:company/acme']);
    expect(identifiersIn('professional', ['https://de.linkedin.com/in/jane-doe'])).toEqual(['linkedin:in/jane-doe']);
    expect(identifiersIn('researcher', ['https://orcid.org/0000-0002-1825-009X'])).toEqual(['orcid:0000-0002-1825-009x']);
    expect(identifiersIn('paper', ['https://doi.org/10.1000/XYZ.123'])).toEqual(['doi:10.1000/xyz.123']);
    // A DOI among a company's pages is not the company's identity.
    expect(identifiersIn('company', ['https://doi.org/10.1000/xyz'])).toEqual([]);
  });
});

describe('matching by identity', () => {
  const company = (name: string, domain: string | null = null, urls: string[] = []) => entityIdentity({ name, entityType: 'company', domain, urls });

  it('matches on the own domain first, whatever the name', () => {
    const index = new IdentityIndex();
    index.add(company('Acme GmbH', 'acme.com'), true);
    expect(index.match(company('ACME Labs', 'www.acme.com'))).toBe(true);
  });
  it('matches on the normalised name unless both own domains are known and differ (namesakes)', () => {
    const index = new IdentityIndex();
    index.add(company('Acme GmbH', 'acme.com'), true);
    expect(index.match(company('Acme'))).toBe(true);
    expect(index.match(company('Acme', 'acme.io'))).toBeUndefined();
    expect(index.match(company('Beta'))).toBeUndefined();
  });
  it('matches on LinkedIn, ORCID or DOI even when names are spelled differently', () => {
    const index = new IdentityIndex();
    index.add(entityIdentity({ name: 'J. Doe', entityType: 'professional', urls: ['https://linkedin.com/in/jdoe'] }), true);
    expect(index.match(entityIdentity({ name: 'Jane Doe', entityType: 'professional', urls: ['https://www.linkedin.com/in/jdoe/'] }))).toBe(true);
  });
  it('an exclusion list of names, domains and earlier rows', () => {
    const index = exclusionIndex({ names: ['Beta AG'], domains: ['https://gamma.io'], runs: ['r'], entities: [company('Delta', 'delta.de')] });
    expect(index.match(company('Beta'))).toBe(true);
    expect(index.match(company('Gamma Inc', 'gamma.io'))).toBe(true);
    expect(index.match(company('Delta'))).toBe(true);
    expect(index.match(company('Epsilon', 'epsilon.com'))).toBeUndefined();
  });
  it('an expected entry is a domain when it looks like one, else a name', () => {
    expect(identityOfNameOrDomain('acme.com')).toEqual({ name: '', domain: 'acme.com', ids: [] });
    expect(identityOfNameOrDomain('Acme GmbH')).toEqual({ name: 'acme', domain: null, ids: [] });
    expect(identityOfNameOrDomain('St. Mary Hospital').domain).toBeNull();
  });
});
