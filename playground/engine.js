// @ts-check
// The page side of the engine worker (worker.js), shared by the playground (app.js) and the embed
// element (embed/sidl-game.js). Every call is a message and a promise. A call that has not answered
// within its time limit (5 s by default; 120 s for a move of an AI seat, whose search its spec
// bounds: chess's `minimax:3` takes seconds) gets the worker terminated and a new one started; the
// engine then reloads the last loaded game and restores the last session snapshot it was given,
// and the call fails with an Error whose `restarted` is true. Errors from the engine keep their
// `sidl` location ({code, message, line, column, endLine, endColumn, path}) when they have one.
// `call` is typed by the methods of SidlGame in the wasm-bindgen output (pkg/sidl_wasm.d.ts).

import { isAi } from './play.js';

/** @typedef {import('./pkg/sidl_wasm.js').SidlGame} SidlGame */
/** @typedef {import('./pkg/sidl_wasm.js').Diagnostic} Diagnostic */
/** @typedef {import('./pkg/sidl_wasm.js').Keyword} Keyword */
/** @typedef {import('./pkg/sidl_wasm.js').HiddenProgress} HiddenProgress */
/** @typedef {import('./pkg/sidl_wasm.js').HiddenReport} HiddenReport */
/** @typedef {import('./pkg-analyse/sidl_wasm.js').Analysis} Analysis */
/**
 * What the game pane draws (`Engine.frame`).
 * @typedef {{ terminal: boolean, labels: import('./pkg/sidl_wasm.js').Labels | null,
 *   switches: [string, import('./pkg/sidl_wasm.js').Switch[]][],
 *   pending: ReturnType<SidlGame['pending']>, view: ReturnType<SidlGame['view']>,
 *   layout: ReturnType<SidlGame['layout']>, accounts: ReturnType<SidlGame['accounts']> }} Frame
 */
/** @typedef {import('./pkg-analyse/sidl_wasm.js').SidlGame} OnDemandGame */
/**
 * An error of a call: `sidl` for a runtime error of the engine, `restarted` when the worker was
 * replaced.
 * @typedef {import('./pkg/sidl_wasm.js').SidlError & { restarted?: boolean }} EngineError
 */
/**
 * The names of SidlGame's methods, which `call` runs in the worker.
 * @typedef {{ [K in Extract<keyof SidlGame, string>]: SidlGame[K] extends (...args: any[]) => any ? K : never }[Extract<keyof SidlGame, string>]} Method
 */
/**
 * `call(method, ...args)`: SidlGame's `method` with its arguments, in the worker; its result.
 * @typedef {<M extends Method>(method: M, ...args: Parameters<SidlGame[M]>) => Promise<Awaited<ReturnType<SidlGame[M]>>>} Call
 */
/**
 * A call waiting for its answer.
 * @typedef {{
 *   resolve: (value: any) => void,
 *   reject: (error: EngineError) => void,
 *   onProgress: ((progress: any) => void) | null,
 *   timer: ReturnType<typeof setTimeout> | undefined,
 * }} Waiting
 */

/**
 * The error of an answer (`{message, sidl}`) as an Error.
 * @param {{ message: string, sidl?: unknown }} error
 * @returns {EngineError}
 */
function engineError(error) {
  const err = /** @type {EngineError} */ (new Error(error.message));
  if (error.sidl) err.sidl = /** @type {EngineError['sidl']} */ (error.sidl);
  return err;
}

export class Engine {
  /**
   * @param {{ timeoutMs?: number, aiTimeoutMs?: number, onRestart?: (message: string) => void, worker?: Worker }} [options]
   *   `aiTimeoutMs`: the time limit of the calls that move an AI seat (`aiMoves`, and `steps` with
   *   an AI seat): its search is bounded by its spec (depth, playouts), not by a rule that loops,
   *   and may take seconds; `worker`: one already started on worker.js (the page starts it early:
   *   app/boot.js), used instead of a new one until the first restart
   */
  constructor({ timeoutMs = 5000, aiTimeoutMs = 120000, onRestart = () => {}, worker } = {}) {
    this.timeoutMs = timeoutMs;
    this.aiTimeoutMs = aiTimeoutMs;
    this.onRestart = onRestart;
    this.nextId = 0;
    /** @type {Map<number, Waiting>} */
    this.waiting = new Map();
    /** @type {string | null} the last loaded source */
    this.source = null;
    /**
     * @type {string | (() => string) | null} the session to restore after a restart (set by the
     * caller): its snapshot text, or a function that makes it then
     */
    this.snapshot = null;
    this.restarts = 0;
    /** @type {Worker} */
    this.worker = this.spawn(worker);
  }

  // Starts a worker (it loads the wasm), or takes `started`, and listens to it; returns it (also as
  // `this.worker`).
  /** @param {Worker} [started] */
  spawn(started) {
    this.worker = started || new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    this.worker.onmessage = (e) => {
      const { id, ok, value, error, progress } = e.data;
      const w = this.waiting.get(id);
      if (!w) return;
      if (progress !== undefined) { if (w.onProgress) w.onProgress(progress); return; }
      this.waiting.delete(id);
      clearTimeout(w.timer);
      if (ok) w.resolve(value);
      else w.reject(engineError(error));
    };
    this.worker.onerror = (e) => {
      e.preventDefault();
      this.fail(`the engine worker failed: ${e.message || e}`);
    };
    return this.worker;
  }

  /**
   * Rejects every waiting call, replaces the worker, reloads the game and session.
   * @param {string} message
   */
  fail(message) {
    this.worker.terminate();
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const w of waiting) {
      clearTimeout(w.timer);
      const err = /** @type {EngineError} */ (new Error(message));
      err.restarted = true;
      w.reject(err);
    }
    this.restarts += 1;
    this.spawn();
    const reload = (async () => {
      if (this.source === null) return;
      await this.send('load', [this.source]);
      const snap = typeof this.snapshot === 'function' ? this.snapshot() : this.snapshot;
      if (snap) await this.send('call', ['restore', snap]);
    })();
    reload.then(() => this.onRestart(message), (e) => this.onRestart(`${message}; reloading failed: ${e.message}`));
    return reload;
  }

  /**
   * Sends op `op` (worker.js) and waits for its answer.
   * @param {string} op
   * @param {unknown[]} args
   * @param {{ timeoutMs?: number, onProgress?: ((progress: any) => void) | null }} [options]
   * @returns {Promise<any>}
   */
  send(op, args, { timeoutMs = this.timeoutMs, onProgress = null } = {}) {
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      /** @type {Waiting} */
      const w = { resolve, reject, onProgress, timer: undefined };
      if (timeoutMs > 0) {
        w.timer = setTimeout(() => {
          if (!this.waiting.has(id)) return;
          this.fail(`the engine did not answer within ${timeoutMs / 1000} s (${op === 'call' ? args[0] : op}): its worker was stopped and restarted`);
        }, timeoutMs);
      }
      this.waiting.set(id, w);
      this.worker.postMessage({ id, op, args });
    });
  }

  /**
   * The diagnostics of `sidl check` for a source.
   * @param {string} source
   * @returns {Promise<Diagnostic[]>}
   */
  check(source) { return this.send('check', [source]); }
  /**
   * Loads a game (the engine's SidlGame); its players.
   * @param {string} source
   * @returns {Promise<string[]>}
   */
  async load(source) {
    const players = await this.send('load', [source]);
    this.source = source;
    this.snapshot = null;
    return players;
  }
  /** @returns {Promise<Keyword[] | null>} the engine's keywords (null: this build has none) */
  keywords() { return this.send('keywords', []); }
  /**
   * Whether the loaded game has method `method` (this build of the engine).
   * @param {string} method
   * @returns {Promise<boolean>}
   */
  has(method) { return this.send('has', [method]); }
  /** @type {Call} */
  call(method, ...args) {
    return this.send('call', [method, ...args], method === 'aiMoves' ? { timeoutMs: this.aiTimeoutMs } : {});
  }
  /**
   * Step's and Run's steps in one message (worker.js `steps`): the seats that are not human move, then the
   * chronon runs, step after step, until the game is over, `max` steps or `budgetMs` (at least one
   * step). The timeline entries made, and the error that ended the batch (null: none).
   * @param {[string, string][]} seats player, seat
   * @param {number} seed the first step's seed (step k: `seed +` the entries before it)
   * @param {number} budgetMs
   * @param {number} max
   * @returns {Promise<{ entries: import('./app/state.js').TimelineEntry[], error: EngineError | null }>}
   */
  async steps(seats, seed, budgetMs, max) {
    const timeoutMs = seats.some(([, k]) => isAi(k)) ? this.aiTimeoutMs : this.timeoutMs;
    const r = await this.send('steps', [seats, seed, budgetMs, max], { timeoutMs });
    return { entries: r.entries, error: r.error ? engineError(r.error) : null };
  }
  /**
   * What the game pane draws, in one message (worker.js `frame`): the calls `isTerminal()`,
   * `labels(viewer, lang, from)` (null when it fails; the event lines from chronon `from` on, or
   * from `eventsFrom`), `switchesAndViews(players, [viewer])` (the switches of each of
   * `players` and the view of `viewer`, in one call), `pending()`, `layout(viewer, lang, raw)` and
   * `accounts()`.
   * @param {string | null} viewer
   * @param {string[]} players
   * @param {string | null} lang
   * @param {boolean} raw
   * @param {number} [from] the event lines the caller has (0: all of them are sent)
   * @returns {Promise<Frame>}
   */
  frame(viewer, players, lang, raw, from = 0) { return this.send('frame', [viewer, players, lang, raw, from]); }
  /**
   * The §11 check (SidlGame.checkHidden) with progress.
   * @param {number} maxStates
   * @param {(progress: HiddenProgress) => void} onProgress
   * @returns {Promise<HiddenReport>}
   */
  checkHidden(maxStates, onProgress, timeoutMs = 60000) {
    return this.send('checkHidden', [maxStates], { timeoutMs, onProgress });
  }
  /**
   * Builds the loaded game's extensive form in the worker (SidlGame.analyse), with progress; the
   * worker keeps it for `analysis`. Its first SolveStep.
   * @param {import('./pkg/sidl_wasm.js').AnalyseOptions} options
   * @param {(progress: import('./pkg/sidl_wasm.js').BuildProgress) => void} onProgress
   * @returns {Promise<import('./pkg/sidl_wasm.js').SolveStep>}
   */
  analyse(options, onProgress, timeoutMs = 120000) {
    return this.send('analyse', [options], { timeoutMs, onProgress });
  }
  /**
   * A method of the worker's Analysis (`step`, `result`, `exploit`, `efg`) and its result.
   * @template {'step' | 'result' | 'exploit' | 'efg'} M
   * @param {M} method
   * @param {Parameters<Analysis[M]>} args
   * @returns {Promise<ReturnType<Analysis[M]>>}
   */
  analysis(method, ...args) { return this.send('analysis', [method, ...args], { timeoutMs: 60000 }); }
  /**
   * A statistics run's method in the worker (on-demand build: `statsSimulate` and `statsRead` start
   * a run on a game of its own, then `statsStep`, `statsResult`, `statsRecords`) and its result.
   * @template {'statsSimulate' | 'statsRead' | 'statsStep' | 'statsResult' | 'statsRecords'} M
   * @param {M} method
   * @param {Parameters<OnDemandGame[M]>} args
   * @returns {Promise<ReturnType<OnDemandGame[M]>>}
   */
  stats(method, ...args) { return this.send('stats', [method, ...args]); }
  /**
   * `stats` with a time limit of its own (a step of a long run).
   * @param {number} maxGames
   * @param {number} timeoutMs
   * @returns {Promise<import('./pkg/sidl_wasm.js').StatsProgress>}
   */
  statsStep(maxGames, timeoutMs) { return this.send('stats', ['statsStep', maxGames], { timeoutMs }); }
  // Stops whatever runs now (the worker is replaced, the game reloaded).
  stop(reason = 'stopped') { return this.fail(reason); }
}
