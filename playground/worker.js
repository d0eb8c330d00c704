// @ts-check
// The engine's thread: holds the SidlGame and answers {id, op, args} messages with {id, ok, value}
// or {id, ok: false, error: {message, sidl}}; long operations also post {id, progress}.
// Ops: `check(source)`, `load(source)` (the new game's players), `keywords()`, `has(method)`,
// `checkHidden(maxStates)` (with progress) and `call(method, ...args)` (a SidlGame method).
// engine.js drives it; a call that does not answer in time gets this worker terminated.
import init, * as wasm from './pkg/sidl_wasm.js';

const { SidlGame } = wasm;

const ready = init();
/** @type {InstanceType<typeof SidlGame> | null} */
let game = null;

/** @type {Record<string, (...args: any[]) => unknown>} */
const ops = {
  check: (source) => SidlGame.check(source),
  load: (source) => {
    const g = new SidlGame(source);
    if (game) game.free();
    game = g;
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
    const value = op === 'checkHidden' ? ops.checkHidden(args[0], id) : ops[op](...args);
    postMessage({ id, ok: true, value });
  } catch (err) {
    // an Error of the engine (with `sidl` for a runtime error), or anything else thrown
    const x = /** @type {{ message?: unknown, sidl?: unknown } | null | undefined} */ (err);
    const message = String(x && x.message ? x.message : err);
    const sidl = x && typeof x === 'object' && x.sidl ? x.sidl : null;
    postMessage({ id, ok: false, error: { message, sidl } });
  }
};
