// The sidl playground: a CodeMirror editor checked as you type, a gallery of the shipped games, and
// a session played chronon by chronon with time travel, all in the browser.
// The engine runs in a Web Worker behind engine.js (a call that hangs gets the worker restarted).
// While work is under way <body data-busy> is set; <body data-ready> once the first game is loaded
// (the browser tests wait on both). See docs/playground.md.
import {
  EditorView, basicSetup, EditorState, keymap, linter, lintGutter, autocompletion, uPlot,
} from './vendor/vendor.js';
import { Engine } from './engine.js';
import { sidlLanguage, keywordSet, setKeywords } from './sidl-lang.js';
import { parseBoardHint, detectBoard, renderBoard } from './board.js';
import { readHash, writeHash } from './url.js';
import { AI_KINDS, actionQueue, make as el, parseSeat, seatMoves, templateForm } from './play.js';

const $ = (id) => document.getElementById(id);

// --- state -------------------------------------------------------------------------------------
const S = {
  loaded: false,
  source: '',           // the loaded source
  game: null,           // its gallery name (null: edited or from a link)
  gallery: new Map(),   // gallery name -> source text as shipped
  players: [],
  seats: new Map(),     // player -> 'human' | 'random' | an AI spec
  viewAs: '',           // '' = the designer
  seed: 1,
  interrupt: false,
  board: null,          // the board hint of the loaded source (or null)
  // One entry per chronon reached: the session snapshot after it, the Chronon it ran (null for
  // the start), the accounts. `cursor` is the entry shown; entries after it are the "future" that
  // Forward replays until a new move is made.
  timeline: [],
  cursor: 0,
  running: false,
  aiKinds: [],
};

const engine = new Engine({
  timeoutMs: 5000,
  // the game and its session are back as they were; the page keeps its (same) display rather
  // than asking the engine again at once (a rule that hangs on every state would loop)
  onRestart: (message) => {
    showError({ message: `${message}; the game was reloaded at chronon ${S.cursor}` });
  },
});
window.sidlEngine = engine; // for the browser tests and the console
window.sidlState = S;

// Runs a UI action, one at a time: an action clicked while another works waits for it (a second
// click on Step is a second step after the first, never interleaved with it). <body data-busy> is
// set until every queued action has finished. Errors are shown.
const act = actionQueue({
  onBusy: (busy) => {
    if (busy) document.body.dataset.busy = 'true';
    else delete document.body.dataset.busy;
  },
  onError: (e) => { showError(e); console.warn(e); },
});

function status(text, isError = false) {
  const s = $('status');
  s.textContent = text;
  s.classList.toggle('error', isError);
}

// An engine error: its message in the status line, and in the game pane with a link to its source
// location when it has one (runtime and budget errors).
function showError(e) {
  const message = String(e && e.message ? e.message : e);
  status(message, true);
  const box = $('engine-error');
  box.replaceChildren(el('span', { class: 'message' }, message));
  const loc = e && e.sidl;
  if (loc && loc.line) {
    box.append(' ', el('a', {
      href: '#', class: 'goto', 'data-line': loc.line,
      onclick: (ev) => { ev.preventDefault(); jumpTo(loc.line, loc.column, loc.endLine, loc.endColumn); },
    }, `line ${loc.line}:${loc.column}`));
    if (loc.path && loc.path.length) box.append(el('div', { class: 'path' }, `in ${loc.path.join(' → ')}`));
  }
  box.append(' ', el('button', { class: 'close', onclick: () => { box.hidden = true; } }, '×'));
  box.hidden = false;
}
const clearError = () => { $('engine-error').hidden = true; };

// --- the editor ------------------------------------------------------------------------------------
// The Diagnostics list: what `sidl check` reports, one item per diagnostic (click: jump to it),
// its labels below it (each a link to its place) and its help.
function setDiagnosticList(diags) {
  const ul = $('diagnostics');
  ul.replaceChildren();
  if (diags.length === 0) ul.append(el('li', { class: 'none' }, 'none'));
  for (const d of diags) {
    const head = el('div', { class: 'diag-head' }, `line ${d.line}:${d.column}: ${d.severity}[${d.code}]: ${d.message}`);
    head.addEventListener('click', () => jumpTo(d.line, d.column, d.endLine, d.endColumn));
    const li = el('li', { class: d.severity, 'data-code': d.code, 'data-line': d.line }, head);
    for (const l of d.labels || []) {
      const item = el('div', { class: 'label', 'data-line': l.line }, `line ${l.line}:${l.column}: ${l.message}`);
      item.addEventListener('click', () => jumpTo(l.line, l.column, l.endLine, l.endColumn));
      li.append(item);
    }
    if (d.help) li.append(el('div', { class: 'help' }, `help: ${d.help}`));
    ul.append(li);
  }
  const errors = diags.filter((d) => d.severity === 'error').length;
  $('lint-summary').textContent = diags.length ? `(${errors} error${errors === 1 ? '' : 's'}, ${diags.length - errors} other)` : '';
}

const sidlLinter = linter(async (view) => {
  const text = view.state.doc.toString();
  let diags;
  try {
    diags = await engine.check(text);
  } catch (e) {
    return [];
  }
  if (view.state.doc.toString() !== text) return [];
  setDiagnosticList(diags);
  return editorDiagnostics(diags, view.state.doc.length);
}, { delay: 400 });

// The editor's marks of the diagnostics: each at its span (message and help), and each of its
// labels at the label's place, as an `info` mark that names the diagnostic it belongs to.
function editorDiagnostics(diags, len) {
  const range = (a, b) => {
    const from = Math.min(a, len);
    return { from, to: Math.min(Math.max(b, from), len) };
  };
  const out = [];
  for (const d of diags) {
    out.push({
      ...range(d.from, d.to),
      severity: d.severity === 'error' ? 'error' : d.severity === 'warning' ? 'warning' : 'info',
      source: d.code,
      message: d.message + (d.help ? `\nhelp: ${d.help}` : ''),
    });
    for (const l of d.labels || []) {
      out.push({
        ...range(l.from, l.to),
        severity: 'info',
        source: d.code,
        message: `${l.message} (${d.code} at line ${d.line}: ${d.message})`,
      });
    }
  }
  return out;
}

let keywordOptions = [];
function completeKeywords(ctx) {
  const w = ctx.matchBefore(/[a-z][A-Za-z0-9_]*/);
  if (!w || (w.from === w.to && !ctx.explicit)) return null;
  const options = keywordOptions.length ? keywordOptions
    : [...keywordSet].map((k) => ({ label: k, type: 'keyword' }));
  return { from: w.from, options, validFor: /^[a-z][A-Za-z0-9_]*$/ };
}

const editor = new EditorView({
  parent: $('editor'),
  state: EditorState.create({
    doc: '',
    extensions: [
      keymap.of([{ key: 'Mod-Enter', run: () => { act(loadFromEditor); return true; } }]),
      basicSetup,
      sidlLanguage,
      lintGutter(),
      sidlLinter,
      autocompletion({ override: [completeKeywords] }),
      EditorView.lineWrapping,
      EditorView.theme({ '&': { height: '55vh' }, '.cm-scroller': { overflow: 'auto' } }),
    ],
  }),
});
window.sidlEditor = editor;

function setSource(text) {
  editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: text } });
}
const editorText = () => editor.state.doc.toString();

// Selects a source range given 1-based lines and (UTF-16) columns, and scrolls to it.
function jumpTo(line, column = 1, endLine = line, endColumn = column) {
  const doc = editor.state.doc;
  const pos = (l, c) => {
    const ln = doc.line(Math.max(1, Math.min(l, doc.lines)));
    return Math.min(ln.from + Math.max(0, c - 1), ln.to);
  };
  const from = pos(line, column);
  const to = Math.max(from, pos(endLine || line, endColumn || column));
  editor.dispatch({ selection: { anchor: from, head: to }, scrollIntoView: true });
  editor.focus();
}

async function loadKeywords() {
  const kws = await engine.keywords().catch(() => null);
  if (!Array.isArray(kws) || kws.length === 0) return;
  setKeywords(kws.map((k) => k.name));
  keywordOptions = kws.map((k) => ({
    label: k.name, type: 'keyword', detail: `/${k.arity} (${k.position})`, info: k.doc || undefined,
  }));
  setSource(editorText()); // re-highlight with the engine's list
}

// --- loading and starting ----------------------------------------------------------------------
// Loads a source: check (errors stop it), load, start with the seed. `opts` may carry the seats,
// view and session of a shared link.
async function loadSource(source, gameName, opts = {}) {
  stopRunning();
  clearError();
  const diags = await engine.check(source);
  setDiagnosticList(diags);
  const errors = diags.filter((d) => d.severity === 'error').length;
  if (errors) {
    status(`not loaded: ${errors} error${errors === 1 ? '' : 's'}`, true);
    return false;
  }
  const players = await engine.load(source);
  // what was found about the previous game goes: its §11 report, its query answers
  $('check-result').replaceChildren();
  $('check-progress').textContent = '';
  $('answers').replaceChildren();
  $('why-result').replaceChildren();
  $('rejected').hidden = true;
  S.loaded = true;
  S.source = source;
  S.game = gameName;
  // the menu names the loaded game: a gallery game, or the user's own source
  $('example').value = gameName || '';
  S.players = players;
  S.board = parseBoardHint(source);
  const badSeats = [];
  S.seats = new Map(players.map((p, i) => [p, seatOf(opts.seats && opts.seats[i], p, badSeats)]));
  S.viewAs = opts.view && players.includes(opts.view) ? opts.view : '';
  if (!S.aiKinds.length && await engine.has('aiMoves')) S.aiKinds = [...AI_KINDS];
  await startSession(opts.session);
  renderSeats();
  await render();
  status(opts.session ? `loaded ${gameName || 'the linked game'} and replayed its session` : `loaded ${gameName || 'the edited game'}`);
  if (badSeats.length) showError({ message: `the link's seats: ${badSeats.join('; ')}` });
  return true;
}

// A seat of a shared link: what it names if the playground supports it, else human, and the
// reason is added to `bad` (shown: a seat is never replaced without a word).
function seatOf(text, player, bad) {
  try {
    return parseSeat(text);
  } catch (e) {
    bad.push(`${player}: ${e.message}; it is a human seat`);
    return 'human';
  }
}

async function loadFromEditor() {
  const src = editorText();
  const name = S.game && S.gallery.get(S.game) === src ? S.game : null;
  await loadSource(src, name);
}

async function loadGallery(name) {
  let text = S.gallery.get(name);
  if (text === undefined) {
    const r = await fetch(`games/${encodeURIComponent(name)}`);
    if (!r.ok) throw new Error(`games/${name}: ${r.status}`);
    text = await r.text();
    S.gallery.set(name, text);
  }
  $('example').value = name;
  setSource(text);
  return text;
}

const accountsNow = () => engine.call('accounts');

// Starts a session with the seed and interrupt mode; with a snapshot (a shared link), replays it
// and rebuilds the timeline: the events from `history()`, the accounts over time from the start's
// accounts plus the account events, one snapshot per chronon (a prefix of the shared one, restored
// only when travelled to).
async function startSession(sessionJson) {
  S.seed = seedValue();
  S.interrupt = $('interrupt').checked;
  await engine.call('start', S.seed, S.interrupt);
  const first = { snap: await engine.call('snapshot'), chronon: null, accounts: await accountsNow() };
  S.timeline = [first];
  S.cursor = 0;
  engine.snapshot = first.snap;
  if (!sessionJson) return;
  const snap = JSON.parse(sessionJson);
  await engine.call('restore', sessionJson);
  const hist = await engine.call('history');
  let accounts = first.accounts;
  snap.chronons.forEach((_, k) => {
    const prefix = JSON.stringify({ ...snap, chronons: snap.chronons.slice(0, k + 1), pending: [] });
    const c = hist[k];
    accounts = accounts.map((a) => {
      const delta = c.events.filter((e) => e.kind === 'account' && e.player === a.player)
        .reduce((sum, e) => sum + Number(e.amount), 0);
      return { ...a, value: a.value + delta };
    });
    S.timeline.push({ snap: prefix, chronon: c, accounts });
  });
  S.cursor = S.timeline.length - 1;
  S.timeline[S.cursor].accounts = await accountsNow();
  engine.snapshot = sessionJson;
}

function seedValue() {
  const n = Number($('seed').value);
  return Number.isFinite(n) && n >= 0 ? Math.floor(n) % 4294967296 : 1;
}

// --- moves and chronons -------------------------------------------------------------------------
// A new move forgets the future of the timeline.
function dropFuture() { S.timeline.length = S.cursor + 1; }

async function submit(player, sw, action) {
  dropFuture();
  const r = await engine.call('submit', player, sw, action);
  const rejected = $('rejected');
  if (r.ok) {
    status(`${player} submitted ${action} at ${sw}`);
    clearError();
    rejected.hidden = true;
  } else {
    status(`rejected: ${r.reason}`, true);
    // the rejection stays under the moves with its why? until the next submission
    rejected.replaceChildren(el('span', { class: 'message' }, `rejected: ${player} ${sw} ← ${action}: ${r.reason}`), ' ',
      whyButton({ kind: 'submission', player, switch: sw, action }, `why was ${action} at ${sw} rejected?`));
    rejected.hidden = false;
  }
  if (r.ok && r.chronon) await recordChronon(r.chronon); // interrupt mode: the submission ran a chronon
  await render();
  return r.ok;
}

async function recordChronon(c) {
  const snap = await engine.call('snapshot');
  S.timeline.push({ snap, chronon: c, accounts: await accountsNow() });
  S.cursor = S.timeline.length - 1;
  engine.snapshot = snap;
}

// Moves of the seats that are not human (all of them with allRandom), then one chronon.
async function step(allRandom = false) {
  if (!S.loaded) return;
  dropFuture();
  if (await engine.call('isTerminal')) { status('the game is over'); return; }
  // the random seats, then the AI seats (each sees only its player's view), move; in interrupt
  // mode a submission runs its own chronon, returned here: that is the step
  const ran = await seatMoves((m, ...a) => engine.call(m, ...a), S.seats, S.seed + S.cursor, allRandom);
  if (ran.length) {
    for (const c of ran) await recordChronon(c);
    const c = ran[ran.length - 1];
    status(c.terminal ? 'game over' : `chronon ${c.chronon} ran`);
    clearError();
    await render();
    return;
  }
  const c = await engine.call('chronon');
  await recordChronon(c);
  status(c.terminal ? 'game over' : `chronon ${c.chronon} ran`);
  clearError();
  await render();
}

// Time travel: show timeline entry i (its snapshot is restored; the entries after it stay).
async function travel(i) {
  if (i < 0 || i >= S.timeline.length || i === S.cursor) return;
  await engine.call('restore', S.timeline[i].snap);
  S.cursor = i;
  engine.snapshot = S.timeline[i].snap;
  status(`at chronon ${i} of ${S.timeline.length - 1}`);
  await render();
}

async function undo() {
  if (S.cursor === 0) return;
  await travel(S.cursor - 1);
  dropFuture();
  status('undone');
  await render();
}

function stopRunning() {
  S.running = false;
  $('run').textContent = 'Run';
}

async function run() {
  if (S.running) { stopRunning(); return; }
  S.running = true;
  $('run').textContent = 'Pause';
  while (S.running) {
    const before = S.timeline.length;
    await act(() => step(false));
    if (!S.running || S.timeline.length === before || S.timeline[S.cursor].chronon?.terminal) break;
    const ms = Math.max(0, Number($('run-ms').value) || 0);
    await new Promise((r) => setTimeout(r, ms));
  }
  stopRunning();
}

// --- rendering -------------------------------------------------------------------------------------
function renderSeats() {
  const div = $('seats');
  div.replaceChildren();
  const kinds = ['human', 'random', ...S.aiKinds];
  for (const k of S.seats.values()) if (!kinds.includes(k)) kinds.push(k); // e.g. mcts:100 from a link
  for (const [p, kind] of S.seats) {
    const sel = el('select', { 'data-player': p, 'aria-label': `seat ${p}` },
      ...kinds.map((k) => el('option', { value: k }, k)));
    sel.value = kind;
    sel.addEventListener('change', () => act(() => { S.seats.set(p, sel.value); return render(); }));
    div.append(el('div', { class: 'seat' }, el('span', { class: 'term' }, p), sel));
  }
  const va = $('viewas');
  va.replaceChildren(el('option', { value: '' }, 'designer'));
  for (const p of S.players) va.append(el('option', { value: p }, p));
  va.value = S.viewAs;
}

function renderSwitch(p, sw) {
  const row = el('div', { class: 'switch', 'data-player': p, 'data-switch': sw.switch },
    el('span', { class: 'term who' }, `${p} at ${sw.switch}:`),
    whyButton({ kind: 'legal', switch: sw.switch, player: p }, `why is ${sw.switch} legal, and who owns it?`));
  if (!sw.unlimited) {
    for (const a of sw.actions) {
      row.append(el('span', { class: 'action-pair' }, el('button', {
        class: 'action', 'data-player': p, 'data-switch': sw.switch, 'data-action': a,
        onclick: () => act(() => submit(p, sw.switch, a)),
      }, a), whyButton({ kind: 'action', switch: sw.switch, action: a, player: p }, `why is ${a} an action of ${sw.switch}?`, '?')));
    }
    return row;
  }
  // an unlimited switch: one form per template, a typed input per slot (play.js, the same form as
  // <sidl-game>); the engine's fillTemplate fills and checks the values
  sw.actions.forEach((template, i) => {
    const slots = sw.slots ? sw.slots[i] || [] : [];
    row.append(templateForm((m, ...a) => engine.call(m, ...a), template, slots,
      (action) => submit(p, sw.switch, action), act));
  });
  return row;
}

// Redraws the game pane from the engine. When the engine fails (a budget error, a restart) the
// panes that would show stale data say so instead.
async function render() {
  if (!S.loaded) return;
  try {
    await renderGame();
  } catch (e) {
    const none = (t) => el('span', { class: 'none' }, t);
    $('moves').replaceChildren(none('(the engine gave no answer: see the error above)'));
    $('facts').replaceChildren(el('li', { class: 'none' }, '(unknown)'));
    $('board').replaceChildren();
    throw e;
  }
}

async function renderGame() {
  const terminal = await engine.call('isTerminal');
  const n = S.cursor;
  const last = S.timeline.length - 1;
  $('chronon-label').replaceChildren(
    `chronon ${n}`, n < last ? el('span', { class: 'future' }, ` (of ${last})`) : '',
    terminal ? el('span', { class: 'over' }, ' — game over') : '');

  // the moves of the human seats the view may see: the viewed player's, or every human seat's
  // for the designer
  const moves = $('moves');
  moves.replaceChildren();
  let any = false;
  const shown = S.viewAs === '' ? S.players : [S.viewAs];
  for (const p of shown) {
    const kind = S.seats.get(p);
    if (kind !== 'human') {
      if (S.viewAs !== '') moves.append(el('span', { class: 'none' }, `${p} is played by: ${kind}`));
      continue;
    }
    for (const sw of await engine.call('switches', p)) {
      any = true;
      moves.append(renderSwitch(p, sw));
    }
  }
  if (!any && !moves.childElementCount) {
    moves.append(el('span', { class: 'none' }, terminal ? 'the game is over' : 'no human seat in this view has a switch now'));
  }
  const pending = (await engine.call('pending')).filter(([p]) => S.viewAs === '' || p === S.viewAs);
  $('pending').textContent = pending.length
    ? 'pending: ' + pending.map(([p, s, a]) => `${p} ${s} ← ${a}`).join('; ') : '';

  // the view: facts, board
  const facts = await engine.call('view', S.viewAs === '' ? null : S.viewAs);
  $('facts-who').textContent = S.viewAs === '' ? '(the designer sees all)' : `(as ${S.viewAs} sees them)`;
  const ul = $('facts');
  ul.replaceChildren(...facts.map((f) => el('li', {}, f)));
  if (facts.length === 0) ul.append(el('li', { class: 'none' }, 'no visible facts'));
  const board = S.board || detectBoard(facts);
  $('board').replaceChildren(...(board ? [renderBoard(facts, board)] : []));

  const acc = await accountsNow();
  $('accounts').replaceChildren(...acc.map((a) => el('tr', { 'data-player': a.player }, el('td', {}, a.player), el('td', {}, a.amount),
    el('td', {}, n > 0 ? whyButton({ kind: 'payoff', player: a.player, chronon: n }, `why was ${a.player} paid (or not) in chronon ${n}?`) : ''))));
  renderChart();
  renderLog();
  $('chronon').disabled = !!terminal;
  $('random-chronon').disabled = !!terminal;
  $('run').disabled = !!terminal && !S.running;
  $('undo').disabled = n === 0;
  $('back').disabled = n === 0;
  $('forward').disabled = n >= last;
  await updateUrl();
}

// The event log up to the shown chronon, newest first, as the viewed seat sees it; the future
// (after a step back) is listed greyed.
function renderLog() {
  const who = S.viewAs === '' ? -1 : S.players.indexOf(S.viewAs);
  const items = [];
  for (let i = S.timeline.length - 1; i >= 1; i--) {
    const c = S.timeline[i].chronon;
    const future = i > S.cursor;
    items.push(el('li', {
      class: `chronon${future ? ' future' : ''}${i === S.cursor ? ' current' : ''}`, 'data-chronon': i,
      onclick: () => act(() => travel(i)), title: 'travel to this chronon',
    }, `chronon ${i}${future ? ' (undone: Forward replays it)' : ''}${S.viewAs ? ` — as ${S.viewAs}` : ''}`));
    const events = who < 0 ? c.events : (c.playerEvents[who] || []);
    for (const e of events) {
      const li = el('li', { class: `${e.kind}${future ? ' future' : ''}` }, e.text);
      const q = future ? null : eventQuestion(e, i);
      if (q) li.append(' ', whyButton(q, `why: ${e.text}`));
      items.push(li);
    }
  }
  items.push(el('li', {
    class: `chronon${S.cursor === 0 ? ' current' : ''}`, 'data-chronon': 0, onclick: () => act(() => travel(0)),
  }, 'start'));
  $('log').replaceChildren(...items);
}

const palette = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf'];
let chart = null;
function renderChart() {
  const box = $('chart');
  if (chart) { chart.destroy(); chart = null; }
  const entries = S.timeline.slice(0, S.cursor + 1);
  const xs = entries.map((_, i) => i);
  const series = S.players.map((p) => entries.map((e) => {
    const a = e.accounts && e.accounts.find((x) => x.player === p);
    return a ? a.value : null;
  }));
  chart = new uPlot({
    width: Math.max(280, box.clientWidth || 400),
    height: 170,
    scales: { x: { time: false } },
    axes: [{ label: 'chronon' }, {}],
    series: [{ label: 'chronon' }, ...S.players.map((p, i) => ({
      label: p, stroke: palette[i % palette.length], width: 2, points: { show: xs.length < 40 },
    }))],
  }, [xs, ...series], box);
}

let urlTimer = null;
async function updateUrl() {
  const session = await engine.call('snapshot');
  engine.snapshot = session;
  const snap = JSON.parse(session);
  const hash = await writeHash({
    game: S.game, src: S.source, seed: S.seed, interrupt: S.interrupt,
    seats: [...S.seats.values()], view: S.viewAs,
    session: snap.chronons.length || snap.pending.length ? session : null,
  });
  clearTimeout(urlTimer);
  if (location.hash !== hash) history.replaceState(null, '', hash);
}

// --- queries and the §11 check ------------------------------------------------------------------
async function runQuery() {
  if (!S.loaded) return;
  const ul = $('answers');
  let r;
  try {
    r = await engine.call('query', $('query').value);
  } catch (e) {
    ul.replaceChildren(el('li', { class: 'error' }, e.message));
    return;
  }
  const items = r.answers.length ? r.answers.map((a) => el('li', {}, a)) : [el('li', {}, 'false.')];
  if (r.truncated) items.push(el('li', { class: 'none' }, `… (first ${r.answers.length} answers)`));
  if (r.error) {
    const li = el('li', { class: 'error' }, `error: ${r.error}`);
    const loc = r.location;
    if (loc && loc.line) {
      li.append(' ', el('a', { href: '#', class: 'goto', onclick: (ev) => { ev.preventDefault(); jumpTo(loc.line, loc.column, loc.endLine, loc.endColumn); } }, `line ${loc.line}:${loc.column}`));
    }
    items.push(li);
  }
  ul.replaceChildren(...items);
}

async function checkHidden() {
  if (!S.loaded) return;
  const max = Math.max(1, Number($('max-states').value) || 5000);
  const prog = $('check-progress');
  const out = $('check-result');
  out.replaceChildren();
  prog.textContent = 'exploring…';
  $('stop-check').disabled = false;
  $('check-hidden').disabled = true;
  try {
    const r = await engine.checkHidden(max, (p) => {
      prog.textContent = `${p.phase}: ${p.states} states, ${p.frontier} in the frontier`;
    });
    prog.textContent = `${r.states} states explored${r.complete ? ' (all reachable states)' : ` (stopped at ${max})`}`;
    out.append(el('div', { class: r.consistent ? 'ok' : 'error' },
      r.consistent ? '✓ consistent: no player\'s moves reveal hidden information' : '✗ inconsistent'),
    el('div', { class: 'message' }, r.message));
    if (r.counterexample) out.append(counterexample(r.counterexample));
  } catch (e) {
    prog.textContent = '';
    out.append(el('div', { class: 'error' }, e.message));
  } finally {
    $('stop-check').disabled = true;
    $('check-hidden').disabled = false;
  }
}

// A §11 counterexample, each part once: what the player sees (the description's first line is
// already in the report's message, its histories are the steps), then the two histories.
function counterexample(c) {
  const box = el('div', { class: 'counterexample' },
    el('div', { class: 'title' }, `counterexample for ${c.player} at switch ${c.switch}`));
  const sees = c.description.split('\n').map((l) => l.trim()).find((l) => l.startsWith(`${c.player} sees:`));
  if (sees) box.append(el('div', { class: 'sees' }, sees));
  for (const which of ['first', 'second']) {
    const steps = c.steps.filter((s) => s.startsWith(`${which}: `)).map((s) => s.slice(which.length + 2));
    box.append(el('div', { class: 'history-title' }, `${which} history`),
      el('ul', { class: 'terms history', 'data-history': which }, ...steps.map((s) => el('li', {}, s))));
  }
  return box;
}


// --- why? --------------------------------------------------------------------------------------
// The engine's explanations (SidlGame.why, docs/why.md): why a switch is (not) legal and who owns
// it, why an action is (not) among a switch's actions, why a submission is rejected, why a fact was
// created or deleted in a chronon, why a payoff was (not) paid; over the shown state (the chronon
// the timeline shows) and as the shown view sees it: a player's view never explains with facts
// hidden from that player. Each step of an explanation links to its clause in the editor.
const WHY_FIELDS = {
  legal: ['switch'],
  action: ['switch', 'action'],
  submission: ['player', 'switch', 'action'],
  fact: ['fact', 'chronon'],
  payoff: ['player', 'chronon'],
};
const OUTCOME_TEXT = { proved: '✓', failed: '✗', error: '‼', folded: '…', budget: '⧗' };

// A small why? button that asks `question` (the form shows it too, to edit and ask again).
function whyButton(question, title, text = 'why?') {
  return el('button', {
    type: 'button', class: 'why', title, 'aria-label': title, 'data-why': question.kind,
    onclick: (ev) => { ev.stopPropagation(); act(() => askWhy(question)); },
  }, text);
}

// The question of an event of chronon `i`: a created or deleted fact, a payment.
function eventQuestion(e, i) {
  if ((e.kind === 'created' || e.kind === 'deleted') && e.fact) return { kind: 'fact', fact: e.fact, chronon: i };
  if (e.kind === 'account' && e.player) return { kind: 'payoff', player: e.player, chronon: i };
  return null;
}

function showWhyFields() {
  const shown = WHY_FIELDS[$('why-kind').value] || [];
  for (const f of ['player', 'switch', 'action', 'fact', 'chronon']) $(`why-${f}`).hidden = !shown.includes(f);
}

function fillWhyForm(q) {
  $('why-kind').value = q.kind;
  for (const f of ['player', 'switch', 'action', 'fact', 'chronon']) {
    if (q[f] !== undefined) $(`why-${f}`).value = String(q[f]);
  }
  showWhyFields();
}

// The question the form asks: its kind's fields only.
function formQuestion() {
  const kind = $('why-kind').value;
  const q = { kind };
  for (const f of WHY_FIELDS[kind]) {
    const v = $(`why-${f}`).value.trim();
    if (f === 'chronon') {
      if (v !== '') q.chronon = Number(v);
    } else q[f] = v;
  }
  return q;
}

async function askWhy(q) {
  if (!S.loaded) return;
  fillWhyForm(q);
  const question = { ...q };
  if (S.viewAs) question.viewer = S.viewAs;
  const out = $('why-result');
  let r;
  try {
    r = await engine.call('why', question);
  } catch (e) {
    out.replaceChildren(el('div', { class: 'error' }, e.message));
    out.dataset.holds = '';
    return;
  }
  out.dataset.holds = String(r.holds);
  out.replaceChildren(
    el('div', { class: `summary ${r.holds ? 'holds' : 'fails'}` }, r.summary),
    S.viewAs ? el('div', { class: 'none' }, `as ${S.viewAs} sees it`) : '',
    whyTree(r.nodes || []));
  $('why-title').scrollIntoView({ block: 'nearest' });
}

// An explanation's nodes as nested lists: the outcome, the goal, the clause (a link into the
// editor), the bindings at that point, the note, the sub-steps.
function whyTree(nodes) {
  return el('ul', { class: 'why-tree terms' }, ...nodes.map((n) => {
    const li = el('li', { class: `why-node ${n.outcome}`, 'data-outcome': n.outcome },
      el('span', { class: 'outcome', title: n.outcome }, OUTCOME_TEXT[n.outcome] || n.outcome), ' ',
      el('span', { class: 'goal' }, n.goal));
    const c = n.clause;
    if (c && c.startLine) {
      li.append(' ', el('a', {
        href: '#', class: 'goto', 'data-line': c.startLine,
        onclick: (ev) => { ev.preventDefault(); jumpTo(c.startLine, c.startColumn, c.endLine, c.endColumn); },
      }, `line ${c.startLine}`));
    }
    if (n.note) li.append(el('div', { class: 'note' }, n.note));
    if (n.bindings && n.bindings.length) {
      li.append(el('div', { class: 'bindings' }, n.bindings.map(([k, v]) => `${k} = ${v}`).join(', ')));
    }
    if (n.children && n.children.length) li.append(whyTree(n.children));
    return li;
  }));
}

// --- start-up ----------------------------------------------------------------------------------------
async function main() {
  let names = ['nim.sidl'];
  try {
    const r = await fetch('games/index.json');
    if (r.ok) names = await r.json();
  } catch (_) { /* keep the default */ }
  const ex = $('example');
  ex.replaceChildren(...names.map((n) => el('option', { value: n }, n.replace(/\.sidl$/, ''))),
    el('option', { value: '', disabled: '' }, '(your source)'));
  ex.addEventListener('change', () => act(async () => {
    if (!ex.value) return;
    const name = ex.value;
    await loadSource(await loadGallery(name), name);
  }));
  $('load').addEventListener('click', () => act(loadFromEditor));
  $('restart').addEventListener('click', () => act(async () => {
    if (!S.loaded) return;
    stopRunning();
    await startSession();
    clearError();
    status(`restarted with seed ${S.seed}`);
    await render();
  }));
  $('interrupt').addEventListener('change', () => $('restart').click());
  $('chronon').addEventListener('click', () => act(() => step(false)));
  $('random-chronon').addEventListener('click', () => act(() => step(true)));
  $('run').addEventListener('click', () => run());
  $('undo').addEventListener('click', () => act(undo));
  $('back').addEventListener('click', () => act(() => travel(S.cursor - 1)));
  $('forward').addEventListener('click', () => act(() => travel(S.cursor + 1)));
  $('query-form').addEventListener('submit', (e) => { e.preventDefault(); act(runQuery); });
  $('viewas').addEventListener('change', () => act(() => { S.viewAs = $('viewas').value; return render(); }));
  $('check-hidden').addEventListener('click', () => act(checkHidden));
  $('why-kind').addEventListener('change', showWhyFields);
  $('why-form').addEventListener('submit', (e) => { e.preventDefault(); act(() => askWhy(formQuestion())); });
  showWhyFields();
  $('stop-check').addEventListener('click', () => engine.stop('the §11 check was stopped'));
  $('share').addEventListener('click', () => act(async () => {
    await updateUrl();
    try { await navigator.clipboard.writeText(location.href); status('link copied'); } catch (_) { status('the link is in the address bar'); }
  }));
  editor.dom.addEventListener('input', () => {
    if (S.game && S.gallery.get(S.game) !== editorText()) ex.value = '';
  });

  await loadKeywords();
  await act(async () => {
    const h = await readHash().catch(() => ({}));
    if (h.seed !== undefined && Number.isFinite(h.seed)) $('seed').value = String(h.seed);
    if (h.interrupt !== undefined) $('interrupt').checked = h.interrupt;
    const opts = { seats: h.seats, view: h.view, session: h.session };
    if (h.src !== undefined) {
      setSource(h.src);
      ex.value = '';
      await loadSource(h.src, null, opts);
    } else {
      const name = h.game && names.includes(h.game) ? h.game : names.includes('nim.sidl') ? 'nim.sidl' : names[0];
      await loadSource(await loadGallery(name), name, opts);
    }
  });
  document.body.dataset.ready = 'true';
}

main().catch((e) => { status(`failed to start: ${e}`, true); console.error(e); });
