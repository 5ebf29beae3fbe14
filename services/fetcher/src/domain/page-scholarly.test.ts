import { describe, expect, it } from 'vitest';
import { extractHtml } from './extract.js';
import { expectGrounded } from './page-model-testing.js';

/**
 * Scholarly pages as publishers and reading lists write them: Google Scholar's citation_* meta tags on an
 * article page with no facts list and no JSON-LD; a reference list in citation styles whose titles link to the
 * articles, in whatever case the catalogue keeps them. Written from the inclusion guidelines and common
 * citation styles (APA, Vancouver, MLA), not from one site.
 */

const articlePage = `<!doctype html><html><head><title>Electric field effect in atomically thin carbon films | Science</title>
<meta name="citation_title" content="Electric Field Effect in Atomically Thin Carbon Films">
<meta name="citation_author" content="Novoselov, K. S.">
<meta name="citation_author" content="Geim, A. K.">
<meta name="citation_publication_date" content="2004/10/22">
<meta name="citation_journal_title" content="Science">
<meta name="citation_volume" content="306">
<meta property="og:type" content="article">
</head><body><div class="cookies"><p>We use cookies. Accept all?</p></div>
<main><article><h1>Electric Field Effect in Atomically Thin Carbon Films</h1>
<p class="authors"><a href="/author/novoselov">K. S. Novoselov</a>, <a href="/author/geim">A. K. Geim</a></p>
<section><h2>Abstract</h2><p>We describe monocrystalline graphitic films, a few atoms thick, which are stable under ambient conditions.</p></section>
<p>Subjects: <a href="/subjects/physics">Physics</a></p>
</article></main></body></html>`;

const readingList = `<!doctype html><html><head><title>Week 3 readings | Condensed Matter Seminar</title></head><body>
<main><h1>Week 3 readings</h1><p>Read before the seminar.</p><ol class="references">
<li>Novoselov, K. S., &amp; Geim, A. K. (2004). <a href="/papers/electric-field-effect">Electric field effect in atomically thin carbon films</a>. <i>Science</i>, 306(5696), 666–669.</li>
<li>Kosterlitz JM, Thouless DJ. <a href="/papers/ordering-metastability">ordering, metastability and phase transitions in two-dimensional systems</a>. J Phys C. 1973;6:1181.</li>
<li>Laughlin, R. B. “<a href="/papers/anomalous-qhe">Anomalous Quantum Hall Effect: An Incompressible Quantum Fluid with Fractionally Charged Excitations</a>.” <i>Physical Review Letters</i>, vol. 50, 1983, pp. 1395–1398.</li>
</ol></main></body></html>`;

describe('page model: scholarly pages', () => {
  it('reads a paper from citation_* meta tags: title as the subject, authors, date and journal as facts', () => {
    const page = extractHtml(articlePage);
    const s = page.model!.subject!;
    expect(s.name).toBe('Electric Field Effect in Atomically Thin Carbon Films');
    expect(s.kind).toBe('paper');
    const facts = Object.fromEntries(s.facts.map((f) => [f.label, f.value]));
    expect(facts.Authors).toBe('Novoselov, K. S.; Geim, A. K.');
    expect(facts.Published).toBe('2004/10/22');
    expect(facts['Published in']).toBe('Science');
    // A subject-taxonomy link is no entity of its own.
    expect(page.model!.items.map((i) => i.name)).not.toContain('Physics');
    expectGrounded(page);
  });

  it('reads each line of a reference list as the work its one link cites, in any citation style and case', () => {
    const page = extractHtml(readingList);
    const m = page.model!;
    expect(m.items.map((i) => [i.name, i.link])).toEqual([
      ['Electric field effect in atomically thin carbon films', '/papers/electric-field-effect'],
      ['ordering, metastability and phase transitions in two-dimensional systems', '/papers/ordering-metastability'],
      ['Anomalous Quantum Hall Effect: An Incompressible Quantum Fluid with Fractionally Charged Excitations', '/papers/anomalous-qhe'],
    ]);
    expect(m.items[0]!.passage).toContain('(2004)');
    expectGrounded(page);
  });

  it('a list of links without years (a navigation or "see also" list) is not read as references', () => {
    const page = extractHtml(`<html><body><main><h1>Topics</h1><ul><li>Browse <a href="/t/condensed-matter">condensed matter physics</a> now</li>
<li>Browse <a href="/t/quantum-optics">quantum optics papers</a> now</li></ul></main></body></html>`);
    expect(page.model!.items.map((i) => i.name)).toEqual([]);
  });
});

describe('page model: section headings', () => {
  it('a heading that is a section name ("References: …") names no subject, though the text repeats the word', () => {
    const page = extractHtml(`<html><head><title>References: prize-winning physics papers | Reading Lists</title></head><body><main>
<h1>References: prize-winning physics papers of the 1960s</h1><p>References in the style the course uses.</p>
<ul><li>Higgs, P. W. (1964). Broken symmetries and the masses of gauge bosons. <i>Journal of Physics</i>.</li></ul></main></body></html>`);
    expect(page.model!.subject?.name).not.toBe('References');
  });
});
