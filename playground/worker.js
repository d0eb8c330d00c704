// The engine's thread: holds the SidlGame and answers {id, op, args} messages with {id, ok, value}
// or {id, ok: false, error}. Ops: `check(source)`, `load(source)` (the new game's players), and
// `call(method, ...args)` (a SidlGame method).
import init, { SidlGame } from './pkg/sidl_wasm.js';

const ready = init();
let game = null;

const ops = {
  check: (source) => SidlGame.check(source),
  load: (source) => {
    const g = new SidlGame(source);
    if (game) game.free();
    game = g;
    return game.players();
  },
  call: (method, ...args) => {
    if (!game) throw new Error('no game is loaded');
    if (typeof game[method] !== 'function') throw new Error(`no method ${method}`);
    return game[method](...args);
  },
};

self.onmessage = async (e) => {
  const { id, op, args } = e.data;
  try {
    await ready;
    postMessage({ id, ok: true, value: ops[op](...args) });
  } catch (err) {
    postMessage({ id, ok: false, error: String(err && err.message ? err.message : err) });
  }
};
