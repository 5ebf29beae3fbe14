// CSV export of result rows. A module of its own so the page and the tests use the same code.

export const CSV_COLUMNS = [['name', (r) => r.name], ['entity_type', (r) => r.entity_type], ['details', (r) => r.details],
  ['intent_signal', (r) => r.intent_signal], ['rationale', (r) => r.rationale], ['source_urls', (r) => r.source_urls.join(' ')],
  ['relaxed', (r) => (r.relaxed || []).join('; ')], ['round', (r) => String(r.round)]];

/**
 * Rows come from web pages, so a cell may start with what a spreadsheet reads as a formula
 * (`=HYPERLINK(…)`, `+cmd|…`, `-…`, `@SUM(…)`, or a tab/return before one): such a cell gets a leading
 * apostrophe, which spreadsheets show as text and never evaluate.
 */
export function neutralise(value) {
  const text = value === null || value === undefined ? '' : String(value);
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

export function toCsv(rows) {
  const q = (v) => {
    const safe = neutralise(v);
    return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
  };
  return [CSV_COLUMNS.map(([h]) => h).join(','), ...rows.map((r) => CSV_COLUMNS.map(([, f]) => q(f(r))).join(','))].join('\r\n') + '\r\n';
}
