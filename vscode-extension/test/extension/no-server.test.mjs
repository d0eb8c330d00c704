// The bundled extension with a stand-in `vscode` module when no server can be found: the error
// names the setting sidl.server.path and what was tried, offers to open the setting, and the
// command reports the same instead of failing.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const { stub, extension, activate } = require('./load.cjs');
const state = stub.state;
const empty = mkdtempSync(join(tmpdir(), 'sidl-no-server-'));

after(async () => {
  await extension.deactivate();
  rmSync(empty, { recursive: true, force: true });
});

test('no server: an error naming sidl.server.path and every candidate, with Open Settings', async () => {
  process.env.PATH = empty;
  await activate({ 'sidl.server.path': join(empty, 'missing-lsp') }, empty);
  assert.equal(state.messages.length, 1, JSON.stringify(state.messages));
  const [m] = state.messages;
  assert.equal(m.level, 'error');
  assert.match(m.text, /no working language server \(sidl-lsp\) found/);
  assert.ok(m.text.includes(`setting \`sidl.server.path\` (${join(empty, 'missing-lsp')}): no such file`), m.text);
  assert.ok(m.text.includes(`bundled server (${join(empty, 'server', 'sidl-lsp')}): no such file`), m.text);
  assert.match(m.text, /PATH: not found on PATH/);
  assert.match(m.text, /Set `sidl\.server\.path` to the sidl-lsp binary/);
  assert.deepEqual(m.items, ['Open Settings']);
});

test('the check command repeats why there is no server', async () => {
  state.messages.length = 0;
  stub.setActive(stub.open(join(empty, 'g.sidl'), 'sidl', 'game(g).\n'));
  await state.commands.get('sidl.checkHiddenInformation')();
  assert.equal(state.messages.length, 1);
  assert.equal(state.messages[0].level, 'error');
  assert.match(state.messages[0].text, /sidl\.server\.path/);
});
