// @ts-check
// The session in the address bar (url.js writes and reads the hash): rewritten after every redraw,
// so that the address is always a link that reproduces the session; "Copy link" copies it.
import { writeHash } from '../url.js';
import { status } from './dom.js';
import { S, engine } from './state.js';

// Writes the loaded game, seed, seats, view and session into the URL hash (`session`: the snapshot
// of now, when the caller has it).
/** @param {string | null} [known] */
export async function updateUrl(known = null) {
  const session = known ?? await engine.call('snapshot');
  engine.snapshot = session;
  const snap = JSON.parse(session);
  const hash = await writeHash({
    game: S.game, src: S.source, seed: S.seed, interrupt: S.interrupt,
    seats: [...S.seats.values()], view: S.viewAs,
    session: snap.chronons.length || snap.pending.length ? session : null,
  });
  if (location.hash !== hash) history.replaceState(null, '', hash);
}

// "Copy link": the URL, up to date, to the clipboard (or left in the address bar).
export async function share() {
  await updateUrl();
  try { await navigator.clipboard.writeText(location.href); status('link copied'); } catch (_) { status('the link is in the address bar'); }
}
