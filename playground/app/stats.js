// @ts-check
// The Statistics panel (docs/stats.md "In the playground"): many games of the loaded game simulated
// in the worker with the seats chosen here (progress, Stop between steps), or the records of a
// records file replayed; then the engine's report (the numbers of `sidl stats`) as tables, and
// histograms of game length, final accounts and metrics (uPlot). Also the downloads: the records of
// the simulated games, the report as CSV and JSON, and the record of the game being played
// (sidl-record/1, written by the engine; docs/records.md). Every number is the engine's
// (wasm/src/stats.rs over engine/src/stats.rs); this module only draws. The panel's state is on
// `#stats-pane` as `data-state` (`idle`, `running`, `done`, `stopped`, `failed`) for the browser tests.
import { uPlot } from '../vendor/vendor.js';
import { make as el } from '../play.js';
import { $, status } from './dom.js';
import { S, engine, showError } from './state.js';

/** @typedef {import('../pkg/sidl_wasm.js').StatsProgress} StatsProgress */
/** @typedef {import('../pkg/sidl_wasm.js').StatsResult} StatsResult */
/** @typedef {import('../pkg/sidl_wasm.js').StatsReport} StatsReport */
/** @typedef {import('../pkg/sidl_wasm.js').StatsSummary} StatsSummary */
/** @typedef {import('../pkg/sidl_wasm.js').StatsShare} StatsShare */

const palette = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf'];
// a step of the run takes about this long: short enough for Stop and the progress bar to answer
const STEP_MS = 150;
// a step that runs longer than this (a deep search per move) gets the worker restarted
const STEP_TIMEOUT_MS = 120000;

const P = {
  running: false,
  stop: false,
  /** @type {StatsResult | null} */
  result: null,
  /** @type {'simulated' | 'records'} */
  kind: 'simulated',
  /** @type {uPlot[]} */
  charts: [],
};

/**
 * Numbers as the engine's report writes them (`fmt_num`): at most 4 decimals, no trailing zeros.
 * @param {number | null | undefined} x
 */
export function fmt(x) {
  if (x === null || x === undefined) return '–';
  if (!Number.isFinite(x)) return String(x);
  const s = x.toFixed(4).replace(/\.?0+$/, '');
  return s === '-0' ? '0' : s;
}
/** @param {StatsShare} s */
const pct = (s) => `${(100 * s.share).toFixed(1)} %`;
/** @param {[number, number]} ci */
const interval = (ci) => `${fmt(ci[0])} to ${fmt(ci[1])}`;
/** @param {[number, number]} ci */
const pctInterval = (ci) => `${(100 * ci[0]).toFixed(1)}–${(100 * ci[1]).toFixed(1)} %`;

// --- the panel ----------------------------------------------------------------------------------

/** Builds the panel into `#stats-pane` (once) and wires its controls. */
export function setupStats() {
  const pane = $('stats-pane');
  pane.dataset.state = 'idle';
  /** @param {string} id @param {string} value @param {string} title */
  const num = (id, value, title) => el('input', { id, type: 'number', value, min: '0', title });
  const file = el('input', { id: 'stats-file', type: 'file', accept: '.jsonl,.json,.txt', hidden: '' });
  file.addEventListener('change', () => {
    const f = file.files && file.files[0];
    if (f) f.text().then((text) => openRecords(text, f.name), showError);
    file.value = '';
  });
  pane.replaceChildren(
    el('h2', {}, 'Statistics ', el('span', { class: 'none' }, '(many games: sidl stats in the browser)')),
    el('div', { class: 'bar' },
      el('label', {}, 'games ', num('stats-games', '100', 'how many games to simulate')),
      el('label', {}, 'first seed ', num('stats-seed', '0', 'game i (from 0) uses seed SEED + i, as sidl stats --seed')),
      el('label', {}, 'at most ', num('stats-max', '1000', 'chronons per game (sidl stats --max-chronons)'), ' chronons'),
      el('button', { id: 'stats-run', title: 'Simulate the games in the worker with these seats (in the mode of the session)', onclick: () => { simulate().catch(showError); } }, 'Run'),
      el('button', { id: 'stats-stop', disabled: '', onclick: () => { P.stop = true; } }, 'Stop'),
      el('button', { id: 'stats-open', title: 'Replay the records of a records file (sidl-record/1 JSON lines) on this game and report on them', onclick: () => file.click() }, 'Open records file…'),
      file),
    el('div', { id: 'stats-seats' }),
    el('div', { class: 'bar' },
      el('progress', { id: 'stats-progress', max: '1', value: '0', hidden: '' }),
      el('span', { id: 'stats-status', role: 'status' })),
    el('ul', { id: 'stats-problems' }),
    el('div', { id: 'stats-result' }));
  const dl = $('download-record');
  if (dl) dl.addEventListener('click', () => { downloadSessionRecord().catch(showError); });
}

/**
 * A game was loaded: the panel's seat menus for it (random or an AI, starting from the game pane's
 * seats), and the previous game's report goes (its run went with the engine's previous game).
 */
export function renderStatsSeats() {
  const div = $('stats-seats');
  if (!div) return;
  if (!P.running) {
    for (const c of P.charts) c.destroy();
    P.charts = [];
    $('stats-result').replaceChildren();
    $('stats-problems').replaceChildren();
    $('stats-status').textContent = '';
    $('stats-pane').dataset.state = 'idle';
  }
  const kinds = ['random', ...S.aiKinds];
  for (const k of S.seats.values()) if (k !== 'human' && !kinds.includes(k)) kinds.push(k);
  div.replaceChildren(el('span', { class: 'who' }, 'seats:'), ...S.players.map((p) => {
    const seat = S.seats.get(p);
    const sel = el('select', { 'data-player': p, 'aria-label': `simulated seat ${p}` }, ...kinds.map((k) => el('option', { value: k }, k)));
    sel.value = seat && seat !== 'human' ? seat : 'random';
    return el('span', { class: 'seat' }, el('span', { class: 'term' }, p), sel);
  }));
}

/** @returns {[string, string][]} the panel's seats as `[player, kind]` pairs */
function chosenSeats() {
  return [...document.querySelectorAll('#stats-seats select')].map((s) => {
    const sel = /** @type {HTMLSelectElement} */ (s);
    return /** @type {[string, string]} */ ([sel.dataset.player || '', sel.value]);
  });
}

const gameName = () => (S.game ? S.game.replace(/\.sidl$/, '') : 'game');

/** @param {string} id */
function count(id, fallback = 0) {
  const n = Number(/** @type {HTMLInputElement} */ ($(id)).value);
  return Number.isFinite(n) && n >= 0 ? Math.floor(n) : fallback;
}

/** @param {'idle' | 'running' | 'done' | 'stopped' | 'failed'} state */
function setState(state) {
  $('stats-pane').dataset.state = state;
  P.running = state === 'running';
  for (const id of ['stats-run', 'stats-open']) /** @type {HTMLButtonElement} */ ($(id)).disabled = P.running;
  /** @type {HTMLButtonElement} */ ($('stats-stop')).disabled = !P.running;
}

// Simulates the games: statsSimulate, then statsStep until finished or stopped, then the report.
async function simulate() {
  if (!S.loaded || P.running) return;
  const games = count('stats-games', 100);
  const seed = count('stats-seed', 0);
  const max = count('stats-max', 1000);
  P.kind = 'simulated';
  await runSteps(() => engine.stats('statsSimulate', gameName(), chosenSeats(), games, seed, max),
    `${games} simulated games, seeds ${seed}..${seed + Math.max(0, games - 1)}, at most ${max} chronons each`);
}

/**
 * Reads a records file: statsRead, then statsStep until every record is replayed, then the report.
 * @param {string} text
 * @param {string} name
 */
export async function openRecords(text, name) {
  if (!S.loaded || P.running) return;
  P.kind = 'records';
  await runSteps(() => engine.stats('statsRead', text), `recorded games from ${name}`);
}

/**
 * Runs a started run step by step (each step about STEP_MS long, so Stop answers quickly), shows
 * the progress and the problems, then the report of the games done.
 * @param {() => Promise<StatsProgress>} start
 * @param {string} what
 */
async function runSteps(start, what) {
  P.stop = false;
  setState('running');
  const bar = /** @type {HTMLProgressElement} */ ($('stats-progress'));
  // the previous run's progress must not show (nor be read) while this one starts
  bar.max = 1;
  bar.value = 0;
  bar.hidden = false;
  $('stats-problems').replaceChildren();
  const say = (/** @type {string} */ t) => { $('stats-status').textContent = t; };
  try {
    let p = await start();
    let batch = 1;
    showProgress(p);
    while (!p.finished && !P.stop) {
      const t0 = performance.now();
      p = /** @type {StatsProgress} */ (await engine.statsStep(batch, STEP_TIMEOUT_MS));
      showProgress(p);
      const ms = performance.now() - t0;
      if (ms < STEP_MS / 2) batch = Math.min(batch * 2, 10000);
      else if (ms > STEP_MS * 2 && batch > 1) batch = Math.max(1, Math.floor(batch / 2));
    }
    const r = await engine.stats('statsResult');
    P.result = r;
    const stopped = !p.finished;
    setState(stopped ? 'stopped' : 'done');
    say(stopped ? `stopped after ${p.done} of ${p.total}: the report counts ${p.counted} games` : `${p.counted} games counted`);
    renderResult(r, stopped ? `${what} (stopped after ${p.done} of ${p.total})` : what);
    status(stopped ? 'statistics: stopped' : 'statistics: done');
  } catch (e) {
    setState('failed');
    say(`failed: ${/** @type {Error} */ (e).message}`);
    throw e;
  } finally {
    bar.hidden = true;
  }

  /** @param {StatsProgress} p */
  function showProgress(p) {
    bar.max = Math.max(1, p.total);
    bar.value = p.done;
    say(`${p.done} of ${p.total} ${P.kind === 'records' ? 'records replayed' : 'games played'}`);
    const ul = $('stats-problems');
    if (ul.childElementCount !== p.problems.length) {
      ul.replaceChildren(...p.problems.map((m) => el('li', { class: 'error' }, m)));
    }
  }
}

// --- the report ---------------------------------------------------------------------------------

/**
 * A table: a header row and rows of cells (`data-stat` on each row: the statistic's key, for tests).
 * @param {string} cls
 * @param {string[]} head
 * @param {[string, ...(string | number)[]][]} rows the first cell of a row is its key
 */
function table(cls, head, rows) {
  return el('table', { class: `stats ${cls}` },
    el('thead', {}, el('tr', {}, ...head.map((h) => el('th', {}, h)))),
    el('tbody', {}, ...rows.map(([key, ...cells]) => el('tr', { 'data-stat': key }, ...cells.map((c) => el('td', {}, String(c)))))));
}

/** @param {StatsSummary | null} s */
const summaryCells = (s) => (s ? [fmt(s.mean), fmt(s.sd), interval(s.ci95), fmt(s.min), fmt(s.median), fmt(s.max)] : ['–', '–', '–', '–', '–', '–']);
/** @param {StatsShare} s */
const shareCells = (s) => [`${s.count} of ${s.of}`, pct(s), pctInterval(s.ci95)];

/**
 * The tables of one report (all games, or one group).
 * @param {StatsReport} r
 */
function reportTables(r) {
  const play = table('play', ['play', 'count', 'share', '95 % CI'], [
    ['terminal', 'terminal', ...shareCells(r.terminal)],
    ['timeouts', 'timeouts', ...shareCells(r.timeouts)],
    ['errors', 'errors', ...shareCells(r.errors)],
    ['completion', 'completion (a winner)', ...shareCells(r.completion)],
    ['drawishness', 'draws', ...shareCells(r.drawishness)],
    ['advantage_first', 'first player wins', ...shareCells(r.advantage_first)],
  ]);
  const head = ['', 'mean', 'sd', '95 % CI', 'min', 'median', 'max'];
  const numbers = table('numbers', head, [
    ['chronons', 'chronons per game', ...summaryCells(r.length)],
    ['total', 'total paid per game', ...summaryCells(r.total)],
    ['gini', 'Gini of accounts', ...summaryCells(r.gini)],
  ]);
  const extra = el('div', { class: 'stats-line' },
    el('span', { 'data-stat': 'games' }, `games ${r.games}`), ' · ',
    el('span', { 'data-stat': 'balance' }, `balance ${fmt(r.balance)}`),
    r.constant_sum !== null ? el('span', { 'data-stat': 'constant_sum' }, ` · constant sum ${fmt(r.constant_sum)}`) : '');
  const players = table('players', ['player', 'wins', 'share', 'mean account', 'sd', '95 % CI', 'min', 'median', 'max', 'branching'],
    r.players.map((p) => {
      const a = summaryCells(p.account);
      return [p.player, p.player, p.wins.count, pct(p.wins), a[0], a[1], a[2], a[3], a[4], a[5], p.branching === null ? '–' : fmt(p.branching)];
    }));
  /** @type {HTMLElement[]} */
  const parts = [extra, play, numbers, players];
  if (r.metrics.length) {
    parts.push(table('metrics', ['metric', 'mean', 'sd', '95 % CI', 'min', 'median', 'max', 'without it', 'not used'],
      r.metrics.map((m) => [m.name, m.name, ...summaryCells(m.summary), m.missing, m.errors.join('; ')])));
  }
  if (r.error_messages.length) parts.push(el('ul', { class: 'stats-errors' }, ...r.error_messages.map((m) => el('li', { class: 'error' }, m))));
  return parts;
}

/**
 * The groups side by side: one column per group, a row per statistic.
 * @param {StatsReport} r
 */
function groupsTable(r) {
  const gs = r.groups;
  /** @type {[string, ...(string | number)[]][]} */
  const rows = [
    ['games', 'games', ...gs.map(([, g]) => g.games)],
    ['chronons', 'chronons per game (mean)', ...gs.map(([, g]) => fmt(g.length ? g.length.mean : null))],
    ['completion', 'completion', ...gs.map(([, g]) => pct(g.completion))],
    ['drawishness', 'draws', ...gs.map(([, g]) => pct(g.drawishness))],
    ['advantage_first', 'first player wins', ...gs.map(([, g]) => pct(g.advantage_first))],
    ['balance', 'balance', ...gs.map(([, g]) => fmt(g.balance))],
  ];
  r.players.forEach((p, i) => {
    rows.push([`account ${p.player}`, `${p.player}: mean account`, ...gs.map(([, g]) => { const a = g.players[i] && g.players[i].account; return a ? `${fmt(a.mean)} ± ${fmt(a.ci95[1] - a.mean)}` : '–'; })]);
    rows.push([`wins ${p.player}`, `${p.player}: wins`, ...gs.map(([, g]) => (g.players[i] ? pct(g.players[i].wins) : '–'))]);
  });
  for (const m of r.metrics) {
    rows.push([`metric ${m.name}`, `metric ${m.name} (mean)`, ...gs.map(([, g]) => { const x = g.metrics.find((y) => y.name === m.name); return x && x.summary ? `${fmt(x.summary.mean)} ± ${fmt(x.summary.ci95[1] - x.summary.mean)}` : '–'; })]);
  }
  return table('groups', ['by group', ...gs.map(([name]) => name)], rows);
}

/**
 * Draws the result: what was counted, the tables, the groups, the plots, the downloads.
 * @param {StatsResult} r
 * @param {string} what
 */
function renderResult(r, what) {
  for (const c of P.charts) c.destroy();
  P.charts = [];
  const box = $('stats-result');
  const downloads = el('div', { class: 'bar' },
    el('button', { id: 'stats-csv', onclick: () => download(`${gameName()}-stats.csv`, r.csv, 'text/csv') }, 'Download CSV'),
    el('button', { id: 'stats-json', onclick: () => download(`${gameName()}-stats.json`, JSON.stringify(r.report), 'application/json') }, 'Download JSON'));
  if (P.kind === 'simulated') {
    downloads.append(el('button', {
      id: 'stats-records', title: 'The records of the simulated games (sidl-record/1): sidl stats --records reads them',
      onclick: () => { engine.stats('statsRecords').then((t) => download(`${gameName()}-records.jsonl`, t, 'application/jsonl'), showError); },
    }, 'Download records'));
  }
  const plots = el('div', { class: 'stats-plots' });
  box.replaceChildren(el('div', { class: 'stats-what' }, `${gameName()}: ${what}`), downloads, ...reportTables(r.report));
  if (r.report.groups.length) box.append(el('h3', {}, 'By group'), groupsTable(r.report));
  box.append(el('h3', {}, 'Plots'), plots,
    el('details', {}, el('summary', {}, 'as sidl stats prints it'), el('pre', { class: 'stats-text' }, r.text)));
  histogram(plots, 'length', 'chronons per game', r.games.map((g) => g.chronons), palette[7]);
  r.players.forEach((p, i) => histogram(plots, `account ${p}`, `final account of ${p}`, r.games.map((g) => g.accounts[i]), palette[i % palette.length]));
  for (const m of r.report.metrics.filter((x) => x.summary)) {
    histogram(plots, `metric ${m.name}`, `metric ${m.name}`, r.games.flatMap((g) => g.metrics.filter(([n]) => n === m.name).map(([, v]) => v)), palette[4]);
  }
}

/**
 * The bins of a histogram: integers over a small range get one bin each; other values
 * ⌈√n⌉ bins (at most 30) of equal width between the smallest and the largest.
 * @param {number[]} values
 * @returns {{ centers: number[], counts: number[], width: number }}
 */
export function bins(values) {
  const xs = values.filter(Number.isFinite);
  if (!xs.length) return { centers: [], counts: [], width: 1 };
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  if (xs.every(Number.isInteger) && hi - lo <= 40) {
    const counts = Array.from({ length: hi - lo + 1 }, () => 0);
    for (const x of xs) counts[x - lo] += 1;
    return { centers: counts.map((_, i) => lo + i), counts, width: 1 };
  }
  const n = Math.max(1, Math.min(30, Math.ceil(Math.sqrt(xs.length))));
  const width = hi > lo ? (hi - lo) / n : 1;
  const counts = Array.from({ length: n }, () => 0);
  for (const x of xs) counts[Math.min(n - 1, Math.floor((x - lo) / width))] += 1;
  return { centers: counts.map((_, i) => lo + (i + 0.5) * width), counts, width };
}

/**
 * A histogram (uPlot bars) into `parent`; its bins as `data-bins` (JSON) for the tests.
 * @param {HTMLElement} parent
 * @param {string} key
 * @param {string} title
 * @param {number[]} values
 * @param {string} color
 */
function histogram(parent, key, title, values, color) {
  const b = bins(values);
  const box = el('div', { class: 'stats-plot', 'data-plot': key, 'data-bins': JSON.stringify([b.centers, b.counts]) },
    el('div', { class: 'title' }, `${title} (${values.length} games)`));
  parent.append(box);
  if (!b.centers.length) { box.append(el('span', { class: 'none' }, 'no values')); return; }
  const bars = uPlot.paths.bars ? uPlot.paths.bars({ size: [0.9, Infinity] }) : undefined;
  const half = b.width / 2;
  P.charts.push(new uPlot({
    width: 300,
    height: 150,
    legend: { show: false },
    scales: { x: { time: false, range: [b.centers[0] - half, b.centers[b.centers.length - 1] + half] }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
    axes: [{ size: 30 }, { size: 40 }],
    series: [{}, { label: 'games', fill: `${color}99`, stroke: color, paths: bars, points: { show: false } }],
  }, [b.centers, b.counts], box));
}

// --- downloads ----------------------------------------------------------------------------------

/**
 * Offers `text` as a file to download.
 * @param {string} name
 * @param {string} text
 * @param {string} type
 */
function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = el('a', { href: url, download: name, hidden: '' });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// The record of the game being played (the session as it is now, every chronon of its history):
// one sidl-record/1 line written by the engine; `sidl trace GAME --replay FILE` replays it.
export async function downloadSessionRecord() {
  if (!S.loaded) return;
  const line = await engine.call('record', gameName(), [...S.seats]);
  download(`${gameName()}-seed${S.seed}.jsonl`, `${line}\n`, 'application/jsonl');
  status('downloaded the record of this game');
}
