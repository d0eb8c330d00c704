// @ts-check
// The game pane: moves and chronons, time travel over the timeline, and drawing the pane from the
// engine (seats, moves, facts, board, accounts, events).
import { renderLayout } from '../board.js';
import { SEAT_HELP, make as el, parseSeat, templateForm, thinking } from '../play.js';
import { renderChart } from './chart.js';
import { $, $button, $input, $select, status } from './dom.js';
import { rateStart, rateStep } from './rate.js';
import { flushUrl, scheduleUrl } from './share.js';
import { S, engine, act, clearError, snapshotAt } from './state.js';
import { eventQuestion, whyButton } from './why.js';
import { L, accountText, actionText, applyLabels, eventTexts, eventsKept, factText, onLabelsChange, playerText, switchText } from './labels.js';

onLabelsChange(() => act(render));

/** @typedef {import('../pkg/sidl_wasm.js').Chronon} Chronon */
/** @typedef {import('../pkg/sidl_wasm.js').Switch} Switch */

export const accountsNow = () => engine.call('accounts');

// --- moves and chronons -------------------------------------------------------------------------
// A new move forgets the future of the timeline.
function dropFuture() { S.timeline.length = S.cursor + 1; }

/**
 * Submits `action` at switch `sw` for `player`; a rejection is shown under the moves.
 * @param {string} player
 * @param {string} sw
 * @param {string} action
 */
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

/** @param {Chronon} c a chronon that just ran: a new entry of the timeline */
async function recordChronon(c) {
  const [part] = await engine.call('snapshotParts', S.timeline.length - 1);
  S.timeline.push({ part, chronon: c, accounts: await accountsNow() });
  S.cursor = S.timeline.length - 1;
}

// Moves of the seats that are not human (all of them with allRandom), then one chronon.
export async function step(allRandom = false) {
  if (!S.loaded) return;
  dropFuture();
  if (await advance(1, 0, allRandom)) await render();
}

// Whether a step with AI seats has run for THINKING_MS and the status line says "thinking" (play.js
// `thinking`): Pause then stops the search at once (`pauseSearch`).
const T = { searching: false };

// Pause while an AI seat decides: the worker running its search is replaced (engine.stop) and the
// game and session reloaded as they were before the step; the step ends without a chronon
// (`advance` returns null) and the status line says so. Nothing is lost: the timeline holds every
// chronon that ran before the step.
function pauseSearch() {
  if (!T.searching) return;
  S.searchStopped = true;
  engine.stop('paused during an AI seat\'s search');
}

/**
 * Steps in the worker (engine.steps: the random seats, then the AI seats, each seeing only its
 * player's view, move, then the chronon runs; in interrupt mode a submission runs its own chronon,
 * and that is the step), at most `max` of them or as many as fit in `budgetMs`, each chronon a
 * new entry of the timeline with its part of the snapshot and its accounts. The last chronon, or
 * null when the game was over; an error of a step is thrown after the chronons before it are kept
 * (and drawn).
 * @param {number} max
 * @param {number} budgetMs
 * @param {boolean} allRandom every seat moves at random
 * @returns {Promise<Chronon | null>}
 */
async function advance(max, budgetMs, allRandom) {
  /** @type {[string, string][]} */
  const seats = allRandom ? S.players.map((p) => [p, 'random']) : [...S.seats];
  const stop = thinking(seats, playerText, (t) => { T.searching = true; status(t); });
  let result;
  try {
    result = await engine.steps(seats, S.seed + S.cursor, budgetMs, max);
  } catch (e) {
    // Pause during an AI seat's search (`pauseSearch`): the worker was replaced and the position
    // restored as it was before this step
    if (/** @type {{ restarted?: boolean }} */ (e).restarted && S.searchStopped) {
      status(`paused: the AI seat's search was stopped at chronon ${S.cursor}`);
      return null;
    }
    throw e;
  } finally {
    T.searching = false;
    if (stop) stop();
  }
  const { entries, error } = result;
  for (const e of entries) S.timeline.push(e);
  if (entries.length) S.cursor = S.timeline.length - 1;
  if (error) {
    if (entries.length) await render();
    throw error;
  }
  const c = entries.length ? entries[entries.length - 1].chronon : null;
  if (!c) { status('the game is over'); return null; }
  status(c.terminal ? 'game over' : `chronon ${c.chronon} ran`);
  clearError();
  return c;
}

// Run at full speed (`every 0 ms`): the steps of up to RUN_BATCH_MS of the engine's time in one
// message to the worker (`advance`, as Step makes its one step), and the pane drawn at most every
// RUN_DRAW_MS (and when the game ends or Run stops). Drawing the pane after every step, with a
// round trip to the worker per call, held Run to about 10 chronons per second
// (docs/performance.md, "Run in the playground").
const RUN_BATCH_MS = 50;
const RUN_BATCH_MAX = 10000;
const RUN_DRAW_MS = 250;
const R = { drawn: 0, stale: false };
/** @returns {Promise<void>} */
async function steps() {
  if (!S.loaded) return;
  dropFuture();
  const c = await advance(RUN_BATCH_MAX, RUN_BATCH_MS, false);
  if (!c) return;
  R.stale = true;
  if (c.terminal || performance.now() - R.drawn >= RUN_DRAW_MS) await drawRun();
}

// The pane after Run's steps, if they changed it since it was drawn.
async function drawRun() {
  if (!R.stale) return;
  R.stale = false;
  await render();
  R.drawn = performance.now();
}

/**
 * Time travel: show timeline entry i (its snapshot is restored; the entries after it stay).
 * @param {number} i
 */
export async function travel(i) {
  if (i < 0 || i >= S.timeline.length || i === S.cursor) return;
  await engine.call('restore', snapshotAt(i));
  S.cursor = i;
  S.pending = '[]';
  status(`at chronon ${i} of ${S.timeline.length - 1}`);
  await render();
}

export async function undo() {
  if (S.cursor === 0) return;
  await travel(S.cursor - 1);
  dropFuture();
  status('undone');
  await render();
}

export function stopRunning() {
  S.running = false;
  $('run').textContent = 'Run';
  // the address bar, left as it was while Run ran (share.js `scheduleUrl`)
  flushUrl();
}

// Run: a step every few milliseconds until the game ends (a second click pauses); with `every 0 ms`
// as many steps as fit in RUN_BATCH_MS between two drawings of the pane.
export async function run() {
  if (S.running) { stopRunning(); pauseSearch(); return; }
  S.running = true;
  $('run').textContent = 'Pause';
  rateStart();
  R.drawn = performance.now();
  while (S.running) {
    const before = S.timeline.length;
    const ms = Math.max(0, Number($input('run-ms').value) || 0);
    await act(() => (ms === 0 ? steps() : step(false)));
    rateStep(Math.max(0, S.timeline.length - before));
    if (!S.running || S.timeline.length === before || S.timeline[S.cursor].chronon?.terminal) break;
    await new Promise((r) => setTimeout(r, ms));
  }
  await act(drawRun);
  stopRunning();
}

// --- rendering -------------------------------------------------------------------------------------
// The seat menus and the "view as" menu of the loaded game.
export function renderSeats() {
  const div = $('seats');
  div.replaceChildren();
  const kinds = ['human', 'random', ...S.aiKinds];
  for (const k of S.seats.values()) if (!kinds.includes(k)) kinds.push(k); // e.g. mcts:100 from a link
  for (const [p, kind] of S.seats) {
    const sel = el('select', { 'data-player': p, 'aria-label': `seat ${p}` },
      ...kinds.map((k) => el('option', { value: k }, k)),
      ...(S.aiKinds.length ? [el('option', { value: OTHER_SEAT, title: SEAT_HELP }, OTHER_SEAT)] : []));
    sel.value = kind;
    const seat = el('div', { class: 'seat' }, el('span', { class: 'term' }, p), sel);
    sel.addEventListener('change', () => {
      seat.querySelector('input.seat-spec')?.remove();
      if (sel.value === OTHER_SEAT) seat.append(seatSpecInput(p, sel));
      else act(() => { S.seats.set(p, sel.value); return render(); });
    });
    div.append(seat);
  }
  const va = $select('viewas');
  va.replaceChildren(el('option', { value: '' }, 'designer'));
  for (const p of S.players) va.append(el('option', { value: p }, p));
  va.value = S.viewAs;
}

// The seat menu's last entry: another AI than the menu's (a weaker `mcts:50` for a large game, a
// deeper `minimax:5`, an objective), typed as `sidl play --seat` takes it (play.js `parseSeat`).
const OTHER_SEAT = 'other…';

/**
 * The text field of "other…" for player `p`'s seat menu `sel`: Enter takes the seat it names (it
 * joins the menu), a seat that is not one says why on the status line and stays to be corrected,
 * Escape (or leaving it empty) puts the menu back on the seat it had.
 * @param {string} p
 * @param {HTMLSelectElement} sel
 */
function seatSpecInput(p, sel) {
  const input = el('input', {
    class: 'seat-spec', type: 'text', 'data-player': p, 'aria-label': `seat ${p}: another AI`,
    placeholder: 'mcts:100', title: SEAT_HELP, spellcheck: 'false', autocomplete: 'off', size: 14,
  });
  const back = () => { input.remove(); sel.value = S.seats.get(p) || 'human'; };
  input.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape') { back(); return; }
    if (ev.key !== 'Enter') return;
    ev.preventDefault();
    if (!input.value.trim()) { back(); return; }
    let spec;
    try {
      spec = parseSeat(input.value);
    } catch (e) {
      input.setAttribute('aria-invalid', 'true');
      status(e instanceof Error ? e.message : String(e), true);
      return;
    }
    act(() => { S.seats.set(p, spec); renderSeats(); status(`seat ${p}: ${spec}`); return render(); });
  });
  queueMicrotask(() => input.focus());
  return input;
}

/**
 * The moves of player `p` at a switch: a button per action (and its why?), or a form per template of
 * an unlimited switch.
 * @param {string} p
 * @param {Switch} sw
 */
function renderSwitch(p, sw) {
  const row = el('div', { class: 'switch', 'data-player': p, 'data-switch': sw.switch },
    el('span', { class: 'term who', title: `${p} at ${sw.switch}` }, `${playerText(p)} at ${switchText(sw.switch)}:`),
    whyButton({ kind: 'legal', switch: sw.switch, player: p }, `why is ${sw.switch} legal, and who owns it?`));
  if (!sw.unlimited) {
    for (const a of sw.actions) {
      row.append(el('span', { class: 'action-pair' }, el('button', {
        class: 'action', 'data-player': p, 'data-switch': sw.switch, 'data-action': a,
        onclick: () => act(() => submit(p, sw.switch, a)), title: a,
      }, actionText(sw.switch, a)), whyButton({ kind: 'action', switch: sw.switch, action: a, player: p }, `why is ${a} an action of ${sw.switch}?`, '?')));
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
export async function render() {
  if (!S.loaded) return;
  try {
    await renderGame();
  } catch (e) {
    /** @param {string} t */
    const none = (t) => el('span', { class: 'none' }, t);
    $('moves').replaceChildren(none('(the engine gave no answer: see the error above)'));
    $('facts').replaceChildren(el('li', { class: 'none' }, '(unknown)'));
    $('board').replaceChildren();
    throw e;
  }
}

async function renderGame() {
  const viewer = S.viewAs === '' ? null : S.viewAs;
  // everything the pane shows is asked of the engine first, then the pane is changed in one go:
  // the page is laid out and painted once per drawing, not after each answer of the worker
  // the moves of the human seats the view may see: the viewed player's, or every human seat's
  // for the designer
  const shown = S.viewAs === '' ? S.players : [S.viewAs];
  // in one message to the worker: the game's layout is evaluated by the engine from the same view
  // (gallery images: games/), in the labels' language, or in raw terms when the toggle says so
  // the labels' event lines: only those of the chronons the page does not have (labels.js)
  const kept = eventsKept();
  const frame = await engine.frame(viewer, shown.filter((p) => S.seats.get(p) === 'human'), L.lang || null, !L.on, kept);
  const { terminal, labels, layout, accounts: acc } = frame;
  S.pending = JSON.stringify(frame.pending);
  /** @type {[string, Switch[]][]} */
  const humanSwitches = frame.switches;
  const pending = frame.pending.filter(([p]) => S.viewAs === '' || p === S.viewAs);
  const facts = frame.view;

  applyLabels(labels);
  const n = S.cursor;
  const last = S.timeline.length - 1;
  $('chronon-label').replaceChildren(
    `chronon ${n}`, n < last ? el('span', { class: 'future' }, ` (of ${last})`) : '',
    terminal ? el('span', { class: 'over' }, ' — game over') : '');

  const moves = $('moves');
  moves.replaceChildren();
  let any = false;
  for (const p of shown) {
    const kind = S.seats.get(p);
    if (kind !== 'human' && S.viewAs !== '') moves.append(el('span', { class: 'none' }, `${p} is played by: ${kind}`));
  }
  for (const [p, switches] of humanSwitches) {
    for (const sw of switches) {
      any = true;
      moves.append(renderSwitch(p, sw));
    }
  }
  if (!any && !moves.childElementCount) {
    moves.append(el('span', { class: 'none' }, terminal ? 'the game is over' : 'no human seat in this view has a switch now'));
  }
  $('pending').textContent = pending.length
    ? 'pending: ' + pending.map(([p, s, a]) => `${playerText(p)} ${switchText(s)} ← ${actionText(s, a)}`).join('; ') : '';

  $('facts-who').textContent = S.viewAs === '' ? '(the designer sees all)' : `(as ${S.viewAs} sees them)`;
  const ul = $('facts');
  ul.replaceChildren(...facts.map((f) => el('li', { title: factText(f) === f ? undefined : f }, factText(f))));
  if (facts.length === 0) ul.append(el('li', { class: 'none' }, 'no visible facts'));
  $('board').replaceChildren(...renderLayout(layout, new URL('games/', location.href)));

  $('accounts').replaceChildren(...acc.map((a) => el('tr', { 'data-player': a.player }, el('td', { title: a.player }, accountText(a.player) ?? playerText(a.player)), el('td', {}, a.amount),
    el('td', {}, n > 0 ? whyButton({ kind: 'payoff', player: a.player, chronon: n }, `why was ${a.player} paid (or not) in chronon ${n}?`) : ''))));
  renderChart();
  renderLog();
  $button('chronon').disabled = !!terminal;
  $button('random-chronon').disabled = !!terminal;
  $button('run').disabled = !!terminal && !S.running;
  $button('undo').disabled = n === 0;
  $button('back').disabled = n === 0;
  $button('forward').disabled = n >= last;
  scheduleUrl();
}

// The event log up to the shown chronon, newest first, as the viewed seat sees it; the future
// (after a step back) is listed greyed. Drawn block by block (a chronon's line and its events):
// a block is made again only when what it shows changed (its timeline entry, the viewer, greyed or
// not, its labelled lines), and a step that only adds chronons prepends their blocks, so a step
// changes the page in proportion to the new chronons, not to the game's length (rebuilding the
// whole log made Step slower and slower: 105 ms at chess's first steps, 300 ms after 150,
// docs/performance.md).
/** @typedef {{ entry: import('./state.js').TimelineEntry, who: number, future: boolean, texts: string[] | null, els: HTMLElement[] }} LogBlock */
const LOG = {
  /** @type {LogBlock[]} block k is timeline entry k + 1 */
  blocks: [],
  /** @type {LogBlock[]} the blocks in the list now, newest first */
  shown: [],
  /** @type {HTMLElement | null} the last line, "start" */
  start: null,
  /** @type {HTMLElement | null} the line marked current */
  current: null,
};

/**
 * The block of chronon `i` (1-based timeline index), made again if what it shows changed.
 * @param {number} i @param {number} who the viewed player's index, -1 for the designer
 */
function logBlock(i, who) {
  const entry = S.timeline[i];
  const c = /** @type {Chronon} entries after the start have their chronon */ (entry.chronon);
  const future = i > S.cursor;
  const events = who < 0 ? c.events : (c.playerEvents[who] || []);
  // the labelled lines of the chronons up to the one shown (the session's history)
  const texts = future ? null : eventTexts(i, events.length);
  const old = LOG.blocks[i - 1];
  if (old && old.entry === entry && old.who === who && old.future === future &&
      (old.texts === texts || (old.texts !== null && texts !== null && old.texts.length === texts.length && old.texts.every((t, j) => t === texts[j])))) {
    return old;
  }
  const els = [el('li', {
    class: `chronon${future ? ' future' : ''}`, 'data-chronon': i,
    onclick: () => act(() => travel(i)), title: 'travel to this chronon',
  }, `chronon ${i}${future ? ' (undone: Forward replays it)' : ''}${S.viewAs ? ` — as ${S.viewAs}` : ''}`)];
  for (const [j, e] of events.entries()) {
    const li = el('li', { class: `${e.kind}${future ? ' future' : ''}`, title: texts ? e.text : undefined }, texts ? texts[j] : e.text);
    const q = future ? null : eventQuestion(e, i);
    if (q) li.append(' ', whyButton(q, `why: ${e.text}`));
    els.push(li);
  }
  /** @type {LogBlock} */
  const b = { entry, who, future, texts, els };
  LOG.blocks[i - 1] = b;
  return b;
}

function renderLog() {
  const who = S.viewAs === '' ? -1 : S.players.indexOf(S.viewAs);
  const log = $('log');
  const n = S.timeline.length - 1;
  LOG.blocks.length = Math.min(LOG.blocks.length, n);
  /** @type {LogBlock[]} */
  const want = [];
  for (let i = n; i >= 1; i--) want.push(logBlock(i, who));
  if (!LOG.start || !LOG.start.isConnected) {
    LOG.start = el('li', { class: 'chronon', 'data-chronon': 0, onclick: () => act(() => travel(0)) }, 'start');
    LOG.shown = [];
  }
  // the blocks shown are the oldest of those wanted, in order: prepend the new ones
  const keep = LOG.shown.length;
  const prepend = keep <= want.length && LOG.shown.every((b, k) => b === want[want.length - keep + k]) && log.lastElementChild === LOG.start;
  if (prepend) {
    if (want.length > keep) log.prepend(...want.slice(0, want.length - keep).flatMap((b) => b.els));
  } else {
    log.replaceChildren(...want.flatMap((b) => b.els), LOG.start);
  }
  LOG.shown = want;
  const current = S.cursor === 0 ? LOG.start : want[n - S.cursor].els[0];
  if (LOG.current !== current) {
    LOG.current?.classList.remove('current');
    current.classList.add('current');
    LOG.current = current;
  }
}
