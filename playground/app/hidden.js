// @ts-check
// The §11 check: explore the reachable states (up to a number) for a player's legal moves that
// reveal a hidden fact, with progress, Stop, and the counterexample when there is one.
import { make as el } from '../play.js';
import { $, $button, $input } from './dom.js';
import { S, engine } from './state.js';

export async function checkHidden() {
  if (!S.loaded) return;
  const max = Math.max(1, Number($input('max-states').value) || 5000);
  const prog = $('check-progress');
  const out = $('check-result');
  out.replaceChildren();
  prog.textContent = 'exploring…';
  $button('stop-check').disabled = false;
  $button('check-hidden').disabled = true;
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
    out.append(el('div', { class: 'error' }, /** @type {Error} */ (e).message));
  } finally {
    $button('stop-check').disabled = true;
    $button('check-hidden').disabled = false;
  }
}

/**
 * A §11 counterexample, each part once: what the player sees (the description's first line is
 * already in the report's message, its histories are the steps), then the two histories.
 * @param {import('../pkg/sidl_wasm.js').Counterexample} c
 */
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
