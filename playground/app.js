// The sidl playground: a game source, its diagnostics, and a session played chronon by chronon.
// Plain ES module over the wasm-bindgen output in ./pkg (built by scripts/playground.sh).
// The engine runs in a Web Worker (worker.js): every call is a message and a promise, so a long
// chronon never freezes the page. While work is under way <body data-busy> is set (tests wait on it).
const worker = new Worker('worker.js', { type: 'module' });
let nextId = 0;
const waiting = new Map();
worker.onmessage = (e) => {
  const { id, ok, value, error } = e.data;
  const w = waiting.get(id);
  waiting.delete(id);
  if (ok) w.resolve(value); else w.reject(new Error(error));
};
worker.onerror = (e) => status(`engine worker failed: ${e.message || e}`, true);
const rpc = (op, ...args) => new Promise((resolve, reject) => {
  const id = nextId++;
  waiting.set(id, { resolve, reject });
  worker.postMessage({ id, op, args });
});
const call = (method, ...args) => rpc('call', method, ...args);

// Runs a UI action; <body data-busy> is set until every action has finished.
let busy = 0;
async function act(f) {
  busy += 1;
  document.body.dataset.busy = 'true';
  try {
    await f();
  } catch (e) {
    status(String(e && e.message ? e.message : e), true);
    console.error(e);
  } finally {
    busy -= 1;
    if (busy === 0) delete document.body.dataset.busy;
  }
}

const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, ...children) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
};

let game = false;         // is a game loaded (in the worker)
let seats = new Map();    // player text -> 'human' | 'random'
let viewAs = '';          // '' = designer, else a player's text
let history = [];         // the log: Chronon DTOs and {undo: n}, oldest first

function status(text, isError = false) {
  const s = $('status');
  s.textContent = text;
  s.classList.toggle('error', isError);
}

// Runs an engine call; errors (thrown JS Errors) go to the status line and give FAIL.
const FAIL = Symbol('fail');
async function guard(f) {
  try {
    return await f();
  } catch (e) {
    status(String(e && e.message ? e.message : e), true);
    console.error(e);
    return FAIL;
  }
}
const or = (x, dflt) => (x === FAIL ? dflt : x);

function showDiagnostics(diags) {
  const ul = $('diagnostics');
  ul.replaceChildren();
  if (diags.length === 0) ul.append(el('li', { class: 'none' }, 'none'));
  for (const d of diags) {
    const li = el('li', { class: d.severity, title: d.help || '' },
      `line ${d.line}:${d.column}: ${d.severity}[${d.code}]: ${d.message}`);
    li.dataset.line = d.line;
    li.addEventListener('click', () => {
      const ta = $('source');
      ta.focus();
      ta.setSelectionRange(d.from, Math.max(d.to, d.from + 1));
    });
    ul.append(li);
  }
}

async function load() {
  const src = $('source').value;
  const diags = await rpc('check', src);
  showDiagnostics(diags);
  if (diags.some((d) => d.severity === 'error')) {
    const n = diags.filter((d) => d.severity === 'error').length;
    status(`not loaded: ${n} error${n === 1 ? '' : 's'}`, true);
    return;
  }
  const players = await guard(() => rpc('load', src));
  if (players === FAIL) return;
  game = true;
  seats = new Map(players.map((p) => [p, 'human']));
  viewAs = '';
  history = [];
  if (await guard(() => call('start', seedValue())) !== FAIL) status('loaded');
  renderSeats();
  await render();
}

function seedValue() {
  const n = Number($('seed').value);
  return Number.isFinite(n) && n >= 0 ? Math.floor(n) % 4294967296 : 1;
}

function renderSeats() {
  const div = $('seats');
  div.replaceChildren();
  for (const [p, kind] of seats) {
    const sel = el('select', { 'data-player': p, 'aria-label': `seat ${p}` },
      el('option', { value: 'human' }, 'human'),
      el('option', { value: 'random' }, 'random'));
    sel.value = kind;
    sel.addEventListener('change', () => act(() => { seats.set(p, sel.value); return render(); }));
    div.append(el('div', { class: 'seat' }, el('span', { class: 'term' }, p), sel));
  }
  const va = $('viewas');
  va.replaceChildren(el('option', { value: '' }, 'designer'));
  for (const p of seats.keys()) va.append(el('option', { value: p }, p));
  va.value = viewAs;
}

async function render() {
  if (!game) return;
  const terminal = or(await guard(() => call('isTerminal')), false);
  const n = or(await guard(() => call('chrononNumber')), 0);
  $('chronon-label').replaceChildren(
    `chronon ${n}`, terminal ? el('span', { class: 'over' }, ' — game over') : '');

  // moves of the human seats
  const moves = $('moves');
  moves.replaceChildren();
  let any = false;
  for (const [p, kind] of seats) {
    if (kind !== 'human') continue;
    const sws = or(await guard(() => call('switches', p)), []);
    for (const sw of sws) {
      any = true;
      const row = el('div', { class: 'switch' },
        el('span', { class: 'term' }, `${p} at ${sw.switch}:`));
      if (sw.unlimited) {
        const input = el('input', { placeholder: sw.actions.join(' | '), class: 'term' });
        row.append(input, el('button', { class: 'action', onclick: () => act(() => submit(p, sw.switch, input.value)) }, 'submit'));
      } else {
        for (const a of sw.actions) {
          row.append(el('button', {
            class: 'action', 'data-player': p, 'data-switch': sw.switch, 'data-action': a,
            onclick: () => act(() => submit(p, sw.switch, a)),
          }, a));
        }
      }
      moves.append(row);
    }
  }
  if (!any) moves.append(el('span', { class: 'none' }, terminal ? 'the game is over' : 'no human seat has a switch now'));

  const pending = or(await guard(() => call('pending')), []);
  $('pending').textContent = pending.length
    ? 'pending: ' + pending.map(([p, s, a]) => `${p} ${s} ← ${a}`).join('; ')
    : '';

  // the view
  const facts = or(await guard(() => call('view', viewAs === '' ? null : viewAs)), []);
  const ul = $('facts');
  ul.replaceChildren(...facts.map((f) => el('li', {}, f)));
  if (facts.length === 0) ul.append(el('li', { class: 'none' }, 'no visible facts'));

  const acc = or(await guard(() => call('accounts')), []);
  $('accounts').replaceChildren(...acc.map((a) => el('tr', {}, el('td', {}, a.player), el('td', {}, a.amount))));

  renderLog();
  $('chronon').disabled = !!terminal;
  $('random-chronon').disabled = !!terminal;
  $('undo').disabled = n === 0;
}

// The event log, newest first, as the "view as" seat sees it (its own events only).
function renderLog() {
  const who = viewAs === '' ? -1 : [...seats.keys()].indexOf(viewAs);
  const items = [];
  for (const c of history.slice().reverse()) {
    if ('undo' in c) { items.push(el('li', { class: 'chronon' }, `undo → chronon ${c.undo}`)); continue; }
    items.push(el('li', { class: 'chronon' }, `chronon ${c.chronon}${viewAs ? ` (as ${viewAs})` : ''}`));
    const events = who < 0 ? c.events : (c.playerEvents[who] || []);
    for (const e of events) items.push(el('li', { class: e.kind }, e.text));
  }
  $('log').replaceChildren(...items);
}

async function submit(player, sw, action) {
  const r = await guard(() => call('submit', player, sw, action));
  if (r === FAIL) return;
  if (r.ok) status(`${player} submitted ${action} at ${sw}`);
  else status(`rejected: ${r.reason}`, true);
  await render();
}

async function runChronon(allRandom) {
  if (!game) return;
  const randomSeats = [...seats].filter(([, k]) => allRandom || k === 'random').map(([p]) => p);
  if (randomSeats.length && await guard(() => call('randomMoves', randomSeats)) === FAIL) {
    await render();
    return;
  }
  const c = await guard(() => call('chronon'));
  if (c === FAIL) { await render(); return; }
  history.push(c);
  status(c.terminal ? 'game over' : `chronon ${c.chronon} ran`);
  await render();
}

// A goal against the rules over the current state (fact/1 etc. read it).
async function runQuery() {
  if (!game) return;
  const ul = $('answers');
  const r = await guard(() => call('query', $('query').value));
  if (r === FAIL) { ul.replaceChildren(el('li', { class: 'error' }, $('status').textContent)); return; }
  const items = r.answers.length ? r.answers.map((a) => el('li', {}, a)) : [el('li', {}, 'false.')];
  if (r.truncated) items.push(el('li', { class: 'none' }, `… (first ${r.answers.length} answers)`));
  if (r.error) items.push(el('li', { class: 'error' }, `error: ${r.error}`));
  ul.replaceChildren(...items);
}

async function undo() {
  if (!game) return;
  if (await guard(() => call('undo')) === true) {
    history.push({ undo: await call('chrononNumber') });
    status('undone');
  }
  await render();
}

async function loadExample(name) {
  const r = await fetch(`games/${name}`);
  if (!r.ok) throw new Error(`games/${name}: ${r.status}`);
  $('source').value = await r.text();
  await load();
}

async function main() {
  let names = ['nim.sidl'];
  try {
    const r = await fetch('games/index.json');
    if (r.ok) names = await r.json();
  } catch (_) { /* keep the default */ }
  const ex = $('example');
  ex.replaceChildren(...names.map((n) => el('option', { value: n }, n)));
  ex.value = names.includes('nim.sidl') ? 'nim.sidl' : names[0];
  ex.addEventListener('change', () => act(() => loadExample(ex.value)));
  $('load').addEventListener('click', () => act(load));
  $('source').addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); act(load); }
  });
  $('restart').addEventListener('click', () => act(async () => {
    if (!game) return;
    if (await guard(() => call('start', seedValue())) !== FAIL) {
      history = [];
      status(`restarted with seed ${seedValue()}`);
    }
    await render();
  }));
  $('chronon').addEventListener('click', () => act(() => runChronon(false)));
  $('random-chronon').addEventListener('click', () => act(() => runChronon(true)));
  $('undo').addEventListener('click', () => act(undo));
  $('query-form').addEventListener('submit', (e) => { e.preventDefault(); act(runQuery); });
  $('viewas').addEventListener('change', () => act(() => { viewAs = $('viewas').value; return render(); }));
  await act(() => loadExample(ex.value));
  document.body.dataset.ready = 'true';
}

main().catch((e) => { status(`failed to start: ${e}`, true); console.error(e); });
