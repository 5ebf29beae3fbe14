import { describe, expect, it } from 'vitest';
import { extractHtml } from './extract.js';
import { extractMarkdown, extractPlainText } from './markdown.js';

const article = `<!doctype html><html><head>
<title>Acme raises $20M | Alpha News</title>
<meta property="og:title" content="Acme raises $20M Series A">
<meta property="article:published_time" content="2025-03-14T09:30:00-05:00">
<link rel="canonical" href="https://alpha-news.test/acme-series-a">
<script>var tracking = "should never appear";</script>
<style>.x{color:red}</style>
</head><body>
<header><nav><a href="/">Home</a> <a href="/about">About us</a></nav></header>
<main>
  <article>
    <header><h1>Acme raises $20M Series A</h1></header>
    <p>Acme Corp, a Berlin   fintech, <b>raised</b> $20 million in a Series A round led by Example Ventures.</p>
    <p>The company will hire 40 engineers.<br>It plans to expand to Spain.</p>
    <ul><li>Founded: 2021</li><li>CEO: Jane Doe</li></ul>
    <table><tr><td>Round</td><td>Series A</td></tr></table>
  </article>
  <aside>Related: other stories you might like</aside>
</main>
<form><input name="q"><button>Search</button></form>
<footer>Copyright Alpha News 2025</footer>
</body></html>`;

describe('HTML extraction', () => {
  it('takes the og:title, the meta publish date and the canonical URL', () => {
    const page = extractHtml(article);
    expect(page.title).toBe('Acme raises $20M Series A');
    expect(page.publishedAt).toBe('2025-03-14');
    expect(page.canonicalUrl).toBe('https://alpha-news.test/acme-series-a');
  });

  it('keeps the article text as whitespace-normalised passages and drops chrome, scripts and styles', () => {
    const page = extractHtml(article);
    expect(page.passages).toEqual([
      'Acme raises $20M Series A',
      'Acme Corp, a Berlin fintech, raised $20 million in a Series A round led by Example Ventures.',
      'The company will hire 40 engineers. It plans to expand to Spain.',
      'Founded: 2021',
      'CEO: Jane Doe',
      // A table row is one passage, its cells apart by a space.
      'Round Series A',
    ]);
    expect(page.text).not.toMatch(/tracking|color:red|Home|Related|Copyright|Search/);
  });

  it('makes every passage a substring of the text', () => {
    const page = extractHtml(article);
    for (const p of page.passages) expect(page.text).toContain(p);
  });

  it('finds the publish date in JSON-LD, also inside @graph', () => {
    const html = `<html><head><title>T</title><script type="application/ld+json">
      {"@context":"https://schema.org","@graph":[{"@type":"WebSite","name":"x"},{"@type":"NewsArticle","datePublished":"2024-11-02T08:00:00Z"}]}
    </script></head><body><p>Body text.</p></body></html>`;
    expect(extractHtml(html).publishedAt).toBe('2024-11-02');
  });

  it('ignores broken JSON-LD and falls back to <time datetime>', () => {
    const html = `<html><head><title>T</title><script type="application/ld+json">{broken</script></head>
      <body><article><p>Posted <time datetime="2023-07-09">July 9</time> by staff.</p><p>${'Long text. '.repeat(10)}</p></article></body></html>`;
    expect(extractHtml(html).publishedAt).toBe('2023-07-09');
  });

  it('reads dc.date and textual dates in meta tags', () => {
    expect(extractHtml('<meta name="DC.date" content="2022/1/5"><title>x</title>').publishedAt).toBe('2022-01-05');
    expect(extractHtml('<meta name="date" content="March 5, 2024"><title>x</title>').publishedAt).toBe('2024-03-05');
  });

  it('has no date when the page states none', () => {
    expect(extractHtml('<html><head><title>x</title></head><body><p>Hello world</p></body></html>').publishedAt).toBeNull();
  });

  it('falls back to <title>, then <h1>, for the title', () => {
    expect(extractHtml('<title> Plain   title </title><h1>Head</h1>').title).toBe('Plain title');
    expect(extractHtml('<body><h1>Only a heading</h1><p>x</p></body>').title).toBe('Only a heading');
  });

  it('prefers the densest block over side columns when there is no <main> or <article>', () => {
    const para = (n: number) => `<p>Paragraph ${n} of the story with enough words to count as real content here.</p>`;
    const html = `<body><div class="side"><p>Subscribe to our newsletter for more news today!</p></div>
      <div class="content">${[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(para).join('')}</div></body>`;
    const page = extractHtml(html);
    expect(page.passages[0]).toMatch(/^Paragraph 1 /);
    expect(page.text).not.toContain('Subscribe');
  });

  it('keeps text of plain divs without paragraph tags', () => {
    const page = extractHtml('<body><div>First block</div><div>Second <span>block</span></div></body>');
    expect(page.passages).toEqual(['First block', 'Second block']);
  });

  it('splits a very long block at sentence boundaries into quotable passages', () => {
    const sentence = 'This sentence is part of a very long block of text without any paragraph breaks at all. ';
    const page = extractHtml(`<body><p>${sentence.repeat(40)}</p></body>`);
    expect(page.passages.length).toBeGreaterThan(1);
    for (const p of page.passages) {
      expect(p.length).toBeLessThanOrEqual(1200);
      expect(page.text).toContain(p);
    }
  });
});

describe('markdown extraction', () => {
  const md = `---
url: https://beta.test/posts/hiring
title: "Beta is hiring"
published: 2025-02-01
---
# Beta is hiring

Beta Labs, a **Lisbon** startup, is hiring [three engineers](https://beta.test/jobs).

- Remote friendly
- Series B funded

\`\`\`
code block line
\`\`\`
`;

  it('reads url, title and date from front matter and strips markdown syntax', () => {
    const page = extractMarkdown(md);
    expect(page.canonicalUrl).toBe('https://beta.test/posts/hiring');
    expect(page.title).toBe('Beta is hiring');
    expect(page.publishedAt).toBe('2025-02-01');
    expect(page.passages).toEqual([
      'Beta is hiring',
      'Beta Labs, a Lisbon startup, is hiring three engineers.',
      'Remote friendly',
      'Series B funded',
      'code block line',
    ]);
    expect(page.text).not.toContain('url:');
  });

  it('splits plain text on blank lines', () => {
    const page = extractPlainText('Title line\n\nFirst   paragraph\ncontinues.\n\n\nSecond.');
    expect(page.passages).toEqual(['Title line', 'First paragraph continues.', 'Second.']);
    expect(page.title).toBe('Title line');
  });
});
