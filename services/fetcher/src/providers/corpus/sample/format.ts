/**
 * The two page formats the corpus provider reads. HTML carries its address in
 * `<link rel="canonical">` and its date in `<meta property="article:published_time">`; Markdown carries
 * both in front matter (`url:`, `title:`, `published:`). Paragraphs are separate blocks so each becomes
 * one passage; headings have no final full stop.
 */
export interface SamplePage {
  /** Path inside the corpus directory. */
  file: string;
  url: string;
  title: string;
  /** YYYY-MM-DD or null. */
  published: string | null;
  paragraphs: string[];
  format: 'html' | 'md';
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function renderPage(page: SamplePage): string {
  if (page.format === 'md') {
    const front = [`url: ${page.url}`, `title: ${page.title}`, ...(page.published ? [`published: ${page.published}`] : [])];
    return `---\n${front.join('\n')}\n---\n\n# ${page.title}\n\n${page.paragraphs.join('\n\n')}\n`;
  }
  const meta = page.published ? `\n<meta property="article:published_time" content="${page.published}">` : '';
  const body = page.paragraphs.map((p) => `<p>${escape(p)}</p>`).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escape(page.title)}</title>
<link rel="canonical" href="${escape(page.url)}">${meta}
</head>
<body>
<article>
<h1>${escape(page.title)}</h1>
${body}
</article>
</body>
</html>
`;
}
