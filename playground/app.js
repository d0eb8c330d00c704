// @ts-check
// The sidl playground: a CodeMirror editor checked as you type, a gallery of the shipped games, and
// a session played chronon by chronon with time travel, all in the browser.
// The engine runs in a Web Worker behind engine.js (a call that hangs gets the worker restarted).
// While work is under way <body data-busy> is set; <body data-ready> once the first game is loaded
// (the browser tests wait on both). See docs/playground.md.
// This module starts the page and wires its controls; the page's parts are the modules of app/:
// state.js (the session's state, the engine, the action queue, errors), editor.js, diagnostics.js,
// session.js (loading and starting), game.js (moves, time travel, the game pane), chart.js, why.js,
// query.js, hidden.js (the §11 check), analyse.js (the Analyse panel), stats.js (the Statistics
// panel), share.js (the URL), dom.js.
import { make as el } from './play.js';
import { readHash } from './url.js';
import { setDiagnosticList } from './app/diagnostics.js';
import { $, $input, $select, status } from './app/dom.js';
import { createEditor, editorText, setSource, useKeywords } from './app/editor.js';
import { run, step, travel, undo, render, stopRunning } from './app/game.js';
import { checkHidden } from './app/hidden.js';
import { analyse, downloadEfg, stopAnalyse } from './app/analyse.js';
import { runQuery } from './app/query.js';
import { loadFromEditor, loadGallery, loadSource, startSession } from './app/session.js';
import { share } from './app/share.js';
import { setupStats } from './app/stats.js';
import { S, engine, act, clearError } from './app/state.js';
import { askWhy, formQuestion, showWhyFields } from './app/why.js';

const editor = createEditor({
  parent: $('editor'),
  check: (text) => engine.check(text),
  onDiagnostics: setDiagnosticList,
  onLoad: () => { act(loadFromEditor); },
});
Object.assign(window, { sidlEditor: editor });

async function loadKeywords() {
  const kws = await engine.keywords().catch(() => null);
  if (!Array.isArray(kws) || kws.length === 0) return;
  useKeywords(kws);
}

async function main() {
  let names = ['nim.sidl'];
  try {
    const r = await fetch('games/index.json');
    if (r.ok) names = await r.json();
  } catch (_) { /* keep the default */ }
  const ex = $select('example');
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
  $('viewas').addEventListener('change', () => act(() => { S.viewAs = $select('viewas').value; return render(); }));
  $('check-hidden').addEventListener('click', () => act(checkHidden));
  $('why-kind').addEventListener('change', showWhyFields);
  $('why-form').addEventListener('submit', (e) => { e.preventDefault(); act(() => askWhy(formQuestion())); });
  showWhyFields();
  setupStats();
  $('stop-check').addEventListener('click', () => engine.stop('the §11 check was stopped'));
  $('analyse').addEventListener('click', () => act(analyse));
  $('stop-analyse').addEventListener('click', stopAnalyse);
  $('download-efg').addEventListener('click', () => act(downloadEfg));
  $('share').addEventListener('click', () => act(share));
  editor.dom.addEventListener('input', () => {
    if (S.game && S.gallery.get(S.game) !== editorText()) ex.value = '';
  });

  await loadKeywords();
  await act(async () => {
    /** @type {import('./url.js').Hash} */
    const h = await readHash().catch(() => ({}));
    if (h.seed !== undefined && Number.isFinite(h.seed)) $input('seed').value = String(h.seed);
    if (h.interrupt !== undefined) $input('interrupt').checked = h.interrupt;
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
