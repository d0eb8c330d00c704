// The bundled extension (dist/extension.js) in node with a stand-in `vscode` module, talking LSP to
// a scripted server (fake-server.cjs, chosen by the setting sidl.server.path): the client starts,
// sends the trace to its channel, shows diagnostics, and the command "SIDL: Check
// hidden-information consistency" sends the request with the document, the budget setting and a
// progress token, forwards the server's progress, shows the result (a read-only report per game with
// links into it, replaced on the next run), and handles Cancel.
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

let context;

test('the client starts the server named by sidl.server.path and traces the messages', async () => {
  context = await activate({ 'sidl.server.path': server, 'sidl.trace.server': 'messages', 'sidl.checkHiddenInformation.maxStates': 5000 });
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
  const params = JSON.parse(log.slice(log.lastIndexOf('params ') + 7).split('\n')[0]);
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

test('a counterexample: a read-only report beside the game, with links into it, and a warning naming the player', async () => {
  const doc = stub.open('/games/kuhn_leaky.sidl', 'sidl', 'game(kuhn).\n');
  stub.setActive(doc);
  state.opened.length = 0;
  state.shown.length = 0;
  await check();
  assert.deepEqual(state.messages.map((m) => m.level), ['warning']);
  assert.match(state.messages[0].text, /leaks to player \[p2\]: owned\/2 of \[p1\] depends on the hidden fact/);
  assert.equal(state.opened.length, 1);
  const report = state.opened[0];
  assert.equal(report.uri.toString(), 'sidl-report:///games/kuhn_leaky.sidl%20(hidden%20information)');
  assert.equal(state.shown.at(-1).doc, report);
  assert.equal(state.shown.at(-1).options.preserveFocus, true);
  const text = report.getText();
  assert.match(text, /^Hidden-information check \(Def\.1 §11\) of \/games\/kuhn_leaky\.sidl\nGame: \/games\/kuhn_leaky\.sidl:1:1\n/);
  assert.match(text, /\nPlayer: \[p2\]\n/);
  assert.match(text, /\n {2}Steps:\n {4}\[deal\] -> \[deal, k, q\]\n {4}\[p1\] -> \[p1, bet\]\n/);
  assert.match(text, /The owned\/2 clauses that decide the owner of the switch:\n {4}\/games\/kuhn_leaky\.sidl:4:1 {2}owned\(\[P\], \[P\]\)\n {4}\/games\/kuhn_leaky\.sidl:5:1 {2}owned\(\[deal\], equal\(6\)\)\n/);
  assert.match(state.outputs.get('SIDL Language Server').lines.join('\n'), /Hidden-information check \(Def\.1 §11\) of/);

  // each link runs sidl.openReportLocation with the game and the 0-based position
  const links = state.linkProviders.get('sidl-report').provideDocumentLinks(report);
  const lines = text.split('\n');
  const args = (l) => JSON.parse(decodeURIComponent(l.target.query));
  assert.ok(links.every((l) => l.target.scheme === 'command' && l.target.path === 'sidl.openReportLocation'));
  assert.deepEqual(
    links.map((l) => [lines[l.range.start.line].slice(l.range.start.character, l.range.end.character), args(l), l.tooltip]),
    [
      ['/games/kuhn_leaky.sidl:1:1', ['file:///games/kuhn_leaky.sidl', 0, 0], 'Open /games/kuhn_leaky.sidl'],
      ['/games/kuhn_leaky.sidl:4:1', ['file:///games/kuhn_leaky.sidl', 3, 0], 'Go to the owned/2 clause at line 4'],
      ['/games/kuhn_leaky.sidl:5:1', ['file:///games/kuhn_leaky.sidl', 4, 0], 'Go to the owned/2 clause at line 5'],
      ['/games/kuhn_leaky.sidl:8:1', ['file:///games/kuhn_leaky.sidl', 7, 0], 'Go to the hidden/2 clause at line 8'],
    ],
  );
  // following one opens the game at that place
  await state.commands.get('sidl.openReportLocation')(...args(links[2]));
  const opened = state.shown.at(-1);
  assert.equal(opened.doc, doc);
  assert.deepEqual([opened.options.selection.start.line, opened.options.selection.start.character], [4, 0]);
  assert.equal(opened.options.viewColumn, 1, 'the game is in no tab yet: the first group');
});

test('the next run replaces the report in the same view; another game gets its own', async () => {
  const report = state.opened[0];
  state.opened.length = 0;
  await check();
  assert.equal(state.opened.length, 0, 'no new document');
  assert.equal(state.shown.at(-1).doc, report);
  assert.equal(state.tabs.filter((t) => t.input.uri.toString() === report.uri.toString()).length, 1);
  assert.match(report.getText(), /\(run 2\)/);
  assert.doesNotMatch(report.getText(), /\(run 1\)/);

  stub.setActive(stub.open('/other/kuhn_leaky.sidl', 'sidl', 'game(kuhn).\n'));
  await check();
  assert.equal(state.opened.length, 1);
  assert.equal(state.opened[0].uri.path, '/other/kuhn_leaky.sidl (hidden information)');
  assert.equal(state.tabs.filter((t) => t.input.uri.scheme === 'sidl-report').length, 2);
});

test('a consistent run on a game with a report replaces it too (no stale leak), without opening it again', async () => {
  stub.setActive(stub.open('/games/leaky_then_fixed.sidl', 'sidl', 'game(g).\n'));
  state.opened.length = 0;
  await check();
  assert.deepEqual(state.messages.map((m) => m.level), ['warning']);
  const report = state.opened[0];
  assert.match(report.getText(), /\nResult: hidden information leaks to player \[p2\]\.\n/);
  const shown = state.shown.length;
  await check();
  assert.deepEqual(state.messages.map((m) => m.level), ['info']);
  assert.equal(state.opened.length, 1, 'no new document');
  assert.equal(state.shown.length, shown, 'not shown again');
  assert.match(report.getText(), /\nResult: hidden information is consistent: no leak in all 25 reachable states\.\n/);
  assert.doesNotMatch(report.getText(), /Where to look|Player:/);
  // a report file that is not (or no longer) there: a note, read-only
  const { provider, options } = state.fileSystems.get('sidl-report');
  assert.equal(options.isReadonly, true);
  assert.equal(report.isReadonly, true);
  const nowhere = stub.Uri.from({ scheme: 'sidl-report', path: '/nowhere.sidl (hidden information)' });
  assert.match(new TextDecoder().decode(provider.readFile(nowhere)), /^No report: run "SIDL: Check hidden-information consistency" on the game again/);
  assert.equal(provider.stat(nowhere).type, 1);
  assert.throws(() => provider.writeFile(nowhere), /NoPermissions|permission/i);
});

test('the reports are kept in the workspace state (a report view restored after a reload has its text)', async () => {
  const saved = context.workspaceState.get('sidl.hiddenInformationReports');
  const keys = Object.keys(saved);
  assert.ok(keys.includes('sidl-report:///games/kuhn_leaky.sidl%20(hidden%20information)'), keys.join(' '));
  assert.equal(saved['sidl-report:///games/kuhn_leaky.sidl%20(hidden%20information)'].game, 'file:///games/kuhn_leaky.sidl');
  assert.match(saved['sidl-report:///games/leaky_then_fixed.sidl%20(hidden%20information)'].report.text, /is consistent/);
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

test('"SIDL: Solve the game (equilibrium)" sends sidl/solve with a progress token and shows the report beside the game', async () => {
  const doc = stub.open('/games/pennies.sidl', 'sidl', 'game(pennies).\n');
  stub.setActive(doc);
  state.messages.length = 0;
  state.progress.length = 0;
  state.opened.length = 0;
  await state.commands.get('sidl.solve')();
  assert.deepEqual(state.messages.map((m) => m.level), ['info'], JSON.stringify(state.messages));
  assert.match(state.messages[0].text, /^SIDL: pennies\.sidl: values Matcher 0, \[mismatcher\] 0; NashConv 0 \(cfr\+\)\.$/);
  assert.ok(state.progress.some((p) => p.message === 'CFR+: 5 of 10 iterations'), JSON.stringify(state.progress));
  assert.equal(state.opened.length, 1);
  const report = state.opened[0];
  assert.equal(report.uri.scheme, 'sidl-report');
  assert.equal(report.uri.path, '/games/pennies.sidl (equilibrium)');
  assert.equal(report.isReadonly, true);
  const text = report.getText();
  assert.match(text, /^Equilibrium analysis of .*pennies\.sidl \(sidl solve\)\n/);
  assert.match(text, /\n {2}Matcher \[matcher\] {2} +0\n/);
  assert.match(text, /\n {2}Matcher at: the coin is in my hand\n +50\.0% {2}heads\n +50\.0% {2}tails\n/);
  assert.equal(state.shown.at(-1).options.viewColumn, -2, 'beside the game');
  // the request went to the server (its progress came on the extension's token, above)
  const trace = state.outputs.get('SIDL Language Server Trace').lines.join('\n');
  assert.match(trace, /Sending request 'sidl\/solve/);
  // a server error is shown, no report
  stub.setActive(stub.open('/games/huge.sidl', 'sidl', 'game(huge).\n'));
  state.messages.length = 0;
  state.opened.length = 0;
  await state.commands.get('sidl.solve')();
  assert.deepEqual(state.messages.map((m) => [m.level, m.text]), [['error', 'SIDL: the game cannot be solved: error[E0960]: the extensive form has more than 200000 nodes']]);
  assert.equal(state.opened.length, 0);
});

test("the server's commands are registered, except those the extension contributes itself", async () => {
  assert.equal(await state.commands.get('sidl.fake.other')(), 'executed sidl.fake.other');
  assert.ok(state.commands.has('sidl.checkHiddenInformation'));
  assert.ok(state.commands.has('sidl.solve'));
  assert.ok(state.commands.has('sidl.restartServer'));
});

test('no .sidl editor: the command asks for one', async () => {
  stub.setActive(undefined);
  await check();
  assert.deepEqual(state.messages.map((m) => [m.level, m.text]), [['warning', 'SIDL: open a .sidl game in the editor to check it.']]);
});
