/** Test support for the page model: what every test of it holds, whatever the page. */
import { expect } from 'vitest';
import type { extractHtml } from './extract.js';

/** Grounding: every name, passage and fact passage of the page's model is text of the page. */
export function expectGrounded(page: ReturnType<typeof extractHtml>): void {
  const m = page.model!;
  for (const e of [...(m.subject ? [m.subject] : []), ...m.items]) {
    expect(page.text).toContain(e.name);
    expect(page.text).toContain(e.passage);
    for (const f of e.facts) expect(page.text).toContain(f.passage);
  }
}
