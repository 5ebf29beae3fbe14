import type { ResultRow, RunEvent, RunListItem, RunRecord } from '@leadfinder/wire';

export type OutputFormat = 'table' | 'csv' | 'json' | 'jsonl';
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['table', 'csv', 'json', 'jsonl'];

/** Flat columns of the CSV; lists are joined so each row stays one record. */
const CSV_COLUMNS: [string, (r: ResultRow) => string][] = [
  ['name', (r) => r.name],
  ['entity_type', (r) => r.entity_type],
  ['details', (r) => r.details],
  ['intent_signal', (r) => r.intent_signal],
  ['discovery_rationale', (r) => r.discovery_rationale],
  ['rationale', (r) => r.rationale],
  ['source_urls', (r) => r.source_urls.join(' ')],
  ['relaxed', (r) => (r.relaxed ?? []).join('; ')],
  ['status', (r) => r.status],
  ['round', (r) => String(r.round)],
];

/** RFC 4180: a field with a comma, quote, CR or LF is quoted and its quotes doubled; CRLF ends each record. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function toCsv(rows: ResultRow[]): string {
  const lines = [CSV_COLUMNS.map(([h]) => h).join(',')];
  for (const row of rows) lines.push(CSV_COLUMNS.map(([, get]) => csvField(get(row))).join(','));
  return lines.join('\r\n') + '\r\n';
}

/** One JSON object per line (a newline inside a value is escaped by JSON, so lines never split). */
export function toJsonl(rows: ResultRow[]): string {
  return rows.map((r) => JSON.stringify(r)).join('\n') + (rows.length ? '\n' : '');
}

/** A readable fixed-width table for terminals, `width` columns wide. */
export function toTable(rows: ResultRow[], width = 120): string {
  if (rows.length === 0) return '(no rows)\n';
  const cols: [string, (r: ResultRow, i: number) => string, number][] = [
    ['#', (_r, i) => String(i + 1), 3],
    ['name', (r) => r.name, 28],
    ['type', (r) => r.entity_type, 12],
    ['why', (r) => r.rationale, Math.max(20, width - 3 - 28 - 12 - 40 - 8)],
    ['source', (r) => r.source_urls[0] ?? r.supporting_passages[0]?.url ?? '', 40],
  ];
  const cut = (s: string, n: number) => {
    const flat = s.replace(/\s+/g, ' ').trim();
    return flat.length > n ? flat.slice(0, n - 1) + '…' : flat.padEnd(n);
  };
  const out = [cols.map(([h, , n]) => cut(h, n)).join('  ').trimEnd(), cols.map(([, , n]) => '-'.repeat(n)).join('  ')];
  rows.forEach((row, i) => out.push(cols.map(([, get, n]) => cut(get(row, i), n)).join('  ').trimEnd()));
  return out.join('\n') + '\n';
}

export function formatRows(rows: ResultRow[], format: OutputFormat, width = 120): string {
  switch (format) {
    case 'csv': return toCsv(rows);
    case 'json': return JSON.stringify(rows, null, 2) + '\n';
    case 'jsonl': return toJsonl(rows);
    case 'table': return toTable(rows, width);
  }
}

/** A one-line progress bar for terminals. */
export function progressBar(have: number, target: number, width = 24): string {
  const filled = target > 0 ? Math.max(0, Math.min(width, Math.round((have / target) * width))) : 0;
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${have}/${target}`;
}

/** `$` and the amount with 2 to 4 decimals, as the service's `usdDisplay`. */
export function usd(amount: number): string {
  const fixed = amount.toFixed(4).replace(/0{1,2}$/, '');
  return `$${fixed}`;
}

/**
 * How one event shows in the live progress: `note` lines stay on screen, a `status` line is redrawn
 * in place on a terminal, null shows nothing. Spend comes from the `cost` events (running totals).
 */
export type EventLine = { kind: 'note' | 'status'; text: string } | null;

export function describeEvent(event: RunEvent): EventLine {
  switch (event.type) {
    case 'plan': {
      const lines = [`plan: ${event.entity_type}, target ${event.target}, ${event.speed}${event.relax ? '' : ', no relaxing'}`];
      if (event.date_range) lines.push(`  dates: ${event.date_range.from} to ${event.date_range.to ?? 'now'} ("${event.date_range.phrase}")`);
      if (event.sites.length) lines.push(`  sites: ${event.sites.join(', ')}`);
      for (const f of event.filters) lines.push(`  filter ${f.index}. ${f.title}: ${f.criterion}`);
      return { kind: 'note', text: lines.join('\n') };
    }
    case 'status': return { kind: 'status', text: event.message || event.where };
    case 'progress': return { kind: 'status', text: `round ${event.round}  ${progressBar(event.have, event.target)}` };
    case 'funnel_open': return { kind: 'status', text: `round ${event.round}: ${event.candidates} candidates enter the filters` };
    case 'funnel_filter_start': return { kind: 'status', text: `round ${event.round}: filter ${event.index} "${event.title}" on ${event.candidates}` };
    case 'funnel_filter_done':
      return { kind: 'status', text: `round ${event.round}: filter ${event.index} "${event.title}": ${event.passed} passed, ${event.dropped} dropped` };
    case 'filter_relaxed':
      return { kind: 'note', text: `relaxed filter ${event.index} "${event.title}": ${event.criterion} (recovered ${event.recovered} of ${event.rechecked})` };
    case 'error': return { kind: 'note', text: `error: ${event.message}` };
    case 'final':
      return { kind: 'note', text: `final: ${event.table.length}/${event.target} rows${event.met ? '' : ' (target not met)'}${event.stopped ? `, ended early at ${event.stopped_at ?? 'unknown stage'}` : ''}` };
    case 'cost': case 'usage': case 'done': return null;
  }
}

/** One line about a run's outcome, for stderr. */
export function describeRun(run: RunRecord): string {
  const met = run.result ? (run.result.met ? 'target met' : 'target not met') : 'no result';
  const deadline = run.stopReason === 'deadline' ? ', deadline passed' : '';
  return `${run.id}: ${run.status}${deadline} (${met}), ${run.result?.table.length ?? 0} rows, charged ${run.usdDisplay}, at "${run.where}"`;
}

/** `leadfinder show` of a running run: the spend and rows so far (its charge is known only at the end). */
export function describeLiveRun(run: RunRecord, spendUsd: number | null, rows: number): string {
  const spend = spendUsd === null ? 'nothing spent yet' : `spent ${usd(spendUsd)} so far`;
  return `${run.id}: running, ${rows} ${rows === 1 ? 'row' : 'rows'} so far, ${spend} (5.00 USD held), at "${run.where}"`;
}

/** `leadfinder runs`: one line per run, newest first. */
export function formatRunList(runs: RunListItem[]): string {
  if (runs.length === 0) return '(no runs)\n';
  return runs.map((r) => `${r.id}  ${r.status.padEnd(16)} ${r.usdDisplay.padStart(8)}  ${r.createdAt}  ${r.query.replace(/\s+/g, ' ')}`).join('\n') + '\n';
}
