// @ts-check
// What the page's modules share: the session's state `S`, the engine (a Web Worker behind
// engine.js; a call that hangs gets the worker restarted), the one-action-at-a-time queue `act`, and
// how an error is shown.
import { Engine } from '../engine.js';
import { actionQueue, make as el } from '../play.js';
import { $, status } from './dom.js';
import { jumpTo } from './editor.js';

/** @typedef {import('../pkg/sidl_wasm.js').Chronon} Chronon */
/** @typedef {import('../pkg/sidl_wasm.js').Account} Account */
/** @typedef {import('../pkg/sidl_wasm.js').SidlErrorLocation} SidlErrorLocation */

/**
 * One chronon reached: its part of the session snapshot (the JSON of its submissions and overrides,
 * `snapshotParts`; "" for the start), the Chronon it ran (null for the start), the accounts then.
 * An entry holds only its own chronon's data: the snapshot of entry i is the parts of entries 1..i
 * joined (`snapshotAt`), so a step adds what it made, not a copy of the whole history.
 * @typedef {{ part: string, chronon: Chronon | null, accounts: Account[] }} TimelineEntry
 */

export const S = {
  loaded: false,
  source: '',           // the loaded source
  /** @type {string | null} its gallery name (null: edited or from a link) */
  game: null,
  /** @type {Map<string, string>} gallery name -> source text as shipped */
  gallery: new Map(),
  /** @type {string[]} */
  players: [],
  /** @type {Map<string, string>} player -> 'human' | 'random' | an AI spec */
  seats: new Map(),
  viewAs: '',           // '' = the designer
  seed: 1,
  interrupt: false,
  // One entry per chronon reached. `cursor` is the entry shown; entries after it are the "future"
  // that Forward replays until a new move is made.
  /** @type {TimelineEntry[]} */
  timeline: [],
  cursor: 0,
  // the start of the session's snapshot text, up to its chronons (`{"seed":…,"interrupt":…,"chronons":[`)
  snapHead: '',
  // the pending submissions of the state shown, as the pane last read them (JSON)
  pending: '[]',
  running: false,
  // Pause was clicked while an AI seat was deciding: its search is stopped by replacing the worker,
  // which is not an error (no red message when the worker is back; reset then)
  searchStopped: false,
  /** @type {string[]} */
  aiKinds: [],
};

/**
 * The session snapshot of timeline entry `i` (`snapshot()`'s text then: the parts of its chronons,
 * no pending submission), or, with `pending`, of the state shown with those pending submissions.
 * @param {number} i
 * @param {string} [pending] JSON of `[player, switch, action]` triples
 */
export function snapshotAt(i, pending = '[]') {
  let parts = '';
  for (let k = 1; k <= i; k++) parts += (k > 1 ? ',' : '') + S.timeline[k].part;
  return `${S.snapHead}${parts}],"pending":${pending}}`;
}

/**
 * The session to restore after a restart of the worker (`engine.snapshot`, set when a session
 * starts): the state shown, with the pending submissions the pane last read; made only when needed,
 * no copy of the history after every step.
 */
export const currentSnapshot = () => snapshotAt(S.cursor, S.pending);

/**
 * `S.snapHead` from a snapshot's text.
 * @param {string} snap
 */
export function setSnapHead(snap) {
  const key = '"chronons":[';
  S.snapHead = snap.slice(0, snap.indexOf(key) + key.length);
}

// the worker app/boot.js started while the page loaded (a new one if that script did not run)
const early = /** @type {{ sidlEarlyWorker?: Worker }} */ (/** @type {unknown} */ (window));
const worker = early.sidlEarlyWorker;
delete early.sidlEarlyWorker;

export const engine = new Engine({
  timeoutMs: 5000,
  worker,
  // the game and its session are back as they were; the page keeps its (same) display rather
  // than asking the engine again at once (a rule that hangs on every state would loop)
  onRestart: (message) => {
    if (S.searchStopped) { S.searchStopped = false; return; }
    showError({ message: `${message}; the game was reloaded at chronon ${S.cursor}` });
  },
});
Object.assign(window, { sidlEngine: engine, sidlState: S }); // for the browser tests and the console

// Runs a UI action, one at a time: an action clicked while another works waits for it (a second
// click on Step is a second step after the first, never interleaved with it). <body data-busy> is
// set until every queued action has finished. Errors are shown.
export const act = actionQueue({
  onBusy: (busy) => {
    if (busy) document.body.dataset.busy = 'true';
    else delete document.body.dataset.busy;
  },
  onError: (e) => { showError(e); console.warn(e); },
});

/**
 * An engine error: its message in the status line, and in the game pane with a link to its source
 * location when it has one (runtime and budget errors).
 * @param {unknown} e an Error (with `sidl` from the engine), or anything else thrown
 */
export function showError(e) {
  const err = /** @type {{ message?: string, sidl?: SidlErrorLocation } | null | undefined} */ (e);
  const message = String(err && err.message ? err.message : e);
  status(message, true);
  const box = $('engine-error');
  box.replaceChildren(el('span', { class: 'message' }, message));
  const loc = err && err.sidl;
  if (loc && loc.line) {
    const line = loc.line;
    box.append(' ', el('a', {
      href: '#', class: 'goto', 'data-line': line,
      onclick: (/** @type {Event} */ ev) => { ev.preventDefault(); jumpTo(line, loc.column, loc.endLine, loc.endColumn); },
    }, `line ${line}:${loc.column}`));
    if (loc.path && loc.path.length) box.append(el('div', { class: 'path' }, `in ${loc.path.join(' → ')}`));
  }
  box.append(' ', el('button', { class: 'close', onclick: () => { box.hidden = true; } }, '×'));
  box.hidden = false;
}
export const clearError = () => { $('engine-error').hidden = true; };
