// language-configuration.json: comments, brackets and quotes as SIDL writes them, and the regular
// expressions VS Code applies (compiled here as VS Code compiles them: wordPattern with its flags).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ext = join(new URL('.', import.meta.url).pathname, '..', '..');
const conf = JSON.parse(readFileSync(join(ext, 'language-configuration.json'), 'utf8'));

test('comments, brackets and auto-closed quotes', () => {
  assert.equal(conf.comments.lineComment, '%');
  assert.deepEqual(conf.comments.blockComment, ['/*', '*/']);
  assert.deepEqual(conf.brackets, [['(', ')'], ['[', ']'], ['{', '}']]);
  const closes = Object.fromEntries(conf.autoClosingPairs.map((p) => [p.open, p.close]));
  for (const [o, c] of [['(', ')'], ['[', ']'], ['{', '}'], ["'", "'"], ['"', '"'], ['`', '`']]) {
    assert.equal(closes[o], c, o);
  }
});

test('/* is not auto-closed: typing a block comment key by key leaves no stray */', () => {
  // VS Code types over an auto-inserted closing text only when both the pair's open and close are
  // one character (autoClosingPairsCloseSingleChar in its cursor code). With `/*` closed by " */",
  // typing `/* note */` leaves `/* note */ */`; closed by "*/", `/* note */*/`. A stray `*/` is a
  // syntax error (E0010). The code-server test types it in a real editor.
  assert.equal(conf.autoClosingPairs.find((p) => p.open.startsWith('/*')), undefined);
  for (const p of conf.autoClosingPairs) {
    assert.equal(p.open.length, 1, `${p.open} (a longer opening is not typed over)`);
    assert.equal(p.close.length, 1, `${p.close} (a longer closing is not typed over)`);
  }
  // toggling a block comment still works: it reads `comments.blockComment`
  assert.deepEqual(conf.comments.blockComment, ['/*', '*/']);
});

test('a word is a name, a variable or a number', () => {
  const w = new RegExp(conf.wordPattern.pattern, conf.wordPattern.flags + 'g');
  assert.deepEqual('fact([Über_1, été]), N1 is 1.5e3 - 2'.match(w), ['fact', 'Über_1', 'été', 'N1', 'is', '1.5e3', '2']);
});

test('indent after :- and back to the margin after the clause end', () => {
  const inc = new RegExp(conf.indentationRules.increaseIndentPattern);
  assert.ok(inc.test('do([T]) :-'));
  assert.ok(inc.test('do([T]) :-   % the move'));
  assert.ok(!inc.test('do([T]) :- fact([T]).'));
  assert.ok(!inc.test('game(nim).'));
  const outdent = conf.onEnterRules.find((r) => r.action.indent === 'outdent');
  const end = new RegExp(outdent.beforeText);
  assert.ok(end.test('    create([B, NI]).'));
  assert.ok(end.test('    create([B, NI]).  % done'));
  assert.ok(!end.test('    fact([A, I]),'));
  assert.ok(!end.test('game(nim).'), 'a clause at the margin stays there');
});
