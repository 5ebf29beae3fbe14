import type { Candidate, FetchedPage, Verdict } from '@leadfinder/wire';

/**
 * The never-invent guard applied to every reasoner's output: a candidate whose name is not in the
 * page text is dropped, and so is any passage that is not a verbatim substring of its page.
 */
export function groundCandidates(candidates: readonly Candidate[], page: FetchedPage): { kept: Candidate[]; dropped: string[] } {
  const kept: Candidate[] = [];
  const dropped: string[] = [];
  const url = page.finalUrl || page.url;
  for (const c of candidates) {
    if (!c.name.trim() || !page.text.includes(c.name)) {
      dropped.push(c.name);
      continue;
    }
    const passages = c.passages.filter((p) => p.text.trim() !== '' && page.text.includes(p.text)).map((p) => ({ ...p, url }));
    const detailsOk = page.text.includes(c.details) ? c.details : passages[0]?.text ?? c.name;
    kept.push({ ...c, details: detailsOk, passages, sourceUrls: [url] });
  }
  return { kept, dropped };
}

/**
 * Keeps only quoted passages that occur in the page they cite. A pass left with no passage at all
 * rests on nothing the pages say, so it becomes a fail.
 */
export function groundVerdict(verdict: Verdict, pages: readonly FetchedPage[]): Verdict {
  const byUrl = new Map<string, FetchedPage>();
  for (const p of pages) {
    byUrl.set(p.url, p);
    byUrl.set(p.finalUrl, p);
  }
  const passages = verdict.passages.filter((q) => {
    const page = byUrl.get(q.url);
    return page !== undefined && q.text.trim() !== '' && page.text.includes(q.text);
  });
  if (verdict.pass && passages.length === 0) {
    return {
      ...verdict,
      pass: false,
      outcome: 'unclear',
      passages: [],
      rationale: `Not accepted: the reasoning quoted no passage that occurs in the pages. (${verdict.rationale})`,
    };
  }
  return { ...verdict, passages };
}
