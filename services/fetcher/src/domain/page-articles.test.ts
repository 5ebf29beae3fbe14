import { describe, expect, it } from 'vitest';
import { extractHtml } from './extract.js';
import { expectGrounded } from './page-model-testing.js';

/**
 * Articles that name what they are about without linking it: a series a sentence announces and the article then
 * takes up name by name, a list whose lines each open with a plain name. Written from how any article reads, not
 * from one site's template; every name and passage must be text of the page.
 */

const article = (headline: string, body: string) => `<!doctype html><html><head><title>${headline} | Harbour Post</title>
<meta property="og:type" content="article"></head><body><main><article><h1>${headline}</h1>
<p class="byline">By <a href="/authors/ines-varga">Ines Varga</a></p>
${body}</article>
<aside class="related"><h3>Related</h3><ul><li>Inside Quarkly</li><li>Why Ferrobyte matters</li></ul></aside></main></body></html>`;

describe('page model: names an article announces and takes up', () => {
  it('reads the members of a series after a colon that later paragraphs take up as items, each with the passage about it', () => {
    const page = extractHtml(article('Five things from the robotics fair: what we saw', `<p>Three teams stood out this year: Brightloom Labs, Okafor &amp; Sons Robotics and Tessellate.</p>
<p>Brightloom Labs, based in Leeds, showed a kitchen arm. It employs 40 people.</p>
<p>“We build for farms,” said the founder of Okafor &amp; Sons Robotics.</p>
<p>Tessellate, from Porto, was acquired in May.</p>`));
    const items = page.model!.items.filter((i) => i.source !== 'related');
    expect(items.map((i) => [i.name, i.passage])).toEqual([
      ['Brightloom Labs', 'Brightloom Labs, based in Leeds, showed a kitchen arm. It employs 40 people.'],
      ['Okafor & Sons Robotics', '“We build for farms,” said the founder of Okafor & Sons Robotics.'],
      ['Tessellate', 'Tessellate, from Porto, was acquired in May.'],
    ]);
    // An article about several names is about none of them alone: its headline's words are no subject.
    expect(page.model!.subject).toBeNull();
    expectGrounded(page);
  });

  it('keeps a member whole when it holds "and" or initials and the article repeats it whole', () => {
    const page = extractHtml(article('Reading list', `<p>We asked the panel for their picks: Light and matter in small cavities, Ada B. Quist and Notes on cold atoms.</p>
<p>The 1996 paper Light and matter in small cavities, by R. J. Olsen, started the field.</p>
<p>Ada B. Quist, born in Oslo, Norway, chairs the panel.</p>
<p>Notes on cold atoms is a lecture series.</p>`));
    expect(page.model!.items.filter((i) => i.source !== 'related').map((i) => [i.name, i.passage])).toEqual([
      ['Light and matter in small cavities', 'The 1996 paper Light and matter in small cavities, by R. J. Olsen, started the field.'],
      ['Ada B. Quist', 'Ada B. Quist, born in Oslo, Norway, chairs the panel.'],
      ['Notes on cold atoms', 'Notes on cold atoms is a lecture series.'],
    ]);
    expectGrounded(page);
  });

  it('a linked name in the series is one of its entries too, not a passing mention', () => {
    const page = extractHtml(article('Who is building what', `<p>Among the teams we met: <a href="https://tessellate.example/">Tessellate</a>, Brightloom Labs and Quarkplay.</p>
<p>Brightloom Labs, based in Leeds, showed a kitchen arm.</p><p>Quarkplay makes games.</p><p><a href="https://tessellate.example/">Tessellate</a>, from Porto, was acquired in May.</p>`));
    const items = page.model!.items.filter((i) => i.source !== 'related');
    expect(items.map((i) => [i.name, i.source])).toEqual([['Tessellate', 'series'], ['Brightloom Labs', 'series'], ['Quarkplay', 'series']]);
    expectGrounded(page);
  });

  it('reads a linked name with a middle initial whole, ending no sentence at the initial ("Elizabeth H. Blackburn")', () => {
    const page = extractHtml(article('What we learned talking to laureates', `<p>Among the laureates: <a href="https://people.example/ada-quist">Ada Quist</a>, <a href="https://people.example/lena-ortiz">Lena Ortiz</a> and <a href="https://people.example/mara-h-vance">Mara H. Vance</a>.</p>
<p><a href="https://people.example/mara-h-vance">Mara H. Vance</a>, born in Hobart, Australia, chairs the panel.</p>`));
    const names = page.model!.items.filter((i) => i.source !== 'related').map((i) => i.name);
    expect(names).toContain('Mara H. Vance');
    expect(names).not.toContain('Mara H');
    expectGrounded(page);
  });

  it('a paragraph that takes up one name alone is its passage whole, sentences without the name included', () => {
    const page = extractHtml(article('Public companies we met', `<p>We kept hearing the same names: <a href="https://tessellate.example/">Tessellate</a>, Brightloom Labs and Quarkplay.</p>
<p>Then there is <a href="https://tessellate.example/">Tessellate</a> in Porto, a Retail company. Digital meets physical. It is publicly traded.</p>
<p>Then there is Brightloom Labs in Leeds, a Robotics company. Kitchen arms for diners. It was acquired last year.</p>
<p>Quarkplay makes games. Fun for all. It is hiring.</p>`));
    const passages = Object.fromEntries(page.model!.items.filter((i) => i.source !== 'related').map((i) => [i.name, i.passage]));
    expect(passages).toEqual({
      Tessellate: 'Then there is Tessellate in Porto, a Retail company. Digital meets physical. It is publicly traded.',
      'Brightloom Labs': 'Then there is Brightloom Labs in Leeds, a Robotics company. Kitchen arms for diners. It was acquired last year.',
      Quarkplay: 'Quarkplay makes games. Fun for all. It is hiring.',
    });
    expectGrounded(page);
  });

  it('takes no label\'s values for a series, nor a series the article never takes up', () => {
    const page = extractHtml(article('Ada Quist', `<p><strong>Place of birth:</strong> Boston, MA, United States</p>
<p><strong>Works at:</strong> Quist Institute, Cambridge, MA, United States</p>
<p>The fair had three halls this year: North, South and East.</p><p>Tickets sold out.</p>`));
    expect(page.model!.items.filter((i) => i.source !== 'related')).toEqual([]);
  });
});

describe('page model: a list of plain names', () => {
  it('reads a list whose lines each open with an unlinked name before a separator as a directory', () => {
    const page = extractHtml(article('Who won this year', `<p>The prize committee named its winners.</p>
<ul><li>Ada B. Quist (Quist Institute, Norway) — Prize in Chemistry, 2016</li>
<li>Tomas Lind (Uppsala University, Sweden) — Prize in Physics, 2016</li>
<li>Mei Arakawa (Kyoto University, Japan) — Prize in Medicine, 2016</li></ul>`));
    expect(page.model!.items.filter((i) => i.source !== 'related').map((i) => i.name)).toEqual(['Ada B. Quist', 'Tomas Lind', 'Mei Arakawa']);
    expectGrounded(page);
  });

  it('a list of citations ("A. Quist, “<title>” (1998), physics") lists the works it quotes, not their authors', () => {
    const page = extractHtml(article('Papers that mattered', `<p>Three papers changed the field.</p>
<ul><li>A. Quist, “Light and matter in small cavities” (1998), physics</li>
<li>T. Lind, “Notes on cold atoms” (2001), physics</li></ul>`));
    expect(page.model!.items.filter((i) => i.source !== 'related').map((i) => i.name)).toEqual(['Light and matter in small cavities', 'Notes on cold atoms']);
    expectGrounded(page);
  });

  it('leaves a list under a profile label (the subject\'s affiliations) and a reference list alone', () => {
    const profile = extractHtml(`<!doctype html><html><head><title>Ada Quist | Profiles</title></head><body><main><h1>Ada Quist</h1>
<p>Research: Chemistry</p><h2>Affiliations</h2><ul><li>Quist Institute — Oslo, Norway</li><li>Uppsala University — Uppsala, Sweden</li></ul></main></body></html>`);
    expect(profile.model!.items).toEqual([]);
    expect(profile.model!.subject!.name).toBe('Ada Quist');
    const references = extractHtml(article('Further reading', `<ol><li>Quist, A. (1998). Light and matter in small cavities. Journal of Optics.</li>
<li>Lind, T. (2001). Notes on cold atoms. Physical Letters.</li></ol>`));
    expect(references.model!.items.filter((i) => i.source !== 'related').map((i) => i.name)).not.toContain('Quist');
  });
});

describe('page model: a headline\'s words', () => {
  it('takes no lone article left of a headline phrase ("The" of "The shortlist: …") for its subject', () => {
    const page = extractHtml(article('The shortlist: climate: startups to watch', `<p>We kept hearing one name: Tessellate.</p>
<p>Tessellate, from Porto, was acquired in May. The team is small.</p>`));
    expect(page.model!.subject?.name).not.toBe('The');
  });
});
