import type { PageModel } from '@leadfinder/wire';

/** What extraction yields for one document, before the fetcher adds URL, status and timestamps. */
export interface ExtractedPage {
  title: string;
  /** Passages joined by "\n", so every passage is a substring of it. */
  text: string;
  /** YYYY-MM-DD or null. */
  publishedAt: string | null;
  passages: string[];
  /** Canonical URL the document declares (link rel=canonical, front matter `url`), if any. */
  canonicalUrl: string | null;
  /** Structure read before sentences (links as the page wrote them); markdown and plain text have none. */
  model?: PageModel;
}

/** Longest passage; longer blocks are cut at sentence boundaries so passages stay quotable. */
export const MAX_PASSAGE_CHARS = 1200;
