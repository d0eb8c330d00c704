// @ts-check
// The Analyse panel (docs/analysis.md "In the playground"): the loaded game's extensive form built
// in the worker (SidlGame.analyse, with the node count as progress), solved in steps (Analysis.step:
// the page asks for one step at a time, so Stop between steps keeps the average so far; Stop while
// the tree is built restarts the worker), then the tree's size, each player's value, NashConv, the
// strategy table per information set in the game's own words, the exploitability of the AI seats
// chosen in Seats, and the .efg as a download.
import { make as el } from '../play.js';
import { $, $button, $input, $select } from './dom.js';
import { S, engine } from './state.js';

/** @typedef {import('../pkg/sidl_wasm.js').AnalysisResult} AnalysisResult */
/** @typedef {import('../pkg/sidl_wasm.js').InfosetStrategy} InfosetStrategy */
/** @typedef {import('../pkg/sidl_wasm.js').ExploitResult} ExploitResult */

/** Where a run is: building the tree, solving (steps), measuring the AI seats, or nothing. */
let phase = /** @type {'idle' | 'build' | 'solve' | 'exploit'} */ ('idle');
let stopAsked = false;
/** The game's title of the last tree built (the .efg's file name). */
let title = 'game';

// The time one step should take: long enough for speed, short enough for a prompt Stop.
const STEP_MS = 150;

/** Runs the analysis of the loaded game (the Analyse button). */
export async function analyse() {
  if (!S.loaded) return;
  const out = $('analyse-result');
  const text = $('analyse-progress');
  const bar = /** @type {HTMLProgressElement} */ ($('analyse-bar'));
  out.replaceChildren();
  bar.value = 0;
  bar.hidden = false;
  stopAsked = false;
  $button('analyse').disabled = true;
  $button('stop-analyse').disabled = false;
  $button('download-efg').disabled = true;
  const options = {
    method: $select('analyse-method').value,
    iterations: Math.max(1, Math.floor(Number($input('analyse-iterations').value)) || 10000),
    maxNodes: Math.max(1, Math.floor(Number($input('analyse-max-nodes').value)) || 1000000),
  };
  try {
    phase = 'build';
    text.textContent = 'building the extensive form…';
    let step = await engine.analyse(options, (p) => { text.textContent = `building the extensive form: ${p.nodes} nodes`; });
    $button('download-efg').disabled = false;
    phase = 'solve';
    // an exact method (total 1) solves in one step: say so while it runs, with an indeterminate bar
    if (step.total <= 1 && !step.finished) {
      text.textContent = 'solving exactly (this can take a while on larger games)…';
      bar.removeAttribute('value');
    }
    let chunk = 10;
    while (!step.finished && !stopAsked) {
      const t0 = performance.now();
      step = await engine.analysis('step', chunk);
      const ms = performance.now() - t0;
      // aim at STEP_MS per step
      chunk = Math.max(1, Math.min(100000, Math.round(chunk * Math.min(4, STEP_MS / Math.max(ms, 1)))));
      bar.value = step.done / step.total;
      text.textContent = step.total > 1 ? `CFR+: ${step.done} of ${step.total} iterations` : 'solving…';
    }
    const r = await engine.analysis('result');
    title = r.title.replace(/[^\w.-]+/g, '_') || 'game';
    bar.value = step.done / step.total;
    text.textContent = summaryLine(r, step.finished);
    out.append(...showResult(r));
    const seats = [...S.seats].filter(([, kind]) => kind !== 'human');
    const box = el('div', { id: 'analyse-exploit' });
    out.append(el('h3', {}, 'How exploitable are the AI seats?'), box);
    if (seats.length === 0) {
      box.append(el('div', { class: 'none' }, 'No AI seat: choose random, minimax or mcts for a player in Seats and run Analyse again to see what a best response gains against it.'));
    } else {
      phase = 'exploit';
      box.append(el('div', { class: 'none' }, `measuring ${seats.map(([p, k]) => `${p}=${k}`).join(', ')}…`));
      const xs = await engine.analysis('exploit', seats);
      box.replaceChildren(...xs.map((x) => showExploit(x, r)));
    }
  } catch (e) {
    const err = /** @type {import('../engine.js').EngineError} */ (e);
    text.textContent = phase === 'build' ? 'the extensive form could not be built' : 'the analysis failed';
    if (err.restarted && stopAsked) text.textContent = `stopped while ${phase === 'build' ? 'building the tree' : 'measuring the AI seats'}; the game was reloaded`;
    const code = err.sidl ? err.sidl.code : null;
    out.append(el('div', { class: 'error', 'data-code': code || '' }, code ? `error[${code}]: ${err.message}` : err.message));
    if (err.sidl && err.sidl.help) out.append(el('div', { class: 'help' }, `help: ${err.sidl.help}`));
  } finally {
    phase = 'idle';
    $button('analyse').disabled = false;
    $button('stop-analyse').disabled = true;
  }
}

/** The Stop button: between solver steps the average so far is kept; else the worker restarts. */
export function stopAnalyse() {
  stopAsked = true;
  if (phase === 'build' || phase === 'exploit') engine.stop('the analysis was stopped');
}

/** The Download .efg button: the tree as Gambit's extensive form, as `sidl export --efg`. */
export async function downloadEfg() {
  const text = await engine.analysis('efg');
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const a = el('a', { href: url, download: `${title}.efg` });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * @param {AnalysisResult} r
 * @param {boolean} finished
 */
function summaryLine(r, finished) {
  const how = r.iterations === null ? `${r.method} (exact)` : `${r.method}, ${r.iterations} iterations${finished ? '' : ' (stopped)'}`;
  return `${r.title}: ${r.nodes} nodes (${r.decisionNodes} decisions, ${r.chanceNodes} chance, ${r.terminalNodes} ends), ${r.infosets} information sets${r.zeroSum ? ', zero-sum' : ''}; ${how}`;
}

/** @param {number} x */
const num = (x) => (Math.abs(x) < 5e-7 ? '0' : x.toFixed(4));
/** @param {number} p */
const pct = (p) => `${(100 * p).toFixed(p > 0 && p < 0.001 ? 2 : 1)}%`;

/**
 * The values, NashConv and the strategy table.
 * @param {AnalysisResult} r
 * @returns {HTMLElement[]}
 */
function showResult(r) {
  const names = new Map(r.values.map((v) => [v.player, v.name]));
  const values = el('table', { id: 'analyse-values' },
    el('tr', {}, el('th', {}, 'player'), el('th', {}, 'value'), el('th', {}, '')),
    ...r.values.map((v) => el('tr', { 'data-player': v.player },
      el('td', {}, v.name === v.player ? v.player : `${v.name} ${v.player}`),
      el('td', { class: 'num' }, num(v.value)),
      el('td', { class: 'none' }, v.exact !== null ? `exactly ${v.exact}` : ''))));
  const conv = el('div', { id: 'analyse-nashconv' }, `NashConv ${num(r.nashConv)}: ${r.verdict}`);
  // the analysis of a game whose unlimited switches candidate/2 discretised says so (the engine's words)
  const note = r.note ? [el('div', { id: 'analyse-note', class: 'none' }, `Note: ${r.note}.`)] : [];
  const table = el('table', { id: 'analyse-strategies' },
    el('tr', {}, el('th', {}, 'player'), el('th', {}, 'after its own moves'), el('th', {}, 'when it sees'), el('th', {}, 'it plays')),
    ...r.strategies.map((s) => strategyRow(s, names)));
  return [
    ...note,
    el('h3', {}, 'Values (expected account change under the computed strategies)'), values, conv,
    el('h3', {}, 'Strategies'),
    el('div', { class: 'none' }, 'One row per information set: what the player has done and sees when it must choose (it cannot tell apart the situations that look the same to it), and how often it picks each action.'),
    table,
  ];
}

/**
 * @param {InfosetStrategy} s
 * @param {Map<string, string>} names
 */
function strategyRow(s, names) {
  const cut = s.label.indexOf(' -> ');
  const past = cut >= 0 ? s.label.slice(0, cut) : '';
  const sees = cut >= 0 ? s.label.slice(cut + 4) : s.label;
  const best = Math.max(...s.actions.map((a) => a.probability));
  const plays = el('div', { class: 'plays' }, ...s.actions.map((a) => el('div', { class: a.probability === best && best > 0.5 ? 'action main' : 'action', title: a.action },
    el('span', { class: 'track' }, el('span', { class: 'bar', style: `width:${Math.round(60 * a.probability)}px` })),
    el('span', { class: 'p' }, pct(a.probability)),
    el('span', { class: 'a' }, a.label),
    a.exact !== null && a.exact !== '0' && a.exact !== '1' ? el('span', { class: 'none' }, ` (${a.exact})`) : '')));
  return el('tr', { 'data-infoset': String(s.infoset), title: s.raw },
    el('td', { class: 'who' }, names.get(s.player) || s.player),
    el('td', { class: 'term' }, past || '—'),
    el('td', { class: 'term' }, sees),
    el('td', {}, plays));
}

/**
 * @param {ExploitResult} x
 * @param {AnalysisResult} r
 */
function showExploit(x, r) {
  const names = new Map(r.values.map((v) => [v.player, v.name]));
  const who = names.get(x.player) || x.player;
  return el('div', { class: 'exploit', 'data-player': x.player },
    el('div', {}, `${who} played by ${x.spec} gets ${num(x.aiValue)} against the computed strategies; a best response gains up to ${num(x.gain)}.`),
    el('ul', {}, ...x.responses.map((b) => el('li', {},
      `${names.get(b.player) || b.player}: ${num(b.reference)} with the computed strategy, ${num(b.bestResponse)} best-responding (gain ${num(b.gain)})`))));
}
