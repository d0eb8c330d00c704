// @ts-check
// The engine's worker, started as soon as the page's head is read (a classic `async` script: it
// runs when fetched, not after the page's module graph and the editor's libraries, which keep the
// main thread busy for a few hundred milliseconds): the worker fetches and compiles the wasm
// meanwhile. app/state.js hands it to the page's Engine (engine.js `worker` option).
/** @type {{ sidlEarlyWorker?: Worker }} */ (/** @type {unknown} */ (window)).sidlEarlyWorker = new Worker(
  new URL('../worker.js', /** @type {HTMLScriptElement} */ (document.currentScript).src), { type: 'module' });
