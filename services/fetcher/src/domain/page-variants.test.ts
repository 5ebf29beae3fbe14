import { describe, expect, it } from 'vitest';
import { extractHtml } from './extract.js';
import { expectGrounded } from './page-model-testing.js';

/**
 * Markup real sites vary for the same facts, and the noise around them: labels in bold without a colon,
 * label and value in two spans, a "similar" widget naming other entities, a ranked table whose first column
 * is the rank, cards that share a line, a headline that is not a name. Written from generic HTML usage, not
 * from any one site; every name, fact and passage must be text of the page (grounding).
 */


const COOKIES = '<div class="cookie-banner"><p>We use cookies to improve your experience. By continuing you accept our cookie policy.</p><a href="/privacy">Settings</a></div>';

const boldProfile = `<!doctype html><html><head><title>Quarkly | Startup Tracker</title></head><body>${COOKIES}
<main><ol class="breadcrumb"><li><a href="/">Home</a></li><li><a href="/startups">Startups</a></li><li>Quarkly</li></ol>
<h1>Quarkly</h1><p class="meta">Developer tools · Austin, TX · 2019</p><p>Observability for data teams.</p>
<ul class="details"><li><b>HQ</b> Austin, Texas</li><li><b>Vertical</b> Developer tools</li><li><b>Headcount</b> 85</li><li><b>Est.</b> 2019</li><li><b>Work model</b> Remote-first</li></ul>
<section class="similar"><h2>People also viewed</h2><ul>
<li><a href="/startups/lumenrail">Lumenrail</a> — Rail freight booking for shippers</li>
<li><a href="/startups/perkly">Perkly</a> — Perks for remote teams</li></ul></section></main></body></html>`;

const spanProfile = `<!doctype html><html><head><title>Mendwell - Startups</title></head><body>${COOKIES}
<div class="container"><div class="content"><h1>Mendwell</h1><p>Community clinics and telemedicine for rural families in Nigeria.</p>
<div class="facts"><div class="fact"><span class="k">Based in</span> <span class="v">Ibadan, Nigeria</span></div>
<div class="fact"><span class="k">Sector</span> <span class="v">Healthcare</span></div>
<div class="fact"><span class="k">Team size</span> <span class="v">240</span></div></div></div>
<div class="sidebar"><h2>Related</h2><ul><li><a href="/startups/kliniq">Kliniq</a> — Diagnostic kits for pharmacies</li><li><a href="/startups/curadoc">Curadoc</a> — Specialist matching</li></ul></div></div></body></html>`;

describe('page model: facts in markup sites vary', () => {
  it('a list of bold labels without colons is the h1 subject\'s facts, not a directory of "HQ", "Vertical" …', () => {
    const page = extractHtml(boldProfile);
    const m = page.model!;
    expect(m.subject?.name).toBe('Quarkly');
    expect(m.subject?.facts.map((f) => [f.label, f.value])).toEqual([
      ['HQ', 'Austin, Texas'], ['Vertical', 'Developer tools'], ['Headcount', '85'], ['Est.', '2019'], ['Work model', 'Remote-first'],
    ]);
    expect(m.subject?.facts[0]!.passage).toBe('HQ Austin, Texas');
    // The widget's entries are other companies, kept as leads of their own, and no label became a name.
    expect(m.items.map((i) => [i.name, i.source])).toEqual([['Lumenrail', 'related'], ['Perkly', 'related']]);
    expectGrounded(page);
  });

  it('a list of bold names with a line each is still a directory', () => {
    const page = extractHtml(`<html><head><title>Rail startups</title></head><body><main><h1>Rail startups</h1><ul>
<li><b>Lumenrail</b> — rail freight booking for shippers in Lyon.</li><li><b>Trackwise</b> — predictive maintenance for rolling stock.</li>
<li><b>Quaycargo</b> — port-to-rail transfers.</li></ul></main></body></html>`);
    expect(page.model?.subject).toBeNull();
    expect(page.model?.items.map((i) => i.name)).toEqual(['Lumenrail', 'Trackwise', 'Quaycargo']);
  });

  it('a "Similar" widget of bare links names other entities (related), and a list of bare links elsewhere names none', () => {
    const page = extractHtml(`<html><head><title>Quarkly</title></head><body><main><h1>Quarkly</h1><p>Observability for data teams.</p>
<ul><li><b>HQ</b> Austin, Texas</li><li><b>Sector</b> Developer tools</li></ul>
<section><h2>Similar</h2><ul><li><a href="/s/lumenrail">Lumenrail</a></li><li><a href="/s/perkly">Perkly</a></li></ul></section>
<section><h2>Explore</h2><ul><li><a href="/tags/devtools">Developer tools</a></li><li><a href="/tags/austin">Austin</a></li></ul></section></main></body></html>`);
    expect(page.model?.subject?.name).toBe('Quarkly');
    expect(page.model?.items.map((i) => [i.name, i.source])).toEqual([['Lumenrail', 'related'], ['Perkly', 'related']]);
  });

  it('label and value in two spans are facts; a sidebar of related companies does not hide the subject', () => {
    const page = extractHtml(spanProfile);
    const m = page.model!;
    expect(m.subject?.name).toBe('Mendwell');
    expect(m.subject?.facts.map((f) => [f.label, f.value, f.passage])).toEqual([
      ['Based in', 'Ibadan, Nigeria', 'Based in Ibadan, Nigeria'], ['Sector', 'Healthcare', 'Sector Healthcare'], ['Team size', '240', 'Team size 240'],
    ]);
    expect(m.items.every((i) => i.source === 'related')).toBe(true);
    expectGrounded(page);
  });

  it('labels printed as small headings over their values are facts, not cards named "Headquarters"', () => {
    for (const wrap of [(l: string, v: string) => `<div class="field"><h4>${l}</h4><p>${v}</p></div>`, (l: string, v: string) => `<h4>${l}</h4><p>${v}</p>`]) {
      const page = extractHtml(`<html><head><title>Lumenrail</title></head><body><main><h1>Lumenrail</h1><p>Rail freight booking for shippers.</p>
<section>${wrap('Headquarters', 'Lyon, France')}${wrap('Sector', 'Logistics')}${wrap('Employees', '120')}</section></main></body></html>`);
      expect(page.model?.subject?.facts.map((f) => [f.label, f.value])).toEqual([['Headquarters', 'Lyon, France'], ['Sector', 'Logistics'], ['Employees', '120']]);
      expect(page.model?.items).toEqual([]);
      expectGrounded(page);
    }
  });

  it('"<strong>Label:</strong> value" paragraphs are facts, and a "Read next" line is not', () => {
    const page = extractHtml(`<html><head><title>Perkly</title></head><body><main><h1>Perkly</h1>
<p><strong>Headquarters:</strong> Denver, Colorado</p><p><strong>Employees:</strong> 40</p><p><b>Founded</b> 2021</p>
<p>Read next: <a href="/startups/lumenrail">Lumenrail</a></p></main></body></html>`);
    expect(page.model?.subject?.facts.map((f) => [f.label, f.value])).toEqual([['Headquarters', 'Denver, Colorado'], ['Employees', '40'], ['Founded', '2021']]);
  });
});

describe('page model: listings sites vary', () => {
  it('a ranked table names its items from the linked column, never by their rank', () => {
    const page = extractHtml(`<html><head><title>Top rail startups</title></head><body><main><h1>Top rail startups</h1><table>
<thead><tr><th>#</th><th>Organization name</th><th>Based in</th><th>Headcount</th></tr></thead><tbody>
<tr><td>1</td><td><a href="/s/lumenrail">Lumenrail</a></td><td>Lyon, France</td><td>120</td></tr>
<tr><td>2</td><td><a href="/s/trackwise">Trackwise</a></td><td>Leeds, United Kingdom</td><td>45</td></tr></tbody></table></main></body></html>`);
    const items = page.model!.items;
    expect(items.map((i) => [i.name, i.link])).toEqual([['Lumenrail', '/s/lumenrail'], ['Trackwise', '/s/trackwise']]);
    expect(items[1]!.facts).toContainEqual({ label: 'Based in', value: 'Leeds, United Kingdom', passage: '2 Trackwise Leeds, United Kingdom 45' });
    expectGrounded(page);
  });

  it('the last page of a ranking, one row under its header, is still a listing: its row is the item, its headline\'s count no name', () => {
    const page = extractHtml(`<html><head><title>11 to know: rail startups (page 2)</title></head><body><main><h1>11 to know: rail startups (page 2)</h1><table>
<thead><tr><th>#</th><th>Organization name</th><th>Based in</th></tr></thead><tbody>
<tr><td>11</td><td><a href="/s/quaycargo">Quaycargo</a></td><td>Antwerp, Belgium</td></tr></tbody></table></main></body></html>`);
    expect(page.model?.subject).toBeNull();
    expect(page.model?.items.map((i) => i.name)).toEqual(['Quaycargo']);
  });

  it('cards that share a line are each an item; a sponsored card is marked as not part of the listing', () => {
    const card = (name: string) => `<article class="card"><h3><a href="/people/${name.toLowerCase().replace(/\W+/g, '-')}">${name}</a></h3><p>Chemistry laureate</p><p class="meta">Chemistry | Kyoto University</p></article>`;
    const page = extractHtml(`<html><head><title>Chemistry laureates</title></head><body><main><h1>Chemistry laureates</h1>
<div class="cards">${['Akira Suzuki', 'Ei-ichi Negishi', 'Ryoji Noyori'].map(card).join('\n')}</div>
<div class="promo"><p>Sponsored</p><h3><a href="/people/jane-doe">Jane Doe</a></h3><p>Physics laureate</p></div></main></body></html>`);
    expect(page.model!.items.map((i) => [i.name, i.source])).toEqual([
      ['Akira Suzuki', 'heading'], ['Ei-ichi Negishi', 'heading'], ['Ryoji Noyori', 'heading'], ['Jane Doe', 'related'],
    ]);
    expectGrounded(page);
  });
});

describe('page model: the subject of an article', () => {
  const spotlight = (headline: string, prose: string) => `<!doctype html><html><head><title>${headline} | Tech Weekly</title><meta property="og:type" content="article"></head><body>${COOKIES}
<main><article><h1>${headline}</h1><p class="byline">By the Tech Weekly desk</p><p>${prose}</p>
<p>Read next: our spotlights on <a href="https://techweekly.example/spotlight/perkly">Perkly</a> and <a href="https://techweekly.example/spotlight/kliniq">Kliniq</a>.</p></article></main></body></html>`;

  it('a headline that is not a name ("Inside Quarkly", "Spotlight: Quarkly", "Quarkly at a glance") names what the text repeats', () => {
    for (const headline of ['Inside Quarkly', 'Spotlight: Quarkly', 'Quarkly at a glance']) {
      const page = extractHtml(spotlight(headline, 'Austin-based Quarkly (YC W21) makes observability software for data teams.'));
      expect(page.model?.subject, headline).toMatchObject({ name: 'Quarkly', kind: null, source: 'headline' });
      expect(page.model?.items.map((i) => [i.name, i.source]), headline).toEqual([['Perkly', 'related'], ['Kliniq', 'related']]);
      expectGrounded(page);
    }
  });

  it('a heading that is a name keeps it whole, even when the text uses only part of it', () => {
    const page = extractHtml(`<html><head><title>Ada E. Yonath</title></head><body><main><h1>Ada E. Yonath</h1><p>Yonath mapped the ribosome.</p></main></body></html>`);
    expect(page.model?.subject?.name).toBe('Ada E. Yonath');
  });
});

describe('page model: JSON-LD arranged as other sites arrange it', () => {
  it('a ProfilePage whose mainEntity is an NGO typed by full URL: the NGO is the subject, its type a quotable "Type" fact', () => {
    const page = extractHtml(`<html><head><title>Noora Health — Entity Data</title><script type="application/ld+json">${JSON.stringify({
      '@context': 'https://schema.org', '@type': 'https://schema.org/ProfilePage', url: 'https://entitydata.example/company/noora-health',
      mainEntity: { '@type': 'https://schema.org/NGO', name: 'Noora Health', foundingDate: '2014-03-01',
        address: [{ '@type': 'https://schema.org/PostalAddress', addressLocality: 'Bengaluru', addressCountry: 'India' }],
        numberOfEmployees: { '@type': 'https://schema.org/QuantitativeValue', value: 110 } },
    })}</script></head><body><main><h1>Noora Health</h1><p>Training patients and their families with health skills.</p></main></body></html>`);
    const subject = page.model!.subject!;
    expect(subject).toMatchObject({ name: 'Noora Health', kind: 'company' });
    expect(subject.facts.map((f) => [f.label, f.value])).toEqual(expect.arrayContaining([['Type', 'NGO'], ['Location', 'Bengaluru, India'], ['Team size', '110']]));
    for (const f of subject.facts) expect(page.passages).toContain(f.passage);
  });
});

