import { describe, expect, it } from 'vitest';
import { extractHtml } from './extract.js';

const profile = `<!doctype html><html><head><title>Stripe | Company profile</title><meta property="og:site_name" content="StartupBase"></head>
<body><nav><a href="/">Home</a></nav><main><h1>Stripe</h1><p>Economic infrastructure for the internet.</p>
<ul><li>Location: San Francisco, CA, USA</li><li>Industry: Fintech</li><li>Team size: 7000</li><li>Status: Active</li></ul>
<dl><dt>Batch</dt><dd>Summer 2009</dd></dl></main></body></html>`;

const directory = `<html><head><title>Fintech startups in San Francisco</title></head><body><main><h1>Fintech startups in San Francisco</h1>
<ul><li><a href="/companies/stripe">Stripe</a> — Economic infrastructure for the internet. San Francisco, CA, USA</li>
<li><a href="/companies/brex">Brex</a> — Corporate cards for startups. San Francisco, CA, USA</li>
<li><a href="https://gusto.com/">Gusto</a> — Payroll and benefits for small businesses.</li></ul></main></body></html>`;

const table = `<html><head><title>Companies</title></head><body><main><table><thead><tr><th>Company</th><th>Location</th><th>Industry</th></tr></thead>
<tbody><tr><td><a href="/c/plangrid">PlanGrid</a></td><td>San Francisco, CA, USA</td><td>Construction</td></tr>
<tr><td><a href="/c/coinbase">Coinbase</a></td><td>San Francisco, CA, USA</td><td>Fintech</td></tr></tbody></table></main></body></html>`;

const jsonLd = `<html><head><title>Welcome</title><script type="application/ld+json">${JSON.stringify({
  '@context': 'https://schema.org', '@type': 'Organization', name: 'Khan Academy', url: 'https://khanacademy.org',
  address: { '@type': 'PostalAddress', addressLocality: 'Mountain View', addressRegion: 'CA', addressCountry: 'USA' },
  nonprofitStatus: 'Nonprofit501c3', numberOfEmployees: { '@type': 'QuantitativeValue', value: 250 },
})}</script></head><body><main><p>A free, world-class education for anyone, anywhere.</p></main></body></html>`;

describe('page model: structure before sentences', () => {
  it('reads a profile page: the h1 as subject, list lines and definitions as facts', () => {
    const page = extractHtml(profile);
    expect(page.model?.subject).toMatchObject({ name: 'Stripe', source: 'heading' });
    expect(page.model?.subject?.facts).toEqual(expect.arrayContaining([
      { label: 'Location', value: 'San Francisco, CA, USA', passage: 'Location: San Francisco, CA, USA' },
      { label: 'Industry', value: 'Fintech', passage: 'Industry: Fintech' },
      { label: 'Batch', value: 'Summer 2009', passage: 'Summer 2009' },
    ]));
    for (const f of page.model!.subject!.facts) expect(page.text).toContain(f.passage);
  });

  it('reads a directory: one item per line, with its line and its link', () => {
    const page = extractHtml(directory);
    expect(page.model?.subject).toBeNull();
    expect(page.model?.items.map((i) => [i.name, i.link])).toEqual([
      ['Stripe', '/companies/stripe'], ['Brex', '/companies/brex'], ['Gusto', 'https://gusto.com/'],
    ]);
    for (const i of page.model!.items) expect(page.text).toContain(i.passage);
  });

  it('reads a table page: one item per row, header cells as fact labels, the row as passage', () => {
    const page = extractHtml(table);
    const items = page.model!.items;
    expect(items.map((i) => i.name)).toEqual(['PlanGrid', 'Coinbase']);
    expect(items[1]!.facts).toContainEqual({ label: 'Industry', value: 'Fintech', passage: 'Coinbase San Francisco, CA, USA Fintech' });
    expect(page.text).toContain('Coinbase San Francisco, CA, USA Fintech');
  });

  it('reads JSON-LD as a typed subject whose values become quotable passages', () => {
    const page = extractHtml(jsonLd);
    const subject = page.model!.subject!;
    expect(subject).toMatchObject({ name: 'Khan Academy', kind: 'company', link: 'https://khanacademy.org', source: 'jsonld' });
    expect(subject.facts).toContainEqual({ label: 'Location', value: 'Mountain View, CA, USA', passage: 'Mountain View, CA, USA' });
    expect(subject.facts).toContainEqual({ label: 'Team size', value: '250', passage: '250' });
    expect(page.text).toContain('Khan Academy');
    for (const f of subject.facts) expect(page.passages).toContain(f.passage);
  });

  it('keeps JSON-LD properties it has no label for under their own name, spelled out', () => {
    const page = extractHtml(`<html><head><script type="application/ld+json">${JSON.stringify({
      '@type': 'Corporation', name: 'Acme Robotics', isHiring: true, batch: 'W21', industry: 'Industrials',
    })}</script></head><body><main><p>Robots for warehouses.</p></main></body></html>`);
    expect(page.model!.subject!.facts).toEqual(expect.arrayContaining([
      { label: 'Is hiring', value: 'true', passage: 'true' },
      { label: 'Batch', value: 'W21', passage: 'W21' },
      { label: 'Industry', value: 'Industrials', passage: 'Industrials' },
    ]));
  });

  it('reads a news article that links companies to their own sites as items with leads', () => {
    const page = extractHtml(`<html><head><title>Five startups to watch</title></head><body><article><h1>Five startups to watch</h1>
      <p>Payments company <a href="https://stripe.com/">Stripe</a> and payroll startup <a href="https://gusto.com/about">Gusto</a> both hired this year, according to <a href="https://news.example/2024/05/story">a report</a>.</p>
      <p>Construction software maker <a href="/companies/plangrid">PlanGrid</a> was acquired; <a href="/tags/construction">Construction</a> is a busy field.</p>
      </article></body></html>`);
    expect(page.model!.items.map((i) => [i.name, i.link, i.source])).toEqual([
      ['Stripe', 'https://stripe.com/', 'link'], ['Gusto', 'https://gusto.com/about', 'link'], ['PlanGrid', '/companies/plangrid', 'link'],
    ]);
    expect(page.text).toContain(page.model!.items[0]!.passage);
    expect(page.model!.subject).toBeNull();
  });

  it('gives an article\'s item the sentences after its own that refer back to it, up to one that does not or names another', () => {
    const page = extractHtml(`<html><head><title>The week in review</title></head><body><article><h1>The week in review</h1>
      <p><a href="https://omgpop.com/">OMGPop</a> (New York City) pitches itself simply: An independent flash game studio. The team counts 11 people. It was later bought by a larger company.</p>
      <p>We also spoke with <a href="https://rippling.com/">Rippling</a>. In its own words: One place to run HR. The team counts 2,500 people. Investors expect more deals this year. The company is hiring.</p>
      <p><a href="https://brex.com/">Brex</a> raised again. It shares investors with <a href="https://ramp.com/">Ramp</a>. Its cards are everywhere.</p>
      </article></body></html>`);
    const passage = (name: string) => page.model!.items.find((i) => i.name === name)?.passage;
    expect(passage('OMGPop')).toBe('OMGPop (New York City) pitches itself simply: An independent flash game studio. The team counts 11 people. It was later bought by a larger company.');
    // A sentence that does not refer back ends it: "The company is hiring." after it is not taken.
    expect(passage('Rippling')).toBe('We also spoke with Rippling. In its own words: One place to run HR. The team counts 2,500 people.');
    // A sentence naming another entity is about that one too: it ends the passage.
    expect(passage('Brex')).toBe('Brex raised again.');
    expect(passage('Ramp')).toBe('It shares investors with Ramp.');
    for (const item of page.model!.items) expect(page.text).toContain(item.passage);
  });

  it('reads schema.org PropertyValue facts (additionalProperty) under their own names', () => {
    const page = extractHtml(`<html><head><script type="application/ld+json">${JSON.stringify({
      '@type': 'Organization', name: 'PlanGrid',
      additionalProperty: [{ '@type': 'PropertyValue', name: 'Status', value: 'Acquired' }, { '@type': 'PropertyValue', name: 'Team size', value: 355 }],
    })}</script></head><body><main><p>Construction productivity software.</p></main></body></html>`);
    expect(page.model!.subject!.facts).toEqual(expect.arrayContaining([
      { label: 'Status', value: 'Acquired', passage: 'Acquired' },
      { label: 'Team size', value: '355', passage: '355' },
    ]));
  });
});

describe('schema.org microdata and one-line paragraphs', () => {
  const registry = `<html><head><title>Noora Health · Org Registry</title></head><body><main>
<div itemscope itemtype="https://schema.org/NGO"><h1 itemprop="name">Noora Health</h1>
<p>Based in <span itemprop="address" itemscope itemtype="https://schema.org/PostalAddress"><span itemprop="addressLocality">Bengaluru</span>, <span itemprop="addressCountry">India</span></span></p>
<p>Since <time itemprop="foundingDate" datetime="2014-02-01">2014</time></p>
<p>Research: <span itemprop="knowsAbout">Healthcare</span></p>
<p>Status: Active</p>
<ul><li itemprop="member" itemscope itemtype="https://schema.org/Organization"><span itemprop="name">Partner Clinic</span></li>
<li itemprop="member" itemscope itemtype="https://schema.org/Organization"><span itemprop="name">Second Partner</span></li></ul>
<p><a itemprop="url" href="https://noorahealth.org/">noorahealth.org</a></p>
</div></main></body></html>`;

  it('an item nested as another item\'s property is part of it, not a second entity (the page keeps its subject)', () => {
    const page = extractHtml(registry);
    expect(page.model?.subject).toMatchObject({ name: 'Noora Health', kind: 'company', source: 'microdata' });
    expect(page.model?.items.map((i) => i.name)).not.toContain('Partner Clinic');
  });

  it('quotes what a reader sees: the link text for its href, the shown year for a datetime, the line that states a value', () => {
    const facts = extractHtml(registry).model!.subject!.facts;
    expect(facts).toEqual(expect.arrayContaining([
      { label: 'Website', value: 'https://noorahealth.org/', passage: 'noorahealth.org' },
      { label: 'Founded', value: '2014-02-01', passage: 'Since 2014' },
      { label: 'Industry', value: 'Healthcare', passage: 'Research: Healthcare' },
      { label: 'Location', value: 'Bengaluru, India', passage: 'Based in Bengaluru, India' },
      { label: 'Member', value: 'Partner Clinic', passage: 'Partner Clinic' },
      { label: 'Member', value: 'Second Partner', passage: 'Second Partner' },
    ]));
  });

  it('a paragraph that is one "Label: value" line is a fact; the subject\'s own website link is no other entity', () => {
    const page = extractHtml(registry);
    expect(page.model?.subject?.facts).toContainEqual({ label: 'Status', value: 'Active', passage: 'Status: Active' });
    expect(page.model?.items.map((i) => i.name)).not.toContain('noorahealth.org');
  });
});

describe('JSON-LD graphs with @id references', () => {
  const graph = (nodes: object[]) => `<html><head><title>Page</title><script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', '@graph': nodes })}</script></head><body><main><p>Hello.</p></main></body></html>`;

  it('a Person whose worksFor points at a graph Organization is the subject, and the employer reads by name and place', () => {
    const page = extractHtml(graph([
      { '@type': 'WebPage', '@id': 'https://ada.example/#page', mainEntity: { '@id': 'https://ada.example/#me' } },
      { '@type': 'Person', '@id': 'https://ada.example/#me', name: 'Ada Yonath', worksFor: { '@id': 'https://ada.example/#wis' } },
      { '@type': 'CollegeOrUniversity', '@id': 'https://ada.example/#wis', name: 'Weizmann Institute of Science', address: { '@type': 'PostalAddress', addressLocality: 'Rehovot', addressCountry: 'IL' } },
    ]));
    expect(page.model?.subject).toMatchObject({ name: 'Ada Yonath', kind: 'professional', source: 'jsonld' });
    expect(page.model?.subject?.facts).toContainEqual(expect.objectContaining({ label: 'Works for', value: 'Weizmann Institute of Science, Rehovot, IL' }));
    expect(page.model?.items).toEqual([]);
  });

  it('a company homepage graph (Organization, WebSite published by it) keeps the Organization as subject', () => {
    const page = extractHtml(graph([
      { '@type': 'Organization', '@id': 'https://acme.example/#org', name: 'Acme Robotics', foundingDate: '2019' },
      { '@type': 'WebSite', '@id': 'https://acme.example/#site', publisher: { '@id': 'https://acme.example/#org' } },
    ]));
    expect(page.model?.subject).toMatchObject({ name: 'Acme Robotics', kind: 'company' });
  });
});

describe('schema.org places as real sites write them', () => {
  const page = (entity: object) => extractHtml(`<html><head><title>About us</title><script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', ...entity })}</script></head><body><main><h1>Acme</h1></main></body></html>`);

  it('an address array is several places, ";" between them, so the second office is not read as part of the first', () => {
    const facts = page({ '@type': 'Corporation', name: 'Momentus', address: [
      { '@type': 'PostalAddress', addressLocality: 'San Francisco', addressRegion: 'CA', addressCountry: 'United States' },
      { '@type': 'PostalAddress', addressLocality: 'Santa Clara', addressRegion: 'CA', addressCountry: 'United States' },
    ] }).model?.subject?.facts;
    expect(facts).toContainEqual(expect.objectContaining({ label: 'Location', value: 'San Francisco, CA, United States; Santa Clara, CA, United States' }));
  });

  it('a location array of Places named by their city says each city once', () => {
    const facts = page({ '@type': 'Organization', name: 'Codecademy', location: [
      { '@type': 'Place', name: 'New York', address: { '@type': 'PostalAddress', addressLocality: 'New York', addressRegion: 'NY', addressCountry: 'United States' } },
      { '@type': 'Place', name: 'Berlin', address: { '@type': 'PostalAddress', addressLocality: 'Berlin', addressCountry: 'Germany' } },
    ] }).model?.subject?.facts;
    expect(facts).toContainEqual(expect.objectContaining({ label: 'Location', value: 'New York, NY, United States; Berlin, Germany' }));
  });

  it('a plain Article in a journal (isPartOf a Periodical, or an issue of one) is a paper; in a newspaper or a site it is news', () => {
    const article = (isPartOf: object) => page({ '@type': 'Article', headline: 'Evidence for oscillation of atmospheric neutrinos', author: 'T. Kajita', datePublished: '1998', isPartOf }).model?.subject?.kind;
    expect(article({ '@type': 'Periodical', name: 'Physical Review Letters' })).toBe('paper');
    expect(article({ '@type': 'PublicationIssue', issueNumber: '8', isPartOf: { '@type': 'Periodical', name: 'Physical Review Letters' } })).toBe('paper');
    expect(article({ '@type': 'Newspaper', name: 'The Daily Planet' })).toBe('news');
    expect(article({ '@type': 'WebSite', name: 'Science Blog' })).toBe('news');
  });

  it('several affiliations each with its place are separate, so the second university is not read as in the first one\'s country', () => {
    const facts = page({ '@type': 'Person', name: 'Shinya Yamanaka', affiliation: [
      { '@type': 'CollegeOrUniversity', name: 'Kyoto University', address: { '@type': 'PostalAddress', addressLocality: 'Kyoto', addressCountry: 'Japan' } },
      { '@type': 'Organization', name: 'Gladstone Institutes', address: 'San Francisco, CA, United States' },
    ] }).model?.subject?.facts;
    expect(facts).toContainEqual(expect.objectContaining({ label: 'Affiliation', value: 'Kyoto University, Kyoto, Japan; Gladstone Institutes, San Francisco, CA, United States' }));
  });

  it('a list of other things (authors, keywords) stays one comma-separated value', () => {
    const facts = page({ '@type': 'ScholarlyArticle', name: 'Detection of the free neutrino', author: [{ '@type': 'Person', name: 'C. L. Cowan' }, { '@type': 'Person', name: 'F. Reines' }], keywords: ['Physics', 'Neutrinos'] }).model?.subject?.facts;
    expect(facts).toContainEqual(expect.objectContaining({ label: 'Author', value: 'C. L. Cowan, F. Reines' }));
    expect(facts).toContainEqual(expect.objectContaining({ label: 'Tags', value: 'Physics, Neutrinos' }));
  });
});

describe('links whose path carries a cut slug', () => {
  it('a long title linked to a page whose slug the site cut short is an item with its lead', () => {
    const title = 'Ordering metastability and phase transitions in two dimensional systems';
    const href = 'https://citations.example/paper/ordering-metastability-and-phase-transitions-in-two-dimensio-2086860422';
    const page = extractHtml(`<html><head><title>Prize papers</title></head><body><main><article><h1>Four papers behind the prize</h1>
<p>The committee cited <a href="${href}">${title}</a>, published in 1973. Others followed.</p>
<p>An unrelated <a href="https://citations.example/paper/ordering-metastability-and-phase-transitions-in-three-dimensions">Ordering metastability and phase transitions in two dimensional magnets of another kind</a> link.</p></article></main></body></html>`);
    expect(page.model?.items.map((i) => [i.name, i.link])).toEqual([[title, href]]);
  });
});
