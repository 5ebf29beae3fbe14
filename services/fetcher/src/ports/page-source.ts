/**
 * Somewhere pages can be read from without the network: the local corpus (offline mode's web).
 * The fetcher asks it first; a URL it does not hold falls through to HTTP.
 */
export interface SourcedPage {
  /** The page's own URL (may differ from the asked URL by normalisation). */
  url: string;
  /** `text/html` or `text/markdown`; picks the extractor, exactly as an HTTP Content-Type would. */
  contentType: string;
  /** Decoded document source. */
  body: string;
}

export interface PageSource {
  /** The page at `url`, or null when this source does not hold it. */
  open(url: string, signal: AbortSignal): Promise<SourcedPage | null>;
}

/** True when a value (e.g. the corpus search provider) can also serve pages. */
export function isPageSource(value: unknown): value is PageSource {
  return typeof value === 'object' && value !== null && typeof (value as PageSource).open === 'function';
}
