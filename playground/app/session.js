// @ts-check
// Loading a game (from the gallery, the editor or a shared link) and starting its session: check
// (errors stop it), load, start with the seed, replay a shared session into the timeline.
import { AI_KINDS, parseSeat } from '../play.js';
import { setDiagnosticList } from './diagnostics.js';
import { $, $input, $select, status } from './dom.js';
import { editorText, setSource } from './editor.js';
import { accountsNow, render, renderSeats, stopRunning } from './game.js';
import { S, engine, clearError, currentSnapshot, setSnapHead, showError } from './state.js';
import { renderStatsSeats } from './stats.js';

/**
 * What a shared link gives besides the source.
 * @typedef {{ seats?: string[], view?: string, session?: string }} LinkOptions
 */

/**
 * Loads a source: check (errors stop it), load, start with the seed. `opts` may carry the seats,
 * view and session of a shared link. Whether it loaded.
 * @param {string} source
 * @param {string | null} gameName its gallery name, or null
 * @param {LinkOptions} [opts]
 */
export async function loadSource(source, gameName, opts = {}) {
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
  $select('example').value = gameName || '';
  S.players = players;
  /** @type {string[]} */
  const badSeats = [];
  S.seats = new Map(players.map((p, i) => [p, seatOf(opts.seats && opts.seats[i], p, badSeats)]));
  S.viewAs = opts.view && players.includes(opts.view) ? opts.view : '';
  if (!S.aiKinds.length && await engine.has('aiMoves')) S.aiKinds = [...AI_KINDS];
  await startSession(opts.session);
  renderSeats();
  renderStatsSeats();
  await render();
  status(opts.session ? `loaded ${gameName || 'the linked game'} and replayed its session` : `loaded ${gameName || 'the edited game'}`);
  if (badSeats.length) showError({ message: `the link's seats: ${badSeats.join('; ')}` });
  return true;
}

/**
 * A seat of a shared link: what it names if the playground supports it, else human, and the
 * reason is added to `bad` (shown: a seat is never replaced without a word).
 * @param {string | undefined} text
 * @param {string} player
 * @param {string[]} bad
 */
function seatOf(text, player, bad) {
  try {
    return parseSeat(text);
  } catch (e) {
    bad.push(`${player}: ${/** @type {Error} */ (e).message}; it is a human seat`);
    return 'human';
  }
}

// Loads the editor's text (keeping its gallery name while it is the game as shipped).
export async function loadFromEditor() {
  const src = editorText();
  const name = S.game && S.gallery.get(S.game) === src ? S.game : null;
  await loadSource(src, name);
}

/**
 * Puts gallery game `name` into the editor (fetched once) and returns its text.
 * @param {string} name
 */
export async function loadGallery(name) {
  let text = S.gallery.get(name);
  if (text === undefined) {
    const r = await fetch(`games/${encodeURIComponent(name)}`);
    if (!r.ok) throw new Error(`games/${name}: ${r.status}`);
    text = await r.text();
    S.gallery.set(name, text);
  }
  $select('example').value = name;
  setSource(text);
  return text;
}

/**
 * Starts a session with the seed and interrupt mode; with a snapshot (a shared link), replays it
 * and rebuilds the timeline: the events from `history()`, the accounts over time from the start's
 * accounts plus the account events, one part of the snapshot per chronon (`snapshotParts`: the
 * snapshot of a chronon, restored only when travelled to, is the parts up to it).
 * @param {string} [sessionJson]
 */
export async function startSession(sessionJson) {
  S.seed = seedValue();
  S.interrupt = $input('interrupt').checked;
  await engine.call('start', S.seed, S.interrupt);
  /** @type {import('./state.js').TimelineEntry} */
  const first = { part: '', chronon: null, accounts: await accountsNow() };
  setSnapHead(await engine.call('snapshot'));
  S.timeline = [first];
  S.cursor = 0;
  S.pending = '[]';
  engine.snapshot = currentSnapshot;
  if (!sessionJson) return;
  await engine.call('restore', sessionJson);
  // the head of the restored session (its seed and mode), and its pending submissions
  const restored = await engine.call('snapshot');
  setSnapHead(restored);
  S.pending = JSON.stringify(JSON.parse(restored).pending);
  const parts = await engine.call('snapshotParts', 0);
  const hist = await engine.call('history');
  let accounts = first.accounts;
  parts.forEach((part, /** @type {number} */ k) => {
    const c = hist[k];
    accounts = accounts.map((a) => {
      const delta = c.events.filter((e) => e.kind === 'account' && e.player === a.player)
        .reduce((sum, e) => sum + Number(e.amount), 0);
      return { ...a, value: a.value + delta };
    });
    S.timeline.push({ part, chronon: c, accounts });
  });
  S.cursor = S.timeline.length - 1;
  S.timeline[S.cursor].accounts = await accountsNow();
}

function seedValue() {
  const n = Number($input('seed').value);
  return Number.isFinite(n) && n >= 0 ? Math.floor(n) % 4294967296 : 1;
}
