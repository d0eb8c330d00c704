// The page side of the engine worker (worker.js), shared by the playground (app.js) and the embed
// element (embed/sidl-game.js). Every call is a message and a promise. A call that has not answered
// within its time limit (5 s by default) gets the worker terminated and a new one started; the
// engine then reloads the last loaded game and restores the last session snapshot it was given,
// and the call fails with an Error whose `restarted` is true. Errors from the engine keep their
// `sidl` location ({code, message, line, column, endLine, endColumn, path}) when they have one.
export class Engine {
  constructor({ timeoutMs = 5000, onRestart = () => {} } = {}) {
    this.timeoutMs = timeoutMs;
    this.onRestart = onRestart;
    this.nextId = 0;
    this.waiting = new Map();
    this.source = null;     // the last loaded source
    this.snapshot = null;   // the session to restore after a restart (set by the caller)
    this.restarts = 0;
    this.spawn();
  }

  spawn() {
    this.worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    this.worker.onmessage = (e) => {
      const { id, ok, value, error, progress } = e.data;
      const w = this.waiting.get(id);
      if (!w) return;
      if (progress !== undefined) { if (w.onProgress) w.onProgress(progress); return; }
      this.waiting.delete(id);
      clearTimeout(w.timer);
      if (ok) w.resolve(value);
      else {
        const err = new Error(error.message);
        if (error.sidl) err.sidl = error.sidl;
        w.reject(err);
      }
    };
    this.worker.onerror = (e) => {
      e.preventDefault();
      this.fail(`the engine worker failed: ${e.message || e}`);
    };
  }

  // Rejects every waiting call, replaces the worker, reloads the game and session.
  fail(message) {
    this.worker.terminate();
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const w of waiting) {
      clearTimeout(w.timer);
      const err = new Error(message);
      err.restarted = true;
      w.reject(err);
    }
    this.restarts += 1;
    this.spawn();
    const reload = (async () => {
      if (this.source === null) return;
      await this.send('load', [this.source]);
      if (this.snapshot) await this.send('call', ['restore', this.snapshot]);
    })();
    reload.then(() => this.onRestart(message), (e) => this.onRestart(`${message}; reloading failed: ${e.message}`));
    return reload;
  }

  send(op, args, { timeoutMs = this.timeoutMs, onProgress = null } = {}) {
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      const w = { resolve, reject, onProgress, timer: null };
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

  check(source) { return this.send('check', [source]); }
  async load(source) {
    const players = await this.send('load', [source]);
    this.source = source;
    this.snapshot = null;
    return players;
  }
  keywords() { return this.send('keywords', []); }
  has(method) { return this.send('has', [method]); }
  call(method, ...args) { return this.send('call', [method, ...args]); }
  checkHidden(maxStates, onProgress, timeoutMs = 60000) {
    return this.send('checkHidden', [maxStates], { timeoutMs, onProgress });
  }
  // Stops whatever runs now (the worker is replaced, the game reloaded).
  stop(reason = 'stopped') { return this.fail(reason); }
}
