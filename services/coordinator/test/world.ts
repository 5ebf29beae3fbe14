import { filterOf, planOf, type World } from './fake-research.js';

/**
 * The standard scripted web: two queries, five hits (one below the screen, one unopenable), four
 * companies (Acme found on two pages under two keys but one domain), two filters everyone passes.
 */
export function standardWorld(overrides: Partial<World> = {}): World {
  return {
    plan: planOf(['q1', 'q2'], [filterOf(1, 'Based in Berlin'), filterOf(2, 'Hiring')]),
    hits: {
      q1: [{ url: 'http://a.test/1', score: 0.9 }, { url: 'http://a.test/2', score: 0.8 }, { url: 'http://a.test/3', score: 0.3 }],
      q2: [{ url: 'http://a.test/2', score: 0.8 }, { url: 'http://b.test/1', score: 0.6 }, { url: 'http://b.test/2', score: 0.55 }],
    },
    pages: {
      'http://a.test/1': 'Acme GmbH in Berlin is hiring. Beta AG too.',
      'http://a.test/2': 'Acme, based in Berlin, opens roles.',
      'http://a.test/3': 'unrelated',
      'http://b.test/1': 'Gamma and Delta hire in Berlin.',
    },
    candidates: {
      'http://a.test/1': [{ key: 'acme', name: 'Acme GmbH', domain: 'acme.com' }, { key: 'beta', name: 'Beta AG' }],
      'http://a.test/2': [{ key: 'acme-berlin', name: 'Acme', domain: 'acme.com' }],
      'http://b.test/1': [{ key: 'gamma', name: 'Gamma' }, { key: 'delta', name: 'Delta' }],
    },
    passes: () => true,
    ...overrides,
  };
}
