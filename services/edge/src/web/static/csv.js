// CSV export of result rows. A module of its own so the page and the tests use the same code.

/** What a verdict reads as in a cell: how the page supported the filter, and whether it was loosened. */
export function verdictWord(entry) {
  if (!entry) return '';
  const word = entry.verification === 'stated' ? 'stated on the page' : 'inferred';
  return entry.relaxed ? `${word} (loosened filter)` : word;
}

/**
 * Columns: the row's own fields, then for each filter of the funnel one verdict column and one rationale
 * column (named after the filter, as a person reads it), then the sources one per line.
 */
export function csvColumns(filters) {
  const perFilter = (filters || []).flatMap((f) => {
    const entry = (r) => (r.by_filter || []).find((b) => b.index === f.index);
    return [[`${f.title}: verdict`, (r) => verdictWord(entry(r))], [`${f.title}: why`, (r) => entry(r)?.rationale ?? '']];
  });
  return [['name', (r) => r.name], ['type', (r) => String(r.entity_type || '').replace(/_/g, ' ')], ['details', (r) => r.details],
    ['intent signal', (r) => r.intent_signal], ...perFilter,
    ['sources', (r) => (r.source_urls || []).join('\n')], ['loosened filters', (r) => (r.relaxed || []).join('; ')]];
}

/**
 * Rows come from web pages, so a cell may start with what a spreadsheet reads as a formula
 * (`=HYPERLINK(…)`, `+cmd|…`, `-…`, `@SUM(…)`, or a tab/return before one): such a cell gets a leading
 * apostrophe, which spreadsheets show as text and never evaluate.
 */
export function neutralise(value) {
  const text = value === null || value === undefined ? '' : String(value);
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

function cell(value) {
  const safe = neutralise(value);
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * RFC 4180 text with CRLF line ends, starting with a UTF-8 byte order mark so spreadsheet programs read
 * €, accents and curly quotes as UTF-8 rather than the local code page.
 */
export function toCsv(rows, filters) {
  const columns = csvColumns(filters);
  const lines = [columns.map(([h]) => cell(h)).join(','), ...rows.map((r) => columns.map(([, f]) => cell(f(r))).join(','))];
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
