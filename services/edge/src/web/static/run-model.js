// The run as a person follows it, built from the run's events (spec §6): plan, the funnel per round,
// rows, cost; and the one sentence that says how it ended. No DOM here, so it is tested on its own.

export const TERMINAL = new Set(['done', 'stopped', 'budget_exhausted', 'interrupted', 'error']);
export const STATUS_WORDS = { running: 'Running', done: 'Done', stopped: 'Stopped', budget_exhausted: 'Spend limit reached', interrupted: 'Interrupted', error: 'Failed' };
/** The status as a person reads it; a search refused for its balance was never started, not failed. */
export function statusWord(status, where) {
  if (status === 'error' && /^refused/.test(where || '')) return 'Refused';
  return STATUS_WORDS[status] ?? status;
}
export const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
export const number = (n) => n.toLocaleString('en');

export function newView(id, record = {}) {
  return {
    id, query: record.query ?? '', target: record.target ?? 50, speed: record.speed ?? 'advanced', relax: record.relax ?? true,
    sites: record.sites ?? '', status: record.status ?? 'running', createdAt: record.createdAt ?? null, finishedAt: null,
    cursor: 0, plan: null, rounds: [], rows: [], final: null, usd: null, usdDisplay: null, step: '', error: null,
    where: '', stopRequested: false, ended: false, message: '', credentialFailed: false,
  };
}


function round(v, n) {
  let r = v.rounds.find((x) => x.round === n);
  if (!r) { r = { round: n, candidates: 0, filters: [] }; v.rounds.push(r); }
  return r;
}
function filterStep(r, index, title) {
  let f = r.filters.find((x) => x.index === index);
  if (!f) { f = { index, title, checked: 0, passed: null, dropped: null, relaxed: null }; r.filters.push(f); r.filters.sort((a, b) => a.index - b.index); }
  return f;
}

/**
 * Applies one run event to the view; returns the sentence to announce for a new step (the live region
 * speaks steps, not every event), or null.
 */
export function applyEvent(v, event) {
  let say = null;
  switch (event.type) {
    case 'plan':
      v.plan = { entity_type: event.entity_type, filters: event.filters, date_range: event.date_range, sites: event.sites, page_types: event.page_types, target: event.target };
      v.target = event.target;
      say = `Plan ready: looking for ${kindWord(event.entity_type, 2)} that pass ${plural(event.filters.length, 'filter')}.`;
      break;
    case 'status':
      v.step = event.message;
      v.where = event.where;
      say = event.message;
      break;
    case 'funnel_open':
      round(v, event.round).candidates = event.candidates;
      v.step = `Round ${event.round}: ${plural(event.candidates, 'candidate')} found`;
      say = v.step;
      break;
    case 'funnel_filter_start':
      filterStep(round(v, event.round), event.index, event.title).checked = event.candidates;
      v.step = `Round ${event.round}: checking “${event.title}” on ${plural(event.candidates, 'candidate')}`;
      break;
    case 'funnel_filter_done': {
      const f = filterStep(round(v, event.round), event.index, event.title);
      f.passed = event.passed;
      f.dropped = event.dropped;
      if (!f.checked) f.checked = event.passed + event.dropped;
      break;
    }
    case 'filter_relaxed': {
      const f = filterStep(round(v, event.round), event.index, event.title);
      f.relaxed = { from: event.original_criterion, to: event.criterion, rechecked: event.rechecked, recovered: event.recovered };
      v.step = `Loosened “${event.title}”: ${event.criterion}`;
      say = v.step;
      break;
    }
    case 'progress':
      v.rows = event.leads;
      break;
    case 'cost':
      v.usd = event.usd;
      break;
    case 'final':
      v.final = event;
      v.rows = event.table;
      break;
    case 'error':
      v.error = event.message;
      break;
    case 'done':
      break;
  }
  return say;
}

const KIND_WORDS = { music_video: ['music video', 'music videos'], news: ['news item', 'news items'], company: ['company', 'companies'] };
export function kindWord(kind, n = 1) {
  const [one, many] = KIND_WORDS[kind] ?? [kind.replace(/_/g, ' '), `${kind.replace(/_/g, ' ')}s`];
  return n === 1 ? one : many;
}

/** The filter that dropped the most candidates over all rounds, with how many it checked. */
export function biggestDrop(v) {
  const byIndex = new Map();
  for (const r of v.rounds) {
    for (const f of r.filters) {
      if (f.dropped === null) continue;
      const t = byIndex.get(f.index) ?? { title: f.title, dropped: 0, checked: 0 };
      t.dropped += f.dropped;
      t.checked += f.passed + f.dropped;
      byIndex.set(f.index, t);
    }
  }
  let worst = null;
  for (const t of byIndex.values()) if (t.dropped > 0 && (!worst || t.dropped > worst.dropped)) worst = t;
  return worst;
}

/** One sentence that says what happened, from the run record's status and the funnel counts. */
export function endSentence(v) {
  const n = v.rows.length;
  const target = v.final?.target ?? v.target;
  const worst = biggestDrop(v);
  const why = worst ? ` “${worst.title}” dropped ${number(worst.dropped)} of ${number(worst.checked)} candidates.` : '';
  const candidates = v.rounds.reduce((s, r) => s + r.candidates, 0);
  switch (v.status) {
    case 'done':
      if (n >= target || v.final?.met) return `${n} of ${target} found.${why}`;
      if (v.rounds.length && candidates === 0) return `${n} of ${target} found: the pages searched named no candidates.`;
      return `${n} of ${target} found: the target was missed.${why}`;
    case 'stopped': return `Stopped at ${n} of ${target}.${n ? ' The rows that passed every filter are kept.' : ''}`;
    case 'budget_exhausted': return `The spend limit was reached at ${n} of ${target}.${n ? ' The rows that passed every filter are kept.' : ''}`;
    case 'interrupted': return `Interrupted while ${(v.where || 'working').replace(/_/g, ' ')}, at ${n} of ${target}.${v.final ? '' : ' No table was written.'}`;
    case 'error':
      if (/^refused/.test(v.where || '')) return 'Not started: the available balance could not cover the 5.00 USD a search holds while it runs.';
      return v.message && !v.final && !v.error ? '' : `The search failed${v.error ? `: ${v.error.replace(/\.$/, '')}` : ''}. ${n ? `${n} rows had passed before it failed.` : 'No rows were found.'}`;
    default: return '';
  }
}
