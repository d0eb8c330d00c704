// @ts-check
// The engine's thread: holds the SidlGame and answers {id, op, args} messages with {id, ok, value}
// or {id, ok: false, error: {message, sidl}}; long operations also post {id, progress}.
// Ops: `check(source)`, `load(source)` (the new game's players), `keywords()`, `has(method)`,
// `checkHidden(maxStates)` (with progress), `call(method, ...args)` (a SidlGame method),
// `analyse(options)` (builds the game's extensive form, with progress; app/analyse.js) and
// `steps(seats, seed, budgetMs, max)` (Step's and Run's steps, many in one message: app/game.js),
// `frame(viewer, players, lang, raw, from)` (what the game pane draws, in one message: app/game.js),
// `analysis(method, ...args)` (an Analysis method: `step`, `result`, `exploit`, `efg`) and
// `stats(method, ...args)` (a statistics run's method: `statsSimulate` and `statsRead` start one on
// a game of its own, `statsStep`, `statsResult`, `statsRecords`). The analysis and the statistics
// run in a second build of the engine, pkg-analyse/ (with the extensive form, its solvers and the
// statistics runs), imported the first time one of those panels is used: the page's own engine
// stays small (docs/wasm.md).
// engine.js drives it; a call that does not answer in time gets this worker terminated.
import init, * as wasm from './pkg/sidl_wasm.js';
import { seatMoves } from './play.js';

const { SidlGame } = wasm;

const ready = init();
/** @type {InstanceType<typeof SidlGame> | null} */
let game = null;
/** @type {string | null} the loaded game's source (the analysis build loads it again) */
let source = null;
/** @type {Promise<typeof import('./pkg-analyse/sidl_wasm.js')> | null} the on-demand build, once imported */
let analyseBuild = null;
/** @type {import('./pkg-analyse/sidl_wasm.js').Analysis | null} the Analyse panel's tree and solver */
let analysis = null;
/** @type {import('./pkg-analyse/sidl_wasm.js').SidlGame | null} the Statistics panel's game (its run) */
let statsGame = null;

/** The on-demand build (imported once; a failed import is tried again next time). */
function onDemand() {
  if (!analyseBuild) {
    analyseBuild = import('./pkg-analyse/sidl_wasm.js').then(async (m) => { await m.default(); return m; });
    analyseBuild.catch(() => { analyseBuild = null; });
  }
  return analyseBuild;
}

/** @type {Record<string, (...args: any[]) => unknown>} */
const ops = {
  check: (source) => SidlGame.check(source),
  load: (/** @type {string} */ src) => {
    const g = new SidlGame(src);
    if (game) game.free();
    if (analysis) { analysis.free(); analysis = null; }
    if (statsGame) { statsGame.free(); statsGame = null; }
    game = g;
    source = src;
    return game.players();
  },
  keywords: () => {
    if (typeof wasm.keywords === 'function') return wasm.keywords();
    if (game && typeof game.keywords === 'function') return game.keywords();
    return null;
  },
  has: (method) => !!game && typeof game[method] === 'function',
  checkHidden: (maxStates, id) => {
    if (!game) throw new Error('no game is loaded');
    if (typeof game.checkHidden !== 'function') throw new Error('this engine build has no checkHidden');
    let last = 0;
    return game.checkHidden(maxStates, (p) => {
      const now = Date.now();
      if (now - last > 100) { last = now; postMessage({ id, progress: p }); }
    });
  },
  analyse: async (options, id) => {
    if (!game || source === null) throw new Error('no game is loaded');
    if (analysis) { analysis.free(); analysis = null; }
    const m = await onDemand();
    const g = new m.SidlGame(source);
    try {
      let last = 0;
      analysis = g.analyse(options, (p) => {
        const now = Date.now();
        if (now - last > 100) { last = now; postMessage({ id, progress: p }); }
      });
    } finally {
      g.free(); // the Analysis keeps its own copy of the game
    }
    return analysis.progress();
  },
  analysis: (/** @type {string} */ method, /** @type {unknown[]} */ ...args) => {
    if (!analysis) throw new Error('no analysis: run analyse first');
    const methods = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (analysis));
    if (typeof methods[method] !== 'function') throw new Error(`no Analysis method ${method}`);
    return methods[method](...args);
  },
  stats: async (/** @type {string} */ method, /** @type {unknown[]} */ ...args) => {
    if (!game || source === null) throw new Error('no game is loaded');
    if (method === 'statsSimulate' || method === 'statsRead') {
      // a new run on a game of its own, in the session's mode (interrupt or not)
      const m = await onDemand();
      const g = new m.SidlGame(source);
      try {
        // (the run's games have their own seeds: the start's seed does not matter)
        if (game.interrupt()) g.start(1, true);
      } catch (e) {
        g.free();
        throw e;
      }
      if (statsGame) statsGame.free();
      statsGame = g;
    }
    if (!statsGame) throw new Error('no statistics run was started');
    const methods = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (statsGame));
    if (typeof methods[method] !== 'function') throw new Error(`no statistics method ${method}`);
    return methods[method](...args);
  },
  // Step's and Run's steps (app/game.js `advance`: the seats that are not human move, then the
  // chronon runs unless a submission ran it in interrupt mode), one message for many: step k's seed is
  // `seed + ` the chronons made before it, each chronon comes with its part of the snapshot
  // (`snapshotParts`: its own submissions and overrides, not the whole history) and the accounts
  // after its step. Steps go on until the game is over, `max` steps, or `budgetMs` has passed (at
  // least one step). An error ends the batch: the chronons made before it and the error.
  steps: async (/** @type {[string, string][]} */ seats, /** @type {number} */ seed,
    /** @type {number} */ budgetMs, /** @type {number} */ max) => {
    if (!game) throw new Error('no game is loaded');
    const g = game;
    const methods = /** @type {Record<string, (...a: unknown[]) => unknown>} */ (/** @type {unknown} */ (g));
    const call = /** @type {import('./engine.js').Call} */ (/** @type {unknown} */ ((/** @type {string} */ m, /** @type {unknown[]} */ ...a) => methods[m](...a)));
    const seatMap = new Map(seats);
    /** @type {import('./app/state.js').TimelineEntry[]} */
    const entries = [];
    const t0 = performance.now();
    try {
      for (let n = 0; n < max && !(n > 0 && performance.now() - t0 > budgetMs); n++) {
        if (g.isTerminal()) break;
        const before = g.chrononNumber();
        const ran = await seatMoves(call, seatMap, seed + entries.length);
        const chronons = ran.length ? ran : [g.chronon()];
        const parts = g.snapshotParts(before);
        if (parts.length !== chronons.length) throw new Error(`${chronons.length} chronons ran but the snapshot has ${parts.length} more`);
        const accounts = g.accounts();
        chronons.forEach((chronon, k) => entries.push({ part: parts[k], chronon, accounts }));
        if (chronons[chronons.length - 1].terminal) break;
      }
    } catch (err) {
      return { entries, error: errorOf(err) };
    }
    return { entries, error: null };
  },
  // What the game pane draws, in one message (app/game.js `renderGame`; one round trip instead of
  // eight): whether the game is over, the labels (null when they fail: the pane shows raw terms;
  // their event lines from chronon `from` on, or from `eventsFrom`: the page keeps those it has),
  // the legal switches of `players`, the pending submissions, the view and the layout of `viewer`
  // and the accounts. An error of any other call is the frame's error.
  frame: (/** @type {string | null} */ viewer, /** @type {string[]} */ players,
    /** @type {string | null} */ lang, /** @type {boolean} */ raw, /** @type {number} */ from) => {
    if (!game) throw new Error('no game is loaded');
    const g = game;
    const terminal = g.isTerminal();
    let labels = null;
    try { labels = g.labels(viewer, lang, from); } catch (_) { labels = null; }
    // the players' switches and the viewer's view in one call
    const seen = g.switchesAndViews(players, [viewer]);
    const switches = players.map((p, i) => [p, seen.switches[i]]);
    return {
      terminal, labels, switches, pending: g.pending(), view: seen.views[0],
      layout: g.layout(viewer, lang, raw), accounts: g.accounts(),
    };
  },
  call: (/** @type {string} */ method, /** @type {unknown[]} */ ...args) => {
    if (!game) throw new Error('no game is loaded');
    // a method by its name (engine.js types the names and their arguments: its `Call`)
    const methods = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (game));
    if (typeof methods[method] !== 'function') throw new Error(`no method ${method}`);
    return methods[method](...args);
  },
};

self.onmessage = async (e) => {
  const { id, op, args } = e.data;
  try {
    await ready;
    const value = op === 'checkHidden' ? ops.checkHidden(args[0], id)
      : op === 'analyse' ? await ops.analyse(args[0], id) : await ops[op](...args);
    postMessage({ id, ok: true, value });
  } catch (err) {
    postMessage({ id, ok: false, error: errorOf(err) });
  }
};

/**
 * An error as it crosses to the page: an Error of the engine (with `sidl` for a runtime error), or
 * anything else thrown.
 * @param {unknown} err
 */
function errorOf(err) {
  const x = /** @type {{ message?: unknown, sidl?: unknown } | null | undefined} */ (err);
  const message = String(x && x.message ? x.message : err);
  const sidl = x && typeof x === 'object' && x.sidl ? x.sidl : null;
  return { message, sidl };
}
