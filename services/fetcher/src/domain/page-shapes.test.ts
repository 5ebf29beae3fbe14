import { describe, expect, it } from 'vitest';
import { extractHtml } from './extract.js';
import { expectGrounded } from './page-model-testing.js';

/**
 * Page shapes the research engine meets on the open web, written here from generic schema.org and HTML
 * usage: a definition-list profile, a homepage whose only content is JSON-LD, and a news article naming
 * several organisations. Every name, fact and passage must be text of the page (grounding).
 */

const dlProfile = `<!DOCTYPE html><html><head><title>Quarkly — company profile | Venture Atlas</title></head><body>
<nav><a href="/">Venture Atlas</a></nav>
<main><h1>Quarkly</h1><p>Quarkly builds observability software for data teams.</p>
<dl><dt>Sector</dt><dd>Developer tools; Analytics</dd><dt>Head office</dt><dd>Austin, Texas, United States</dd><dt>Headcount</dt><dd>85</dd>
<dt>Established</dt><dd>2019</dd><dt>Work model</dt><dd>Remote-first</dd><dt>Currently recruiting</dt><dd>Yes</dd></dl></main></body></html>`;

const personLd = `<!DOCTYPE html><html><head><title>Hanna Berg</title><script type="application/ld+json">${JSON.stringify({
  '@context': 'https://schema.org', '@type': 'Person', name: 'Hanna Berg', jobTitle: 'Professor of Physics', gender: 'Female',
  affiliation: { '@type': 'CollegeOrUniversity', name: 'Uppsala University', address: { '@type': 'PostalAddress', addressLocality: 'Uppsala', addressCountry: 'SE' } },
  award: ['Nobel Prize in Physics (2011)'], knowsAbout: ['neutrino oscillations', 'particle physics'],
})}</script></head><body></body></html>`;

const articleLd = `<!DOCTYPE html><html><head><title>Cooling atoms</title><script type="application/ld+json">${JSON.stringify({
  '@context': 'https://schema.org', '@type': 'ScholarlyArticle', headline: 'Cooling atoms to a single quantum state',
  author: [{ '@type': 'Person', name: 'Ines Morgan' }, { '@type': 'Person', name: 'Tomas Ruiz' }], datePublished: '1995-07-14',
  about: ['Bose-Einstein condensate'], keywords: ['ultracold atoms', 'atomic physics'],
})}</script></head><body></body></html>`;

const news = `<!DOCTYPE html><html><head><title>Four health startups to watch | Savanna Tech News</title><meta property="og:type" content="article"></head><body>
<article><h1>Four health startups to watch</h1>
<p>Telemedicine is spreading fast across West Africa, and investors have noticed.</p>
<p>Ibadan-based <a href="https://mendwell.example/">Mendwell</a> runs community clinics and now employs 240 people. In Nairobi, <a href="https://kliniq.example/">Kliniq</a> sells diagnostic kits to pharmacies.</p>
<p><a href="https://curadoc.example/about">Curadoc</a>, a Cairo startup, matches patients with specialists.</p>
</article></body></html>`;


const scienceNews = `<!DOCTYPE html><html><head><title>Cold atoms, hot prize | Lab Bulletin</title><meta property="og:type" content="article"></head><body>
<article><h1>Cold atoms, hot prize</h1>
<p>The committee singled out <a href="https://citations.example/papers/cooling-atoms-to-a-single-quantum-state">Cooling atoms to a single quantum state</a>, a 1995 report of the first condensate. Its lead author, <a href="https://scholars.example/people/ines-morgan">Ines Morgan</a>, now directs a laboratory in Boulder.</p>
<p>Readers can also see <a href="https://labbulletin.example/topics/quantum-gases">our coverage of quantum gases and ultracold matter</a>.</p>
</article></body></html>`;

describe('page shapes', () => {
  it('a dl/dt/dd profile: the h1 is the subject and every dt labels its dd', () => {
    const page = extractHtml(dlProfile);
    expect(page.model?.subject?.name).toBe('Quarkly');
    expect(page.model?.subject?.facts.map((f) => [f.label, f.value])).toEqual([
      ['Sector', 'Developer tools; Analytics'], ['Head office', 'Austin, Texas, United States'], ['Headcount', '85'],
      ['Established', '2019'], ['Work model', 'Remote-first'], ['Currently recruiting', 'Yes'],
    ]);
    expectGrounded(page);
  });

  it('a dl whose dt/dd pairs are wrapped in div groups (as HTML allows) gives the same facts', () => {
    const page = extractHtml(`<html><head><title>Lumenrail</title></head><body><main><h1>Lumenrail</h1>
<dl><div><dt>Sector</dt><dd>Rail logistics</dd></div><div><dt>Head office</dt><dd>Lyon, France</dd></div></dl></main></body></html>`);
    expect(page.model?.subject?.facts.map((f) => [f.label, f.value])).toEqual([['Sector', 'Rail logistics'], ['Head office', 'Lyon, France']]);
    expectGrounded(page);
  });

  it('a JSON-LD-only Person: facts from jobTitle, gender, award, knowsAbout, and the affiliation with its address', () => {
    const page = extractHtml(personLd);
    const facts = Object.fromEntries(page.model!.subject!.facts.map((f) => [f.label, f.value]));
    expect(page.model?.subject?.name).toBe('Hanna Berg');
    expect(facts).toMatchObject({ 'Job title': 'Professor of Physics', Gender: 'Female', Award: 'Nobel Prize in Physics (2011)' });
    expect(facts.Affiliation).toBe('Uppsala University, Uppsala, SE');
    expect(Object.values(facts)).toContain('neutrino oscillations, particle physics');
    expectGrounded(page);
  });

  it('a JSON-LD-only ScholarlyArticle: a paper with its authors, date, subject and keywords', () => {
    const page = extractHtml(articleLd);
    const subject = page.model!.subject!;
    expect(subject).toMatchObject({ name: 'Cooling atoms to a single quantum state', kind: 'paper' });
    const facts = Object.fromEntries(subject.facts.map((f) => [f.label, f.value]));
    expect(facts).toMatchObject({ Author: 'Ines Morgan, Tomas Ruiz', Published: '1995-07-14', About: 'Bose-Einstein condensate' });
    expectGrounded(page);
  });

  it('a news article naming several organisations: each is an item whose passage is its own sentence, its site the lead', () => {
    const page = extractHtml(news);
    const items = page.model!.items.map((i) => [i.name, i.link, i.passage]);
    expect(items).toEqual([
      ['Mendwell', 'https://mendwell.example/', 'Ibadan-based Mendwell runs community clinics and now employs 240 people.'],
      ['Kliniq', 'https://kliniq.example/', 'In Nairobi, Kliniq sells diagnostic kits to pharmacies.'],
      ['Curadoc', 'https://curadoc.example/about', 'Curadoc, a Cairo startup, matches patients with specialists.'],
    ]);
    expectGrounded(page);
  });

  it('a science news story: a linked paper title (its page carries the title) and a linked researcher are items; a topic link is not', () => {
    const page = extractHtml(scienceNews);
    expect(page.model!.items.map((i) => [i.name, i.passage])).toEqual([
      ['Cooling atoms to a single quantum state', 'The committee singled out Cooling atoms to a single quantum state, a 1995 report of the first condensate.'],
      ['Ines Morgan', 'Its lead author, Ines Morgan, now directs a laboratory in Boulder.'],
    ]);
    expectGrounded(page);
  });
});
