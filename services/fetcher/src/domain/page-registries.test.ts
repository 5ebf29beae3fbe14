import { describe, expect, it } from 'vitest';
import { extractHtml } from './extract.js';
import { expectGrounded } from './page-model-testing.js';

/**
 * Facts as registries, startup networks and staff directories print them: a label on a line of its own over its
 * value ("<p><b>Locations</b><br>SF Bay Area</p>"), under labels no list of profile words holds ("Campus",
 * "Markets"). Written from generic HTML usage; every name, fact and passage must be text of the page.
 */

const staffPage = `<!doctype html><html><head><title>Ada Quist | Faculty Directory</title></head><body>
<main><h1>Ada Quist</h1><p class="subtitle">Professor</p>
<section><h2>Overview</h2>
<p><b>Department</b><br>Department of Chemistry</p>
<p><b>Institution</b><br>Weizmann Institute of Science</p>
<p><b>Campus</b><br>Rehovot, Israel</p>
<p><b>Co-authors</b><br>D. J. Thouless, J. M. Kosterlitz</p>
</section></main></body></html>`;

describe('page model: a label on its own line', () => {
  it('reads "<b>Label</b><br>value" paragraphs as facts, label and value apart by a space as the page text prints them', () => {
    const page = extractHtml(staffPage);
    const facts = page.model!.subject!.facts.map((f) => [f.label, f.value, f.passage]);
    expect(facts).toEqual([
      ['Department', 'Department of Chemistry', 'Department Department of Chemistry'],
      ['Institution', 'Weizmann Institute of Science', 'Institution Weizmann Institute of Science'],
      // Labels no profile vocabulary lists, and values with sentence punctuation: the repeated markup says label.
      ['Campus', 'Rehovot, Israel', 'Campus Rehovot, Israel'],
      ['Co-authors', 'D. J. Thouless, J. M. Kosterlitz', 'Co-authors D. J. Thouless, J. M. Kosterlitz'],
    ]);
    expectGrounded(page);
  });

  it('a lone bold line before a break in prose is no fact', () => {
    const page = extractHtml(`<!doctype html><html><head><title>Notes | Blog</title></head><body><main><h1>Notes</h1>
<p><b>Update</b><br>We moved the office to Lisbon last spring and hired two engineers.</p>
<p>Everything else stays as it was.</p></main></body></html>`);
    expect(page.model!.subject?.facts ?? []).toEqual([]);
  });

  it('a two-column table cell with values on lines of their own states each value, the row as passage', () => {
    const page = extractHtml(`<!doctype html><html><head><title>Shinya Yamanaka | KnowledgeBase</title></head><body><main><h1>Shinya Yamanaka</h1>
<table><tr><th>employer</th><td>Kyoto University<br>Gladstone Institutes</td></tr><tr><th>field of work</th><td><ul><li>stem cells</li><li>medicine</li></ul></td></tr>
<tr><th>place of birth</th><td>Higashiōsaka, Japan</td></tr></table></main></body></html>`);
    expect(page.model!.subject!.facts.map((f) => [f.label, f.value, f.passage])).toEqual([
      ['employer', 'Kyoto University', 'employer Kyoto University Gladstone Institutes'],
      ['employer', 'Gladstone Institutes', 'employer Kyoto University Gladstone Institutes'],
      // A list in the cell: each item is a passage of its own.
      ['field of work', 'stem cells', 'stem cells'],
      ['field of work', 'medicine', 'medicine'],
      ['place of birth', 'Higashiōsaka, Japan', 'place of birth Higashiōsaka, Japan'],
    ]);
    expectGrounded(page);
  });
});

const roundup = `<!doctype html><html><head><title>Who's building what | TechNewsWire</title><meta property="og:type" content="article"></head><body>
<main><article><h1>Who's building what: fintech companies</h1>
<p class="byline">By <a href="/authors/dana-whitfield">Dana Whitfield</a> · 2024-05-02 · 4 min read</p>
<p>We asked around and kept hearing the same names: <a href="https://fivestars.com/">Fivestars</a>, <a href="https://presto.com/">Presto</a>, PagerDuty and <a href="https://optimizely.com/">Optimizely</a>.</p>
<p>“Loyalty should be simple,” said a co-founder of <a href="https://fivestars.com/">Fivestars</a>. It was acquired last year.</p>
<ul>
<li><strong>Quarkly</strong> (YC S21), Austin: observability for data teams.</li>
<li>Lumenrail (YC W20) — the Denver-based logistics startup.</li>
<li><a href="https://perkly.com/">Perkly</a>, Lisbon: perks for remote teams.</li>
</ul>
<p>Have a tip? Email the newsroom.</p></article>
<aside class="related-stories"><h3>Related stories</h3><ul><li><a href="https://mendwell.ng/">Mendwell</a>: what comes next</li><li>Inside <a href="https://kliniq.com/">Kliniq</a></li></ul></aside></main></body></html>`;

describe('page model: an article naming several entities', () => {
  const page = extractHtml(roundup);
  const items = page.model!.items;
  const byName = (n: string) => items.find((i) => i.name === n);

  it('the writer in the byline is no entity of the article', () => {
    expect(byName('Dana Whitfield')).toBeUndefined();
  });

  it('an unlinked name in a series of linked names is named too, with the series as its passage', () => {
    expect(byName('PagerDuty')).toMatchObject({ link: null, passage: expect.stringContaining('PagerDuty and') });
  });

  it('a linked name that holds "and" stays one member of the series', () => {
    const series = extractHtml(`<!doctype html><html><head><title>Notes | Blog</title></head><body><main><article><h1>Notes from the field</h1>
<p>Among the nonprofits in India: <a href="https://noora.org/">Noora Health</a>, <a href="https://orgs.example/org/sanitation-and-health-rights-in-india-shri">Sanitation and Health Rights in India (SHRI)</a> and Dost Education.</p></article></main></body></html>`);
    expect(series.model!.items.map((i) => i.name)).toEqual(['Noora Health', 'Sanitation and Health Rights in India (SHRI)', 'Dost Education']);
    // Unlinked, such a name is not cut at its "and" either: the series' one "and" comes before its last member.
    const plain = extractHtml(`<!doctype html><html><head><title>Notes | Blog</title></head><body><main><article><h1>Notes from the field</h1>
<p>Among the nonprofits in India: <a href="https://noora.org/">Noora Health</a>, Sanitation and Health Rights in India (SHRI) and <a href="https://dosteducation.com/">Dost Education</a>.</p></article></main></body></html>`);
    expect(plain.model!.items.map((i) => i.name)).not.toContain('Sanitation');
  });

  it('a name listed with others and then written about alone takes the passage about it alone', () => {
    expect(byName('Fivestars')?.passage).toBe('“Loyalty should be simple,” said a co-founder of Fivestars. It was acquired last year.');
  });

  it('a list line that prints its name plainly among bold and linked ones is an entry, its line the passage', () => {
    expect(['Quarkly', 'Lumenrail', 'Perkly'].map((n) => [n, byName(n)?.passage])).toEqual([
      ['Quarkly', 'Quarkly (YC S21), Austin: observability for data teams.'],
      ['Lumenrail', 'Lumenrail (YC W20) — the Denver-based logistics startup.'],
      ['Perkly', 'Perkly, Lisbon: perks for remote teams.'],
    ]);
    // The related-stories box names others: at most a related entry, never one of the article's.
    expect(['related', undefined]).toContain(byName('Mendwell')?.source);
    expectGrounded(page);
  });

  it('a list of plain sentences stays no directory', () => {
    const notes = extractHtml(`<!doctype html><html><head><title>Release notes</title></head><body><main><h1>Release notes</h1>
<ul><li><a href="/docs/export">Export</a>, a new button: download your data.</li><li><a href="/docs/import">Import</a>, at last: bring data in.</li>
<li>Faster search, especially on large workspaces.</li><li>We fixed the dark mode, thanks to your reports.</li></ul></main></body></html>`);
    expect(notes.model!.items.map((i) => i.name)).not.toContain('Faster search');
    expect(notes.model!.items.map((i) => i.name)).not.toContain('We fixed the dark mode');
  });
});

describe('page model: plain list leads stay names only in directories', () => {
  it('a reading list whose lines open with their authors yields no author as an entry', () => {
    const page = extractHtml(`<!doctype html><html><head><title>Reading list: physics, 2000s</title></head><body><main><h1>Reading list: physics, 2000s</h1>
<ol><li>Hall, J. L., and Hansch, T. W. “<a href="/papers/direct-link">Direct link between microwave and optical frequencies</a>.” Physical Review, 2000.</li>
<li>Mather, J. C. (1990). <a href="/papers/cobe">A preliminary measurement of the cosmic microwave background spectrum</a>. Physics Letters.</li>
<li>Glauber, R. J. (1963). The quantum theory of optical coherence. Physical Review.</li></ol></main></body></html>`);
    const names = page.model!.items.map((i) => i.name);
    expect(names).toEqual(expect.arrayContaining(['Direct link between microwave and optical frequencies', 'A preliminary measurement of the cosmic microwave background spectrum']));
    expect(names).not.toContain('Glauber');
    expect(names).not.toContain('Hall');
  });
});
