// The bundled extension (dist/extension.js, with a stand-in `vscode` module) and the real server
// bundled beside it (server/sidl-lsp, which scripts/vscode.sh copies from the cargo build): the
// server is found as the bundled one, publishes the engine's diagnostics, and the command
// "SIDL: Check hidden-information consistency" reports a consistent game and a leaking one.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const { stub, extension, extRoot, activate, waitFor } = require('./load.cjs');
const state = stub.state;
const repo = join(extRoot, '..');
const bundled = join(extRoot, 'server', process.platform === 'win32' ? 'sidl-lsp.exe' : 'sidl-lsp');

after(() => extension.deactivate());

const openFile = (rel) => stub.open(join(repo, rel), 'sidl', readFileSync(join(repo, rel), 'utf8'));

test('the bundled server is found and started', async () => {
  assert.ok(existsSync(bundled), `${bundled} is missing: build it (bash scripts/vscode.sh copies it there)`);
  await activate({ 'sidl.server.path': '' });
  const out = state.outputs.get('SIDL Language Server').lines;
  assert.ok(out.some((l) => /^Using sidl-lsp \S+ \(bundled\): /.test(l) && l.endsWith(bundled)), out.join('\n'));
  assert.deepEqual(state.messages.filter((m) => m.level !== 'info'), []);
});

test('diagnostics: a syntax error in an open document, none for a correct game', async () => {
  const bad = stub.open(join(repo, 'scratch', 'bad.sidl'), 'sidl', 'game(bad).\nlegal([main]) :- fact([x]) fact([y]).\n');
  const diags = await waitFor('diagnostics of bad.sidl', () => state.diagnostics.get(bad.uri.toString()));
  const errors = diags.filter((d) => d.severity === 0);
  assert.equal(errors.length, 1, JSON.stringify(diags));
  assert.deepEqual([errors[0].range.start.line, errors[0].range.start.character], [1, 27], JSON.stringify(errors[0]));
  assert.match(errors[0].message, /found 'fact'/);
  const good = openFile('games/nim.sidl');
  const none = await waitFor('diagnostics of nim.sidl', () => state.diagnostics.has(good.uri.toString()) && state.diagnostics.get(good.uri.toString()));
  assert.deepEqual(none.map((d) => d.message), []);
});

test('the check command: nim is consistent, kuhn_leaky leaks with a counterexample', async () => {
  stub.setActive(openFile('games/nim.sidl'));
  state.messages.length = 0;
  await state.commands.get('sidl.checkHiddenInformation')();
  assert.equal(state.messages.length, 1, JSON.stringify(state.messages));
  assert.equal(state.messages[0].level, 'info', state.messages[0].text);
  assert.match(state.messages[0].text, /^SIDL: hidden information is consistent: no leak in all \d+ reachable states\.$/);

  stub.setActive(openFile('tests/analysis/kuhn_leaky.sidl'));
  state.messages.length = 0;
  state.opened.length = 0;
  await state.commands.get('sidl.checkHiddenInformation')();
  assert.equal(state.messages.length, 1, JSON.stringify(state.messages));
  assert.equal(state.messages[0].level, 'warning');
  assert.match(state.messages[0].text, /^SIDL: hidden information leaks to player \[p\d\]/);
  assert.equal(state.opened.length, 1);
  const report = state.opened[0];
  const text = report.getText();
  assert.match(text, /^Hidden-information check \(Def\.1 §11\) of .*kuhn_leaky\.sidl\n/);
  assert.match(text, /\nResult: hidden information leaks to player \[p2\] through switch \[p2\]\.\n/, text);
  assert.match(text, /\n {2}First history:\n {4}chronon 1: nature plays \[deal,/, text);
  // the server's document symbols give the clauses: the switch/2 clauses for [p2] and hidden/2
  const game = readFileSync(join(repo, 'tests/analysis/kuhn_leaky.sidl'), 'utf8').split('\n');
  const lineOf = (start) => game.findIndex((l) => l.startsWith(start)) + 1;
  const links = state.linkProviders.get('sidl-report').provideDocumentLinks(report);
  const targets = links.map((l) => JSON.parse(decodeURIComponent(l.target.query)));
  assert.deepEqual(targets.map(([, line, character]) => `${line + 1}:${character + 1}`), [
    '1:1',
    `${lineOf('switch([P], [P, check])')}:1`,
    `${lineOf('switch([p2], [p2, bet])')}:1`,
    `${lineOf('switch([P], [P, call])')}:1`,
    `${lineOf('switch([P], [P, fold])')}:1`,
    `${lineOf('hidden(')}:1`,
  ], text);
  assert.ok(targets.every(([game]) => game.endsWith('/tests/analysis/kuhn_leaky.sidl')));
});

test('the solve command: Kuhn poker\'s equilibrium, -1/18 for p1, in a report beside the game', async () => {
  stub.setActive(openFile('games/kuhn.sidl'));
  state.messages.length = 0;
  state.opened.length = 0;
  await state.commands.get('sidl.solve')();
  assert.deepEqual(state.messages.map((m) => m.level), ['info'], JSON.stringify(state.messages));
  assert.equal(state.messages[0].text, 'SIDL: kuhn.sidl: values Player 1 -1/18, Player 2 1/18; NashConv 0 (lp).');
  assert.equal(state.opened.length, 1);
  const text = state.opened[0].getText();
  assert.match(text, /\nThe extensive form: 55 nodes \(24 decisions, 1 chance, 30 ends\), 12 information sets, zero-sum\.\n/, text);
  // in kuhn's labels (games/kuhn.sidl); the player's term follows its name
  assert.match(text, /\n {2}Player 1 \[p1\] +-0\.0556 {2}\(exactly -1\/18\)\n/, text);
  assert.match(text, /\n {2}Player 2 at: Player 2 holds the Queen; Player 2 has 1 in the pot; Player 1 has 2 in the pot; Player 2 faces a bet: call or fold\n +33\.3% {2}Player 2 calls {2}\(1\/3\)\n/, text);
});
