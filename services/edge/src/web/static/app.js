// leadfinder web page: sign-in, key panel, search workspace. Plain ES module; no inline code (strict CSP).
// All text from the server is written with textContent, never as HTML.
import { toCsv, verdictWord } from './csv.js';
import { TERMINAL, applyEvent, endSentence, kindWord, newView, number, plural, statusWord } from './run-model.js';

const $ = (id) => document.getElementById(id);
const Q_MAX = 2000;
const RECORD_POLL_MS = 2500;
const LIST_POLL_MS = 4000;
const state = { token: null, accountId: null, view: null, follow: null, watch: null, tick: null, listTimer: null, renderQueued: false };

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') node.className = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) node.append(c instanceof Node ? c : String(c));
  return node;
}

const usd = (n) => `$${(Math.round(n * 10000) / 10000).toFixed(n >= 1 ? 2 : 4)}`;

/** The one polite live region: steps and outcomes, never every event. */
let lastAnnounced = '';
function announce(text) {
  if (!text || text === lastAnnounced) return;
  lastAnnounced = text;
  $('live').textContent = text;
}

function notice(text, { signIn = false } = {}) {
  $('notice-text').textContent = text || '';
  $('notice-signin').hidden = !signIn;
  $('notice').hidden = !text;
}

// ---------- errors worded for a person ----------

/** Micro-USD to a dollar figure rounded up to the cent (what is missing must be covered in full). */
const missingUsd = (micros) => `$${(Math.ceil(micros / 10_000) / 100).toFixed(2)}`;

const FIELD_WORDS = {
  q: (issue, value) => {
    const n = (value || '').length;
    if (n > Q_MAX) return `Shorten the query to ${number(Q_MAX)} characters or fewer (it has ${number(n)}).`;
    return 'Describe what you are looking for in at least 3 characters.';
  },
  target: () => 'Rows wanted is a whole number from 1 to 500.',
  sites: () => 'List up to 20 sites separated by commas, or describe the kind of page.',
  name: () => 'A key name has 1 to 100 characters.',
  since: () => 'The run could not be resumed from that point.',
};

/** One sentence a person can act on, for any refusal of the API (never the server's program text). */
function describeError(status, body) {
  const detail = body && body.detail;
  switch (status) {
    case 0: return 'The server could not be reached. Check your connection and try again.';
    case 400: return detail === 'name is required' ? 'Give the key a name.' : 'Type what you are looking for.';
    case 401: return 'Your sign-in has ended (it expired, or you signed out elsewhere). Sign in again to continue.';
    case 402: {
      if (!detail || typeof detail !== 'object') return 'Your balance is too low to start a search.';
      const missing = Math.max(0, detail.neededMicrousd - detail.availableMicrousd);
      const held = detail.heldMicrousd > 0 ? ` (searches still running hold ${missingUsd(detail.heldMicrousd)})` : '';
      return `Not enough balance: a search holds ${detail.neededUsd ? `$${detail.neededUsd}` : '$5.00'} while it runs and ${detail.availableUsd ? `$${detail.availableUsd}` : 'less'} is available${held}, so ${missingUsd(missing)} is missing. Wait for a running search to end, or ask the operator to top up your account.`;
    }
    case 403: return 'This account is closed, so searches and keys are refused.';
    case 404: return 'That was not found. It may belong to another account, or the link is mistyped.';
    case 409: return typeof detail === 'string' && detail.startsWith('Too many keys') ? 'You have as many keys as an account may have. Revoke one first.' : 'That conflicts with the current state. Reload and try again.';
    case 422: return 'Check the highlighted fields.';
    case 429: return 'Too many requests in a short time. Wait a minute and try again.';
    default: return 'The server had a problem. Try again in a moment.';
  }
}

async function api(path, { method = 'GET', body } = {}) {
  const headers = { authorization: `Bearer ${state.token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw { status: 0, message: describeError(0) };
  }
  if (response.status === 204) return null;
  const data = await response.json().catch(() => null);
  if (!response.ok) throw { status: response.status, body: data, message: describeError(response.status, data) };
  return data;
}

/** A failed credential anywhere leads back to the sign-in, keeping the open run in the address. */
function signInAgain() {
  fetch('/auth/signout', { method: 'POST' }).finally(() => { location.href = state.view ? `/?run=${state.view.id}` : '/'; });
}
$('notice-signin').addEventListener('click', signInAgain);
$('signin-again').addEventListener('click', signInAgain);

function reportError(error) {
  notice(error.message, { signIn: error.status === 401 });
}

// ---------- panels ----------
function show(panel) {
  for (const p of ['signin', 'keys', 'search']) $(`panel-${p}`).hidden = p !== panel;
  for (const t of ['keys', 'search']) {
    const tab = $(`tab-${t}`);
    if (t === panel) tab.setAttribute('aria-current', 'page'); else tab.removeAttribute('aria-current');
  }
  const url = new URL(location.href);
  if (panel === 'keys') { url.searchParams.set('panel', 'keys'); url.searchParams.delete('run'); } else url.searchParams.delete('panel');
  if (panel === 'search' && state.view) url.searchParams.set('run', state.view.id);
  history.replaceState(null, '', url);
  if (panel === 'keys') { loadKeys(); document.title = 'API keys — leadfinder'; }
  if (panel === 'search') { loadRuns(); updateTitle(); }
}

async function readSession() {
  return fetch('/auth/session', { credentials: 'same-origin' }).then((r) => r.json()).catch(() => ({ signedIn: false }));
}

async function refreshBalance() {
  const session = await readSession();
  if (session.signedIn && session.availableUsd) $('balance').textContent = `Available: ${session.availableUsd}`;
}

async function boot() {
  const session = await readSession();
  if (!session.signedIn) {
    document.title = 'Sign in — leadfinder';
    $('panel-signin').hidden = false;
    if (session.signInMethod === 'oidc') $('oidc-signin').hidden = false;
    else if (session.signInMethod === 'development') $('dev-signin').hidden = false;
    else $('no-signin').hidden = false;
    return;
  }
  state.token = session.sessionToken;
  state.accountId = session.accountId;
  $('nav').hidden = false;
  $('who').hidden = false;
  $('who-name').textContent = session.email || session.accountId;
  if (session.availableUsd) $('balance').textContent = `Available: ${session.availableUsd}`;
  if (session.status === 'closed') notice('This account is closed, so searches and keys are refused.');
  const params = new URLSearchParams(location.search);
  const runId = params.get('run');
  if (runId && /^[0-9a-f]{32}$/.test(runId)) openRun(runId);
  show(params.get('panel') === 'keys' && !runId ? 'keys' : 'search');
}

$('dev-signin').addEventListener('submit', async (e) => {
  e.preventDefault();
  $('dev-email-error').textContent = '';
  const response = await fetch('/auth/dev-signin', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: $('dev-email').value }) });
  if (!response.ok) {
    $('dev-email-error').textContent = response.status === 422 ? 'Enter an email address, like ada@example.com.' : describeError(response.status, await response.json().catch(() => null));
    return;
  }
  location.reload();
});
$('signout').addEventListener('click', async () => {
  forgetRuns();
  await fetch('/auth/signout', { method: 'POST' });
  location.href = '/';
});
// Revokes every session of the account (other browsers, copied tokens); API keys stay valid.
$('signout-everywhere').addEventListener('click', async () => {
  forgetRuns();
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
    reportError(error);
  }
}

async function revokeKey(key) {
  if (!confirm(`Revoke the key "${key.name}" (${key.prefix}…)? Programs using it will stop working.`)) return;
  try {
    await api(`/api/keys/${encodeURIComponent(key.id)}`, { method: 'DELETE' });
    notice('');
    loadKeys();
  } catch (error) {
    reportError(error);
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
    if (error.status === 400) $('key-name-error').textContent = 'Give the key a name.';
    else if (error.status === 422) $('key-name-error').textContent = FIELD_WORDS.name();
    else reportError(error);
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
  announce($('copy-status').textContent);
});

// ---------- search form ----------
const FIELD_ERRORS = { q: 'q-error', target: 'target-error', sites: 'sites-error' };

function updateCounter() {
  const n = $('q').value.length;
  const over = n - Q_MAX;
  $('q-count').textContent = over > 0 ? `${number(n)} of ${number(Q_MAX)} characters: ${number(over)} too many` : `${number(n)} of ${number(Q_MAX)} characters`;
  $('q-count').classList.toggle('over', over > 0);
}
$('q').addEventListener('input', updateCounter);

/** The checks the server makes, made first so a person sees them at once and nothing is sent. */
function checkForm(body) {
  const problems = {};
  if (body.q.trim().length < 3 || body.q.length > Q_MAX) problems.q = FIELD_WORDS.q(null, body.q);
  if (body.target !== undefined && !(Number.isInteger(body.target) && body.target >= 1 && body.target <= 500)) problems.target = FIELD_WORDS.target();
  return problems;
}

$('search-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  for (const id of Object.values(FIELD_ERRORS)) $(id).textContent = '';
  notice('');
  const body = { q: $('q').value, speed: $('speed').value, relax: $('relax').checked };
  const target = $('target').value.trim();
  if (target !== '') body.target = Number(target);
  if ($('sites').value.trim()) body.sites = $('sites').value;
  const problems = checkForm(body);
  if (Object.keys(problems).length) {
    for (const [field, text] of Object.entries(problems)) $(FIELD_ERRORS[field]).textContent = text;
    $(Object.keys(problems).map((f) => f)[0]).focus();
    return;
  }
  const running = state.view && state.view.status === 'running' ? state.view : null;
  if (running && !confirm(`“${clip(running.query, 80)}” is still running and spending. Start another search as well? The first one keeps running until it ends or you stop it.`)) return;
  $('start').disabled = true;
  try {
    const { id } = await api('/v1/searches', { method: 'POST', body });
    openRun(id, { query: body.q, target: body.target ?? 50, speed: body.speed, relax: body.relax, sites: body.sites ?? '', status: 'running', createdAt: new Date().toISOString() });
    announce('Search started.');
    // On a phone the run sits below the form: bring it into view and put focus on it.
    $('run').scrollIntoView({ block: 'start' });
    $('run-title').focus({ preventScroll: true });
    loadRuns();
    refreshBalance();
  } catch (error) {
    if (error.status === 422 && Array.isArray(error.body?.detail)) {
      for (const issue of error.body.detail) {
        const field = issue.loc?.[1];
        if (FIELD_ERRORS[field]) $(FIELD_ERRORS[field]).textContent = FIELD_WORDS[field](issue, body[field]);
        else notice('The search could not be started: check the form and try again.');
      }
    } else if (error.status === 400) {
      $('q-error').textContent = 'Type what you are looking for.';
    } else {
      reportError(error);
      // A refused search is still listed (spec §3), so the list shows it at once.
      if (error.status === 402) { loadRuns(); refreshBalance(); }
    }
  } finally {
    $('start').disabled = false;
  }
});

const clip = (text, n) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);

// ---------- a run: state ----------

const storageKey = (id) => `leadfinder.run.${id}`;

/** The view is kept per tab, so a reload resumes the stream after the last event handled (Last-Event-ID). */
function save(v) {
  try { sessionStorage.setItem(storageKey(v.id), JSON.stringify({ accountId: state.accountId, view: v })); } catch { /* storage full or off: a reload replays */ }
}
/** Only the signed-in account's own saved run: another person signing in on this tab never sees it. */
function restore(id) {
  try {
    const saved = JSON.parse(sessionStorage.getItem(storageKey(id)) || 'null');
    return saved && saved.accountId === state.accountId && saved.view && saved.view.id === id ? saved.view : null;
  } catch { return null; }
}
function forgetRuns() {
  try {
    for (const key of Object.keys(sessionStorage)) if (key.startsWith('leadfinder.run.')) sessionStorage.removeItem(key);
  } catch { /* storage off */ }
}

function openRun(id, record) {
  if (state.follow) state.follow.abort();
  if (state.watch) state.watch.abort();
  const saved = restore(id);
  const v = saved ? Object.assign(saved, { message: '', credentialFailed: false, stopRequested: false }) : newView(id, record);
  state.view = v;
  const url = new URL(location.href);
  url.searchParams.set('run', id);
  url.searchParams.delete('panel');
  history.replaceState(null, '', url);
  $('run').hidden = false;
  $('export').open = false;
  $('rows-filter').value = '';
  render();
  startTicking();
  // The record gives the query and target to a shared link, and says whether the run already ended.
  api(`/v1/searches/${id}`).then((run) => {
    if (state.view !== v) return;
    Object.assign(v, { query: run.query, target: run.target, speed: run.speed, relax: run.relax, sites: run.sites, createdAt: run.createdAt });
    if (!v.ended) v.status = run.status === 'running' ? 'running' : v.status;
    scheduleRender();
  }).catch((error) => {
    if (state.view !== v) return;
    if (error.status === 401) credentialFailed(v);
    else if (error.status === 404) {
      stopFollowing();
      try { sessionStorage.removeItem(storageKey(id)); } catch { /* storage off */ }
      state.view = Object.assign(newView(id), { ended: true, status: 'error', message: 'This run was not found. It may belong to another account, or the link is mistyped.' });
      render();
      return;
    }
    scheduleRender();
  });
  if (!v.ended) follow(v); else render();
}

function stopFollowing() {
  if (state.follow) state.follow.abort();
  if (state.watch) state.watch.abort();
}

/** Follow the event stream with fetch() (EventSource cannot send Authorization), resuming with Last-Event-ID. */
async function follow(v) {
  const controller = new AbortController();
  state.follow = controller;
  let attempts = 0;
  while (!controller.signal.aborted && state.view === v && !v.ended) {
    let closedByServer = false;
    try {
      const headers = { authorization: `Bearer ${state.token}`, accept: 'text/event-stream' };
      if (v.cursor > 0) headers['last-event-id'] = String(v.cursor);
      const response = await fetch(`/v1/searches/${v.id}/events`, { headers, signal: controller.signal });
      if (!response.ok) throw { status: response.status, fatal: response.status < 500 && response.status !== 429 };
      attempts = 0;
      if (v.message.startsWith('Connection dropped')) { v.message = ''; scheduleRender(); }
      // 204: a finished run with nothing after the cursor; read as an empty stream, so the record decides.
      const reader = (response.status === 204 ? new Response('').body : response.body).pipeThrough(new TextDecoderStream()).getReader();
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
          if (seq === null || !data.length || seq <= v.cursor) continue;
          announce(applyEvent(v, JSON.parse(data.join('\n'))));
          v.cursor = seq; // advanced only after the event was handled
          scheduleRender();
        }
      }
    } catch (error) {
      if (controller.signal.aborted) return;
      if (error && error.fatal) {
        // The stream is refused for good: the run record decides how it ends.
        if (error.status === 401) credentialFailed(v);
        else { v.message = 'Live updates stopped; checking the run every few seconds instead.'; scheduleRender(); watchRecord(v); }
        return;
      }
    }
    if (closedByServer) {
      // The stream ending proves nothing: confirm with the run record.
      const run = await api(`/v1/searches/${v.id}`).catch((error) => error);
      if (run && run.status === 401) { credentialFailed(v); return; }
      if (run && run.status && TERMINAL.has(run.status)) { finishRun(v, run); return; }
    }
    attempts += 1;
    v.message = 'Connection dropped; resuming…';
    scheduleRender();
    await new Promise((r) => setTimeout(r, Math.min(5000, 500 * attempts)));
  }
}

/** Re-reads the run record every few seconds until it is terminal (after a fatal stream error or a stop). */
async function watchRecord(v) {
  if (state.watch) state.watch.abort();
  const controller = new AbortController();
  state.watch = controller;
  while (!controller.signal.aborted && state.view === v && !v.ended) {
    try {
      const run = await api(`/v1/searches/${v.id}`);
      if (TERMINAL.has(run.status)) { finishRun(v, run); return; }
      v.usdDisplay = run.usdDisplay;
      v.where = run.where;
      scheduleRender();
    } catch (error) {
      if (error.status === 401) { credentialFailed(v); return; }
      // Permanent refusals (closed account, unknown run): say so rather than ask again forever.
      if (error.status === 403 || error.status === 404) { v.message = error.message; scheduleRender(); return; }
    }
    await new Promise((r) => setTimeout(r, RECORD_POLL_MS));
  }
}

function credentialFailed(v) {
  stopFollowing();
  v.credentialFailed = true;
  v.stopRequested = false; // not confirmed: the run may well still be running
  v.message = 'Your sign-in has ended, so this page can no longer follow the run. It keeps running on the server: sign in again to see how it ends.';
  announce(v.message);
  scheduleRender();
}

function finishRun(v, run) {
  if (v.ended) return;
  v.ended = true;
  v.status = run.status;
  v.where = run.where;
  v.usdDisplay = run.usdDisplay;
  v.finishedAt = run.finishedAt ?? new Date().toISOString();
  if (run.result) { v.final = run.result; v.rows = run.result.table; }
  if (!v.credentialFailed) v.message = '';
  // A run that ends changes the balance, so an earlier refusal's figures are stale.
  if (!v.credentialFailed) notice('');
  stopFollowing();
  render();
  announce(endSentence(v) || statusWord(v.status, v.where));
  refreshBalance();
  loadRuns();
}

$('stop').addEventListener('click', async () => {
  const v = state.view;
  if (!v || v.ended) return;
  v.stopRequested = true;
  render();
  try {
    const r = await api(`/v1/searches/${v.id}/stop`, { method: 'POST' });
    if (!v.ended) v.message = r.status === 'running' ? 'Stopping… the rows that already passed every filter are kept.' : '';
    scheduleRender();
    // The record decides when it has stopped, even if the stream has gone.
    watchRecord(v);
  } catch (error) {
    if (error.status === 401) credentialFailed(v);
    else { v.stopRequested = false; v.message = error.message; scheduleRender(); }
  }
});

// ---------- a run: drawing ----------

function scheduleRender() {
  if (state.renderQueued) return;
  state.renderQueued = true;
  requestAnimationFrame(() => { state.renderQueued = false; render(); });
}

function startTicking() {
  clearInterval(state.tick);
  state.tick = setInterval(() => { if (state.view && !state.view.ended) drawElapsed(state.view); }, 1000);
}

function duration(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}
function drawElapsed(v) {
  if (!v.createdAt) { $('run-elapsed').textContent = ''; return; }
  const end = v.ended && v.finishedAt ? Date.parse(v.finishedAt) : Date.now();
  $('run-elapsed').textContent = `· ${v.ended ? 'took' : 'running for'} ${duration(end - Date.parse(v.createdAt))}`;
}

function updateTitle() {
  const v = state.view;
  if (!v || $('panel-search').hidden) { if (!$('panel-search').hidden) document.title = 'Search — leadfinder'; return; }
  const count = `${v.rows.length} of ${v.final?.target ?? v.target}`;
  document.title = `${statusWord(v.status, v.where)} (${count}): ${clip(v.query || 'search', 60)} — leadfinder`;
}

function render() {
  const v = state.view;
  if (!v) return;
  save(v);
  $('run-query').textContent = v.query || `Run ${v.id.slice(0, 8)}`;
  const badge = $('run-status');
  badge.textContent = v.stopRequested && !v.ended ? 'Stopping' : statusWord(v.status, v.where);
  badge.className = `badge badge-${v.status}`;
  $('run-step').textContent = v.ended ? '' : v.step;
  drawElapsed(v);
  const spent = v.ended && v.usdDisplay ? `charged ${v.usdDisplay}` : v.usd !== null ? `${usd(v.usd)} spent so far` : v.usdDisplay ? `${v.usdDisplay} spent so far` : '';
  $('run-cost').textContent = spent ? `· ${spent}` : '';
  drawPlan(v);
  drawFunnel(v);
  const target = v.final?.target ?? v.target;
  $('run-progress').max = target;
  $('run-progress').value = Math.min(v.rows.length, target);
  $('run-count').textContent = `${v.rows.length} of ${target}`;
  const sentence = v.ended ? endSentence(v) : '';
  $('run-summary').textContent = sentence;
  $('run-summary').hidden = !sentence;
  $('run-message-text').textContent = v.message;
  $('run-message').hidden = !v.message;
  $('signin-again').hidden = !v.credentialFailed;
  $('stop').disabled = v.ended || v.stopRequested || v.credentialFailed;
  $('stop').hidden = v.ended;
  const hasRows = v.rows.length > 0;
  for (const id of ['export-csv', 'export-json']) $(id).disabled = !hasRows;
  $('curl-text').value = curlCommand(v);
  drawResults(v);
  updateTitle();
}

function drawPlan(v) {
  const plan = v.plan;
  $('plan').hidden = !plan;
  if (!plan) return;
  $('plan-type').textContent = kindWord(plan.entity_type, 2);
  const range = plan.date_range;
  $('plan-dates-row').hidden = !range;
  if (range) $('plan-dates').textContent = `${range.phrase}: ${range.from} to ${range.to ?? 'today'}`;
  const sites = [...(plan.sites || []), ...(plan.page_types || [])];
  $('plan-sites-row').hidden = sites.length === 0;
  $('plan-sites').textContent = sites.length ? sites.join(', ') : '';
  $('plan-filters').replaceChildren(...plan.filters.map((f) => el('li', {}, el('strong', {}, f.title), el('span', { class: 'meta' }, ` ${f.criterion}`))));
}

function drawFunnel(v) {
  $('funnel-wrap').hidden = v.rounds.length === 0;
  const table = $('funnel');
  for (const body of [...table.tBodies]) body.remove();
  for (const r of v.rounds) {
    const body = el('tbody', {},
      el('tr', { class: 'round' }, el('th', { scope: 'colgroup', colspan: '4' }, `Round ${r.round}: ${plural(r.candidates, 'candidate')} found`)));
    for (const f of r.filters) {
      const loosened = f.relaxed ? el('span', { class: 'relaxed' }, ` loosened to “${f.relaxed.to}”, ${plural(f.relaxed.recovered, 'candidate')} recovered`) : null;
      body.append(el('tr', {},
        el('th', { scope: 'row', class: 'filter-step' }, `“${f.title}”`, loosened),
        el('td', { class: 'num' }, number(f.checked)),
        el('td', { class: 'num' }, f.passed === null ? '…' : number(f.passed)),
        el('td', { class: 'num' }, f.dropped === null ? '…' : number(f.dropped))));
    }
    table.append(body);
  }
}

/** A link's words: the page's host and path, so a screen reader's link list tells pages apart. */
function pageName(url) {
  try {
    const u = new URL(url);
    const path = decodeURIComponent(u.pathname).replace(/\/$/, '');
    return `${u.hostname.replace(/^www\./, '')}${clip(path, 48)}`;
  } catch { return url; }
}
function domainOf(url) {
  try { return new URL(url).hostname.replace(/^www\./, ''); } catch { return url; }
}
const safeHref = (url) => (/^https?:\/\//i.test(url) ? url : '#');

const openWhy = new Set();

function verdictOf(row, filter) {
  return (row.by_filter || []).find((b) => b.index === filter.index);
}

function visibleRows(v) {
  const needle = $('rows-filter').value.trim().toLowerCase();
  let rows = v.rows.map((row, i) => ({ row, i }));
  if (needle) {
    rows = rows.filter(({ row }) => [row.name, row.details, row.intent_signal, ...(row.by_filter || []).map((b) => b.rationale), ...(row.source_urls || [])]
      .some((t) => String(t || '').toLowerCase().includes(needle)));
  }
  const sort = $('rows-sort').value;
  const stated = (row) => (row.by_filter || []).filter((b) => b.verification === 'stated' && !b.relaxed).length;
  if (sort === 'name') rows.sort((a, b) => a.row.name.localeCompare(b.row.name));
  if (sort === 'stated') rows.sort((a, b) => stated(b.row) - stated(a.row) || a.i - b.i);
  if (sort === 'sources') rows.sort((a, b) => (b.row.source_urls || []).length - (a.row.source_urls || []).length || a.i - b.i);
  return rows;
}

function filtersOf(v) {
  return v.final?.filters ?? v.plan?.filters ?? [];
}

function drawResults(v) {
  const filters = filtersOf(v);
  const has = v.rows.length > 0;
  $('results').hidden = !has;
  $('results-tools').hidden = !has;
  $('results-legend').hidden = !has;
  if (!has) { $('results-body').replaceChildren(); return; }
  $('results-head').replaceChildren(
    el('th', { scope: 'col' }, 'Name'), el('th', { scope: 'col' }, 'Details'),
    ...filters.map((f) => el('th', { scope: 'col', class: 'verdict-col', title: f.criterion }, f.title)),
    el('th', { scope: 'col' }, 'Sources'));
  const rows = visibleRows(v);
  $('rows-shown').textContent = rows.length === v.rows.length ? `${plural(rows.length, 'row')}` : `${rows.length} of ${plural(v.rows.length, 'row')} shown`;
  const body = [];
  for (const { row, i } of rows) {
    const cells = [
      el('th', { scope: 'row', 'data-label': 'Name' }, el('span', { class: 'row-name' }, row.name), el('span', { class: 'meta kind' }, kindWord(row.entity_type))),
      el('td', { 'data-label': 'Details', class: 'details' }, row.details),
      ...filters.map((f) => {
        const b = verdictOf(row, f);
        if (!b) return el('td', { 'data-label': f.title, class: 'verdict' }, '–');
        const mark = b.verification === 'stated' && !b.relaxed ? '✓' : '~';
        const key = `${i}:${f.index}`;
        return el('td', { 'data-label': f.title, class: 'verdict' },
          el('button', {
            type: 'button', class: `mark ${mark === '✓' ? 'mark-stated' : 'mark-inferred'}`, 'aria-expanded': openWhy.has(key) ? 'true' : 'false',
            title: `${verdictWord(b)}: ${b.rationale}`,
            'aria-label': `${f.title}: ${verdictWord(b)}. Show why for ${row.name}`,
            onclick: () => { if (openWhy.has(key)) openWhy.delete(key); else openWhy.add(key); drawResults(v); },
          }, mark));
      }),
      el('td', { 'data-label': 'Sources', class: 'sources' }, ...uniqueDomains(row.source_urls || []).map(({ url, domain }) =>
        el('a', { href: safeHref(url), rel: 'noopener noreferrer', target: '_blank', 'aria-label': `${row.name} on ${pageName(url)}` }, domain))),
    ];
    body.push(el('tr', { class: 'result' }, ...cells));
    for (const f of filters) {
      const key = `${i}:${f.index}`;
      const b = verdictOf(row, f);
      if (!openWhy.has(key) || !b) continue;
      body.push(el('tr', { class: 'why' }, el('td', { colspan: String(filters.length + 3) },
        el('p', {}, el('strong', {}, `${row.name} · “${f.title}”: `), `${verdictWord(b)}. `, b.rationale),
        ...(b.passages || []).map((p) => el('blockquote', {}, `“${p.text}” `, el('a', { href: safeHref(p.url), rel: 'noopener noreferrer', target: '_blank' }, pageName(p.url)))))));
    }
  }
  $('results-body').replaceChildren(...body);
}

function uniqueDomains(urls) {
  const seen = new Map();
  for (const url of urls) if (!seen.has(domainOf(url))) seen.set(domainOf(url), url);
  return [...seen.entries()].map(([domain, url]) => ({ domain, url }));
}

$('rows-filter').addEventListener('input', () => state.view && drawResults(state.view));
$('rows-sort').addEventListener('change', () => state.view && drawResults(state.view));

// ---------- exports ----------

function download(name, type, text) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = el('a', { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function requestBody(v) {
  const body = { q: v.query, target: v.target, speed: v.speed, relax: v.relax };
  const sites = Array.isArray(v.sites) ? v.sites.join(', ') : v.sites;
  if (sites) body.sites = sites;
  return body;
}

/** The shell call that starts the same search, with the key read from the environment, never pasted. */
function curlCommand(v) {
  const json = JSON.stringify(requestBody(v)).replace(/'/g, `'\\''`);
  return [`curl -s -X POST '${location.origin}/v1/searches' \\`, '  -H "Authorization: Bearer $LEADFINDER_API_KEY" \\',
    "  -H 'Content-Type: application/json' \\", `  -d '${json}'`].join('\n');
}

function exportJson(v) {
  const f = v.final;
  return {
    run_id: v.id, query: v.query, status: v.status, plan: v.plan, filters: filtersOf(v), target: f?.target ?? v.target,
    met: f ? f.met : false, stopped: f ? f.stopped : v.status === 'stopped', stopped_at: f ? f.stopped_at : null,
    cost: { charged: v.usdDisplay, spent_usd: v.usd }, rows: v.rows,
  };
}

const fileStem = (v) => `leadfinder-${v.id.slice(0, 8)}`;
$('export-csv').addEventListener('click', () => {
  const v = state.view;
  download(`${fileStem(v)}.csv`, 'text/csv;charset=utf-8', toCsv(v.rows, filtersOf(v)));
});
$('export-json').addEventListener('click', () => {
  const v = state.view;
  download(`${fileStem(v)}.json`, 'application/json', JSON.stringify(exportJson(v), null, 2));
});
$('copy-curl').addEventListener('click', async () => {
  const text = $('curl-text').value;
  try {
    await navigator.clipboard.writeText(text);
    $('export-status').textContent = 'Copied. Set LEADFINDER_API_KEY to one of your API keys, then paste it into a shell.';
  } catch {
    $('curl-text').select();
    $('export-status').textContent = 'Press Ctrl+C (or ⌘C) to copy the selected command.';
  }
  announce($('export-status').textContent);
});

// ---------- recent runs ----------

async function loadRuns() {
  clearTimeout(state.listTimer);
  try {
    const { runs } = await api('/v1/searches');
    $('run-list').replaceChildren(...runs.map((r) => {
      const running = r.status === 'running';
      return el('tr', { class: state.view && state.view.id === r.id ? 'current' : undefined },
        el('td', { class: 'q' }, el('a', { href: `/?run=${r.id}`, title: r.query, onclick: (e) => { e.preventDefault(); openStoredRun(r); } }, clip(r.query, 140))),
        el('td', {}, el('span', { class: `badge badge-${r.status}` }, statusWord(r.status, r.where))),
        el('td', {}, running ? `${r.usdDisplay} so far` : r.usdDisplay),
        el('td', {}, new Date(r.createdAt).toLocaleString()));
    }));
    // Running searches keep their status and spend current.
    if (runs.some((r) => r.status === 'running') && !$('panel-search').hidden) state.listTimer = setTimeout(loadRuns, LIST_POLL_MS);
  } catch (error) {
    reportError(error);
  }
}

function openStoredRun(r) {
  openRun(r.id, r);
  $('run').scrollIntoView({ block: 'start' });
  $('run-title').focus({ preventScroll: true });
}

updateCounter();
boot();
