// Unit tests of src/report.ts (compiled to out/): validating the answer of
// sidl/checkHiddenInformation and the texts shown for it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const r = require('../../out/report.js');

const consistent = { consistent: true, complete: true, states: 42, message: 'No leak.', counterexample: null };
const leak = {
  consistent: false,
  complete: false,
  states: 7,
  message: 'owned/2 depends on a hidden fact.',
  counterexample: {
    player: '[bob]',
    description: 'the owner of [main] shows the hidden fact [card, alice, king]',
    steps: ['[deal] -> [king]', '[alice] -> [bet]'],
  },
};

test('the parameters carry the document, a positive integer budget and the progress token', () => {
  assert.deepEqual(r.checkParams('file:///g.sidl', 500, 't1'), {
    textDocument: { uri: 'file:///g.sidl' },
    maxStates: 500,
    workDoneToken: 't1',
  });
  for (const bad of [null, undefined, 0, -3, 2.5, '10']) {
    assert.deepEqual(r.checkParams('file:///g.sidl', bad), { textDocument: { uri: 'file:///g.sidl' } }, String(bad));
  }
});

test('a well-formed answer is accepted as it is', () => {
  assert.deepEqual(r.parseCheckResult(consistent), consistent);
  assert.deepEqual(r.parseCheckResult(leak), leak);
  assert.deepEqual(r.parseCheckResult({ ...consistent, counterexample: undefined }), consistent);
});

test('a malformed answer is an error naming what is wrong', () => {
  assert.match(r.parseCheckResult(null).error, /not a check result/);
  assert.match(r.parseCheckResult({ ...consistent, states: '42' }).error, /number `states`/);
  assert.match(r.parseCheckResult({ ...consistent, complete: undefined }).error, /boolean `complete`/);
  assert.match(r.parseCheckResult({ ...leak, counterexample: { ...leak.counterexample, steps: [1] } }).error, /steps/);
  assert.match(r.parseCheckResult({ ...leak, counterexample: 'x' }).error, /not an object/);
});

test('consistent and complete: information; consistent but budget reached: warning', () => {
  const s = r.summary(consistent);
  assert.equal(s.level, 'info');
  assert.match(s.text, /consistent \(all 42 reachable states explored\)/);
  assert.match(s.text, /No leak\./);
  const partial = r.summary({ ...consistent, complete: false, states: 1 });
  assert.equal(partial.level, 'warning');
  assert.match(partial.text, /stopped after 1 state:/);
});

test('a counterexample: a warning naming the player, and a Markdown report with numbered steps', () => {
  const s = r.summary(leak);
  assert.equal(s.level, 'warning');
  assert.match(s.text, /leaks to player \[bob\]: the owner of \[main\]/);
  const md = r.counterexampleMarkdown('games/kuhn.sidl', leak);
  assert.match(md, /^# Hidden-information counterexample/);
  assert.match(md, /Game: `games\/kuhn\.sidl`/);
  assert.match(md, /\*\*Player:\*\* `\[bob\]`/);
  assert.match(md, /\n1\. `\[deal\] -> \[king\]`\n2\. `\[alice\] -> \[bet\]`\n/);
  assert.match(md, /States explored: 7 \(budget reached\)/);
  const atStart = r.counterexampleMarkdown('g.sidl', { ...leak, counterexample: { ...leak.counterexample, steps: [] } });
  assert.match(atStart, /initial state already shows it/);
});

test('inconsistent without a counterexample is still a warning', () => {
  const s = r.summary({ ...consistent, consistent: false, message: 'Static check failed.' });
  assert.equal(s.level, 'warning');
  assert.match(s.text, /not consistent/);
});
