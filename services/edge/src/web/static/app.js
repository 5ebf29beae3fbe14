// leadfinder web page: sign-in, key panel, search workspace. Plain ES module; no inline code (strict CSP).
// All text from the server is written with textContent, never as HTML.
import { toCsv } from './csv.js';
const $ = (id) => document.getElementById(id);
const state = { token: null, runId: null, cursor: 0, follow: null, rows: [], final: null, target: 10, ended: false };

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'class') node.className = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c instanceof Node ? c : String(c));
  return node;
}

function notice(text) {
  const n = $('notice');
  n.textContent = text || '';
  n.hidden = !text;
}

/** A readable sentence for any error body (string detail, 402 object, or validation list). */
function describeError(status, body) {
  const detail = body && body.detail;
  if (status === 402 && detail && detail.message) return detail.message;
  if (Array.isArray(detail)) return detail.map((d) => `${(d.loc || []).slice(1).join('.') || 'request'}: ${d.msg}`).join('; ');
  if (typeof detail === 'string') return detail;
  return `The server answered ${status}.`;
}

async function api(path, { method = 'GET', body } = {}) {
  const headers = { authorization: `Bearer ${state.token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw { status: 0, message: 'The server could not be reached. Check your connection and try again.' };
  }
  if (response.status === 204) return null;
  const data = await response.json().catch(() => null);
  if (!response.ok) throw { status: response.status, body: data, message: describeError(response.status, data) };
  return data;
}

// ---------- panels ----------
function show(panel) {
  for (const p of ['signin', 'keys', 'search']) $(`panel-${p}`).hidden = p !== panel;
  for (const t of ['keys', 'search']) {
    const tab = $(`tab-${t}`);
    if (t === panel) tab.setAttribute('aria-current', 'page'); else tab.removeAttribute('aria-current');
  }
  const url = new URL(location.href);
  if (panel === 'keys') url.searchParams.set('panel', 'keys'); else url.searchParams.delete('panel');
  history.replaceState(null, '', url);
  if (panel === 'keys') loadKeys();
  if (panel === 'search') loadRuns();
}

async function boot() {
  const session = await fetch('/auth/session', { credentials: 'same-origin' }).then((r) => r.json()).catch(() => ({ signedIn: false }));
  if (!session.signedIn) {
    $('panel-signin').hidden = false;
    if (session.signInMethod === 'oidc') $('oidc-signin').hidden = false;
    else if (session.signInMethod === 'development') $('dev-signin').hidden = false;
    else $('no-signin').hidden = false;
    return;
  }
  state.token = session.sessionToken;
  $('nav').hidden = false;
  $('who').hidden = false;
  $('who-name').textContent = session.email || session.accountId;
  if (session.status === 'closed') notice('This account is closed; searches and keys are refused.');
  show(new URLSearchParams(location.search).get('panel') === 'keys' ? 'keys' : 'search');
}

$('dev-signin').addEventListener('submit', async (e) => {
  e.preventDefault();
  $('dev-email-error').textContent = '';
  const response = await fetch('/auth/dev-signin', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: $('dev-email').value }) });
  if (!response.ok) {
    $('dev-email-error').textContent = describeError(response.status, await response.json().catch(() => null));
    return;
  }
  location.reload();
});
$('signout').addEventListener('click', async () => {
  await fetch('/auth/signout', { method: 'POST' });
  location.href = '/';
});
// Revokes every session of the account (other browsers, copied tokens); API keys stay valid.
$('signout-everywhere').addEventListener('click', async () => {
  await fetch('/auth/signout-everywhere', { method: 'POST' });
  location.href = '/';
});
$('tab-keys').addEventListener('click', () => show('keys'));
$('tab-search').addEventListener('click', () => show('search'));

// ---------- keys ----------
async function loadKeys() {
  const list = $('key-list');
  try {
    const { keys } = await api('/api/keys');
    list.replaceChildren(...keys.map((k) => el('tr', {},
      el('td', {}, k.name), el('td', {}, el('code', {}, `${k.prefix}…`)),
      el('td', {}, new Date(k.createdAt).toLocaleString()), el('td', {}, k.lastUsedAt ? new Date(k.lastUsedAt).toLocaleString() : 'never'),
      el('td', {}, el('button', { type: 'button', class: 'secondary', 'aria-label': `Revoke key ${k.name}`, onclick: () => revokeKey(k) }, 'Revoke')))));
    $('keys-empty').hidden = keys.length > 0;
  } catch (error) {
    notice(error.message);
  }
}

async function revokeKey(key) {
  if (!confirm(`Revoke the key "${key.name}" (${key.prefix}…)? Programs using it will stop working.`)) return;
  try {
    await api(`/api/keys/${encodeURIComponent(key.id)}`, { method: 'DELETE' });
    notice('');
    loadKeys();
  } catch (error) {
    notice(error.message);
  }
}

$('key-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  $('key-name-error').textContent = '';
  $('new-key').hidden = true;
  try {
    const created = await api('/api/keys', { method: 'POST', body: { name: $('key-name').value } });
    $('new-key-value').value = created.key;
    $('copy-status').textContent = '';
    $('new-key').hidden = false;
    $('key-name').value = '';
    $('new-key-value').focus();
    $('new-key-value').select();
    loadKeys();
  } catch (error) {
    if (error.status === 400 || error.status === 422) $('key-name-error').textContent = error.message;
    else notice(error.message);
  }
});
$('copy-key').addEventListener('click', async () => {
  const value = $('new-key-value').value;
  try {
    await navigator.clipboard.writeText(value);
    $('copy-status').textContent = 'Copied to the clipboard.';
  } catch {
    $('new-key-value').select();
    $('copy-status').textContent = 'Press Ctrl+C (or ⌘C) to copy the selected key.';
  }
});

// ---------- search ----------
const FIELD_ERRORS = { q: 'q-error', target: 'target-error', sites: 'sites-error' };

$('search-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  for (const id of Object.values(FIELD_ERRORS)) $(id).textContent = '';
  notice('');
  const body = { q: $('q').value, speed: $('speed').value, relax: $('relax').checked };
  const target = $('target').value.trim();
  if (target !== '') body.target = Number(target);
  if ($('sites').value.trim()) body.sites = $('sites').value;
  $('start').disabled = true;
  try {
    const { id } = await api('/v1/searches', { method: 'POST', body });
    openRun(id, body.target ?? 50);
    loadRuns();
  } catch (error) {
    if (error.status === 422 && Array.isArray(error.body?.detail)) {
      for (const issue of error.body.detail) {
        const field = FIELD_ERRORS[issue.loc?.[1]];
        if (field) $(field).textContent = issue.msg;
        else notice(error.message);
      }
    } else if (error.status === 400) {
      $('q-error').textContent = error.message;
    } else {
      notice(error.message);
    }
  } finally {
    $('start').disabled = false;
  }
});

function openRun(id, target) {
  if (state.follow) state.follow.abort();
  Object.assign(state, { runId: id, cursor: 0, rows: [], final: null, target, ended: false });
  $('run').hidden = false;
  $('run-id').textContent = id.slice(0, 8);
  $('run-status').textContent = 'running';
  $('run-where').textContent = '';
  $('run-cost').textContent = '';
  $('run-message').textContent = '';
  $('plan').hidden = true;
  $('run-progress').max = target;
  $('run-progress').value = 0;
  $('run-count').textContent = `0 of ${target}`;
  $('stop').disabled = false;
  $('export-csv').disabled = true;
  $('export-json').disabled = true;
  $('rows').replaceChildren();
  follow(id);
}

/** Follow the event stream with fetch() (EventSource cannot send Authorization), resuming with Last-Event-ID. */
async function follow(id) {
  const controller = new AbortController();
  state.follow = controller;
  let attempts = 0;
  while (!controller.signal.aborted && state.runId === id) {
    let closedByServer = false;
    try {
      const headers = { authorization: `Bearer ${state.token}`, accept: 'text/event-stream' };
      if (state.cursor > 0) headers['last-event-id'] = String(state.cursor);
      const response = await fetch(`/v1/searches/${id}/events`, { headers, signal: controller.signal });
      if (!response.ok) throw { status: response.status, message: describeError(response.status, await response.json().catch(() => null)), fatal: response.status < 500 };
      attempts = 0;
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) { closedByServer = true; break; }
        buffer += value;
        let end;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let seq = null; const data = [];
          for (const line of frame.split('\n')) {
            if (line.startsWith('id:')) seq = Number(line.slice(3).trim());
            else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
          }
          if (seq === null || !data.length || seq <= state.cursor) continue;
          handleEvent(JSON.parse(data.join('\n')));
          state.cursor = seq; // advanced only after the event was handled
        }
      }
    } catch (error) {
      if (controller.signal.aborted) return;
      if (error && error.fatal) { $('run-message').textContent = error.message; return; }
    }
    if (closedByServer) {
      // The stream ending proves nothing: confirm with the run record.
      const run = await api(`/v1/searches/${id}`).catch(() => null);
      if (run && run.status !== 'running') { finishRun(run); return; }
    }
    attempts += 1;
    $('run-message').textContent = 'Connection dropped; resuming…';
    await new Promise((r) => setTimeout(r, Math.min(5000, 500 * attempts)));
  }
}

function handleEvent(event) {
  switch (event.type) {
    case 'plan':
      $('plan').hidden = false;
      $('plan-type').textContent = event.entity_type.replace('_', ' ');
      $('plan-filters').replaceChildren(...event.filters.map((f) => el('li', { 'data-index': f.index }, el('strong', {}, f.title), ` — ${f.criterion}`)));
      break;
    case 'status':
      $('run-where').textContent = event.where;
      break;
    case 'progress':
      $('run-where').textContent = `round ${event.round}`;
      setRows(event.leads);
      break;
    case 'filter_relaxed':
      $('run-message').textContent = `Loosened “${event.title}”: ${event.criterion}`;
      break;
    case 'cost':
      $('run-cost').textContent = `· spent $${event.usd.toFixed(4)}`;
      break;
    case 'final':
      state.final = event;
      setRows(event.table);
      break;
    case 'error':
      $('run-message').textContent = `The search failed: ${event.message}`;
      break;
    case 'done':
      $('run-message').textContent = event.stopped ? 'Stopped. The rows that passed every filter are kept.' : 'Done.';
      break;
  }
}

function setRows(rows) {
  state.rows = rows;
  $('run-progress').value = Math.min(rows.length, state.target);
  $('run-count').textContent = `${rows.length} of ${state.target}`;
  $('rows').replaceChildren(...rows.map(renderRow));
  $('export-csv').disabled = rows.length === 0;
  $('export-json').disabled = rows.length === 0;
}

function renderRow(row, i) {
  const sources = row.source_urls.map((u) => el('li', {}, el('a', { href: u, rel: 'noopener noreferrer', target: '_blank' }, u)));
  const filters = row.by_filter.map((f) => el('li', {},
    el('strong', {}, `${f.index}. ${f.title}`), f.relaxed ? ' (loosened)' : '', ` — ${f.rationale} `,
    el('span', { class: 'meta' }, `[${f.verification}, ${f.rationale_mode}]`)));
  const passages = el('details', {}, el('summary', {}, `Supporting passages (${row.supporting_passages.length})`),
    ...row.supporting_passages.map((p) => el('blockquote', {}, p.text, ' ', el('a', { href: p.url, rel: 'noopener noreferrer', target: '_blank' }, '[source]'), p.published ? ` · ${p.published}` : '')));
  return el('article', { class: 'lead', 'aria-label': `Row ${i + 1}: ${row.name}` },
    el('h4', {}, `${i + 1}. ${row.name}`),
    el('p', { class: 'meta' }, `${row.entity_type.replace('_', ' ')} · round ${row.round}${row.relaxed ? ` · needed loosened: ${row.relaxed.join(', ')}` : ''}`),
    el('p', {}, row.details),
    el('ul', { 'aria-label': 'Filters passed' }, ...filters),
    el('ul', { 'aria-label': 'Sources' }, ...sources),
    passages);
}

const END_MESSAGES = {
  done: 'Done.',
  stopped: 'Stopped. The rows that passed every filter are kept.',
  budget_exhausted: 'Ended early: the spend limit was reached. The rows that passed every filter are kept.',
};

/** The run record is the authority on how a run ended (spec §6 rule 4), whatever arrived before it. */
function finishRun(run) {
  state.ended = true;
  $('run-status').textContent = run.status;
  $('run-where').textContent = run.where;
  $('run-cost').textContent = `· charged ${run.usdDisplay}`;
  $('stop').disabled = true;
  if (run.result) setRows(run.result.table);
  if (END_MESSAGES[run.status]) $('run-message').textContent = END_MESSAGES[run.status];
  else if (run.status === 'interrupted') $('run-message').textContent = run.result ? `Interrupted at “${run.where}”.` : `Interrupted at “${run.where}”; no table was written.`;
  else if (run.status === 'error' && !$('run-message').textContent.startsWith('The search failed')) $('run-message').textContent = 'The search failed.';
  loadRuns();
}

$('stop').addEventListener('click', async () => {
  if (!state.runId) return;
  $('stop').disabled = true;
  try {
    const r = await api(`/v1/searches/${state.runId}/stop`, { method: 'POST' });
    // The stream may already have delivered the end of the run; never overwrite that.
    if (!state.ended) $('run-message').textContent = r.status === 'running' ? 'Stopping…' : `Already ${r.status}.`;
  } catch (error) {
    $('run-message').textContent = error.message;
  }
});

function download(name, type, text) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = el('a', { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
$('export-csv').addEventListener('click', () => download(`leadfinder-${state.runId}.csv`, 'text/csv', toCsv(state.rows)));
$('export-json').addEventListener('click', () => download(`leadfinder-${state.runId}.json`, 'application/json', JSON.stringify(state.rows, null, 2)));

async function loadRuns() {
  try {
    const { runs } = await api('/v1/searches');
    $('run-list').replaceChildren(...runs.map((r) => el('tr', {
      tabindex: '0', 'aria-label': `Open run: ${r.query}`,
      onclick: () => openStoredRun(r),
      onkeydown: (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); openStoredRun(r); } },
    }, el('td', {}, r.query), el('td', {}, el('span', { class: 'badge' }, r.status)), el('td', {}, r.usdDisplay), el('td', {}, new Date(r.createdAt).toLocaleString()))));
  } catch (error) {
    notice(error.message);
  }
}

function openStoredRun(r) {
  openRun(r.id, r.target);
  $('run').scrollIntoView({ block: 'start' });
}

boot();
