// @ts-check
// The session in the address bar (url.js writes and reads the hash), so that the address is a link
// that reproduces the session; "Copy link" copies it. Writing it (the snapshot from the worker,
// deflated) costs in proportion to the game's length, so a drawing of the pane does not write it:
// it asks for it (`scheduleUrl`), and the address is written once the page is idle (after the
// pane is painted; many steps in a row make one write), when Run stops, when the page loses the
// focus (the user goes to the address bar) or is hidden, and at once by "Copy link".
// <body data-url-due> is set while a write is asked for and not done (the browser tests wait for
// it as for data-busy); while Run runs, the address is left as it was until Run stops.
import { writeHash } from '../url.js';
import { status } from './dom.js';
import { S, act, engine } from './state.js';

const U = {
  /** the address is not the session's */
  due: false,
  /** @type {(() => void) | null} cancels the write waiting for the page to be idle */
  cancel: null,
};

// Writes the loaded game, seed, seats, view and session into the URL hash (the session's snapshot
// from the worker).
export async function updateUrl() {
  U.due = false;
  const session = await engine.call('snapshot');
  const snap = JSON.parse(session);
  const hash = await writeHash({
    game: S.game, src: S.source, seed: S.seed, interrupt: S.interrupt,
    seats: [...S.seats.values()], view: S.viewAs,
    session: snap.chronons.length || snap.pending.length ? session : null,
  });
  if (location.hash !== hash) history.replaceState(null, '', hash);
}

// <body data-url-due> off when no write is asked for.
function settled() {
  if (!U.due && !U.cancel) delete document.body.dataset.urlDue;
}

/**
 * Calls `f` when the page is idle (requestIdleCallback, within a second; a short timeout where the
 * browser has none); a function that cancels it.
 * @param {() => void} f
 */
function whenIdle(f) {
  const w = /** @type {{ requestIdleCallback?: typeof requestIdleCallback }} */ (/** @type {unknown} */ (window));
  if (w.requestIdleCallback) {
    const id = w.requestIdleCallback(f, { timeout: 1000 });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(f, 100);
  return () => clearTimeout(id);
}

// The session changed (or may have): the address is written when the page is idle (not while Run
// runs: `flushUrl` when it stops).
export function scheduleUrl() {
  U.due = true;
  if (S.running || U.cancel) return;
  document.body.dataset.urlDue = 'true';
  U.cancel = whenIdle(() => { U.cancel = null; flushUrl(); });
}

// Writes the address now (after the action under way) if it is not the session's.
export function flushUrl() {
  if (U.cancel) { U.cancel(); U.cancel = null; }
  if (!U.due) { settled(); return Promise.resolve(); }
  document.body.dataset.urlDue = 'true';
  return act(async () => {
    try { if (U.due) await updateUrl(); } finally { settled(); }
  });
}

// the user may be about to copy the address (the focus went to the address bar) or to leave
window.addEventListener('blur', () => { flushUrl(); });
document.addEventListener('visibilitychange', () => { if (document.hidden) flushUrl(); });

// "Copy link": the URL, up to date, to the clipboard (or left in the address bar).
export async function share() {
  if (U.cancel) { U.cancel(); U.cancel = null; }
  try { await updateUrl(); } finally { settled(); }
  try { await navigator.clipboard.writeText(location.href); status('link copied'); } catch (_) { status('the link is in the address bar'); }
}
