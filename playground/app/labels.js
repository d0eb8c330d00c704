// @ts-check
// Labels (docs/playground.md "Labels"): the game pane shows what the game's `label/2`, `label/3`
// rules say a thing reads as, for the viewed seat, in a chosen language; a "labels / raw terms"
// toggle shows the designer the terms themselves. The texts come from the engine's `labels(viewer,
// lang)` (built from that viewer's view only); every text is inserted as text (`textContent`,
// the DOM builder), never as markup. The choice is kept in localStorage (`sidl.labels`: `raw` or
// `labels`; `sidl.lang`).
import { labelText } from '../labeltext.js';
import { make as el } from '../play.js';
import { $ } from './dom.js';

/** @typedef {import('../pkg/sidl_wasm.js').Labels} Labels */

const store = (() => {
  try { return window.localStorage; } catch (_) { return null; }
})();

export const L = {
  /** show labels (true) or raw terms */
  on: store?.getItem('sidl.labels') !== 'raw',
  /** the language asked for ('': the game's default) */
  lang: store?.getItem('sidl.lang') || '',
  /** the texts of the state shown (raw with the toggle off) */
  t: labelText(null),
};

// The labelled event lines of the history, kept from drawing to drawing: the pane asks the engine
// only for those of the chronons it does not have (`labels(viewer, lang, from)`), and the engine
// answers from an earlier chronon (`eventsFrom`) when lines before `from` changed (travel, another
// viewer or language, label rules that read the state). Without them a drawing copied every line
// of the history (4.9 ms at chess's chronon 150, docs/performance.md).
const EV = {
  /** @type {string[][]} per chronon of the history, its lines */
  lines: [],
  /** the lines are those of the engine's last answer (not while a frame is asked) */
  valid: false,
};

/** The `from` of the next frame's labels: the number of chronons whose lines the page has. */
export function eventsKept() {
  const from = EV.valid ? EV.lines.length : 0;
  // until the answer is merged (a frame that fails leaves them unknown: all are asked next time)
  EV.valid = false;
  return from;
}

/**
 * Shows the engine's labels of the current state as the viewed seat sees it (`labels(viewer,
 * lang, from)`, asked in the pane's frame: worker.js `frame`; null when the view itself fails: the
 * panes show the engine's error) (the bar, the description and roles) and makes them the texts of
 * the pane; with the toggle off, or for a game without labels, every text stays raw. Their event
 * lines (from chronon `eventsFrom` on) are merged into the lines kept: `l.events` is then the
 * history's.
 * @param {Labels | null} l
 */
export function applyLabels(l) {
  if (l) {
    EV.lines.length = Math.min(EV.lines.length, l.eventsFrom);
    for (const e of l.events) EV.lines.push(e);
    EV.valid = true;
    l.events = EV.lines;
  } else {
    EV.lines = [];
  }
  renderBar(l);
  L.t = labelText(L.on ? l : null);
  renderAbout(L.on && l && l.active ? l : null);
}

/** @param {string} f */
export const factText = (f) => L.t.fact(f);
/** @param {string} p */
export const playerText = (p) => L.t.player(p);
/** @param {string} s */
export const switchText = (s) => L.t.switch(s);
/** @param {string} s @param {string} a */
export const actionText = (s, a) => L.t.action(s, a);
/** @param {string} p the account's player */
export const accountText = (p) => L.t.account(p);
/**
 * The labelled event lines of chronon `i` of the session's history, or null.
 * @param {number} i @param {number} n
 */
export const eventTexts = (i, n) => L.t.events(i, n);

// The toggle and the language menu (only when the game declares languages).
/** @param {Labels | null} l */
function renderBar(l) {
  const bar = $('labels-bar');
  if (!l || !l.active) { bar.replaceChildren(); bar.hidden = true; return; }
  bar.hidden = false;
  const toggle = el('input', { type: 'checkbox', id: 'labels-on', 'aria-label': 'show labels (off: raw terms)' });
  toggle.checked = L.on;
  toggle.addEventListener('change', () => {
    L.on = toggle.checked;
    store?.setItem('sidl.labels', L.on ? 'labels' : 'raw');
    bar.dispatchEvent(new CustomEvent('labels-change', { bubbles: true }));
  });
  /** @type {(Node | string)[]} */
  const parts = [el('label', { title: 'the game\'s labels, or the raw terms (for designers)' }, toggle, ' labels / raw terms')];
  if (l.languages.length) {
    const langs = ['', ...l.languages.filter((x) => x !== '')];
    const sel = el('select', { id: 'labels-lang', 'aria-label': 'language' },
      ...langs.map((x) => el('option', { value: x }, x === '' ? 'default language' : x)));
    sel.value = langs.includes(L.lang) ? L.lang : '';
    sel.disabled = !L.on;
    sel.addEventListener('change', () => {
      L.lang = sel.value;
      store?.setItem('sidl.lang', L.lang);
      bar.dispatchEvent(new CustomEvent('labels-change', { bubbles: true }));
    });
    parts.push(' ', sel);
  }
  bar.replaceChildren(...parts);
}

// The game's description, the roles and, at the end, the result lines.
/** @param {Labels | null} l */
function renderAbout(l) {
  const about = $('about');
  const result = $('result');
  if (!l) { about.replaceChildren(); result.replaceChildren(); about.hidden = result.hidden = true; return; }
  const items = [];
  if (l.description) items.push(el('p', { class: 'description' }, l.description));
  for (const r of l.roles) items.push(el('p', { class: 'role', 'data-player': r.player }, el('strong', {}, `${playerText(r.player)}: `), r.text));
  about.replaceChildren(...items);
  about.hidden = items.length === 0;
  result.replaceChildren(...l.result.map((t) => el('li', {}, t)));
  result.hidden = l.result.length === 0;
}

// A label change redraws the pane (`render` passed in: game.js imports this module).
/** @param {() => unknown} redraw */
export function onLabelsChange(redraw) {
  $('labels-bar').addEventListener('labels-change', () => { redraw(); });
}
