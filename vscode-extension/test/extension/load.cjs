// Loads the bundled extension (dist/extension.js) with `vscode` resolved to vscode-stub.cjs.
'use strict';
const Module = require('node:module');
const path = require('node:path');

const stubPath = require.resolve('./vscode-stub.cjs');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === 'vscode' ? stubPath : resolve.call(this, request, ...rest);
};

const extRoot = path.join(__dirname, '..', '..');
const vscode = require(stubPath);
const extension = require(path.join(extRoot, 'dist', 'extension.js'));

/** Polls `cond` until it returns a truthy value (returned) or `ms` pass (throws with `what`). */
async function waitFor(what, cond, ms = 30000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = cond();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A Memento in memory (the extension's workspaceState). */
function memento(values = new Map()) {
  return {
    values,
    get: (k, def) => (values.has(k) ? structuredClone(values.get(k)) : def),
    update: async (k, v) => void (v === undefined ? values.delete(k) : values.set(k, structuredClone(v))),
    keys: () => [...values.keys()],
  };
}

/** Activates the extension installed at `extensionPath` with the given settings. */
async function activate(settings, extensionPath = extRoot) {
  Object.assign(vscode.__stub.state.config, settings);
  const context = { extensionPath, subscriptions: [], workspaceState: memento() };
  await extension.activate(context);
  return context;
}

module.exports = { vscode, stub: vscode.__stub, extension, extRoot, waitFor, activate, memento };
