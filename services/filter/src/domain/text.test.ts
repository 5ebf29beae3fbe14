import { describe, expect, it } from 'vitest';
import { containsPhrase, derivedForms, normaliseKey, sameWordFamily, stems } from './text.js';

describe('canonical names (one row per entity)', () => {
  it('a middle initial left out or given names one person; a leading initial and company names stay as written', () => {
    expect(normaliseKey('Ada E. Yonath')).toBe(normaliseKey('Ada Yonath'));
    expect(normaliseKey('Thomas C. Südhof')).toBe(normaliseKey('Thomas Sudhof'));
    expect(normaliseKey('M. Stanley Whittingham')).toBe('m stanley whittingham');
    expect(normaliseKey('J. Crew')).toBe('j crew');
    expect(normaliseKey('Stripe, Inc.')).toBe('stripe');
    expect(normaliseKey('Ada Yonath')).not.toBe(normaliseKey('Ada Lovelace'));
  });
});

describe('word families (a topic word in another form)', () => {
  const has = (text: string, word: string) => containsPhrase(stems(text), word, undefined, sameWordFamily);
  it('a long stem meets the longer words it begins, and an agent noun meets its field', () => {
    expect(has('Magnetic properties of superconductors', 'superconductivity')).toBe(true);
    expect(has('Theory of superconductivity', 'superconductors')).toBe(true);
    expect(has('Proteinase inhibitor IIa from bull seminal plasma', 'proteins')).toBe(true);
  });
  it('a short stem stays exact, and other words stay apart', () => {
    expect(has('publicly traded since 2019', 'public')).toBe(false);
    expect(has('Optical coherence', 'magnetism')).toBe(false);
    expect(has('A pulsed magnetron source', 'magnets')).toBe(false);
  });
  it('the adjective titles print for a topic noun, only for regular endings', () => {
    expect(derivedForms('magnetism')).toEqual(['magnetic']);
    expect(derivedForms('spectroscopy')).toEqual(['spectroscopic']);
    expect(derivedForms('catalysis')).toEqual(['catalytic', 'catalyst', 'catalyze', 'catalyse']);
    expect(derivedForms('neutrinos')).toEqual([]);
  });
});
