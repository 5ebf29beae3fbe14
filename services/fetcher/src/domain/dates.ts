/** Publish-date normalisation: everything the fetcher reports is `YYYY-MM-DD` or null. */

const ISO_PREFIX = /^\s*(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?![\d])/;
const COMPACT = /^\s*(\d{4})(\d{2})(\d{2})(?:$|[T\s])/;

function valid(y: number, m: number, d: number): string | null {
  if (y < 1900 || y > 2200 || m < 1 || m > 12 || d < 1 || d > 31) return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCMonth() !== m - 1) return null;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/**
 * Normalise a date as found in meta tags, JSON-LD, <time> or APIs to `YYYY-MM-DD`.
 * A leading calendar date is taken as written (the publisher's local date, not shifted to UTC);
 * other forms ("March 5, 2024", RFC 2822) go through Date.parse. Unparseable input gives null.
 */
export function normaliseDate(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) {
    const d = new Date(value);
    return valid(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
  }
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (!text) return null;
  const iso = ISO_PREFIX.exec(text) ?? COMPACT.exec(text);
  if (iso) return valid(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) return null;
  const d = new Date(ms);
  // Date.parse reads "March 5, 2024" as local midnight; use the local calendar fields so it stays March 5.
  const hasZone = /(?:Z|GMT|UTC|[+-]\d{2}:?\d{2})\s*$/i.test(text);
  return hasZone
    ? valid(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate())
    : valid(d.getFullYear(), d.getMonth() + 1, d.getDate());
}

/** True when a page dated `publishedAt` passes the floor `after` (inclusive). Undated pages pass. */
export function passesDateFloor(publishedAt: string | null, after: string | null): boolean {
  if (!after || !publishedAt) return true;
  const floor = normaliseDate(after);
  if (!floor) return true;
  return publishedAt.slice(0, 10) >= floor;
}
