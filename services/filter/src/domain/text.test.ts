import { describe, expect, it } from 'vitest';
import { normaliseKey } from './text.js';

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
