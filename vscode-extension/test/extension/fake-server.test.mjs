// The bundled extension (dist/extension.js) in node with a stand-in `vscode` module, talking LSP to
// a scripted server (fake-server.cjs, chosen by the setting sidl.server.path): the client starts,
// sends the trace to its channel, shows diagnostics, and the command "SIDL: Check
// hidden-information consistency" sends the request with the document, the budget setting and a
// progress token, forwards the server's progress, shows the result, and handles Cancel.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const { stub, extension, activate, waitFor } = require('./load.cjs');
const state = stub.state;
const server = join(new URL('.', import.meta.url).pathname, 'fake-server.cjs');

after(() => extension.deactivate());

const check = async () => {
  state.messages.length = 0;
  state.progress.length = 0;
  await state.commands.get('sidl.checkHiddenInformation')();
};

test('the client starts the server named by sidl.server.path and traces the messages', async () => {
  await activate({ 'sidl.server.path': server, 'sidl.trace.server': 'messages', 'sidl.checkHiddenInformation.maxStates': 5000 });
  const out = state.outputs.get('SIDL Language Server');
  assert.ok(out.lines.some((l) => l === `Using sidl-lsp 0.0.0-fake (setting): ${server}`), out.lines.join('\n'));
  assert.equal(state.messages.filter((m) => m.level !== 'info').length, 0, JSON.stringify(state.messages));
  const doc = stub.open('/games/faulty.sidl', 'sidl', 'game(faulty) :- oops\n');
  const diags = await waitFor('diagnostics', () => state.diagnostics.get(doc.uri.toString()));
  assert.equal(diags.length, 1);
  assert.equal(diags[0].message, 'fake: game(faulty) :- oops');
  assert.deepEqual([diags[0].range.start.line, diags[0].range.end.character], [0, 20]);
  const trace = state.outputs.get('SIDL Language Server Trace').lines.join('\n');
  assert.match(trace, /Sending notification 'textDocument\/didOpen'/);
  assert.match(trace, /Received notification 'textDocument\/publishDiagnostics'/);
});

test('a consistent game: the request carries document, budget and token; progress is forwarded; information message', async () => {
  const doc = stub.open('/games/nim.sidl', 'sidl', 'game(nim).\n');
  stub.setActive(doc);
  await check();
  assert.deepEqual(state.messages.map((m) => m.level), ['info'], JSON.stringify(state.messages));
  const text = state.messages[0].text;
  assert.equal(text, 'SIDL: hidden information is consistent: no leak in all 25 reachable states.');
  const log = state.outputs.get('SIDL Language Server').lines.join('\n');
  const params = JSON.parse(log.slice(log.lastIndexOf('params ') + 7).split(' (25 states)')[0]);
  assert.equal(params.textDocument.uri, 'file:///games/nim.sidl');
  assert.equal(params.maxStates, 5000);
  assert.match(params.workDoneToken, /^sidl-check-/);
  assert.equal(state.progressOptions.at(-1).cancellable, true);
  assert.match(state.progressOptions.at(-1).title, /nim\.sidl/);
  assert.deepEqual(state.progress, [
    {},
    { message: 'explored 10 states', increment: 40 },
    { message: 'explored 25 states', increment: 60 },
  ]);
});

test('a counterexample: a Markdown report beside the game and a warning naming the player', async () => {
  const doc = stub.open('/games/kuhn_leaky.sidl', 'sidl', 'game(kuhn).\n');
  stub.setActive(doc);
  state.opened.length = 0;
  await check();
  assert.deepEqual(state.messages.map((m) => m.level), ['warning']);
  assert.match(state.messages[0].text, /leaks to player \[p2\]: owned\/2 of \[p1\] depends on the hidden fact/);
  assert.equal(state.opened.length, 1);
  const md = state.opened[0];
  assert.equal(md.languageId, 'markdown');
  assert.match(md.getText(), /\*\*Player:\*\* `\[p2\]`/);
  assert.match(md.getText(), /1\. `\[deal\] -> \[deal, k, q\]`\n2\. `\[p1\] -> \[p1, bet\]`/);
  assert.equal(state.shown.at(-1).doc, md);
  assert.match(state.outputs.get('SIDL Language Server').lines.join('\n'), /# Hidden-information counterexample/);
});

test('Cancel sends $/cancelRequest: the check ends as cancelled', async () => {
  const doc = stub.open('/games/slow.sidl', 'sidl', 'game(slow).\n');
  stub.setActive(doc);
  // Cancel once the server has reported progress (the request is running there).
  state.onProgressStart = (cts) => {
    const t = setInterval(() => {
      if (state.progress.length >= 2) {
        clearInterval(t);
        cts.cancel();
      }
    }, 10);
  };
  await check();
  state.onProgressStart = undefined;
  assert.deepEqual(state.messages, [{ level: 'info', text: 'SIDL: hidden-information check cancelled.', items: [] }]);
  const trace = state.outputs.get('SIDL Language Server Trace').lines.join('\n');
  assert.match(trace, /Sending notification '\$\/cancelRequest'/);
});

test("the server's commands are registered, except those the extension contributes itself", async () => {
  assert.equal(await state.commands.get('sidl.fake.other')(), 'executed sidl.fake.other');
  assert.ok(state.commands.has('sidl.checkHiddenInformation'));
  assert.ok(state.commands.has('sidl.restartServer'));
});

test('no .sidl editor: the command asks for one', async () => {
  stub.setActive(undefined);
  await check();
  assert.deepEqual(state.messages.map((m) => [m.level, m.text]), [['warning', 'SIDL: open a .sidl game in the editor to check it.']]);
});
