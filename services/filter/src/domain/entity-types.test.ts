import { describe, expect, it } from 'vitest';
import { detectEntityType } from './entity-types.js';

describe('the entity kind a query asks for', () => {
  const cases: [string, string][] = [
    ['fintech startups in Berlin that raised a Series A', 'company'],
    ['heads of marketing at SaaS companies in Amsterdam', 'professional'],
    ['machine learning researchers in Munich', 'researcher'],
    ['smart thermostats launched in 2025', 'product'],
    ['cardiologists in Munich', 'clinician'],
    ['doctors who speak Portuguese in Lisbon', 'clinician'],
    ['employment lawyers in Hamburg', 'lawyer'],
    ['science fiction novels published this year', 'book'],
    ['papers on graph neural networks', 'paper'],
    ['synth-pop music videos released in the last 6 months', 'music_video'],
    ['photography exhibitions in Paris', 'exhibition'],
    ['AI conferences in London in 2026', 'conference'],
    ['freelance UX designers in Lisbon', 'freelancer'],
    ['news about electric buses in Hamburg', 'news'],
  ];
  it.each(cases)('"%s" asks for %s', (query, type) => {
    expect(detectEntityType(query).type).toBe(type);
  });
  it('the head noun wins over a later kind word ("CTOs of fintech companies" are people)', () => {
    expect(detectEntityType('CTOs of fintech companies in London').type).toBe('professional');
  });
  it('in a compound the last kind noun is the head ("academic publications" are papers, "startup founders" people)', () => {
    expect(detectEntityType('academic publications about lasers').type).toBe('paper');
    expect(detectEntityType('startup founders in Berlin').type).toBe('professional');
    expect(detectEntityType('scholarly works on proteins').type).toBe('paper');
  });
  it('falls back to company when the query names no kind', () => {
    expect(detectEntityType('who is hiring in Berlin').type).toBe('company');
  });
});
